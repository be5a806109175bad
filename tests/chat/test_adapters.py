"""Running chat adapters: tokens, backoff, state in status, owner notices, no token in logs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import dreamd_discord
import dreamd_telegram
from dreamd.chat.adapters import Adapters, AdapterUnavailableError, load_factory, read_token
from dreamd.chat.notify import MASK, RateLimit, notice_text, scrub
from dreamd.chat.router import Dispatch, Invocation, Reply
from dreamd.config import AdaptersConfig, DiscordConfig, TelegramConfig, parse_config
from dreamd.errors import DreamdError
from dreamd.host.health import HealthEvent
from tests.fakes.clock import FakeClock

TOKEN = "123456:very-secret-token"
START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class ScriptedAdapter:
    """Fails ``failures`` times (naming its token), then serves; records notices it sends."""

    name = "telegram"

    def __init__(self, token: str, failures: int, started: asyncio.Queue[int]) -> None:
        self.token, self.failures, self.started = token, failures, started
        self.notices: asyncio.Queue[str] = asyncio.Queue()

    async def run(self, dispatch: Dispatch) -> None:
        self.started.put_nowait(self.failures)
        if self.failures > 0:
            raise RuntimeError(f"The token `{self.token}` was rejected by the server.")
        await asyncio.Event().wait()

    async def notify(self, text: str) -> None:
        self.notices.put_nowait(text)


class Script:
    """A factory handing out scripted adapters, counting down their failures."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.started: asyncio.Queue[int] = asyncio.Queue()
        self.built: list[ScriptedAdapter] = []

    def load(self, name: str) -> Callable[[Any, str], ScriptedAdapter]:
        def factory(settings: Any, token: str) -> ScriptedAdapter:
            adapter = ScriptedAdapter(token, self.failures, self.started)
            self.failures -= 1
            self.built.append(adapter)
            return adapter

        return factory


async def _nothing(invocation: Invocation) -> Reply:
    return Reply("")


def _telegram(**fields: Any) -> AdaptersConfig:
    return AdaptersConfig(
        telegram=TelegramConfig(enabled=True, token_env="DREAMD_TEST_TOKEN", **fields)
    )


@pytest.fixture
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot token in the environment variable the config names."""
    monkeypatch.setenv("DREAMD_TEST_TOKEN", TOKEN)


@pytest.fixture
async def running() -> AsyncIterator[Callable[[Adapters], asyncio.Queue[HealthEvent]]]:
    """Start ``Adapters.run`` for a test; cancelled (and awaited) when the test ends."""
    tasks: list[asyncio.Task[None]] = []

    def start(adapters: Adapters) -> asyncio.Queue[HealthEvent]:
        events: asyncio.Queue[HealthEvent] = asyncio.Queue()
        tasks.append(asyncio.create_task(adapters.run(_nothing, events)))
        return events

    yield start
    for task in tasks:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


@pytest.mark.usefixtures("token_env")
async def test_failures_back_off_exponentially_and_never_show_the_token(
    running: Callable[[Adapters], asyncio.Queue[HealthEvent]], caplog: pytest.LogCaptureFixture
) -> None:
    """Three failures wait 2, 4 and 8 s; status shows the masked error; logs hold no token."""
    clock, script = FakeClock(START), Script(failures=3)
    adapters = Adapters(_telegram(), clock=clock, load=script.load)
    running(adapters)
    states = []
    for _ in range(4):
        await script.started.get()
        states.append(dict(adapters.statistics()["telegram"]))
    assert clock.slept == [2.0, 4.0, 8.0]
    assert [s["state"] for s in states] == ["running"] * 4
    assert adapters.statistics()["telegram"] == {
        "state": "running",
        "error": f"RuntimeError: The token `{MASK}` was rejected by the server.",
        "failures": 3,
        "since": "2026-11-29T12:00:14.000Z",
        "retryAt": None,
    }
    clock.advance(60)  # a healthy minute clears the record of past failures
    assert adapters.statistics()["telegram"]["error"] is None
    assert adapters.statistics()["telegram"]["failures"] == 0
    logging.getLogger("httpx").warning("POST https://api.telegram.org/bot%s/getMe", TOKEN)
    assert TOKEN not in caplog.text
    assert f"The token `{MASK}` was rejected" in caplog.text
    assert "POST https://api.telegram.org/bot[token]/getMe" in caplog.text


@pytest.mark.usefixtures("token_env")
async def test_retrying_state_and_reset_after_a_healthy_run() -> None:
    """While waiting, status says retrying with the masked error and when the retry is due."""
    clock, script = FakeClock(START), Script(failures=1)
    adapters = Adapters(_telegram(), clock=clock, load=script.load)
    seen: list[dict[str, Any]] = []

    async def sleep(seconds: float) -> None:
        seen.append(dict(adapters.statistics()["telegram"]))
        clock.advance(seconds)

    clock.sleep = sleep  # type: ignore[method-assign]
    events: asyncio.Queue[HealthEvent] = asyncio.Queue()
    task = asyncio.create_task(adapters.run(_nothing, events))
    await script.started.get()
    await script.started.get()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert seen == [
        {
            "state": "retrying",
            "error": f"RuntimeError: The token `{MASK}` was rejected by the server.",
            "failures": 1,
            "since": "2026-11-29T12:00:00.000Z",
            "retryAt": "2026-11-29T12:00:02.000Z",
        }
    ]


async def test_missing_token_and_missing_sdk_are_reported(
    running: Callable[[Adapters], asyncio.Queue[HealthEvent]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No token: retrying with where it should be. No SDK: unavailable, not retried."""
    clock = FakeClock(START)

    def no_sdk(name: str) -> Callable[[Any, str], Any]:
        def factory(settings: Any, token: str) -> Any:
            raise ImportError("No module named 'discord'")

        return factory

    adapters = Adapters(_telegram(), clock=clock, load=no_sdk)
    running(adapters)
    while not clock.slept:
        await asyncio.sleep(0)
    assert adapters.statistics()["telegram"]["error"] == (
        "DreamdError: adapters.telegram.token_env: environment variable DREAMD_TEST_TOKEN "
        "is not set or empty"
    )
    monkeypatch.setenv("DREAMD_TEST_DISCORD", TOKEN)
    config = AdaptersConfig(discord=DiscordConfig(enabled=True, token_env="DREAMD_TEST_DISCORD"))
    adapters.reconfigure(config, config_dir=None)
    while "discord" not in adapters.states or adapters.states["discord"].state != "unavailable":
        await asyncio.sleep(0)
    (state,) = adapters.statistics().values()
    assert (state["state"], state["error"], state["failures"]) == (
        "unavailable",
        "the discord adapter needs its SDK: pip install 'dreamd[discord]' "
        "(No module named 'discord')",
        0,
    )
    assert list(adapters.statistics()) == ["discord"]


@pytest.mark.usefixtures("token_env")
async def test_notices_reach_opted_in_owners_within_the_rate_limit(
    running: Callable[[Adapters], asyncio.Queue[HealthEvent]],
) -> None:
    """Five notices an hour get through; the next one says how many were held back."""
    clock, script = FakeClock(START), Script(failures=0)
    adapters = Adapters(_telegram(notify=True), clock=clock, load=script.load)
    adapters.host = "host-a"
    events = running(adapters)
    await script.started.get()
    (adapter,) = script.built
    for number in range(7):
        events.put_nowait(HealthEvent("failed", "/ws", f"sweep {number} failed", "T"))
    texts = [await adapter.notices.get() for _ in range(5)]
    assert texts[0] == "dreamd on host-a: failed in /ws: sweep 0 failed (T)"
    clock.advance(3600)
    events.put_nowait(HealthEvent("blocked", "host", "no owner; fix: set one", "T2"))
    assert await adapter.notices.get() == (
        "dreamd on host-a: blocked: no owner; fix: set one (T2)\n"
        "(2 earlier notice(s) were held back by the rate limit)"
    )


async def test_notices_skip_adapters_without_notify() -> None:
    """An adapter with notify = false gets nothing in its outbox."""
    adapters = Adapters(_telegram(notify=False), clock=FakeClock(START))
    events: asyncio.Queue[HealthEvent] = asyncio.Queue()
    events.put_nowait(HealthEvent("idle", "/ws", "idle", "T"))
    task = asyncio.create_task(adapters._deliver(events))
    while not events.empty():
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert adapters.outboxes == {}


def test_scrub_masks_tokens_but_not_short_strings() -> None:
    """Every occurrence of a token is masked; a too-short "secret" masks nothing."""
    assert scrub(f"bot{TOKEN}/getMe {TOKEN}", [TOKEN, "ab"]) == f"bot{MASK}/getMe {MASK}"


def test_rate_limit_window() -> None:
    """Two per window; held notices are counted and reported once."""
    limit = RateLimit(burst=2, window=10.0)
    assert [limit.admit(t) for t in (0.0, 1.0, 2.0, 3.0)] == [0, 0, None, None]
    assert limit.admit(10.0) == 2
    assert limit.admit(10.5) is None
    assert (
        notice_text(HealthEvent("idle", "/w", "m", "t"), host="h")
        == "dreamd on h: idle in /w: m (t)"
    )


def test_read_token_from_env_or_file_names_where_never_what(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tokens come from an env var or a file (relative to the config); errors name the source."""
    monkeypatch.setenv("BOT_TOKEN", f"  {TOKEN}\n")
    assert read_token("telegram", TelegramConfig(token_env="BOT_TOKEN"), config_dir=None) == TOKEN
    (tmp_path / "bot.token").write_text(TOKEN + "\n")
    from_file = TelegramConfig(token_file="bot.token")
    assert read_token("telegram", from_file, config_dir=tmp_path) == TOKEN
    (tmp_path / "bot.token").write_text("\n")
    with pytest.raises(DreamdError) as empty:
        read_token("telegram", from_file, config_dir=tmp_path)
    assert str(empty.value) == f"adapters.telegram.token_file: {tmp_path / 'bot.token'} is empty"
    with pytest.raises(DreamdError, match="cannot read"):
        read_token("discord", DiscordConfig(token_file="missing"), config_dir=tmp_path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[adapters.telegram]\nenabled = true",
            "c.toml: adapters.telegram.token_env: required when the adapter is enabled; name an "
            "environment variable (or set token_file) holding the bot token",
        ),
        (
            '[adapters.discord]\ntoken_env = "A"\ntoken_file = "b"',
            "c.toml: adapters.discord.token_file: set token_env or token_file, not both",
        ),
        (
            '[adapters.discord]\ntoken = "secret"',
            "c.toml: adapters.discord.token: unknown key; expected one of enabled, token_env, "
            "token_file, owners, readers, admin_role, notify",
        ),
        (
            '[adapters.telegram]\nowners = ["alice"]',
            "c.toml: adapters.telegram.owners[0]: expected a user id (a whole number >= 1), "
            "got 'alice'",
        ),
        (
            '[adapters.telegram]\nbase_url = "api.telegram.org"',
            "c.toml: adapters.telegram.base_url: expected an http(s) URL like "
            "'https://api.telegram.org/bot', got 'api.telegram.org'",
        ),
    ],
)
def test_adapter_config_is_strict(text: str, message: str) -> None:
    """Bad [adapters] sections are errors naming the key; a token in the file is refused."""
    with pytest.raises(DreamdError) as caught:
        parse_config(text, source="c.toml")
    assert str(caught.value) == message


def test_adapter_config_parses() -> None:
    """A full section becomes the settings the adapters read."""
    config = parse_config(
        '[adapters.discord]\nenabled = true\ntoken_env = "DISCORD_TOKEN"\nowners = [1, 2]\n'
        "admin_role = 3\nnotify = true\n",
        source="c.toml",
    )
    assert config.adapters.discord == DiscordConfig(
        enabled=True, token_env="DISCORD_TOKEN", owners=frozenset({1, 2}), admin_role=3, notify=True
    )
    assert config.adapters.telegram == TelegramConfig()


def test_entry_points_find_both_adapters() -> None:
    """The dreamd.adapters entry points name the two shipped factories; others are unavailable."""
    assert load_factory("discord") is dreamd_discord.build
    assert load_factory("telegram") is dreamd_telegram.build
    with pytest.raises(AdapterUnavailableError, match=r"pip install 'dreamd\[slack\]'"):
        load_factory("slack")
