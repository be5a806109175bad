"""The soak run, in a process of its own: ``python -m tests.soak_daemon FOLDER``.

``tests/test_soak.py`` starts it and checks what it prints. A real :class:`Daemon` (control API,
job budget, worker processes, scheduler) runs with a clock that moves only when told. Each round
moves the clock to the next cron time, fires the cron the way aiocron would, and moves it on by
one heartbeat so the owner's heartbeat runs the queued sweep. After a warm-up the run measures
this process's RSS, its asyncio tasks and its open file descriptors, runs the remaining sweeps,
measures again, stops the daemon and measures a last time.

A process of its own, because a test worker also holds what earlier tests left (threads,
sockets): a descriptor one of those opens meanwhile would count against the daemon.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import time
from datetime import UTC, datetime, timedelta
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any

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


async def soak(folder: Path) -> dict[str, Any]:
    """Run the sweeps in ``folder``; what was measured before, warm, at the end and after stop."""
    os.chdir(folder)
    _workspace(folder / "ws")
    config = folder / "config.toml"
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
    return {
        "code": code,
        "runs": daemon.scheduler.runs,
        "statuses": [outcome["status"] for outcome in outcomes],
        "seconds": round(elapsed, 1),
        "rss_kb": {"warm": rss_warm, "end": rss_end},
        "tasks": {
            "before": tasks_before,
            "warm": tasks_warm,
            "end": tasks_end,
            "after": len(asyncio.all_tasks()),
        },
        "fds": {"before": fds_before, "warm": fds_warm, "end": fds_end, "after": _fds()},
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(soak(Path(sys.argv[1])))))
