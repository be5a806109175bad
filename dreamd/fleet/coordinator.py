"""The daemon's side of a fleet: each workspace swept once per slot, Redis down as a fault.

Rules:

* Every host runs the schedule. For each workspace and slot (:mod:`dreamd.fleet.slots`) a host
  takes its host job slot, a fleet lease (:mod:`dreamd.fleet.budget`) and the workspace's
  fenced lock (:mod:`dreamd.fleet.lease`); with the lock it checks the ``slots`` record again,
  sweeps with the :class:`~dreamd.fleet.fence.Fence` passed to the writer, and records the
  result under the same grant. A host that finds the lock held waits (holding nothing) until
  the slot is recorded as done, or the lock comes free because its holder was lost (its lease
  ran out: ``fleet.host_ttl_s`` after its last heartbeat); then it sweeps the slot itself.
  A manual sweep (no slot) takes the lock the same way and always sweeps.
* Takeover: the lock's claim says who took it last and for which slot. A host that gets a lock
  claimed for this slot by another grant that never recorded the slot as done sweeps it in
  that host's place, once (the claim and the token are drawn atomically), while the slot's
  takeover window is open (``fleet.takeover_window`` from the slot's start, at most until the
  slot ends). The takeover is recorded with the sweep, listed in ``fleet status`` and raised
  as a ``takeover`` event. Once the window has closed, a host stops waiting on held
  workspaces and takes over none: they are swept in the next slot.
* A slot that ends before a host got the workspace is left to the next slot, so a missed
  slot is caught up once fleet-wide, never once per host.
* Redis unreachable (:meth:`Fleet.check` fails): the fleet is ``degraded`` with the reason and
  since when, owners get an event, scheduled sweeps of shared workspaces wait for it to come
  back (until their slot ends) and manual ones are refused; status keeps answering. No lock
  can be taken without Redis and every write is fenced, so a coordinator that blinks never
  makes two writers.
* ``/dreaming on|off`` sets the fleet-wide value in Redis; every host follows it while Redis
  answers (:attr:`Fleet.shared_enabled`, ``on_enabled`` when it is first read and whenever it
  changes; a host schedules no sweep before it has read it once) but never writes it
  into its own host state: a value read from Redis is not a local setting, so a forged one is
  gone as soon as Redis no longer says it.
* Health events go to a Redis stream as typed fields (:mod:`dreamd.fleet.events`); every host
  reads it and hands the events to its chat adapters, of which only the leaders
  (:class:`~dreamd.fleet.locks.Leadership`) deliver. An event this host shared is delivered with
  its own text; any other is composed here from its fields, never copied from Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from dreamd import __version__
from dreamd.cancellation import honour_cancel
from dreamd.clock import format_instant, parse_duration, parse_instant
from dreamd.config import FleetConfig
from dreamd.errors import FleetError
from dreamd.fleet.budget import FleetBudget
from dreamd.fleet.connection import (
    COMMAND_SECONDS,
    async_client,
    host_id_of,
    reason,
    redis_errors,
    redis_url,
    shown,
)
from dreamd.fleet.events import compose, local_kind, wire_fields
from dreamd.fleet.fence import Fence
from dreamd.fleet.keys import Keys
from dreamd.fleet.lease import Taken, is_current, release, renew, take
from dreamd.fleet.locks import Grant, Leadership, fence_of
from dreamd.fleet.records import (
    EventRecord,
    SweepRecord,
    TakeoverRecord,
    clean_text,
    decode_fields,
    valid_host_id,
)
from dreamd.fleet.registry import announce, read_document, read_hosts, record_sweep, swept_for
from dreamd.fleet.view import summary_line
from dreamd.host.clock import Clock
from dreamd.host.health import HealthEvent

if TYPE_CHECKING:
    import redis.asyncio

__all__ = ["Fleet", "heartbeat_of", "rotated", "takeover_window_of"]

_log = logging.getLogger("dreamd.fleet")
TICK_SECONDS = 1.0
BUSY_SECONDS = 1.0
EVENTS_KEPT = 1000
MINE_KEPT = 200
Runner = Callable[[Fence], Awaitable[dict[str, Any]]]
Hold = Callable[[], AbstractAsyncContextManager[None]]


def rotated(items: Sequence[Any], host: str) -> list[Any]:
    """``items`` starting at a host-specific place, so hosts rarely reach for the same one."""
    if not items:
        return []
    start = int(hashlib.sha256(host.encode("utf-8")).hexdigest(), 16) % len(items)
    return [*items[start:], *items[:start]]


def heartbeat_of(config: FleetConfig) -> float:
    """Seconds between heartbeats: ``fleet.heartbeat_s``, else a sixth of ``host_ttl_s``."""
    return config.heartbeat_s or config.host_ttl_s / 6


def takeover_window_of(config: FleetConfig) -> timedelta:
    """``fleet.takeover_window`` as a duration (the config check made sure it parses)."""
    return timedelta(seconds=parse_duration(config.takeover_window) or 0.0)


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
        on_enabled: Callable[[bool | None], Awaitable[None]],
        deliver: Callable[[HealthEvent], None],
        note: Callable[[HealthEvent], None],
        known: Callable[[], Mapping[str, Sequence[str]]] = dict,
    ) -> None:
        self.config = config
        self.url = redis_url(config)
        self.shown_url = shown(self.url)
        self.keys = Keys(config.name)
        self.host = host_id_of(config)
        if not valid_host_id(self.host):
            raise FleetError(
                f"fleet.host_id: this host's id {clean_text(self.host, 80)!r} is not a host name "
                "(letters, digits, '.', '_' or '-', at most 64); set fleet.host_id"
            )
        self.clock = clock
        self.ttl = config.host_ttl_s
        self.heartbeat = heartbeat_of(config)
        self.window = takeover_window_of(config)
        self._host_jobs = host_jobs
        self._on_enabled = on_enabled
        self._deliver = deliver
        self._note = note
        self._known = known
        self.client: redis.asyncio.Redis = async_client(self.url)
        self.leadership = Leadership(
            self.client, self.keys, self.host, ttl=self.ttl, heartbeat=self.heartbeat
        )
        self.budget = FleetBudget(
            self.client, self.keys, self.host, limit=self.jobs_limit, lease_seconds=self.ttl
        )
        self.connected = asyncio.Event()
        self.degraded: dict[str, str] | None = None
        self.hosts: list[dict[str, Any]] = []
        self.started_at = format_instant(clock.now())
        self.swept_last = 0
        self.last_error: str | None = None
        self.shared_enabled: bool | None = None
        self.heard = False  # the fleet-wide value was read at least once
        self._outgoing: deque[tuple[EventRecord, HealthEvent]] = deque(maxlen=100)
        self._mine: OrderedDict[str, HealthEvent] = OrderedDict()
        self._checked = False
        self._refused = False
        self._grants: set[Grant] = set()
        self._tokens: set[tuple[str, int]] = set()
        self._releasing: set[asyncio.Future[None]] = set()

    # -- the coordinator's health -------------------------------------------------------------

    def _reason(self, exc: BaseException) -> str:
        return reason(exc, self.url)

    def fault(self, exc: BaseException) -> None:
        """Redis failed us: degraded from now on (once), until :meth:`check` succeeds again.

        A command Redis refused (a missing ACL permission, a key of the wrong type) is not an
        outage that ends by itself: the host stays degraded until it is restarted.
        """
        import redis.exceptions

        self._checked = True
        self.connected.clear()
        if self.degraded is not None:
            return
        stamp = format_instant(self.clock.now())
        self.degraded = {"reason": self._reason(exc), "since": stamp}
        if isinstance(exc, redis.exceptions.ResponseError):
            self._refused = True
            self.degraded["reason"] += "; then restart dreamd"
        _log.warning("fleet: %s; shared workspaces wait until it is back", self._reason(exc))
        self._event("degraded", f"{self.degraded['reason']}; sweeps of shared workspaces wait")

    async def check(self) -> bool:
        """Ask Redis whether it is there; flips between connected and degraded."""
        failures: tuple[type[BaseException], ...] = (TimeoutError, *redis_errors())
        try:
            async with asyncio.timeout(COMMAND_SECONDS):
                await self.client.ping()
        except failures as exc:
            self.fault(exc)
            with contextlib.suppress(Exception):  # no stale connection outlives the outage
                await self.client.connection_pool.disconnect()
            return False
        self._checked = True
        if self.degraded is not None and not self._refused:
            since = self.degraded["since"]
            self.degraded = None
            _log.info("fleet: Redis at %s is back (unreachable since %s)", self.shown_url, since)
            self._event("recovered", f"the fleet's Redis is back (unreachable since {since})")
        if self.degraded is None:
            self.connected.set()
        return self.degraded is None

    def jobs_limit(self) -> int:
        """``fleet.max_concurrent``, else each live host's own budget added up."""
        if self.config.max_concurrent:
            return self.config.max_concurrent
        own = int(self._host_jobs()["limit"])
        others = [h for h in self.hosts if not h.get("lost") and h.get("id") != self.host]
        return own + sum(int(h.get("jobsLimit") or own) for h in others)

    # -- the loop ----------------------------------------------------------------------------

    async def run(self) -> None:
        """Check, heartbeat, follow the fleet-wide value and relay events until cancelled."""
        relay = asyncio.create_task(self._relay())
        due = 0.0
        try:
            while True:
                honour_cancel()
                if await self.check() and time.monotonic() >= due:
                    try:
                        await self._tick()
                        due = time.monotonic() + self.heartbeat
                    except redis_errors() as exc:
                        self.fault(exc)
                await asyncio.sleep(min(TICK_SECONDS, self.heartbeat))
        finally:
            if self._releasing:  # locks given back while stopping: let them reach Redis
                await asyncio.wait(set(self._releasing), timeout=COMMAND_SECONDS)
            relay.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await relay
            with contextlib.suppress(Exception):
                async with asyncio.timeout(COMMAND_SECONDS):
                    await self._leave()
            with contextlib.suppress(Exception):
                await self.client.aclose()

    async def _tick(self) -> None:
        """One heartbeat: renew what this host holds first, then announce and read."""
        for grant in list(self._grants):
            if not await renew(self.client, grant.lease):
                _log.warning("fleet: the lock on %s ran out before it was renewed", grant.workspace)
        await self.budget.renew()
        await announce(self.client, self.keys, self.record("ok"), ttl=self.ttl)
        self.hosts = await read_hosts(self.client, self.keys)
        await self._follow_enabled(await self.client.get(self.keys.enabled))
        while self._outgoing:
            record, event = self._outgoing[0]
            fields: dict[Any, Any] = wire_fields(record)
            entry = await self.client.xadd(
                self.keys.events, fields, maxlen=EVENTS_KEPT, approximate=True
            )
            self._mine[str(entry)] = event
            while len(self._mine) > MINE_KEPT:
                self._mine.popitem(last=False)
            self._outgoing.popleft()

    async def _follow_enabled(self, raw: object) -> None:
        """The fleet-wide value: ``1``, ``0`` or absent; anything else is ignored (and said)."""
        if raw is None:
            value = None
        elif raw in ("0", "1"):
            value = raw == "1"
        else:
            _log.warning("fleet: ignoring the fleet-wide on/off value in Redis: not 0 or 1")
            value = None
        first, self.heard = not self.heard, True
        if value == self.shared_enabled and not first:
            return
        self.shared_enabled = value
        await self._on_enabled(value)

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
            "lastError": clean_text(self.last_error) if self.last_error else None,
            "leads": sorted(self.leadership.leading),
            "state": state,
        }

    # -- events for owners -------------------------------------------------------------------

    def _event(self, kind: str, message: str) -> None:
        stamp = format_instant(self.clock.now())
        event = HealthEvent(kind, f"fleet {self.keys.name}", f"{message} (host {self.host})", stamp)
        _log.warning("health: %s: %s", event.workspace, event.message)
        self._note(event)
        wire = "fleet-degraded" if kind == "degraded" else local_kind(kind)
        self._outgoing.append((EventRecord(kind=wire, host=self.host, at=stamp), event))  # type: ignore[arg-type]

    def share(self, event: HealthEvent) -> None:
        """Send ``event`` to every host's adapters (kept here while Redis is away)."""
        record = decode_fields(
            {"kind": event.kind, "host": self.host, "at": event.at, "workspace": event.workspace},
            EventRecord,
        )
        if record is None:
            _log.warning("fleet: not sharing a %s event the fleet cannot carry", event.kind)
            return
        self._outgoing.append((record, event))

    async def _relay(self) -> None:
        last = "$"
        while True:
            honour_cancel()
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
                    self._hand_on(str(entry_id), fields)

    def _hand_on(self, entry_id: str, fields: Any) -> None:
        """Deliver one stream entry: this host's own event as raised, any other composed."""
        mine = self._mine.pop(entry_id, None)
        if mine is not None:
            self._deliver(mine)
            return
        record = decode_fields(dict(fields) if isinstance(fields, dict) else {}, EventRecord)
        if record is None:
            _log.warning(
                "fleet: ignoring an event in Redis that dreamd did not write (%s)", entry_id
            )
            return
        self._deliver(compose(record, self._known(), fleet=self.keys.name))

    # -- what hosts share --------------------------------------------------------------------

    async def set_enabled(self, enabled: bool | None) -> None:
        """Set the fleet-wide ``/dreaming on|off`` value (``None`` clears it)."""
        try:
            if enabled is None:
                await self.client.delete(self.keys.enabled)
            else:
                await self.client.set(self.keys.enabled, "1" if enabled else "0")
        except redis_errors() as exc:
            self.fault(exc)
            raise FleetError(
                f"{self._reason(exc)}; the fleet-wide value was not changed, try again later"
            ) from exc
        self.shared_enabled = enabled

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
            "heartbeatSeconds": self.heartbeat,
            "hostTtlSeconds": self.ttl,
            "takeoverWindowSeconds": self.window.total_seconds(),
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

    def window_end(self, slot: str | None, until: datetime) -> datetime:
        """Until when ``slot`` stays open for takeovers (and for waiting on a held workspace)."""
        began = parse_instant(slot) if slot else None
        if began is None:
            return until
        return min(until, began + self.window)

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
        closes = self.window_end(slot, until)
        while True:
            honour_cancel()
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
                outcome = await self._attempt(path, agents, slot, hold, run, closes)
            except redis_errors() as exc:
                self.fault(exc)
                continue
            if outcome is not None:
                return outcome
            if slot and self.clock.now() >= closes:
                return _outcome(
                    path,
                    agents,
                    "skipped",
                    f"another host held it when the {slot} slot's takeover window closed at "
                    f"{format_instant(closes)}",
                )
            await asyncio.sleep(BUSY_SECONDS)

    async def _wait(self, until: datetime) -> bool:
        """Wait for Redis to come back, at most until ``until``; whether it did."""
        seconds = max(0.0, (until - self.clock.now()).total_seconds())
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self.connected.wait()
        return self.connected.is_set()

    async def _attempt(
        self,
        path: str,
        agents: Sequence[str],
        slot: str | None,
        hold: Hold,
        run: Runner,
        closes: datetime,
    ) -> dict[str, Any] | None:
        """One try: ``None`` when another host holds the workspace (or the grant was lost).

        Everything happens under the host slot, so a host has at most its budget of workspaces
        talking to Redis at once, however many are waiting.
        """
        async with hold():
            if slot and (done := await swept_for(self.client, self.keys, path, slot)):
                return _outcome(path, agents, "skipped", _done_text(done, slot))
            return await self._locked(path, agents, slot, run, closes)

    async def _take(self, path: str, slot: str | None) -> Taken:
        """Take ``path``'s lease; a take finishing after its waiter was cancelled is undone."""
        keys = self.keys
        attempt = asyncio.ensure_future(
            take(
                self.client,
                keys.lock(path),
                keys.fence(path),
                self.host,
                ttl=self.ttl,
                claims=keys.claims,
                field_=path,
                slot=slot or "",
                at=format_instant(self.clock.now()),
            )
        )
        try:
            return await asyncio.shield(attempt)
        except asyncio.CancelledError:

            def settle(done: asyncio.Future[Taken]) -> None:
                if not done.cancelled() and done.exception() is None:
                    lease = done.result().lease
                    if lease is not None:
                        self._give_back(Grant(lease, path))

            attempt.add_done_callback(settle)
            raise

    def _takeover(self, grant: Grant, slot: str | None) -> TakeoverRecord | None:
        """The takeover ``grant`` is, when its lock was claimed for ``slot`` by an unfinished
        grant of another host (or of an earlier run of this one)."""
        before = grant.lease.previous
        if not slot or before is None or before.slot != slot:
            return None
        if before.host == self.host and (grant.workspace, before.token) in self._tokens:
            return None  # this host's own earlier try in this slot (it was fenced off)
        return TakeoverRecord(
            host=self.host,
            lost=before.host,
            workspace=grant.workspace,
            slot=slot,
            at=format_instant(self.clock.now()),
            claimed_at=before.at,
        )

    async def _locked(
        self, path: str, agents: Sequence[str], slot: str | None, run: Runner, closes: datetime
    ) -> dict[str, Any] | None:
        async with self.budget.lease(path):
            taken = await self._take(path, slot)
            if taken.lease is None:
                return None
            grant = Grant(taken.lease, path)
            self._grants.add(grant)
            self._tokens.add((path, grant.token))
            try:
                if slot and (done := await swept_for(self.client, self.keys, path, slot)):
                    return _outcome(path, agents, "skipped", _done_text(done, slot))
                takeover = self._takeover(grant, slot)
                if takeover is not None and self.clock.now() >= closes:
                    return _outcome(
                        path,
                        agents,
                        "skipped",
                        f"host {takeover.lost} took it for the {slot} slot and did not finish; "
                        f"the takeover window closed at {format_instant(closes)}, so it waits "
                        "for the next slot",
                    )
                if takeover is not None:
                    _log.info(
                        "fleet: taking over %s for the %s slot from host %s (it took the "
                        "workspace at %s and did not finish)",
                        path, slot, takeover.lost, takeover.claimed_at,
                    )  # fmt: skip
                outcome = await run(fence_of(self.url, grant))
                if outcome["status"] == "stopped":
                    return outcome
                if outcome["status"] == "error" and not await self._held(grant):
                    return None  # fenced off (lost lease, outage): the slot is still to do
                record = SweepRecord(
                    host=self.host,
                    at=format_instant(self.clock.now()),
                    status=outcome["status"],
                    slot=slot or "",
                    takeover=takeover,
                )
                recorded = await record_sweep(
                    self.client, self.keys, path, record, lease=grant.lease, slot=slot
                )
                if recorded and takeover is not None:
                    self._took_over(takeover)
                    outcome = {**outcome, "takeover": {"lost": takeover.lost}}
                return outcome
            finally:
                self._grants.discard(grant)
                self._give_back(grant)

    async def _held(self, grant: Grant) -> bool:
        """Whether ``grant`` is still the newest (False too when Redis cannot say)."""
        lease = grant.lease
        try:
            return await is_current(self.client, lease.key, lease.counter, lease.value, lease.token)
        except redis_errors() as exc:
            self.fault(exc)
            return False

    def _took_over(self, takeover: TakeoverRecord) -> None:
        """Raise the ``takeover`` event (typed for the other hosts, worded for this one's)."""
        labels = self._known().get(takeover.workspace)
        where = ", ".join(labels) if labels else takeover.workspace
        message = (
            f"host {self.host} swept this workspace for the {takeover.slot} slot in place of "
            f"host {takeover.lost}, which had taken it at {takeover.claimed_at} and did not finish"
        )
        event = HealthEvent("takeover", where, message, takeover.at)
        _log.warning("health: %s: %s", event.workspace, event.message)
        self._note(event)
        record = EventRecord(
            kind="takeover",
            host=self.host,
            at=takeover.at,
            workspace=takeover.workspace,
            lost=takeover.lost,
            slot=takeover.slot,
        )
        self._outgoing.append((record, event))

    def _give_back(self, grant: Grant) -> None:
        """Release ``grant`` without waiting: the host slot frees at once."""

        async def give_back() -> None:
            with contextlib.suppress(*redis_errors()):
                await release(self.client, grant.lease)

        releasing = asyncio.ensure_future(give_back())
        self._releasing.add(releasing)
        releasing.add_done_callback(self._releasing.discard)


def _done_text(done: SweepRecord, slot: str) -> str:
    return f"swept for the {slot} slot by {done.host} at {done.at}"
