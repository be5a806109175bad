"""Fleet benchmark: one scheduled slot over N workspaces on 1, 2 and 3 daemons, coordination
overhead per workspace, and ``dreamd fleet status`` over 10,000 workspaces.

Run: ``python bench/fleet.py [--workspaces 1000] [--status-workspaces 10000]``. Needs Debian's
``redis-server`` (``.ci/redis-deps``); it starts its own on a free loopback port.

* slot: real ``dreamd run`` daemons (own DREAMD_HOME and host id each, workers at normal
  priority) with an every-minute schedule share the workspaces; the time from the first slot's
  start until Redis records every workspace as swept (fresh copies of the workspaces for each
  fleet size), and the CPU the daemons and their workers spent, per workspace. On one machine
  the daemons share its cores, so the ratio shows what coordination costs and what parallel
  workers win here, not what separate machines would;
* overhead: the fleet's path around a sweep that does nothing (slot check, fleet lease,
  the lease with its fencing token, the check again, the fenced record, the release), per
  workspace, one after another, in process;
* status: ``dreamd --json fleet status`` as a process (start-up included) against a Redis holding
  10,000 workspaces' last sweeps and three hosts; median of 3.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from daemon import build
from spawner import tree_cpu

from dreamd.clock import format_instant, parse_instant
from dreamd.config import FleetConfig
from dreamd.fleet.coordinator import Fleet
from dreamd.fleet.fence import Fence
from dreamd.host.clock import SystemClock

NAME = "bench"


@dataclass(frozen=True)
class Figure:
    """One line of the table."""

    name: str
    value: str
    target: str = ""
    ok: bool | None = None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """A ``redis-server`` for the block; yields its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is missing: install Debian's redis-server (.ci/redis-deps)")
    directory.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory)]
    argv += ["--save", "", "--appendonly", "no", "--logfile", str(directory / "redis.log")]
    process = subprocess.Popen(argv)
    url = f"redis://127.0.0.1:{port}/0"
    import redis

    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.exceptions.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    try:
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)


def _fleet_config(config: Path, url: str, host: str) -> Path:
    """``config`` (from :func:`daemon.build`) for ``host``: an every-minute schedule, a fleet,
    workers at normal priority (at nice 19 they get no CPU beside other work on a busy host)."""
    text = config.read_text()
    text = (
        '[dreaming]\nfrequency = "* * * * *"\ntimezone = "UTC"\n[jobs]\nnice = 0\n'
        f'[fleet]\nredis = "{url}"\nhost_id = "{host}"\nname = "{NAME}"\n' + text
    )
    target = config.with_name(f"config-{host}.toml")
    target.write_text(text)
    return target


@dataclass(frozen=True)
class Slot:
    """One slot over a fleet: seconds from its start, CPU seconds of every daemon and worker."""

    seconds: float
    cpu: float


def _slot_seconds(base: Path, url: str, count: int, hosts: int) -> Slot:
    """One slot over ``count`` fresh workspaces on ``hosts`` daemons (see the module rules)."""
    import redis

    where = base / f"slot-{hosts}"
    config = build(where, count)
    roots = [str(where / f"ws{index:04d}") for index in range(count)]
    client = redis.Redis.from_url(url, decode_responses=True)
    client.flushdb()
    daemons = []
    try:
        for number in range(hosts):
            host = f"h{number + 1}"
            env = {
                **os.environ,
                "DREAMD_HOME": str(where / host),
                "DREAMD_LOG_LEVEL": "WARNING",
                "DREAMD_CONFIG": str(_fleet_config(config, url, host)),
            }
            daemons.append(subprocess.Popen([sys.executable, "-m", "dreamd", "run"], env=env))
        # A slot's sweep runs to its end (a fire meanwhile collapses into it), so the first
        # slot is done once every workspace has a record; it is timed from that slot's start.
        while True:
            marks = client.hgetall(f"dreamd:{NAME}:slots")
            if all(root in marks for root in roots):
                began = parse_instant(min(marks[root] for root in roots))
                assert began is not None
                cpu = sum(tree_cpu(daemon.pid) for daemon in daemons)
                return Slot((datetime.now(UTC) - began).total_seconds(), cpu)
            if any(daemon.poll() is not None for daemon in daemons):
                raise SystemExit("a daemon died during the fleet benchmark")
            time.sleep(0.2)
    finally:
        for daemon in daemons:
            daemon.send_signal(signal.SIGTERM)
        for daemon in daemons:
            daemon.wait(timeout=60)
        shutil.rmtree(where, ignore_errors=True)


@contextlib.asynccontextmanager
async def _no_slot() -> AsyncIterator[None]:
    yield


async def _overhead_ms(url: str, count: int) -> float:
    """Mean ms the fleet adds around a sweep that does nothing, per workspace."""
    fleet = Fleet(
        FleetConfig(redis=url, host_id="bench", name=NAME),
        clock=SystemClock(),
        host_jobs=lambda: {"inUse": 0, "limit": 3},
        on_enabled=_ignore,
        deliver=lambda event: None,
        note=lambda event: None,
    )
    assert await fleet.check()

    async def nothing(fence: Fence) -> dict[str, Any]:
        return {"workspace": "", "status": "ok"}

    until = datetime.now(UTC) + timedelta(hours=1)
    started = time.perf_counter()
    for index in range(count):
        outcome = await fleet.sweep(
            f"/bench/ws{index:05d}",
            (),
            slot="2026-01-01T00:00:00.000Z",
            until=until,
            hold=_no_slot,
            run=nothing,
            stopping=lambda: False,
        )
        assert outcome["status"] == "ok", outcome
    elapsed = (time.perf_counter() - started) * 1000 / count
    await fleet.client.aclose()
    return elapsed


async def _ignore(enabled: bool | None) -> None:
    return None


def _status_seconds(base: Path, url: str, count: int) -> float:
    """``dreamd --json fleet status`` over ``count`` recorded workspaces (median of 3)."""
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    pipe = client.pipeline(transaction=False)
    stamp = format_instant(datetime.now(UTC))
    for index in range(count):
        record = {"host": f"h{index % 3 + 1}", "at": stamp, "status": "ok", "slot": stamp}
        pipe.hset(f"dreamd:{NAME}:sweeps", f"/srv/agents/ws{index:05d}", json.dumps(record))
    for host in ("h1", "h2", "h3"):
        pipe.hset(f"dreamd:{NAME}:hosts", host, json.dumps({"id": host, "state": "ok"}))
        pipe.set(f"dreamd:{NAME}:alive:{host}", "1", px=600_000)
    pipe.execute()
    config = base / "status.toml"
    config.write_text(f'[fleet]\nredis = "{url}"\nhost_id = "h1"\nname = "{NAME}"\n')
    env = {**os.environ, "DREAMD_HOME": str(base / "status-home"), "DREAMD_CONFIG": str(config)}
    samples = []
    for _ in range(3):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "dreamd", "--json", "fleet", "status"],
            env=env,
            capture_output=True,
            check=True,
        )
        samples.append(time.perf_counter() - started)
        assert len(json.loads(done.stdout)["workspaces"]) == count
    return statistics.median(samples)


def figures(
    base: Path, *, workspaces: int, status_workspaces: int, together: bool = False
) -> list[Figure]:
    """Every figure of this benchmark (see the module docstring). ``together`` runs the three
    slots at once (a smoke test's minute, not three; their times then share the cores)."""
    with redis_server(base / "redis") as url:
        if together:  # each on its own Redis database; one wait for the next minute, not three
            base_url = url.rsplit("/", 1)[0]
            with ThreadPoolExecutor(3) as pool:
                running = {
                    hosts: pool.submit(
                        _slot_seconds, base, f"{base_url}/{hosts}", workspaces, hosts
                    )
                    for hosts in (1, 2, 3)
                }
                slots = {hosts: future.result() for hosts, future in running.items()}
        else:
            slots = {hosts: _slot_seconds(base, url, workspaces, hosts) for hosts in (1, 2, 3)}
        overhead = asyncio.run(_overhead_ms(url, min(300, 10 * workspaces)))
        status = _status_seconds(base, url, status_workspaces)
    rows = [
        Figure(
            f"fleet slot: {workspaces} workspaces, {hosts} daemon{'s' if hosts > 1 else ''}",
            f"{slot.seconds:.1f} s, {slot.cpu / workspaces * 1000:.1f} CPU ms per workspace",
        )
        for hosts, slot in slots.items()
    ]
    one, three = slots[1].seconds, slots[3].seconds
    return [
        *rows,
        Figure("fleet slot: 1 daemon / 3 daemons", f"{one / three:.2f}x"),
        Figure("fleet: coordination per workspace", f"{overhead:.1f} ms", "< 50 ms", overhead < 50),
        Figure(
            f"fleet status: {status_workspaces} workspaces",
            f"{status:.2f} s",
            "< 2 s",
            status < 2,
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspaces", type=int, default=1000)
    parser.add_argument("--status-workspaces", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dreamd-bench-fleet-") as scratch:
        rows = figures(
            Path(scratch), workspaces=args.workspaces, status_workspaces=args.status_workspaces
        )
    print(f"dreamd fleet bench ({os.cpu_count()} cores)")
    print("| figure | value | target | met |\n| --- | --- | --- | --- |")
    for row in rows:
        met = "" if row.ok is None else ("yes" if row.ok else "**no**")
        print(f"| {row.name} | {row.value} | {row.target} | {met} |")
    return 1 if any(row.ok is False for row in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
