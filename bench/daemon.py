"""Daemon benchmark: status latency over the socket during a 1,000-workspace sweep, and RSS.

Run: ``python bench/daemon.py [--workspaces 1000] [--probes 400]``. It builds the workspaces in a
temporary directory (a week of notes each and a few recall rows), starts the real daemon as a
subprocess with its own DREAMD_HOME, measures idle RSS, then asks for a sweep and, while it
runs, times ``GET /v1/status`` over the Unix socket. Prints a table; exits 1 when the p99 target
(< 20 ms) is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dreamd.engine.hits import Hit
from dreamd.engine.state import RECALL_STORE, Table
from dreamd.engine.traces import record_hits

WORDS = "billing postgres host backup release checklist staging deploy queue team cache".split()


def build(base: Path, count: int) -> Path:
    """``count`` workspaces and a config listing them; returns the config path."""
    now = datetime.now(UTC)
    lines = ["[agents]", 'system_agent = "a0"', "[agents.heartbeat]", 'every = "1s"']
    for index in range(count):
        root = base / f"ws{index:04d}"
        (root / "memory" / ".dreams").mkdir(parents=True)
        store: Table = Table({})
        for day in range(7):
            name = (now - timedelta(days=day)).date().isoformat()
            text = "\n".join(
                f"- {WORDS[(index + day + i) % len(WORDS)].capitalize()} note {index}.{day}.{i}."
                for i in range(6)
            )
            (root / "memory" / f"{name}.md").write_text(f"# {name}\n\n{text}\n")
            hit = Hit(f"memory/{name}.md", 3, 3, text.split("\n")[0], 0.8)
            store, _ = record_hits(
                store, [hit], query=f"q{day}", now=now - timedelta(days=day), day=name
            )
        (root / "memory" / ".dreams" / "short-term-recall.json").write_bytes(
            RECALL_STORE.encode(store)
        )
        lines += ["[[agents.list]]", f'id = "a{index}"', f'workspace = "{root}"']
    config = base / "config.toml"
    config.write_text("\n".join(lines) + "\n")
    return config


def rss_kib(pid: int) -> int:
    """Resident set size of ``pid`` in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def measure(socket: Path, probes: int) -> tuple[list[float], float, bool]:
    """Start a sweep, time status calls while it runs; (latencies ms, sweep seconds, overlapped)."""
    connector = aiohttp.UnixConnector(path=str(socket))
    async with aiohttp.ClientSession(connector=connector) as session:
        started = time.perf_counter()
        sweep = asyncio.create_task(
            session.post("http://dreamd/v1/sweep", timeout=aiohttp.ClientTimeout(total=3600))
        )
        await asyncio.sleep(0.2)
        latencies = []
        for _ in range(probes):
            began = time.perf_counter()
            async with session.get("http://dreamd/v1/status") as response:
                await response.read()
                assert response.status == 200
            latencies.append((time.perf_counter() - began) * 1000)
            await asyncio.sleep(0.005)
        overlapped = not sweep.done()
        response = await sweep
        await response.read()
        response.release()
        return latencies, time.perf_counter() - started, overlapped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workspaces", type=int, default=1000)
    parser.add_argument("--probes", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dreamd-bench-") as scratch:
        base = Path(scratch)
        config = build(base, args.workspaces)
        env = {**os.environ, "DREAMD_HOME": str(base / "home"), "DREAMD_LOG_LEVEL": "WARNING"}
        daemon = subprocess.Popen(
            [sys.executable, "-m", "dreamd", "--config", str(config), "run"], env=env
        )
        try:
            socket = base / "home" / "run" / "dreamd.sock"
            while not socket.exists():
                time.sleep(0.1)
            time.sleep(5)  # let the initial counting finish
            idle = rss_kib(daemon.pid)
            latencies, sweep_seconds, overlapped = asyncio.run(measure(socket, args.probes))
            peak = rss_kib(daemon.pid)
        finally:
            daemon.terminate()
            daemon.wait(timeout=30)
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    rows = [
        ("workspaces", f"{args.workspaces}", ""),
        ("status p50 during sweep", f"{p50:.1f} ms", ""),
        ("status p99 during sweep", f"{p99:.1f} ms", "< 20 ms"),
        ("probes overlapping the sweep", "all" if overlapped else "some", ""),
        ("sweep of all workspaces", f"{sweep_seconds:.1f} s", ""),
        ("idle RSS", f"{idle / 1024:.1f} MiB", ""),
        ("RSS after the sweep", f"{peak / 1024:.1f} MiB", ""),
    ]
    width = max(len(name) for name, _, _ in rows)
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>12}  {target}")
    return 0 if p99 < 20 else 1


if __name__ == "__main__":
    sys.exit(main())
