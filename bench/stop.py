"""Stop benchmark: how long a daemon takes to exit on SIGTERM once it has swept, idle and busy.

Run: ``python bench/stop.py [--workspaces 3] [--busy N] [--runs 3]``. For each run it starts the
real daemon as a subprocess (its own DREAMD_HOME), asks it for a sweep over the socket so its
worker processes exist, then sends SIGTERM and times the exit: once on a quiet host, once beside
``--busy`` processes spinning at normal priority (default: twice the CPU count), which leave the
nice-19 workers almost no CPU. Prints a table of medians; exits 1 when the busy stop misses its
target (< 5 s: a supervisor's stop should not wait on background workers that have nothing to do).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from daemon import build

TARGET_SECONDS = 5.0
SPIN = "while True: pass"


async def _sweep(socket: Path) -> None:
    connector = aiohttp.UnixConnector(path=str(socket))
    async with aiohttp.ClientSession(connector=connector) as session:
        timeout = aiohttp.ClientTimeout(total=600)
        async with session.post("http://dreamd/v1/sweep", timeout=timeout) as response:
            await response.read()
            assert response.status == 200, response.status


def stop_seconds(config: Path, home: Path, busy: int) -> float:
    """Start a daemon, let it sweep, then time its exit on SIGTERM beside ``busy`` spinners."""
    env = {**os.environ, "DREAMD_HOME": str(home), "DREAMD_LOG_LEVEL": "WARNING"}
    daemon = subprocess.Popen(
        [sys.executable, "-m", "dreamd", "--config", str(config), "run"], env=env
    )
    spinners: list[subprocess.Popen[bytes]] = []
    try:
        socket = home / "run" / "dreamd.sock"
        while not socket.exists():
            time.sleep(0.1)
        asyncio.run(_sweep(socket))
        spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(busy)]
        time.sleep(1.0 if busy else 0.2)
        started = time.perf_counter()
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=120)
        took = time.perf_counter() - started
        assert code == 0, f"the daemon exited with {code}"
        return took
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workspaces", type=int, default=3)
    parser.add_argument("--busy", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    quiet, loaded = [], []
    with tempfile.TemporaryDirectory(prefix="dreamd-bench-") as scratch:
        base = Path(scratch)
        config = build(base, args.workspaces)
        for run in range(args.runs):
            quiet.append(stop_seconds(config, base / f"quiet{run}", 0))
            loaded.append(stop_seconds(config, base / f"busy{run}", args.busy))
    rows = [
        ("workspaces swept before the stop", f"{args.workspaces}", ""),
        ("stop, quiet host (median)", f"{statistics.median(quiet):.2f} s", ""),
        (
            f"stop, {args.busy} busy processes (median)",
            f"{statistics.median(loaded):.2f} s",
            f"< {TARGET_SECONDS:.0f} s",
        ),
        ("stop, busy host (slowest)", f"{max(loaded):.2f} s", ""),
    ]
    width = max(len(name) for name, _, _ in rows)
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>10}  {target}")
    return 0 if statistics.median(loaded) < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
