"""The Telegram adapter: real python-telegram-bot polling a loopback Bot API."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.chat import Invocation, Reply, Router
from dreamd.chat_adapters import Adapters
from dreamd.config import AdaptersConfig, TelegramConfig
from dreamd.daemon import Daemon
from dreamd.hoststate import effective_enabled
from dreamd.service import DaemonService
from dreamd_telegram.bot import ConflictError, TelegramAdapter
from tests.fakes.clock import FakeClock
from tests.fakes.host import make_daemon, make_host
from tests.fakes.telegram_api import USERNAME, FakeTelegram

OWNER, STRANGER, GROUP_ADMIN, GROUP = 11, 13, 14, -100_500
REFUSAL = (
    "/dreaming on|off requires owner status for channel callers "
    "or operator.admin for gateway clients."
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
    config, _, note = make_host(tmp_path)
    daemon = make_daemon(config)
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
        task = asyncio.create_task(adapter.run(Router(DaemonService(daemon)).dispatch))
        await adapter.ready.wait()
        yield Bot(fake, adapter, daemon, note, task)
        if not task.done():
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
    daemon.workers.shutdown()


async def test_stranger_gets_status_and_help_but_not_on_off_or_now(bot: Bot) -> None:
    """Read-only commands answer; on/off and now are refused with the spec's words."""
    status = await bot.ask(STRANGER, "/dreaming status")
    assert status.startswith("Dreaming status:\n- enabled: on (UTC)\n")
    assert (await bot.ask(STRANGER, "/dreaming")).startswith("Usage: /dreaming status\n\n")
    assert await bot.ask(STRANGER, "/dreaming off") == REFUSAL
    now = await bot.ask(STRANGER, "/dream now")
    assert now.startswith("/dream now requires owner status")
    assert effective_enabled(True).source == "config"


async def test_owner_turns_dreaming_off_and_on(bot: Bot) -> None:
    """A configured owner's off and on persist as the host override."""
    off = await bot.ask(OWNER, "/dreaming off")
    assert off.startswith("Dreaming disabled.\n\nDreaming status:\n- enabled: off (UTC)")
    assert effective_enabled(True).enabled is False
    assert (await bot.ask(OWNER, "/dreaming on")).startswith("Dreaming enabled.")
    assert effective_enabled(False).enabled is True


async def test_commands_for_other_bots_are_ignored(bot: Bot) -> None:
    """/cmd@otherbot gets no answer; /cmd@thisbot does; the menu lists both commands."""
    await bot.fake.say(STRANGER, "/dreaming@other_bot status")
    answer = await bot.ask(STRANGER, f"/dream@{USERNAME} search billing host")
    assert answer.startswith('Results for "billing host":\n')
    assert f"1. {bot.note}#L3-L3 (score " in answer
    assert bot.fake.sent[STRANGER].empty()
    assert [c["command"] for c in bot.fake.commands] == ["dreaming", "dream"]


async def test_group_admins_count_as_owners_in_their_group(bot: Bot) -> None:
    """With chat_admins, a supergroup administrator may turn dreaming off; a member may not."""
    bot.fake.admins.add((GROUP, GROUP_ADMIN))
    where = {"chat_id": GROUP, "chat_type": "supergroup"}
    refused = await bot.ask(STRANGER, "/dreaming off", **where)
    assert refused == REFUSAL
    allowed = await bot.ask(GROUP_ADMIN, "/dreaming off", **where)
    assert allowed.startswith("Dreaming disabled.")
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
