"""Fleet locks, fences, the fleet budget and host records against a real Redis."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.config import DreamingConfig
from dreamd.errors import FencedError
from dreamd.fleet.budget import FleetBudget
from dreamd.fleet.connection import async_client
from dreamd.fleet.keys import Keys
from dreamd.fleet.locks import Leadership, LockMaker, release
from dreamd.fleet.registry import announce, read_document
from dreamd.runs.sweep import sweep_workspace
from tests.fakes.host import make_host
from tests.fleet.conftest import RedisServer

KEYS = Keys("test")


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_a_newer_grant_fences_off_the_old_holder(redis_server: RedisServer) -> None:
    """While one host holds a workspace nobody else gets it; once a newer grant exists, the
    old holder's fence refuses and the new one's passes."""
    first, second = LockMaker(redis_server.url, KEYS), LockMaker(redis_server.url, KEYS)
    old = first.take_workspace("/ws")
    assert old is not None
    assert second.take_workspace("/ws") is None
    stale = first.fence(old)
    stale()  # still the newest grant
    release(old.lock)  # the old holder's lock is gone (a partition, a pause) ...
    new = second.take_workspace("/ws")
    assert new is not None and new.token == old.token + 1
    with pytest.raises(FencedError, match="passed to another holder"):
        stale()  # ... and it may not write over the new holder
    second.fence(new)()
    release(new.lock)


def test_the_fence_refuses_without_redis(tmp_path: Path) -> None:
    """A fence that cannot ask Redis refuses the write."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    grant = LockMaker(server.url, KEYS).take_workspace("/ws")
    assert grant is not None
    fence = LockMaker(server.url, KEYS).fence(grant)
    server.stop()
    with pytest.raises(FencedError, match="cannot be asked"):
        fence()


def test_the_writer_stops_at_the_fence(tmp_path: Path) -> None:
    """A sweep whose fence refuses writes nothing: every workspace file is as it was."""
    _, root, _ = make_host(tmp_path)
    before = _files(root)

    def refuse() -> None:
        raise FencedError("/ws: the fleet lock passed to another holder")

    outcome = sweep_workspace(root, DreamingConfig(), now=datetime.now(UTC), zone=UTC, fence=refuse)
    assert (outcome.status, outcome.error) == (
        "error",
        "/ws: the fleet lock passed to another holder",
    )
    after = _files(root)
    assert {k: v for k, v in after.items() if not k.endswith("lock")} == {
        k: v for k, v in before.items() if not k.endswith("lock")
    }


async def test_the_fleet_budget_is_shared_by_hosts(redis_server: RedisServer) -> None:
    """Two hosts with a fleet limit of 2: a third job waits until one of the two ends."""
    client = async_client(redis_server.url)
    a = FleetBudget(client, KEYS, "a", limit=lambda: 2)
    b = FleetBudget(client, KEYS, "b", limit=lambda: 2)
    order: list[str] = []
    release_first = asyncio.Event()

    async def job(budget: FleetBudget, name: str, hold: asyncio.Event | None) -> None:
        async with budget.lease(name):
            order.append(f"{name} in")
            if hold is not None:
                await hold.wait()
        order.append(f"{name} out")

    first = asyncio.create_task(job(a, "a1", release_first))
    second = asyncio.create_task(job(b, "b1", asyncio.Event()))
    await asyncio.sleep(0.3)
    third = asyncio.create_task(job(b, "b2", None))
    await asyncio.sleep(0.6)
    assert (sorted(order), await a.in_use()) == (["a1 in", "b1 in"], 2)
    release_first.set()
    await asyncio.wait_for(third, 5)
    assert order[2:] == ["a1 out", "b2 in", "b2 out"]
    second.cancel()
    await asyncio.gather(first, second, return_exceptions=True)
    await client.aclose()


async def test_leadership_moves_when_the_leader_goes(redis_server: RedisServer) -> None:
    """One host leads an adapter; when it stops leading, the standing-by host takes over."""
    one = Leadership(LockMaker(redis_server.url, KEYS), retry=0.1)
    two = Leadership(LockMaker(redis_server.url, KEYS), retry=0.1)
    led: list[str] = []
    step_down = asyncio.Event()

    async def lead(who: Leadership, name: str, until: asyncio.Event) -> None:
        async with who.lead("telegram") as lost:
            led.append(name)
            await asyncio.wait(
                [asyncio.create_task(until.wait()), asyncio.create_task(lost.wait())],
                return_when=asyncio.FIRST_COMPLETED,
            )

    first = asyncio.create_task(lead(one, "one", step_down))
    await asyncio.sleep(0.5)
    second = asyncio.create_task(lead(two, "two", asyncio.Event()))
    await asyncio.sleep(0.5)
    assert (led, one.leading, two.leading) == (["one"], {"telegram"}, set())
    step_down.set()
    await first
    started = time.monotonic()
    while led != ["one", "two"] and time.monotonic() - started < 5:
        await asyncio.sleep(0.05)
    assert (led, one.leading, two.leading) == (["one", "two"], set(), {"telegram"})
    second.cancel()
    await asyncio.gather(second, return_exceptions=True)


async def test_a_silent_host_shows_as_lost(redis_server: RedisServer) -> None:
    """A host whose announcement ran out is lost; one that said it stopped is not."""
    client = async_client(redis_server.url)
    await announce(client, KEYS, {"id": "gone", "state": "ok"}, ttl=0.2)
    await announce(client, KEYS, {"id": "stopped", "state": "stopped"}, ttl=0.001)
    await announce(client, KEYS, {"id": "here", "state": "ok"}, ttl=30)
    await asyncio.sleep(0.4)
    document = await read_document(client, KEYS, known=["/never"], jobs_limit=9)
    assert [(h["id"], h["lost"]) for h in document["hosts"]] == [
        ("gone", True),
        ("here", False),
        ("stopped", False),
    ]
    assert document["workspaces"] == [{"path": "/never", "lastSweep": None}]
    assert document["jobs"] == {"inUse": 0, "limit": 9}
    await client.aclose()
