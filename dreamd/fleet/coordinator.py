"""The daemon's side of a fleet: each workspace swept once per slot, Redis down as a fault.

Rules:

* Every host runs the schedule. For each workspace and slot (:mod:`dreamd.fleet.slots`) a host
  takes its host job slot, a fleet lease (:mod:`dreamd.fleet.budget`) and the workspace's
  fenced ``RedisLock``; with the lock it checks the ``slots`` record again, sweeps with the
  :class:`~dreamd.fleet.fence.Fence` passed to the writer, and records the result under the
  same token. A host that finds the lock held waits (holding nothing) until the slot is
  recorded as done, or the lock comes free because its holder died; then it sweeps the slot
  itself. A manual sweep (no slot) takes the lock the same way and always sweeps.
* A slot that ends before a host got the workspace is left to the next slot, so a missed
  slot is caught up once fleet-wide, never once per host.
* Redis unreachable (:meth:`Fleet.check` fails): the fleet is ``degraded`` with the reason and
  since when, owners get an event, scheduled sweeps of shared workspaces wait for it to come
  back (until their slot ends) and manual ones are refused; status keeps answering. No lock
  can be taken without Redis and every write is fenced, so a coordinator that blinks never
  makes two writers.
* ``/dreaming on|off`` sets the fleet-wide value in Redis; every host mirrors it into its own
  host state (``on_enabled``), so a host cut off from Redis still knows the last value.
* Health events go to a Redis stream; every host reads it and hands the events to its chat
  adapters, of which only the leaders (:class:`~dreamd.fleet.locks.Leadership`) deliver.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from dreamd import __version__
from dreamd.clock import format_instant
from dreamd.config import FleetConfig
from dreamd.errors import FleetError
from dreamd.fleet.budget import FleetBudget
from dreamd.fleet.connection import (
    COMMAND_SECONDS,
    async_client,
    host_id_of,
    redis_errors,
    redis_url,
    shown,
)
from dreamd.fleet.fence import Fence
from dreamd.fleet.keys import Keys
from dreamd.fleet.locks import Leadership, LockMaker, in_thread, release
from dreamd.fleet.registry import announce, read_document, read_hosts, record_sweep, swept_for
from dreamd.fleet.view import summary_line
from dreamd.host.clock import Clock
from dreamd.host.health import HealthEvent

if TYPE_CHECKING:
    import redis.asyncio

__all__ = ["Fleet", "rotated"]

_log = logging.getLogger("dreamd.fleet")
TICK_SECONDS = 1.0
BUSY_SECONDS = 1.0
EVENTS_KEPT = 1000
Runner = Callable[[Fence], Awaitable[dict[str, Any]]]
Hold = Callable[[], AbstractAsyncContextManager[None]]


def rotated(items: Sequence[Any], host: str) -> list[Any]:
    """``items`` starting at a host-specific place, so hosts rarely reach for the same one."""
    if not items:
        return []
    start = int(hashlib.sha256(host.encode("utf-8")).hexdigest(), 16) % len(items)
    return [*items[start:], *items[:start]]


def _outcome(path: str, agents: Sequence[str], status: str, reason: str) -> dict[str, Any]:
    return {
        "workspace": path,
        "agents": list(agents),
        "status": status,
        "reason": reason,
        "changedFiles": [],
        "warnings": [],
        "error": reason if status == "stopped" else None,
        "durationMs": 0.0,
    }


class Fleet:
    """One host's membership of a fleet (see the module rules)."""

    def __init__(
        self,
        config: FleetConfig,
        *,
        clock: Clock,
        host_jobs: Callable[[], dict[str, Any]],
        on_enabled: Callable[[bool], Awaitable[None]],
        deliver: Callable[[HealthEvent], None],
        note: Callable[[HealthEvent], None],
    ) -> None:
        self.config = config
        self.url = redis_url(config)
        self.shown_url = shown(self.url)
        self.keys = Keys(config.name)
        self.host = host_id_of(config)
        self.clock = clock
        self._host_jobs = host_jobs
        self._on_enabled = on_enabled
        self._deliver = deliver
        self._note = note
        self.client: redis.asyncio.Redis = async_client(self.url)
        self.locks = LockMaker(self.url, self.keys)
        self.leadership = Leadership(self.locks)
        self.budget = FleetBudget(self.client, self.keys, self.host, limit=self.jobs_limit)
        self.connected = asyncio.Event()
        self.degraded: dict[str, str] | None = None
        self.hosts: list[dict[str, Any]] = []
        self.started_at = format_instant(clock.now())
        self.swept_last = 0
        self.last_error: str | None = None
        self._outgoing: deque[HealthEvent] = deque(maxlen=100)
        self._enabled_seen: bool | None = None
        self._checked = False
        self._releasing: set[asyncio.Future[None]] = set()

    # -- the coordinator's health -------------------------------------------------------------

    def _reason(self, exc: BaseException) -> str:
        text = f"{type(exc).__name__}: {exc}".rstrip(": ")
        from urllib.parse import urlsplit

        password = urlsplit(self.url).password
        if password:
            text = text.replace(password, "***")
        return f"cannot reach the fleet's Redis at {self.shown_url} ({text})"

    def fault(self, exc: BaseException) -> None:
        """Redis failed us: degraded from now on (once), until :meth:`check` succeeds again."""
        self._checked = True
        self.connected.clear()
        if self.degraded is not None:
            return
        stamp = format_instant(self.clock.now())
        self.degraded = {"reason": self._reason(exc), "since": stamp}
        _log.warning("fleet: %s; shared workspaces wait until it is back", self._reason(exc))
        self._event("degraded", f"{self.degraded['reason']}; sweeps of shared workspaces wait")

    async def check(self) -> bool:
        """Ask Redis whether it is there; flips between connected and degraded."""
        failures: tuple[type[BaseException], ...] = (TimeoutError, *redis_errors())
        try:
            await asyncio.wait_for(self.client.ping(), COMMAND_SECONDS)
        except failures as exc:
            self.fault(exc)
            with contextlib.suppress(Exception):  # no stale connection outlives the outage
                await self.client.connection_pool.disconnect()
            return False
        self._checked = True
        if self.degraded is not None:
            since = self.degraded["since"]
            self.degraded = None
            _log.info("fleet: Redis at %s is back (unreachable since %s)", self.shown_url, since)
            self._event("recovered", f"the fleet's Redis is back (unreachable since {since})")
        self.connected.set()
        return True

    def jobs_limit(self) -> int:
        """``fleet.max_concurrent``, else each live host's own budget added up."""
        if self.config.max_concurrent:
            return self.config.max_concurrent
        own = int(self._host_jobs()["limit"])
        others = [h for h in self.hosts if not h.get("lost") and h.get("id") != self.host]
        return own + sum(int(h.get("jobsLimit") or own) for h in others)

    # -- the loop ----------------------------------------------------------------------------

    async def run(self) -> None:
        """Check, announce, follow the fleet-wide value and relay events until cancelled."""
        relay = asyncio.create_task(self._relay())
        every = self.config.host_ttl_s / 6
        due = 0.0
        try:
            while True:
                if await self.check() and time.monotonic() >= due:
                    try:
                        await self._tick()
                        due = time.monotonic() + every
                    except redis_errors() as exc:
                        self.fault(exc)
                await asyncio.sleep(TICK_SECONDS)
        finally:
            if self._releasing:  # locks given back while stopping: let them reach Redis
                await asyncio.wait(set(self._releasing), timeout=COMMAND_SECONDS)
            relay.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await relay
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._leave(), COMMAND_SECONDS)
            with contextlib.suppress(Exception):
                await self.client.aclose()

    async def _tick(self) -> None:
        await announce(self.client, self.keys, self.record("ok"), ttl=self.config.host_ttl_s)
        await self.budget.renew()
        self.hosts = await read_hosts(self.client, self.keys)
        raw = await self.client.get(self.keys.enabled)
        if raw in ("0", "1") and (raw == "1") != self._enabled_seen:
            self._enabled_seen = raw == "1"
            await self._on_enabled(raw == "1")
        while self._outgoing:
            event = self._outgoing[0]
            fields: dict[Any, Any] = {"host": self.host, "kind": event.kind}
            fields |= {"workspace": event.workspace, "message": event.message, "at": event.at}
            await self.client.xadd(self.keys.events, fields, maxlen=EVENTS_KEPT, approximate=True)
            self._outgoing.popleft()

    async def _leave(self) -> None:
        """A stopping host says so, and drops its time to live: it shows as gone at once."""
        await announce(self.client, self.keys, self.record("stopped"), ttl=0.001)

    def record(self, state: str) -> dict[str, Any]:
        """This host's announcement."""
        jobs = self._host_jobs()
        return {
            "id": self.host,
            "version": __version__,
            "startedAt": self.started_at,
            "lastSeen": format_instant(self.clock.now()),
            "jobsInUse": jobs["inUse"],
            "jobsLimit": jobs["limit"],
            "sweptLast": self.swept_last,
            "lastError": self.last_error,
            "leads": sorted(self.leadership.leading),
            "state": state,
        }

    # -- events for owners -------------------------------------------------------------------

    def _event(self, kind: str, message: str) -> None:
        stamp = format_instant(self.clock.now())
        event = HealthEvent(kind, f"fleet {self.keys.name}", f"{message} (host {self.host})", stamp)
        _log.warning("health: %s: %s", event.workspace, event.message)
        self._note(event)
        self.share(event)

    def share(self, event: HealthEvent) -> None:
        """Send ``event`` to every host's adapters (kept here while Redis is away)."""
        self._outgoing.append(event)

    async def _relay(self) -> None:
        last = "$"
        while True:
            await self.connected.wait()
            try:
                found: Any = await self.client.xread(
                    {self.keys.events: last}, block=2000, count=100
                )
            except redis_errors():
                await asyncio.sleep(TICK_SECONDS)
                continue
            for _stream, entries in found or []:
                for entry_id, fields in entries:
                    last = entry_id
                    message = fields.get("message", "")
                    if fields.get("host") != self.host and "(host " not in message:
                        message = f"{message} (host {fields.get('host')})"
                    self._deliver(
                        HealthEvent(
                            fields.get("kind", "?"),
                            fields.get("workspace", "?"),
                            message,
                            fields.get("at", "?"),
                        )
                    )

    # -- what hosts share --------------------------------------------------------------------

    async def set_enabled(self, enabled: bool) -> None:
        """Set the fleet-wide ``/dreaming on|off`` value (every host mirrors it)."""
        try:
            await self.client.set(self.keys.enabled, "1" if enabled else "0")
        except redis_errors() as exc:
            self.fault(exc)
            raise FleetError(
                f"{self._reason(exc)}; the fleet-wide value was not changed, try again later"
            ) from exc
        self._enabled_seen = enabled

    def summary(self) -> dict[str, Any]:
        """The fleet part of this host's status document (no Redis call: the last view)."""
        jobs = self._host_jobs()
        document: dict[str, Any] = {
            "name": self.keys.name,
            "host": self.host,
            "redis": self.shown_url,
            "state": "degraded" if self.degraded else ("ok" if self._checked else "starting"),
            "reason": (self.degraded or {}).get("reason"),
            "since": (self.degraded or {}).get("since"),
            "hosts": self.hosts,
            "leads": sorted(self.leadership.leading),
            "jobs": {"inUse": jobs["inUse"], "limit": self.jobs_limit()},
        }
        document["line"] = summary_line(document)
        return document

    async def document(self, known: Sequence[str]) -> dict[str, Any]:
        """The ``fleet status`` document, read from Redis now."""
        try:
            return await read_document(
                self.client, self.keys, known=known, jobs_limit=self.jobs_limit()
            )
        except redis_errors() as exc:
            self.fault(exc)
            raise FleetError(self._reason(exc)) from exc

    # -- sweeps ------------------------------------------------------------------------------

    async def sweep(
        self,
        path: str,
        agents: Sequence[str],
        *,
        slot: str | None,
        until: datetime,
        hold: Hold,
        run: Runner,
        stopping: Callable[[], bool],
    ) -> dict[str, Any]:
        """Sweep ``path`` for ``slot`` (``None``: a manual sweep) unless another host does."""
        while True:
            if stopping():
                return _outcome(path, agents, "stopped", "shutting down; not started")
            if self.clock.now() >= until:
                return _outcome(path, agents, "skipped", "its slot ended before this host got it")
            if not self.connected.is_set():
                # a manual sweep is refused during an outage; a scheduled one waits for its end
                manual = slot is None
                patience = min(until, self.clock.now() + timedelta(seconds=5)) if manual else until
                if (manual and self.degraded is not None) or not await self._wait(patience):
                    reason = (self.degraded or {}).get("reason", "the fleet's Redis is away")
                    return _outcome(path, agents, "skipped", f"{reason}; not swept")
                continue
            try:
                outcome = await self._attempt(path, agents, slot, hold, run)
            except redis_errors() as exc:
                self.fault(exc)
                continue
            if outcome is not None:
                return outcome
            await asyncio.sleep(BUSY_SECONDS)

    async def _wait(self, until: datetime) -> bool:
        """Wait for Redis to come back, at most until ``until``; whether it did."""
        seconds = max(0.0, (until - self.clock.now()).total_seconds())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), seconds)
        return self.connected.is_set()

    async def _attempt(
        self, path: str, agents: Sequence[str], slot: str | None, hold: Hold, run: Runner
    ) -> dict[str, Any] | None:
        """One try: ``None`` when another host holds the workspace (or Redis went away).

        Everything happens under the host slot, so a host has at most its budget of workspaces
        talking to Redis at once, however many are waiting.
        """
        async with hold():
            if slot and (done := await swept_for(self.client, self.keys, path, slot)):
                return _outcome(path, agents, "skipped", _done_text(done, slot))
            return await self._locked(path, agents, slot, run)

    async def _locked(
        self, path: str, agents: Sequence[str], slot: str | None, run: Runner
    ) -> dict[str, Any] | None:
        async with self.budget.lease(path):
            grant = await in_thread(
                lambda: self.locks.take_workspace(path), lambda taken: release(taken.lock)
            )
            if grant is None:
                return None
            try:
                if slot and (done := await swept_for(self.client, self.keys, path, slot)):
                    return _outcome(path, agents, "skipped", _done_text(done, slot))
                outcome = await run(self.locks.fence(grant))
                if outcome["status"] == "stopped":
                    return outcome
                if outcome["status"] == "error" and not await self.check():
                    return None  # fenced off by the outage: the slot is still to do
                record = {"host": self.host, "at": format_instant(self.clock.now())}
                record |= {"status": outcome["status"], "slot": slot or ""}
                await record_sweep(
                    self.client, self.keys, path, record, token=grant.token, slot=slot
                )
                return outcome
            finally:
                self._give_back(grant.lock)

    def _give_back(self, lock: Any) -> None:
        """Release ``lock`` in a thread without waiting: the host slot frees at once."""
        releasing = asyncio.ensure_future(asyncio.to_thread(release, lock))
        self._releasing.add(releasing)
        releasing.add_done_callback(self._releasing.discard)


def _done_text(done: dict[str, Any], slot: str) -> str:
    return f"swept for the {slot} slot by {done.get('host')} at {done.get('at')}"
