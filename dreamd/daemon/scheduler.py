"""The managed sweep job: cron fires queue an event, the owner's heartbeat runs it.

Flow (SPEC §10): aiocron wakes :meth:`Scheduler.on_fire` at ``dreaming.frequency`` in the
dreaming timezone; the fire records ``lastFireAt`` and queues one pending sweep event for the
owner (pending events collapse into one). The owner's heartbeat (:meth:`on_heartbeat`, every
``heartbeat.every``) runs pending events. No owner, or an owner whose heartbeat is off, means
events wait and status says ``blocked``. A watch task notices suspend/resume and clock steps
(wall time moving against monotonic time), re-anchors the cron (aiocron otherwise stays late by
the sleep) and queues one missed fire (``dreaming.catch_up``). Sweeps never overlap. Every
decision reads the injected :class:`Clock`, so tests drive it without waiting; host-state
writes run in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from dreamd.clock import format_instant, parse_instant
from dreamd.host.clock import Clock, SystemClock
from dreamd.host.schedule import clock_jumped, missed_fire, next_fire
from dreamd.host.state import load_host_state, update_host_state

__all__ = ["ScheduleSettings", "Scheduler"]

_log = logging.getLogger(__name__)
WATCH_SECONDS = 15.0


@dataclass(frozen=True)
class ScheduleSettings:
    """What the scheduler needs from the configuration and discovery."""

    expression: str
    zone: tzinfo
    catch_up: bool
    owner: str | None
    heartbeat_seconds: float | None  # None: the owner's heartbeat is off


SweepRunner = Callable[[str], Awaitable[Any]]


class Scheduler:
    """One host's sweep schedule (see the module rules)."""

    def __init__(
        self,
        settings: ScheduleSettings,
        *,
        sweep: SweepRunner,
        enabled: Callable[[], bool],
        clock: Clock | None = None,
    ) -> None:
        self.settings = settings
        self._sweep = sweep
        self._enabled = enabled
        self.clock: Clock = clock or SystemClock()
        self._running: asyncio.Lock | None = None
        self._offset = self._wall_offset()
        self._cron: Any = None
        self.fires = 0
        self.runs = 0
        self.reanchors = 0

    def _wall_offset(self) -> float:
        return self.clock.now().timestamp() - self.clock.monotonic()

    @property
    def running(self) -> bool:
        """True while a sweep is in progress."""
        return self._running is not None and self._running.locked()

    async def _update(self, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        now = self.clock.now()
        return await asyncio.to_thread(update_host_state, change, now=now)

    async def on_start(self) -> None:
        """Record when scheduling began (once), then catch up a fire missed while down."""
        stamp = format_instant(self.clock.now())

        def begin(document: dict[str, Any]) -> None:
            document.setdefault("schedule", {}).setdefault("scheduledSince", stamp)

        await self._update(begin)
        await self.check_missed()

    async def on_fire(self, reason: str = "cron") -> bool:
        """A scheduled time came: record it and queue a sweep for the owner."""
        if not self._enabled():
            return False
        self.fires += 1
        stamp = format_instant(self.clock.now())
        owner = self.settings.owner

        def fire(document: dict[str, Any]) -> None:
            schedule = document.setdefault("schedule", {})
            schedule["lastFireAt"] = stamp
            pending = schedule.setdefault("pending", [])
            if owner is not None and not pending:
                pending.append(
                    {
                        "id": uuid.uuid4().hex[:12],
                        "owner": owner,
                        "reason": reason,
                        "enqueuedAt": stamp,
                    }
                )

        await self._update(fire)
        _log.info("sweep fire (%s)%s", reason, "" if owner else ": no owner, nothing queued")
        return owner is not None

    async def on_heartbeat(self) -> bool:
        """The owner's heartbeat: run the pending sweep, if any; returns whether one ran."""
        if self.settings.heartbeat_seconds is None or not self._enabled():
            return False
        pending = (load_host_state().get("schedule") or {}).get("pending") or []
        if not pending or self.running:
            return False
        ran = await self.run_now(reason=str(pending[0].get("reason", "cron")))

        def done(document: dict[str, Any]) -> None:
            schedule = document.setdefault("schedule", {})
            schedule["pending"] = []
            schedule["lastRunAt"] = format_instant(self.clock.now())

        if ran:
            await self._update(done)
        return ran

    async def run_now(self, reason: str = "manual") -> bool:
        """Sweep now unless one is already running (returns False then)."""
        if self._running is None:
            self._running = asyncio.Lock()
        if self._running.locked():
            return False
        async with self._running:
            self.runs += 1
            await self._sweep(reason)
        return True

    async def check_missed(self) -> bool:
        """Queue one missed fire since the last one (or since scheduling began)."""
        if not self.settings.catch_up or not self._enabled():
            return False
        schedule = load_host_state().get("schedule") or {}
        marks = [parse_instant(schedule.get(k) or "") for k in ("lastFireAt", "scheduledSince")]
        known = [mark for mark in marks if mark is not None]
        if not known:
            return False
        missed = missed_fire(
            self.settings.expression, self.settings.zone, max(known), self.clock.now()
        )
        if missed is None:
            return False
        return await self.on_fire(reason="catch-up")

    async def check_clock(self) -> bool:
        """After a suspend or clock step: re-anchor the cron and catch up once."""
        offset = self._wall_offset()
        if not clock_jumped(self._offset, offset):
            return False
        _log.info(
            "clock moved by %.0fs against monotonic time; re-anchoring", offset - self._offset
        )
        self._offset = offset
        self.reanchors += 1
        if self._cron is not None:
            self._cron.stop()
            self._cron.start()
        await self.check_missed()
        return True

    def next_fire(self) -> datetime:
        """When the cron fires next."""
        return next_fire(self.settings.expression, self.settings.zone, self.clock.now())

    async def run(self, stop: asyncio.Event) -> None:
        """Run until ``stop``: the cron, the heartbeat and the clock watch."""
        import aiocron

        await self.on_start()
        if self._enabled():
            self._cron = aiocron.crontab(
                self.settings.expression, func=self.on_fire, tz=self.settings.zone, start=True
            )
        heartbeat = self.settings.heartbeat_seconds
        tasks = [
            asyncio.create_task(self._every(heartbeat, self.on_heartbeat, stop)),
            asyncio.create_task(self._every(WATCH_SECONDS, self.check_clock, stop)),
        ]
        try:
            await stop.wait()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if self._cron is not None:
                self._cron.stop()

    async def _every(
        self, seconds: float | None, action: Callable[[], Awaitable[bool]], stop: asyncio.Event
    ) -> None:
        if seconds is None:
            return
        while not stop.is_set():
            try:
                await action()
            except Exception:  # noqa: BLE001 - one failed tick must not end the schedule
                _log.exception("scheduler task failed; it will run again")
            await self.clock.sleep(seconds)

    def statistics(self) -> dict[str, Any]:
        """Counts and state for status and metrics."""
        schedule = load_host_state().get("schedule") or {}
        now = self.clock.now()
        pending = [
            {**event, "ageSeconds": round((now - moment).total_seconds())}
            for event in schedule.get("pending") or []
            if (moment := parse_instant(str(event.get("enqueuedAt", "")))) is not None
        ]
        return {
            "nextFire": format_instant(self.next_fire()),
            "lastFireAt": schedule.get("lastFireAt"),
            "lastRunAt": schedule.get("lastRunAt"),
            "pending": pending,
            "running": self.running,
            "fires": self.fires,
            "runs": self.runs,
            "reanchors": self.reanchors,
            "heartbeatSeconds": self.settings.heartbeat_seconds,
        }
