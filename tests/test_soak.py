"""Soak: the daemon, under a fake clock, runs 1,000 scheduled sweeps without growing.

A real :class:`Daemon` (control API, job budget, worker processes, scheduler) runs in this
process with a clock that moves only when the test says so. Each round moves the clock to the
next cron time, fires the cron the way aiocron would, and moves it on by one heartbeat so the
owner's heartbeat runs the queued sweep. After a warm-up the test measures this process's RSS,
its asyncio tasks and its open file descriptors, runs the remaining sweeps, and measures again;
after the daemon stops, tasks and descriptors are back where they were before it started.
"""

from __future__ import annotations

import asyncio
import gc
import time
from datetime import UTC, datetime, timedelta
from multiprocessing import resource_tracker
from pathlib import Path

import pytest

from dreamd.clock import format_instant
from dreamd.daemon.main import Daemon
from dreamd.daemon.scheduler import Scheduler
from dreamd.engine.hits import Hit
from dreamd.host.runtime import load_runtime
from dreamd.host.state import load_host_state
from dreamd.recall.record import record_search
from tests.processes import scaled

SWEEPS = 1_000
WARM_UP = 50
RSS_LIMIT_KB = 5 * 1024
START = datetime(2026, 11, 29, 2, 0, tzinfo=UTC)
HEARTBEAT_SECONDS = 60.0
LOOPS = 2  # the scheduler's heartbeat and clock-watch loops
FACTS = [
    "- The billing service runs on Postgres 16 on host db-02.",
    "- Ana owns the release checklist for every tagged release.",
]
CONFIG = """
[dreaming]
frequency = "0 3 * * *"
timezone = "UTC"

[agents.heartbeat]
every = "1m"

[jobs]
nice = 0  # leaks are measured here, not priority: the suite's other processes must not starve it

[[agents.list]]
id = "main"
workspace = "ws"
"""


class FakeClock:
    """Wall and monotonic time that move only when told; sleepers wake when their time comes."""

    def __init__(self, start: datetime) -> None:
        self.wall = start
        self.mono = 1000.0
        self.sleeping = 0
        self._moved = asyncio.Event()

    def now(self) -> datetime:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    async def sleep(self, seconds: float) -> None:
        deadline = self.mono + seconds
        self.sleeping += 1
        try:
            while self.mono < deadline:
                await self._moved.wait()
        finally:
            self.sleeping -= 1

    def advance(self, seconds: float) -> None:
        """Time passes: both clocks move and every sleeper checks its deadline."""
        self.wall += timedelta(seconds=seconds)
        self.mono += seconds
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")


def _fds() -> dict[str, str]:
    """This process's open descriptors and what each points at."""
    found = {}
    for entry in Path("/proc/self/fd").iterdir():
        try:
            found[entry.name] = str(entry.readlink())
        except FileNotFoundError:  # the descriptor listing the folder itself, now closed
            continue
    return found


def _difference(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    """Descriptors opened (``+``) or closed (``-``) between two listings."""
    opened = {f"+{fd}": after[fd] for fd in after.keys() - before.keys()}
    return {**opened, **{f"-{fd}": before[fd] for fd in before.keys() - after.keys()}}


def _workspace(root: Path) -> None:
    (root / "memory").mkdir(parents=True)
    day = (START - timedelta(days=4)).date().isoformat()
    note = f"memory/{day}.md"
    (root / note).write_text(f"# {day}\n\n" + "\n".join(FACTS) + "\n", encoding="utf-8")
    (root / "MEMORY.md").write_text("# Long-Term Memory\n\n- I prefer short answers.\n")
    for index, fact in enumerate(FACTS):
        for offset, query in enumerate(("where is", "who owns", "what runs")):
            when = START - timedelta(days=3 - offset, hours=index + 1)
            hit = Hit(note, 3 + index, 3 + index, fact, 0.9)
            record_search(root, f"{query} {index}", [hit], now=when, zone=UTC)


async def _scheduled_sweep(daemon: Daemon, clock: FakeClock) -> None:
    """Move to the next cron time, fire, let the heartbeat run the sweep; wait until it is idle.

    Idle means the scheduler's two loops (heartbeat and clock watch) sleep on the clock again,
    so the heartbeat has also recorded the finished run.
    """
    scheduler = daemon.scheduler
    runs = scheduler.runs
    clock.advance((scheduler.next_fire() - clock.now()).total_seconds())
    fired = format_instant(clock.now())
    assert await scheduler.on_fire() is True
    deadline = time.monotonic() + scaled(30)
    while not (scheduler.runs == runs + 1 and clock.sleeping == LOOPS):
        if scheduler.runs == runs and clock.sleeping == LOOPS:
            clock.advance(HEARTBEAT_SECONDS)  # the next heartbeat comes
        assert time.monotonic() < deadline, f"sweep {runs + 1} never finished"
        await asyncio.sleep(0.001)
    schedule = load_host_state()["schedule"]
    assert not schedule["pending"] and schedule["lastRunAt"] >= fired, schedule


async def _started(daemon: Daemon, initial: Scheduler) -> None:
    """Wait until the daemon's first scheduler generation has begun."""
    deadline = time.monotonic() + scaled(30)
    while daemon.scheduler is initial or "scheduledSince" not in (
        load_host_state().get("schedule") or {}
    ):
        assert time.monotonic() < deadline, "the scheduler never started"
        await asyncio.sleep(0.01)


@pytest.mark.slow
async def test_thousand_scheduled_sweeps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """1,000 sweeps: RSS grows < 5 MB after warm-up; no task or descriptor is left behind."""
    monkeypatch.chdir(tmp_path)
    _workspace(tmp_path / "ws")
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    clock = FakeClock(START)
    resource_tracker.ensure_running()  # spawned workers start it once; it lives with the process
    gc.collect()
    tasks_before, fds_before = len(asyncio.all_tasks()), _fds()
    daemon = Daemon(load_runtime(config), clock=clock)
    initial = daemon.scheduler
    ready = asyncio.Event()
    running = asyncio.create_task(daemon.run(ready=ready))
    started = time.perf_counter()
    try:
        await asyncio.wait_for(ready.wait(), 30)
        await _started(daemon, initial)
        for _ in range(WARM_UP):
            await _scheduled_sweep(daemon, clock)
        gc.collect()
        rss_warm, tasks_warm, fds_warm = _rss_kb(), len(asyncio.all_tasks()), _fds()
        for _ in range(SWEEPS - WARM_UP):
            await _scheduled_sweep(daemon, clock)
        gc.collect()
        rss_end, tasks_end, fds_end = _rss_kb(), len(asyncio.all_tasks()), _fds()
        outcomes = daemon.last_outcomes
    finally:
        daemon.request_stop()
        code = await asyncio.wait_for(running, 30)
    elapsed = time.perf_counter() - started
    gc.collect()
    tasks_after, fds_after = len(asyncio.all_tasks()), _fds()
    print(
        f"\nsoak: {daemon.scheduler.runs} sweeps in {elapsed:.1f}s; "
        f"RSS {rss_warm} kB after {WARM_UP} -> {rss_end} kB after {SWEEPS} "
        f"(growth {rss_end - rss_warm} kB); tasks {tasks_before} before, {tasks_warm} warm, "
        f"{tasks_end} end, {tasks_after} after stop; fds {len(fds_before)} before, "
        f"{len(fds_warm)} warm, {len(fds_end)} end, {len(fds_after)} after stop"
    )
    assert code == 0
    assert daemon.scheduler.runs == SWEEPS
    assert [outcome["status"] for outcome in outcomes] == ["ok"], outcomes
    assert rss_end - rss_warm < RSS_LIMIT_KB
    assert tasks_end == tasks_warm
    assert fds_end == fds_warm, _difference(fds_warm, fds_end)
    assert tasks_after == tasks_before
    assert fds_after == fds_before, _difference(fds_before, fds_after)
    memory = (tmp_path / "ws" / "MEMORY.md").read_text(encoding="utf-8")
    assert memory.count("<!-- dreamd-memory-promotion:") == len(FACTS)
