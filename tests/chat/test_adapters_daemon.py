"""Both chat adapters inside one running daemon, against loopback Discord and Telegram."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamd.chat.adapters import Backoff
from dreamd.daemon.main import Daemon
from dreamd.host.health import HealthEvent
from dreamd.host.runtime import load_runtime
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.host import make_host
from tests.fakes.telegram_api import FakeTelegram

APP_OWNER, DISCORD_OWNER, TELEGRAM_OWNER, STRANGER = 11, 12, 21, 99
ADAPTERS = """
[agents.heartbeat]
every = "0m"

[adapters.discord]
enabled = true
token_env = "DREAMD_TEST_DISCORD"
owners = [{discord_owner}]
notify = true

[adapters.telegram]
enabled = true
token_env = "DREAMD_TEST_TELEGRAM"
owners = [{telegram_owner}]
notify = true
base_url = "{base_url}"
"""
REFUSAL = "Only the bot's owners can turn dreaming off."


async def _cli_status() -> dict[str, Any]:
    """`dreamd --json status` in a subprocess: it asks the running daemon over its socket."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "dreamd",
        "--json",
        "status",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode in (0, 4, 5, 6), err.decode()  # the state's exit code
    document: dict[str, Any] = json.loads(out)
    return document


async def _until(predicate: Callable[[], bool]) -> None:
    while not predicate():
        await asyncio.sleep(0.01)


async def _discord(fake: FakeDiscord, user: int, *path: str, **options: str) -> str:
    token = await fake.interact(user, *path, options=options or None)
    content = (await fake.reply(token)).content
    assert content is not None
    return content


async def _telegram(fake: FakeTelegram, user: int, text: str) -> str:
    await fake.say(user, text)
    return await fake.answer(user)


async def test_both_platforms_in_one_daemon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both platforms in one daemon meet the issue's done-when list, end to end."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    async with FakeDiscord(APP_OWNER).serve() as discord, FakeTelegram().serve() as telegram:
        discord.patch(monkeypatch)
        monkeypatch.setenv("DREAMD_TEST_DISCORD", discord.token)
        monkeypatch.setenv("DREAMD_TEST_TELEGRAM", telegram.token)
        extra = ADAPTERS.format(
            discord_owner=DISCORD_OWNER, telegram_owner=TELEGRAM_OWNER, base_url=telegram.base_url
        )
        config, _, note = make_host(tmp_path, extra)
        daemon = Daemon(load_runtime(config))
        ready = asyncio.Event()
        running = asyncio.create_task(daemon.run(ready=ready))
        try:
            await ready.wait()
            await _exercise(daemon, discord, telegram, note)
        finally:
            daemon.request_stop()
            assert await running == 0


async def _exercise(
    daemon: Daemon, discord: FakeDiscord, telegram: FakeTelegram, note: str
) -> None:
    """Everything the done-when list asks for, from both platforms, against one daemon."""
    await discord.identified.wait()
    await telegram.polling.wait()

    # owners hear that sweeps are blocked (heartbeat off) once the adapters are up
    blocked = "dreamd on {host}: blocked: the heartbeat of agent 'main' is off"
    host = daemon.adapters.host
    assert (await telegram.answer(TELEGRAM_OWNER)).startswith(blocked.format(host=host))
    dms = {await discord.dms.get() for _ in range(2)}
    assert {owner for owner, _ in dms} == {APP_OWNER, DISCORD_OWNER}

    # strangers see the reduced status, no memory, and may not switch or sweep
    status = await _discord(discord, STRANGER, "dreaming", "status")
    assert status.startswith("Dreaming status:\n- enabled: on\n- state: blocked\n- next run: ")
    assert (await _telegram(telegram, STRANGER, "/dreaming help")).startswith(
        "Usage: /dreaming status\n\n"
    )
    assert await _discord(discord, STRANGER, "dreaming", "off") == REFUSAL
    assert await _telegram(telegram, STRANGER, "/dreaming off") == REFUSAL
    assert await _telegram(telegram, STRANGER, "/dream now") == (
        "Only the bot's owners can start a sweep."
    )
    for answer in (
        await _discord(discord, STRANGER, "dream", "search", query="billing host"),
        await _telegram(telegram, STRANGER, "/dream search billing host"),
    ):
        assert answer == "Only this bot's owners and readers can search its memory."

    # an owner turns it off on Discord: persisted, and `dreamd status` says so
    off = await _discord(discord, APP_OWNER, "dreaming", "off")
    assert off.startswith("Dreaming disabled.")
    document = await _cli_status()
    assert (document["enabled"], document["enabledSource"]) == (False, "override")
    assert {n: s["state"] for n, s in document["daemon"]["adapters"].items()} == {
        "discord": "running",
        "telegram": "running",
    }
    assert (await _telegram(telegram, TELEGRAM_OWNER, "/dreaming on")).startswith(
        "Dreaming enabled."
    )
    assert (await _cli_status())["enabled"] is True
    # dreaming is on again but still blocked: owners are told again
    assert (await telegram.answer(TELEGRAM_OWNER)).startswith(blocked.format(host=host))
    assert {owner for owner, _ in {await discord.dms.get() for _ in range(2)}} == {
        APP_OWNER,
        DISCORD_OWNER,
    }

    # search answers owners with cited hits on both platforms
    cited = f"1. {note}#L3-L3 (score "
    assert cited in await _discord(discord, APP_OWNER, "dream", "search", query="billing host")
    assert cited in await _telegram(telegram, TELEGRAM_OWNER, "/dream search billing host")

    # a health event reaches the owners who opted in
    daemon.publish(HealthEvent("failed", "/ws", "last sweep failed: disk full", "T"))
    failed = f"dreamd on {host}: failed in /ws: last sweep failed: disk full (T)"
    assert await telegram.answer(TELEGRAM_OWNER) == failed
    assert {await discord.dms.get() for _ in range(2)} == {
        (APP_OWNER, failed),
        (DISCORD_OWNER, failed),
    }

    # the Bot API starts answering 409: reported, retried, recovered; the rest goes on
    daemon.adapters.backoff = Backoff(first=0.05)
    await telegram.start_conflict()
    await _until(lambda: daemon.adapters.states["telegram"].state == "retrying")
    document = await _cli_status()
    error = document["daemon"]["adapters"]["telegram"]["error"]
    assert error.startswith("ConflictError: 409 Conflict: another process polls this bot")
    assert telegram.token not in json.dumps(document)
    assert (await _discord(discord, APP_OWNER, "dream", "status")).startswith("Dream status:")
    telegram.polling.clear()
    telegram.conflict = False
    await telegram.polling.wait()
    await _until(lambda: daemon.adapters.states["telegram"].state == "running")
    assert (await _telegram(telegram, STRANGER, "/dreaming status")).startswith("Dreaming status:")
