"""The sweep worker pool: spawned processes at the configured niceness, resized on reload."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.daemon.workers import Workers, niceness_step

NICE_NOW = os.nice(0)


def _identity() -> tuple[int, int]:
    """In the worker: its pid and niceness."""
    return os.getpid(), os.nice(0)


@given(st.integers(0, 19), st.integers(0, 19))
def test_the_step_reaches_the_target_and_never_raises_a_priority(current: int, target: int) -> None:
    step = niceness_step(current, target)
    assert step >= 0
    assert current + step == max(current, target)


@pytest.mark.skipif(NICE_NOW > 5, reason="the test process is already nicer than the targets")
def test_workers_run_at_the_configured_niceness_and_follow_a_reload() -> None:
    async def scenario() -> list[tuple[int, int]]:
        workers = Workers(1, nice=7)
        try:
            seen = [await workers.run(_identity), await workers.run(_identity)]
            workers.reconfigure(1, nice=11)  # idle: the next job starts a new pool
            seen.append(await workers.run(_identity))
            workers.reconfigure(1, nice=11)  # the same settings keep the pool
            seen.append(await workers.run(_identity))
            return seen
        finally:
            await asyncio.to_thread(workers.shutdown)

    first, again, reloaded, kept = asyncio.run(scenario())
    assert (first[1], again[1], reloaded[1], kept[1]) == (7, 7, 11, 11)
    assert first[0] == again[0] != reloaded[0] == kept[0]
    assert os.getpid() not in {first[0], reloaded[0]}
    assert not _alive(reloaded[0])  # shut down: the idle worker is gone, and reaped


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(NICE_NOW > 5, reason="the test process is already nicer than the targets")
def test_a_busy_pool_is_replaced_only_once_its_jobs_are_done() -> None:
    async def scenario() -> tuple[int, int, int]:
        workers = Workers(2, nice=8)
        try:
            slow = asyncio.ensure_future(workers.run(_sleep_then_identity, 1.0))
            await asyncio.sleep(0.3)  # the slow job is running in the old pool
            workers.reconfigure(2, nice=12)
            during = await workers.run(_identity)  # still the old pool: it is busy
            old = await slow
            after = await workers.run(_identity)
            return old[1], during[1], after[1]
        finally:
            await asyncio.to_thread(workers.shutdown)

    assert asyncio.run(scenario()) == (8, 8, 12)


def _sleep_then_identity(seconds: float) -> tuple[int, int]:
    import time

    time.sleep(seconds)
    return _identity()


def _mark_then_finish(folder: str, seconds: float) -> None:
    """In the worker: say it started, work ``seconds``, then say it finished."""
    import time
    from pathlib import Path

    Path(folder, "started").touch()
    time.sleep(seconds)
    Path(folder, "finished").touch()


def test_a_job_runs_to_its_end_though_its_waiter_was_cancelled(tmp_path: Path) -> None:
    """Shutdown waits for a running job even when nobody awaits it any more (a sweep or a fold
    whose task was cancelled while the daemon stops); only then are the workers ended."""

    async def scenario() -> None:
        workers = Workers(1, nice=3)
        waiter = asyncio.ensure_future(workers.run(_mark_then_finish, str(tmp_path), 1.0))
        for _ in range(300):
            if (tmp_path / "started").exists():
                break
            await asyncio.sleep(0.05)
        waiter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiter
        await asyncio.to_thread(workers.shutdown)

    asyncio.run(scenario())
    assert (tmp_path / "started").exists() and (tmp_path / "finished").exists()


def test_no_job_starts_once_shutdown_began() -> None:
    async def scenario() -> None:
        workers = Workers(1, nice=4)
        await workers.run(_identity)
        await asyncio.to_thread(workers.shutdown)
        with pytest.raises(RuntimeError, match="shut down"):
            await workers.run(_identity)

    asyncio.run(scenario())
