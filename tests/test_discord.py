"""The Discord adapter: real discord.py against a loopback Discord (REST and gateway)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.chat import Invocation, Reply, Router
from dreamd.chat_adapters import Adapters
from dreamd.config import AdaptersConfig, DiscordConfig
from dreamd.daemon import Daemon
from dreamd.hoststate import effective_enabled
from dreamd.service import DaemonService
from dreamd_discord.bot import DiscordAdapter
from tests.fakes.clock import FakeClock
from tests.fakes.discord_api import FakeDiscord, Sent
from tests.fakes.host import make_daemon, make_host

APP_OWNER, LISTED_OWNER, STRANGER, MODERATOR = 11, 12, 13, 14
ADMIN_ROLE = 555
REFUSAL = (
    "/dreaming on|off requires owner status for channel callers "
    "or operator.admin for gateway clients."
)


@dataclass
class Bot:
    """A running adapter, its fake Discord and the host it answers for."""

    fake: FakeDiscord
    adapter: DiscordAdapter
    daemon: Daemon
    note: str


async def _start(fake: FakeDiscord, router: Router) -> tuple[DiscordAdapter, asyncio.Task[None]]:
    settings = DiscordConfig(
        enabled=True, token_env="T", owners=frozenset({LISTED_OWNER}), admin_role=ADMIN_ROLE
    )
    adapter = DiscordAdapter(settings, fake.token)
    task = asyncio.create_task(adapter.run(router.dispatch))
    await adapter.ready.wait()
    return adapter, task


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Bot]:
    """The adapter connected to the fake, routing to a real (not running) daemon's service."""
    config, _, note = make_host(tmp_path)
    daemon = make_daemon(config)
    async with FakeDiscord(owner_id=APP_OWNER).serve() as fake:
        fake.patch(monkeypatch)
        adapter, task = await _start(fake, Router(DaemonService(daemon)))
        yield Bot(fake, adapter, daemon, note)
        await _stop(task)
    daemon.workers.shutdown()


async def _ask(bot: Bot, user: int, *path: str, **options: str) -> Sent:
    token = await bot.fake.interact(user, *path, options=options or None)
    return await bot.fake.reply(token)


async def test_stranger_gets_status_and_is_refused_on_off(bot: Bot) -> None:
    """Status and help are ephemeral answers; on/off is refused with the spec's words."""
    status = await _ask(bot, STRANGER, "dreaming", "status")
    assert (status.type, status.ephemeral) == (4, True)
    assert status.content is not None
    assert status.content.startswith("Dreaming status:\n- enabled: on (UTC)")
    help_ = await _ask(bot, STRANGER, "dreaming", "help")
    assert help_.content is not None
    assert help_.content.startswith("Usage: /dreaming status\n\nDreaming status:")
    for word in ("on", "off"):
        assert await _ask(bot, STRANGER, "dreaming", word) == Sent(4, REFUSAL, True)
    now = await _ask(bot, STRANGER, "dream", "now")
    assert now.content is not None
    assert now.content.startswith("/dream now requires owner status")
    assert effective_enabled(True).source == "config"


async def test_owners_turn_dreaming_off_and_on(bot: Bot) -> None:
    """The app owner, a listed owner and an admin-role member may; the reply is public."""
    off = await _ask(bot, APP_OWNER, "dreaming", "off")
    assert (off.type, off.ephemeral) == (4, False)
    assert off.content is not None
    assert off.content.startswith("Dreaming disabled.\n\nDreaming status:\n- enabled: off")
    assert effective_enabled(True).enabled is False
    on = await _ask(bot, LISTED_OWNER, "dreaming", "on")
    assert on.content is not None
    assert on.content.startswith("Dreaming enabled.")
    token = await bot.fake.interact(MODERATOR, "dreaming", "off", roles=(ADMIN_ROLE,))
    assert (await bot.fake.reply(token)).content == off.content
    token = await bot.fake.interact(MODERATOR, "dreaming", "on", roles=(ADMIN_ROLE + 1,))
    assert (await bot.fake.reply(token)).content == REFUSAL
    assert effective_enabled(True).enabled is False


async def test_search_is_deferred_then_answered_with_citations(bot: Bot) -> None:
    """/dream search defers (ephemeral, thinking) and follows up with path#Lx-Ly hits."""
    token = await bot.fake.interact(STRANGER, "dream", "search", options={"query": "billing host"})
    deferred = await bot.fake.replies[token].get()
    assert (deferred.type, deferred.ephemeral) == (5, True)
    answer = await bot.fake.reply(token)
    assert answer.type == 0
    assert answer.content is not None
    assert f"1. {bot.note}#L3-L3 (score " in answer.content
    rag = await _ask(bot, STRANGER, "dream", "rag", "status")
    assert rag.content is not None
    assert rag.content.startswith("RAG status for ")


async def test_explain_autocompletes_selectors(bot: Bot) -> None:
    """Typing an explain selector offers the matching candidates' keys."""
    token = await bot.fake.interact(
        STRANGER, "dream", "explain", options={"selector": "billing"}, autocomplete=True
    )
    key = f"memory:{bot.note}:3:3"
    assert await bot.fake.reply(token) == Sent(8, None, False, [{"name": key, "value": key}])


async def test_commands_are_synced_once_with_their_groups(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sync carries /dreaming and /dream with subcommands; an unchanged restart skips it."""
    (commands,) = bot.fake.synced
    shape = {c["name"]: [(o["name"], o["type"]) for o in c["options"]] for c in commands}
    assert shape == {
        "dreaming": [("status", 1), ("on", 1), ("off", 1), ("help", 1)],
        "dream": [
            ("rag", 2),
            ("status", 1),
            ("search", 1),
            ("report", 1),
            ("explain", 1),
            ("now", 1),
        ],
    }
    dream = {o["name"]: o for o in commands[1]["options"]}
    assert dream["search"]["options"][0] | {"description": ""} == {
        "name": "query",
        "description": "",
        "type": 3,
        "required": True,
    }
    assert dream["explain"]["options"][0]["autocomplete"] is True
    _, task = await _start(bot.fake, Router(DaemonService(bot.daemon)))
    await _stop(task)
    assert len(bot.fake.synced) == 1


async def test_notices_go_to_owners_by_direct_message(bot: Bot) -> None:
    """notify() DMs every owner: the listed ones and the application's owner."""
    await bot.adapter.notify("dreamd on h: failed in /ws: boom (T)")
    received = {await bot.fake.dms.get() for _ in range(2)}
    assert received == {
        (APP_OWNER, "dreamd on h: failed in /ws: boom (T)"),
        (LISTED_OWNER, "dreamd on h: failed in /ws: boom (T)"),
    }


async def test_rejected_token_is_retried_and_never_shown(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A 401 at login is a retrying adapter with the error in status and no token anywhere."""
    async with FakeDiscord(owner_id=APP_OWNER).serve() as fake:
        fake.patch(monkeypatch)
        fake.reject_login = True
        monkeypatch.setenv("DREAMD_TEST_DISCORD", fake.token)
        clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
        config = AdaptersConfig(
            discord=DiscordConfig(enabled=True, token_env="DREAMD_TEST_DISCORD")
        )
        adapters = Adapters(config, clock=clock)
        slept = asyncio.Event()

        async def sleep(seconds: float) -> None:
            slept.set()
            await asyncio.Event().wait()

        async def unused(invocation: Invocation) -> Reply:
            raise AssertionError("no command can arrive before login")

        clock.sleep = sleep  # type: ignore[method-assign]
        task = asyncio.create_task(adapters.run(unused, asyncio.Queue()))
        await slept.wait()
        state = adapters.statistics()["discord"]
        await _stop(task)
    assert (state["state"], state["failures"]) == ("retrying", 1)
    assert state["error"] == "LoginFailure: Improper token has been passed."
    assert fake.token not in caplog.text
