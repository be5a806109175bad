"""The Discord adapter: real discord.py against a loopback Discord (REST and gateway)."""

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
from dreamd.chat.text import STRANGER_REFUSAL
from dreamd.config import AdaptersConfig, DiscordConfig
from dreamd.daemon.backend import DaemonService
from dreamd.daemon.main import Daemon
from dreamd.host.state import effective_enabled
from dreamd_discord.bot import DiscordAdapter
from tests.fakes.clock import FakeClock
from tests.fakes.discord_api import FakeDiscord, Sent
from tests.fakes.host import make_daemon, make_host

APP_OWNER, LISTED_OWNER, STRANGER, MODERATOR, READER = 11, 12, 13, 14, 15
ADMIN_ROLE = 555
OFF_REFUSAL = "Only the bot's owners can turn dreaming off."
ON_REFUSAL = "Only the bot's owners can turn dreaming on."
KEY = "xoxb-" + "20483" * 4 + "-abcdefABCDEF"  # a Slack bot token written into a note


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
    config, root, note = make_host(tmp_path, f"\n[adapters.discord]\nreaders = [{READER}]\n")
    with (root / note).open("a", encoding="utf-8") as handle:
        handle.write(f"- The billing host alerts post with {KEY} to the ops channel.\n")
    daemon = make_daemon(config)
    router = Router(DaemonService(daemon), grants=lambda: grants_of(daemon.runtime.config))
    async with FakeDiscord(owner_id=APP_OWNER).serve() as fake:
        fake.patch(monkeypatch)
        adapter, task = await _start(fake, router)
        yield Bot(fake, adapter, daemon, note)
        await _stop(task)
    daemon.workers.shutdown()


async def _ask(bot: Bot, user: int, *path: str, **options: str) -> Sent:
    token = await bot.fake.interact(user, *path, options=options or None)
    return await bot.fake.reply(token)


async def test_stranger_gets_reduced_status_and_no_memory(bot: Bot) -> None:
    """Status is reduced; memory commands and on/off get one ephemeral sentence, guild or DM."""
    for dm in (False, True):
        token = await bot.fake.interact(STRANGER, "dreaming", "status", dm=dm)
        status = await bot.fake.reply(token)
        assert (status.type, status.ephemeral) == (4, True)
        assert status.content is not None
        assert status.content.startswith("Dreaming status:\n- enabled: on\n- state: ok\n")
        for path, options in (
            (("search",), {"query": "billing host"}),
            (("explain",), {"selector": "billing"}),
            (("report",), {}),
            (("rag", "status"), {}),
            (("status",), {}),
        ):
            token = await bot.fake.interact(
                STRANGER, "dream", *path, options=options or None, dm=dm
            )
            answer = await bot.fake.reply(token)
            assert answer.content == STRANGER_REFUSAL, path
            assert answer.ephemeral is True
        token = await bot.fake.interact(STRANGER, "dreaming", "off", dm=dm)
        assert await bot.fake.reply(token) == Sent(4, OFF_REFUSAL, True)
    now = await _ask(bot, STRANGER, "dream", "now")
    assert now.content == "Only the bot's owners can start a sweep."
    assert effective_enabled(True).source == "config"


async def test_owners_turn_dreaming_off_and_on(bot: Bot) -> None:
    """The app owner, a listed owner and an admin-role member may; the guild sees what changed."""
    off = await _ask(bot, APP_OWNER, "dreaming", "off")
    assert off == Sent(4, "Dreaming disabled.", False)
    assert effective_enabled(True).enabled is False
    on = await _ask(bot, LISTED_OWNER, "dreaming", "on")
    assert on == Sent(4, "Dreaming enabled.", False)
    token = await bot.fake.interact(MODERATOR, "dreaming", "off", roles=(ADMIN_ROLE,))
    assert (await bot.fake.reply(token)).content == "Dreaming disabled."
    token = await bot.fake.interact(MODERATOR, "dreaming", "on", roles=(ADMIN_ROLE + 1,))
    assert (await bot.fake.reply(token)).content == ON_REFUSAL
    assert effective_enabled(True).enabled is False
    token = await bot.fake.interact(APP_OWNER, "dreaming", "on", dm=True)
    in_private = await bot.fake.reply(token)
    assert in_private.content is not None
    assert in_private.content.startswith("Dreaming enabled.\n\nDreaming status:\n- enabled: on")


async def test_owner_search_in_a_guild_is_ephemeral_and_redacted(bot: Bot) -> None:
    """An owner's search defers ephemerally and follows up privately; the token is masked."""
    token = await bot.fake.interact(APP_OWNER, "dream", "search", options={"query": "billing host"})
    deferred = await bot.fake.replies[token].get()
    assert (deferred.type, deferred.ephemeral) == (5, True)
    answer = await bot.fake.reply(token)
    assert (answer.type, answer.ephemeral) == (0, True)
    assert answer.content is not None
    assert f"{bot.note}#L3-L3 (score " in answer.content
    assert KEY not in answer.content
    assert "xoxb-***" in answer.content
    assert "/tmp" not in answer.content
    rag = await _ask(bot, LISTED_OWNER, "dream", "rag", "status")
    assert (rag.content or "").startswith("RAG status for main\n")
    assert rag.ephemeral is True


async def test_reader_reads_but_never_toggles(bot: Bot) -> None:
    """A configured reader gets ephemeral results and is refused on/off and now."""
    token = await bot.fake.interact(READER, "dream", "search", options={"query": "postgres db-02"})
    answer = await bot.fake.reply(token)
    assert answer.ephemeral is True
    assert "Postgres 16 on host db-02" in (answer.content or "")
    assert (await _ask(bot, READER, "dreaming", "off")) == Sent(4, OFF_REFUSAL, True)
    assert (await _ask(bot, READER, "dream", "now")).content == (
        "Only the bot's owners can start a sweep."
    )


async def test_explain_autocompletes_selectors_for_readers_only(bot: Bot) -> None:
    """Typing an explain selector offers the candidates' keys to readers, nothing to strangers."""
    key = f"memory:{bot.note}:3:3"
    token = await bot.fake.interact(
        READER, "dream", "explain", options={"selector": "billing"}, autocomplete=True
    )
    assert await bot.fake.reply(token) == Sent(8, None, False, [{"name": key, "value": key}])
    token = await bot.fake.interact(
        STRANGER, "dream", "explain", options={"selector": "billing"}, autocomplete=True
    )
    assert await bot.fake.reply(token) == Sent(8, None, False, [])


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
            ("about", 1),
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
