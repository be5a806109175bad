"""The scheduler under a fake clock: fires, heartbeat, owner, catch-up after suspend, no overlap."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from dreamd.daemon.scheduler import Scheduler, ScheduleSettings
from dreamd.host.state import load_host_state


class FakeClock:
    """Wall and monotonic time that move only when told; sleeping returns at once."""

    def __init__(self, start: datetime) -> None:
        self.wall = start
        self.mono = 1000.0

    def now(self) -> datetime:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    async def sleep(self, seconds: float) -> None:
        self.advance(seconds)
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        """Time passes while the host runs: both clocks move."""
        self.wall += timedelta(seconds=seconds)
        self.mono += seconds

    def suspend(self, seconds: float) -> None:
        """The host sleeps: wall time moves, monotonic time does not."""
        self.wall += timedelta(seconds=seconds)


START = datetime(2026, 11, 29, 2, 59, 0, tzinfo=UTC)


def scheduler(
    clock: FakeClock,
    sweeps: list[str],
    *,
    owner: str | None = "main",
    heartbeat: float | None = 60.0,
    enabled: bool = True,
    catch_up: bool = True,
    delay: float = 0.0,
) -> Scheduler:
    """A scheduler for '0 3 * * *' in UTC whose sweep records its reason."""

    async def sweep(reason: str) -> None:
        sweeps.append(reason)
        if delay:
            await asyncio.sleep(delay)

    settings = ScheduleSettings("0 3 * * *", UTC, catch_up, owner, heartbeat)
    return Scheduler(settings, sweep=sweep, enabled=lambda: enabled, clock=clock)


def pending() -> list[dict[str, object]]:
    """The pending events in host state."""
    events: list[dict[str, object]] = (load_host_state().get("schedule") or {}).get("pending") or []
    return events


async def test_fire_queues_for_the_owner_and_the_heartbeat_runs_it() -> None:
    """A fire queues one event; the heartbeat sweeps and clears it."""
    clock, sweeps = FakeClock(START), []
    sched = scheduler(clock, sweeps)
    await sched.on_start()
    assert await sched.on_fire() is True
    assert await sched.on_fire() is True  # a second fire before the heartbeat collapses
    assert [(e["owner"], e["reason"]) for e in pending()] == [("main", "cron")]
    assert await sched.on_heartbeat() is True
    assert sweeps == ["cron"]
    assert pending() == []
    assert load_host_state()["schedule"]["lastRunAt"] == "2026-11-29T02:59:00.000Z"
    assert await sched.on_heartbeat() is False


async def test_no_owner_queues_nothing() -> None:
    """A fleet without a system agent records the fire but never sweeps."""
    clock, sweeps = FakeClock(START), []
    sched = scheduler(clock, sweeps, owner=None)
    assert await sched.on_fire() is False
    assert pending() == []
    assert load_host_state()["schedule"]["lastFireAt"] == "2026-11-29T02:59:00.000Z"


async def test_heartbeat_off_leaves_events_pending_with_their_age() -> None:
    """With the owner's heartbeat off, the event waits and its age grows."""
    clock, sweeps = FakeClock(START), []
    sched = scheduler(clock, sweeps, heartbeat=None)
    await sched.on_fire()
    clock.advance(600)
    assert await sched.on_heartbeat() is False
    assert sweeps == []
    assert [(e["reason"], e["ageSeconds"]) for e in sched.statistics()["pending"]] == [
        ("cron", 600)
    ]


async def test_disabled_dreaming_fires_nothing() -> None:
    """When dreaming is off, a fire queues nothing and no catch-up happens."""
    clock, sweeps = FakeClock(START), []
    sched = scheduler(clock, sweeps, enabled=False)
    assert await sched.on_fire() is False
    assert await sched.check_missed() is False
    assert pending() == []


async def test_suspend_over_a_fire_catches_up_once() -> None:
    """A host asleep through three 03:00 fires re-anchors and queues exactly one sweep."""
    clock, sweeps = FakeClock(START), []
    sched = scheduler(clock, sweeps)
    await sched.on_start()
    clock.suspend(3 * 86_400)
    assert await sched.check_clock() is True
    assert sched.reanchors == 1
    assert [e["reason"] for e in pending()] == ["catch-up"]
    assert await sched.check_clock() is False  # no new jump, nothing more
    assert await sched.check_missed() is False  # the catch-up counts as the fire
    assert await sched.on_heartbeat() is True
    assert sweeps == ["catch-up"]


async def test_catch_up_can_be_turned_off() -> None:
    """With dreaming.catch_up = false a missed fire is not run."""
    clock, sweeps = FakeClock(START), []
    sched = scheduler(clock, sweeps, catch_up=False)
    await sched.on_start()
    clock.suspend(86_400)
    assert await sched.check_clock() is True
    assert pending() == []


async def test_missed_fire_while_the_daemon_was_down() -> None:
    """A daemon started after a fire it missed (it ran before) catches up on start."""
    clock, sweeps = FakeClock(START), []
    first = scheduler(clock, sweeps)
    await first.on_start()
    await first.on_fire()
    await first.on_heartbeat()
    clock.advance(2 * 86_400)
    second = scheduler(clock, sweeps)
    await second.on_start()
    assert [e["reason"] for e in pending()] == ["catch-up"]


async def test_sweeps_never_overlap() -> None:
    """A run requested while one is in progress is refused."""
    clock, sweeps = FakeClock(START), []
    sched = scheduler(clock, sweeps, delay=0.05)
    first = asyncio.create_task(sched.run_now())
    await asyncio.sleep(0.01)
    assert sched.running
    assert await sched.run_now() is False
    assert await first is True
    assert sweeps == ["manual"]


async def test_run_stops_when_asked() -> None:
    """The scheduler's run loop returns promptly once its stop event is set."""
    clock, sweeps = FakeClock(START), []
    sched = scheduler(clock, sweeps)
    stop = asyncio.Event()
    task = asyncio.create_task(sched.run(stop))
    await asyncio.sleep(0.05)
    stop.set()
    await asyncio.wait_for(task, 2)
    assert task.exception() is None
