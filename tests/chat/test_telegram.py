"""The Telegram adapter: real python-telegram-bot polling a loopback Bot API."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.chat.access import grants_of
from dreamd.chat.adapters import Adapters
from dreamd.chat.router import Invocation, Reply, Router
from dreamd.chat.text import GROUP_REFUSAL, STRANGER_REFUSAL
from dreamd.config import AdaptersConfig, TelegramConfig
from dreamd.daemon.backend import DaemonService
from dreamd.daemon.main import Daemon
from dreamd.host.state import effective_enabled
from dreamd_telegram.bot import ConflictError, TelegramAdapter
from tests.fakes.clock import FakeClock
from tests.fakes.host import make_daemon, make_host
from tests.fakes.telegram_api import USERNAME, FakeTelegram

KEY = "sk-" + "live9Qz" * 5  # an API key written into a note, as careless notes do

OWNER, STRANGER, GROUP_ADMIN, READER, GROUP = 11, 13, 14, 15, -100_500
MEMORY_TEXTS = (
    "/dream search billing host",
    "/dream explain billing",
    "/dream explain",
    "/dream report",
    "/dream rag status",
    "/dream status",
)


@pytest.fixture(autouse=True)
def loopback_without_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Proxies point nowhere, and loopback bypasses them (httpx honours these variables)."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@dataclass
class Bot:
    """A polling adapter, its fake Bot API and the host it answers for."""

    fake: FakeTelegram
    adapter: TelegramAdapter
    daemon: Daemon
    note: str
    task: asyncio.Task[None]

    async def ask(self, user: int, text: str, **where: int | str) -> str:
        """Say ``text`` and return the bot's answer in that chat."""
        await self.fake.say(user, text, **where)  # type: ignore[arg-type]
        return await self.fake.answer(int(where.get("chat_id", user)))


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Bot]:
    """The adapter polling the fake, routing to a real (not running) daemon's service."""
    config, root, note = make_host(tmp_path, f"\n[adapters.telegram]\nreaders = [{READER}]\n")
    daemon = make_daemon(config)
    with (root / note).open("a", encoding="utf-8") as handle:
        handle.write(f"- Billing host access uses the key {KEY} for now.\n")
    async with FakeTelegram().serve() as fake:
        settings = TelegramConfig(
            enabled=True,
            token_env="T",
            owners=frozenset({OWNER}),
            chat_admins=True,
            notify=True,
            base_url=fake.base_url,
        )
        adapter = TelegramAdapter(settings, fake.token)
        router = Router(DaemonService(daemon), grants=lambda: grants_of(daemon.runtime.config))
        task = asyncio.create_task(adapter.run(router.dispatch))
        await adapter.ready.wait()
        yield Bot(fake, adapter, daemon, note, task)
        if not task.done():
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
    daemon.workers.shutdown()


async def test_stranger_gets_no_memory_in_private_or_in_a_group(bot: Bot) -> None:
    """A stranger's memory commands get one sentence, in a private chat and in a group."""
    group = {"chat_id": GROUP, "chat_type": "supergroup"}
    for where in ({}, group):
        for text in MEMORY_TEXTS:
            assert await bot.ask(STRANGER, text, **where) == STRANGER_REFUSAL, (text, where)
        status = await bot.ask(STRANGER, "/dreaming status", **where)
        assert status.startswith("Dreaming status:\n- enabled: on\n- state: ok\n- next run: ")
        assert await bot.ask(STRANGER, "/dreaming off", **where) == (
            "Only the bot's owners can turn dreaming off."
        )
        assert await bot.ask(STRANGER, "/dream now", **where) == (
            "Only the bot's owners can start a sweep."
        )
    assert effective_enabled(True).source == "config"


async def test_start_and_help_are_answered(bot: Bot) -> None:
    """/start and /help answer anyone; the menu offers /help too."""
    hello = await bot.ask(STRANGER, "/start")
    assert hello.startswith("I consolidate the memory of this host's agents every night")
    assert (await bot.ask(STRANGER, "/help")) == hello
    assert [c["command"] for c in bot.fake.commands] == ["dreaming", "dream", "help"]


async def test_owner_in_a_group_gets_nothing_of_memory_posted(bot: Bot) -> None:
    """In a group, an owner's memory commands ask for a private chat; off says what changed."""
    group = {"chat_id": GROUP, "chat_type": "group"}
    for text in MEMORY_TEXTS:
        answer = await bot.ask(OWNER, text, **group)
        assert answer == GROUP_REFUSAL, text
    off = await bot.ask(OWNER, "/dreaming off", **group)
    assert off == "Dreaming disabled."
    assert effective_enabled(True).enabled is False
    assert bot.fake.sent[OWNER].empty()  # nothing was sent anywhere else either


async def test_owner_turns_dreaming_off_and_on(bot: Bot) -> None:
    """A configured owner's off and on persist as the host override."""
    off = await bot.ask(OWNER, "/dreaming off")
    assert off.startswith("Dreaming disabled.\n\nDreaming status:\n- enabled: off (UTC)")
    assert effective_enabled(True).enabled is False
    assert (await bot.ask(OWNER, "/dreaming on")).startswith("Dreaming enabled.")
    assert effective_enabled(False).enabled is True


async def test_reader_gets_redacted_results_in_private(bot: Bot) -> None:
    """A reader searches in a private chat; the key in the note is masked, no path is shown."""
    answer = await bot.ask(READER, f"/dream@{USERNAME} search billing host key")
    assert answer.startswith('Results for "billing host key":\n')
    assert f"{bot.note}#L" in answer
    assert KEY not in answer
    assert "/tmp" not in answer
    assert await bot.ask(READER, "/dreaming off") == "Only the bot's owners can turn dreaming off."


async def test_commands_for_other_bots_are_ignored(bot: Bot) -> None:
    """/cmd@otherbot gets no answer; /cmd@thisbot does."""
    await bot.fake.say(OWNER, "/dreaming@other_bot status")
    answer = await bot.ask(OWNER, f"/dream@{USERNAME} search billing host")
    assert answer.startswith('Results for "billing host":\n')
    assert f". {bot.note}#L3-L3 (score " in answer
    assert bot.fake.sent[OWNER].empty()


async def test_group_admins_count_as_owners_in_their_group(bot: Bot) -> None:
    """With chat_admins, a supergroup administrator may turn dreaming off; a member may not."""
    bot.fake.admins.add((GROUP, GROUP_ADMIN))
    where = {"chat_id": GROUP, "chat_type": "supergroup"}
    refused = await bot.ask(STRANGER, "/dreaming off", **where)
    assert refused == "Only the bot's owners can turn dreaming off."
    allowed = await bot.ask(GROUP_ADMIN, "/dreaming off", **where)
    assert allowed == "Dreaming disabled."
    assert bot.fake.calls.count("getChatMember") == 2
    await bot.ask(GROUP_ADMIN, "/dreaming status", **where)
    assert bot.fake.calls.count("getChatMember") == 2  # only asked for owner-only commands


async def test_notices_reach_owners(bot: Bot) -> None:
    """notify() messages every configured owner's private chat."""
    await bot.adapter.notify("dreamd on h: degraded in /ws: diary (T)")
    assert await bot.fake.answer(OWNER) == "dreamd on h: degraded in /ws: diary (T)"


async def test_conflict_ends_polling_with_an_error(bot: Bot) -> None:
    """A 409 from getUpdates (another poller) ends run() so the daemon can report and retry."""
    await bot.fake.polling.wait()
    await bot.fake.start_conflict()
    with pytest.raises(ConflictError, match="409 Conflict: another process polls this bot"):
        await bot.task
    assert bot.fake.calls[-1] == "getUpdates"


async def test_rejected_token_is_retried_and_never_shown(caplog: pytest.LogCaptureFixture) -> None:
    """A token the server rejects is a retrying adapter; status and logs never show it."""
    async with FakeTelegram().serve() as fake:
        wrong = "700000001:wrong-token-never-shown"
        settings = TelegramConfig(
            enabled=True, token_env="DREAMD_TEST_TELEGRAM", base_url=fake.base_url
        )
        clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
        slept = asyncio.Event()

        async def sleep(seconds: float) -> None:
            slept.set()
            await asyncio.Event().wait()

        async def unused(invocation: Invocation) -> Reply:
            raise AssertionError("no command can arrive before getMe succeeds")

        clock.sleep = sleep  # type: ignore[method-assign]
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("DREAMD_TEST_TELEGRAM", wrong)
            adapters = Adapters(AdaptersConfig(telegram=settings), clock=clock)
            task = asyncio.create_task(adapters.run(unused, asyncio.Queue()))
            await slept.wait()
            state = adapters.statistics()["telegram"]
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
    assert state["state"] == "retrying"
    assert state["error"] == "InvalidToken: The token `[token]` was rejected by the server."
    assert wrong not in caplog.text
