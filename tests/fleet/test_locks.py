"""Fleet locks, fences, the fleet budget and host records against a real Redis."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.config import DreamingConfig, FleetConfig
from dreamd.errors import FencedError
from dreamd.fleet.budget import FleetBudget
from dreamd.fleet.connection import async_client
from dreamd.fleet.coordinator import Fleet
from dreamd.fleet.keys import Keys
from dreamd.fleet.locks import Leadership, WorkspaceLocks
from dreamd.fleet.registry import announce, read_document
from dreamd.host.clock import SystemClock
from dreamd.runs.sweep import sweep_workspace
from tests.fakes.host import make_host
from tests.fleet.conftest import RedisServer

KEYS = Keys("test")


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def _locks(url: str, host: str, ttl: float = 30.0) -> WorkspaceLocks:
    return WorkspaceLocks(url, KEYS, host, ttl=ttl, heartbeat=ttl / 6)


def test_a_newer_grant_fences_off_the_old_holder(redis_server: RedisServer) -> None:
    """While one host holds a workspace nobody else gets it; once a newer grant exists, the
    old holder's fence refuses and the new one's passes."""
    first, second = _locks(redis_server.url, "h1"), _locks(redis_server.url, "h2")
    old = first.take("/ws")
    assert old is not None
    assert second.take("/ws") is None
    stale = first.fence(old)
    stale()  # still the newest grant
    redis_server.client().delete(KEYS.lock("/ws"))  # the old lease is gone (it ran out) ...
    new = second.take("/ws")
    assert new is not None and new.token == old.token + 1
    with pytest.raises(FencedError, match=r"ran out or passed to another holder"):
        stale()  # ... and it may not write over the new holder
    second.fence(new)()
    first.release(old)  # a release of a lease that is no longer ours leaves the new one alone
    assert redis_server.client().get(KEYS.lock("/ws")) == f"{new.token} h2"
    second.release(new)
    assert redis_server.client().get(KEYS.lock("/ws")) is None


def test_a_lease_that_is_not_renewed_runs_out(redis_server: RedisServer) -> None:
    """A holder that stops renewing (it died) loses the workspace after the time to live:
    another host then takes it with a newer token and sees whose claim it replaced."""
    dead = WorkspaceLocks(redis_server.url, KEYS, "dead", ttl=1.0, heartbeat=60.0)
    grant = dead.take("/ws", at="2026-12-02T03:00:01.000Z")
    assert grant is not None
    live = _locks(redis_server.url, "live", ttl=3.0)
    assert live.take("/ws") is None
    started = time.monotonic()
    taken = live.take("/ws", wait=5.0)
    waited = time.monotonic() - started
    assert taken is not None and 0.5 < waited < 2.5, waited
    assert taken.lease.previous is not None
    assert (taken.token, taken.lease.previous.host, taken.lease.previous.token) == (
        grant.token + 1,
        "dead",
        grant.token,
    )
    assert grant.lost
    live.release(taken)


def test_a_renewed_lease_outlives_its_time_to_live(redis_server: RedisServer) -> None:
    """A holder that keeps renewing keeps the workspace past the time to live."""
    holder = WorkspaceLocks(redis_server.url, KEYS, "h1", ttl=1.0, heartbeat=0.2)
    grant = holder.take("/ws")
    assert grant is not None
    time.sleep(2.0)
    assert (_locks(redis_server.url, "h2").take("/ws"), grant.lost) == (None, False)
    holder.fence(grant)()
    holder.release(grant)


def test_the_fence_refuses_without_redis(tmp_path: Path) -> None:
    """A fence that cannot ask Redis refuses the write."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    locks = _locks(server.url, "h1")
    grant = locks.take("/ws")
    assert grant is not None
    fence = locks.fence(grant)
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
    client = async_client(redis_server.url)
    one = Leadership(client, KEYS, "one", ttl=3.0, heartbeat=0.1)
    two = Leadership(client, KEYS, "two", ttl=3.0, heartbeat=0.1)
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
    await client.aclose()


async def test_a_leader_cut_off_stops_before_its_lease_runs_out(redis_server: RedisServer) -> None:
    """A leader that can no longer renew (Redis gone) is told it lost the adapter a heartbeat
    before its lease could run out on the server."""
    client = async_client(redis_server.url)
    leader = Leadership(client, KEYS, "one", ttl=3.0, heartbeat=0.5)
    async with leader.lead("telegram") as lost:
        taken_at = time.monotonic()
        redis_server.stop()
        await asyncio.wait_for(lost.wait(), 10)
        noticed = time.monotonic() - taken_at
    assert 1.0 < noticed < 3.0, noticed
    redis_server.start()
    await client.aclose()


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
    assert document["workspaces"] == [{"path": "/never", "lastSweep": None, "unreadable": False}]
    assert document["jobs"] == {"inUse": 0, "limit": 9}
    await client.aclose()


async def test_a_stop_that_arrives_as_a_redis_reply_lands_still_stops_the_fleet_loop(
    redis_server: RedisServer,
) -> None:
    """The daemon stops its fleet loop by cancelling it. A cancel that arrives just as Redis
    answers the health check must still end the loop: a timeout wrapper that returns the
    answer and drops the cancel left a SIGTERMed host running until it was killed."""

    async def enabled(_: bool | None) -> None:
        return None

    config = FleetConfig(redis=redis_server.url, host_id="h1", name="stopping", host_ttl_s=3.0)
    fleet = Fleet(
        config,
        clock=SystemClock(),
        host_jobs=lambda: {"limit": 1, "inUse": 0},
        on_enabled=enabled,
        deliver=lambda _: None,
        note=lambda _: None,
    )
    ping = fleet.client.ping
    task: asyncio.Task[None] | None = None

    async def ping_then_stop() -> object:
        answer = await ping()
        assert task is not None
        asyncio.get_running_loop().call_soon(task.cancel)  # lands as the answer is handed back
        return answer

    fleet.client.ping = ping_then_stop  # type: ignore[method-assign]
    task = asyncio.create_task(fleet.run())
    done, _ = await asyncio.wait({task}, timeout=10)
    assert done == {task} and task.cancelled(), "the fleet loop outlived its cancel"
