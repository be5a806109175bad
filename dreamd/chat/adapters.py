"""Chat adapters inside the daemon: loading, retry with backoff, state, owner notifications.

Rules:

* Adapters are plugins: the ``dreamd.adapters`` entry-point group maps a name (``discord``,
  ``telegram``) to a factory ``(settings, token) -> Adapter``. The core never imports them; an
  adapter whose SDK is missing is reported ``unavailable`` with the extra to install.
* Only ``[adapters.<name>]`` sections with ``enabled = true`` run. The token is read from
  ``token_env`` or ``token_file`` when the adapter starts, handed to the factory, and added to
  the :class:`~dreamd.chat.notify.Redactor`: it never reaches a log line or a status error.
* One task per adapter, owned by :meth:`Adapters.run`. A failing adapter (bad token, network
  down, 409 conflict) is retried after ``first * 2**(failures-1)`` seconds, at most ``cap``;
  one that ran for ``healthy_after`` seconds before failing starts again from ``first``.
  Nothing an adapter does ends :meth:`Adapters.run` except cancellation: the daemon stays up.
* Health events from the daemon reach the owners of every running adapter with
  ``notify = true`` through :class:`~dreamd.chat.notify.RateLimit`.
* With a :class:`Leadership` (a fleet: several hosts share one bot token), an adapter runs only
  while this host leads it; the others show ``standby`` and send no notices. When leadership
  is lost the adapter is stopped before anything else, then this host stands by again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import timedelta
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol

from dreamd.cancellation import honour_cancel
from dreamd.chat.notify import RateLimit, Redactor, notice_text, scrub
from dreamd.chat.router import Adapter, Dispatch, Notifier
from dreamd.clock import format_instant
from dreamd.config import AdaptersConfig, DiscordConfig, TelegramConfig
from dreamd.errors import DreamdError
from dreamd.host.clock import Clock
from dreamd.host.health import HealthEvent

__all__ = [
    "ENTRY_POINTS",
    "AdapterUnavailableError",
    "Adapters",
    "Backoff",
    "Leadership",
    "read_token",
]

_log = logging.getLogger("dreamd.chat")
ENTRY_POINTS = "dreamd.adapters"
STOP_SECONDS = 10.0
OUTBOX = 20  # notices kept for an adapter that is down
Settings = DiscordConfig | TelegramConfig
Factory = Callable[[Any, str], Adapter]


class Leadership(Protocol):
    """Which host runs an adapter when several share its token (:mod:`dreamd.fleet.locks`)."""

    def lead(self, name: str) -> AbstractAsyncContextManager[asyncio.Event]:
        """Enter once this host leads ``name``; the event is set when it stops leading."""
        ...


class AdapterUnavailableError(DreamdError):
    """An adapter cannot be built on this host (not installed, or its SDK is missing)."""


@dataclass(frozen=True)
class Backoff:
    """Seconds to wait before retry number ``failures`` (1, 2, ...)."""

    first: float = 2.0
    cap: float = 300.0
    healthy_after: float = 60.0

    def delay(self, failures: int) -> float:
        return min(self.cap, self.first * 2.0 ** max(0, failures - 1))


def read_token(name: str, settings: Settings, *, config_dir: Path | None) -> str:
    """The bot token from the environment or a file; errors name where, never the value."""
    key = f"adapters.{name}"
    if settings.token_env:
        value = os.environ.get(settings.token_env, "").strip()
        if not value:
            raise DreamdError(
                f"{key}.token_env: environment variable {settings.token_env} is not set or empty"
            )
        return value
    if not settings.token_file:
        raise DreamdError(f"{key}: set token_env or token_file")
    path = Path(settings.token_file).expanduser()
    if not path.is_absolute() and config_dir is not None:
        path = config_dir / path
    try:
        value = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise DreamdError(f"{key}.token_file: cannot read {path}: {exc}") from exc
    if not value:
        raise DreamdError(f"{key}.token_file: {path} is empty")
    return value


def load_factory(name: str) -> Factory:
    """The factory registered as ``name`` in the ``dreamd.adapters`` entry points."""
    for point in entry_points(group=ENTRY_POINTS):
        if point.name == name:
            try:
                factory: Factory = point.load()
            except ImportError as exc:
                raise AdapterUnavailableError(
                    f"the {name} adapter needs its SDK: pip install 'dreamd[{name}]' ({exc})"
                ) from exc
            return factory
    raise AdapterUnavailableError(f"no {name} adapter is installed: pip install 'dreamd[{name}]'")


@dataclass
class _State:
    """One adapter's state; ``error`` and ``failures`` last until a run proves healthy."""

    state: str = "starting"
    error: str | None = None
    failures: int = 0
    since: str | None = None
    retry_at: str | None = None
    started: float = 0.0  # monotonic time the current run began

    def as_json(self, *, healthy: bool) -> dict[str, Any]:
        recovered = healthy and self.state == "running"
        return {
            "state": self.state,
            "error": None if recovered else self.error,
            "failures": 0 if recovered else self.failures,
            "since": self.since,
            "retryAt": self.retry_at,
        }


class Adapters:
    """The daemon's chat adapters (see the module rules)."""

    def __init__(
        self,
        config: AdaptersConfig,
        *,
        clock: Clock,
        config_dir: Path | None = None,
        backoff: Backoff | None = None,
        load: Callable[[str], Factory] = load_factory,
        leadership: Leadership | None = None,
    ) -> None:
        self.config, self.config_dir = config, config_dir
        self.clock = clock
        self.backoff = backoff or Backoff()
        self.redactor = Redactor()
        self.states: dict[str, _State] = {}
        self.running: dict[str, Adapter] = {}
        self.limits: dict[str, RateLimit] = {}
        self.outboxes: dict[str, asyncio.Queue[str]] = {}
        self._load = load
        self.leadership = leadership
        self._changed = asyncio.Event()
        self.host = socket.gethostname()

    def enabled(self) -> dict[str, Settings]:
        """The configured adapters that are switched on, by name."""
        sections: dict[str, Settings] = {
            "discord": self.config.discord,
            "telegram": self.config.telegram,
        }
        return {name: section for name, section in sections.items() if section.enabled}

    def statistics(self) -> dict[str, dict[str, Any]]:
        """Each enabled adapter's state, for the status document."""
        now = self.clock.monotonic()
        found = {}
        for name in self.enabled():
            state = self.states.get(name, _State())
            found[name] = state.as_json(healthy=now - state.started >= self.backoff.healthy_after)
        return found

    def reconfigure(self, config: AdaptersConfig, *, config_dir: Path | None) -> None:
        """Use a reloaded config; the adapters restart only when ``[adapters]`` changed."""
        if (config, config_dir) != (self.config, self.config_dir):
            self.config, self.config_dir = config, config_dir
            self._changed.set()

    async def run(self, dispatch: Dispatch, events: asyncio.Queue[HealthEvent]) -> None:
        """Run every enabled adapter and deliver notices until cancelled."""
        self.redactor.install()
        notices = asyncio.create_task(self._deliver(events))
        try:
            while True:
                self._changed.clear()
                tasks = [
                    asyncio.create_task(self._supervise(name, settings, dispatch))
                    for name, settings in self.enabled().items()
                ]
                try:
                    await self._changed.wait()
                finally:
                    await _cancel(tasks)
                self.states = {n: s for n, s in self.states.items() if n in self.enabled()}
        finally:
            await _cancel([notices])
            self.redactor.remove()

    def _mark(self, name: str, state: str) -> _State:
        current = self.states.setdefault(name, _State())
        current.state = state
        current.since = format_instant(self.clock.now())
        current.retry_at = None
        return current

    async def _attempt(self, name: str, settings: Settings, dispatch: Dispatch) -> None:
        """Read the token, build the adapter and run it; returning is a failure too."""
        token = read_token(name, settings, config_dir=self.config_dir)
        self.redactor.secrets.add(token)
        adapter = self._build(name, settings, token)
        self.running[name] = adapter
        self._mark(name, "running")
        senders = (
            [asyncio.create_task(self._send(name, adapter))]
            if isinstance(adapter, Notifier)
            else []
        )
        try:
            await adapter.run(dispatch)
        finally:
            self.running.pop(name, None)
            await _cancel(senders)
        raise DreamdError("the adapter stopped by itself")

    async def _supervise(self, name: str, settings: Settings, dispatch: Dispatch) -> None:
        if self.leadership is None:
            await self._keep_running(name, settings, dispatch)
            return
        while True:
            honour_cancel()
            self._mark(name, "standby")
            self.outboxes.pop(name, None)  # the leader tells the owners; nothing piles up here
            async with self.leadership.lead(name) as lost:
                running = asyncio.create_task(self._keep_running(name, settings, dispatch))
                losing = asyncio.create_task(lost.wait())
                try:
                    done, _ = await asyncio.wait(
                        {running, losing}, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    await _cancel([running, losing])
                if running in done:
                    return  # unavailable on this host: nothing to lead
            _log.warning("chat adapter %s: another host leads it now; standing by", name)

    async def _keep_running(self, name: str, settings: Settings, dispatch: Dispatch) -> None:
        """Run the adapter, retrying failures with backoff; returns when it is unavailable."""
        while True:
            honour_cancel()
            state = self._mark(name, "starting")
            state.started = self.clock.monotonic()
            try:
                await self._attempt(name, settings, dispatch)
            except AdapterUnavailableError as exc:
                self._mark(name, "unavailable").error = str(exc)
                _log.error("chat adapter %s unavailable: %s", name, exc)
                return
            except Exception as exc:  # noqa: BLE001 - any adapter failure is retried
                error = scrub(f"{type(exc).__name__}: {exc}", self.redactor.secrets)
                if self.clock.monotonic() - state.started >= self.backoff.healthy_after:
                    state.failures = 0
                state.failures += 1
                delay = self.backoff.delay(state.failures)
                self._mark(name, "retrying").error = error.rstrip(": ")
                state.retry_at = format_instant(self.clock.now() + timedelta(seconds=delay))
                _log.warning("chat adapter %s failed (%s); retrying in %.0fs", name, error, delay)
                await self.clock.sleep(delay)

    def _build(self, name: str, settings: Settings, token: str) -> Adapter:
        try:
            return self._load(name)(settings, token)
        except ImportError as exc:
            raise AdapterUnavailableError(
                f"the {name} adapter needs its SDK: pip install 'dreamd[{name}]' ({exc})"
            ) from exc

    def _outbox(self, name: str) -> asyncio.Queue[str]:
        return self.outboxes.setdefault(name, asyncio.Queue(maxsize=OUTBOX))

    async def _deliver(self, events: asyncio.Queue[HealthEvent]) -> None:
        """Fan each event out to the outbox of every adapter whose owners opted in."""
        while True:
            event = await events.get()
            for name, settings in self.enabled().items():
                if not settings.notify or self.states.get(name, _State()).state == "standby":
                    continue
                held = self.limits.setdefault(name, RateLimit()).admit(self.clock.monotonic())
                if held is None:
                    continue
                outbox = self._outbox(name)
                if outbox.full():  # the adapter has been down a long time: drop the oldest
                    outbox.get_nowait()
                outbox.put_nowait(notice_text(event, host=self.host, held=held))

    async def _send(self, name: str, adapter: Notifier) -> None:
        """Send queued notices through a running adapter (they wait while it is down)."""
        outbox = self._outbox(name)
        while True:
            text = await outbox.get()
            try:
                await adapter.notify(text)
            except Exception as exc:  # noqa: BLE001 - a lost notice must not stop the rest
                _log.warning(
                    "chat adapter %s could not notify its owners: %s",
                    name,
                    scrub(str(exc), self.redactor.secrets),
                )


async def _cancel(tasks: list[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and give them ``STOP_SECONDS`` to close their connections."""
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=STOP_SECONDS)
