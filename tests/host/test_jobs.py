"""The job budget: never more than 3 background jobs on the host, in one process or several."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from dreamd.errors import DreamdError
from dreamd.host.jobs import JobBudget
from tests.fakes.server import serve_app


class SlowModel:
    """A loopback HTTP endpoint that answers slowly and counts requests in flight."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.in_flight = 0
        self.peak = 0
        self.served = 0

    async def handle(self, request: web.Request) -> web.Response:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
        finally:
            self.in_flight -= 1
            self.served += 1
        return web.json_response({"choices": [{"message": {"content": "ok"}}]})


@pytest.fixture
async def model() -> AsyncIterator[tuple[SlowModel, str]]:
    """A slow model on 127.0.0.1 and its URL."""
    slow = SlowModel(delay=0.4)
    app = web.Application()
    app.router.add_post("/v1/chat/completions", slow.handle)
    async with serve_app(app) as port:
        yield slow, f"http://127.0.0.1:{port}/v1/chat/completions"


async def _jobs(budget: JobBudget, url: str, count: int) -> None:
    async with aiohttp.ClientSession() as session:

        async def one(index: int) -> None:
            async with (
                budget.slot("completion", f"job {index}"),
                session.post(url, json={"n": index}) as response,
            ):
                assert response.status == 200

        await asyncio.gather(*(one(i) for i in range(count)))


async def test_six_jobs_run_at_most_three_at_once(
    model: tuple[SlowModel, str], tmp_path: Path
) -> None:
    """Six jobs against a slow model: never more than 3 in flight, and more than 1 at once."""
    slow, url = model
    budget = JobBudget(3, tmp_path / "slots")
    await _jobs(budget, url, 6)
    assert slow.served == 6
    assert slow.peak == 3
    assert budget.statistics()["peak"] == 3
    assert budget.statistics()["inUse"] == 0


WORKER = """
import asyncio, sys
from pathlib import Path
import aiohttp
from dreamd.host.jobs import JobBudget

async def main() -> None:
    budget = JobBudget(3, Path(sys.argv[1]))
    async with aiohttp.ClientSession() as session:
        async def one(i):
            async with budget.slot("completion"):
                async with session.post(sys.argv[2], json={"n": i}) as response:
                    assert response.status == 200
        print("start", flush=True)
        await asyncio.gather(*(one(i) for i in range(6)))

asyncio.run(main())
"""


async def test_the_budget_is_shared_across_processes(
    model: tuple[SlowModel, str], tmp_path: Path
) -> None:
    """Two processes with six jobs each still never exceed 3 requests in flight together."""
    slow, url = model
    slots = tmp_path / "slots"
    env = {**os.environ, "NO_PROXY": "127.0.0.1"}
    worker = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WORKER, str(slots), url, stdout=subprocess.PIPE, env=env
    )
    assert worker.stdout is not None
    assert (await worker.stdout.readline()).strip() == b"start"
    await _jobs(JobBudget(3, slots), url, 6)
    assert await worker.wait() == 0
    assert slow.served == 12
    assert slow.peak == 3


async def test_a_cancelled_waiter_leaks_no_slot(tmp_path: Path) -> None:
    """Cancelling a job that waits for a slot leaves all slots free afterwards."""
    budget = JobBudget(1, tmp_path / "slots")
    release = asyncio.Event()

    async def holder() -> None:
        async with budget.slot("sweep"):
            await release.wait()

    held = asyncio.create_task(holder())
    await asyncio.sleep(0.05)
    waiter = asyncio.create_task(holder())
    await asyncio.sleep(0.3)  # it polls for the cross-process slot meanwhile
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    release.set()
    await held
    await asyncio.sleep(0.2)  # a poll that won after the cancel gives its slot back
    async with asyncio.timeout(2):
        async with budget.slot("sweep"):
            assert budget.statistics()["inUse"] == 1


async def test_cli_hold_gives_up_with_a_clear_error(tmp_path: Path) -> None:
    """A CLI command that cannot get a slot in time says why."""
    budget = JobBudget(1, tmp_path / "slots")
    async with budget.slot("sweep"):

        def blocked() -> None:
            with JobBudget(1, tmp_path / "slots").hold("promote", timeout=0.3):
                pass

        with pytest.raises(DreamdError, match="job slots stayed busy"):
            await asyncio.to_thread(blocked)
