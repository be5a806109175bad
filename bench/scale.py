"""The scale curve: what one workspace costs at 1 month, 1 year and 20 years of notes, and what
the daemon costs per round over a fleet.

Run: ``python bench/scale.py [--sizes 30,365,7300] [--fleets 100,1000] [--rounds 20,200]
[--store 50000]``. Every figure is a whole process (``python -m dreamd ...``) measured by the
kernel: CPU seconds (user + system, which a busy shared machine moves far less than wall time)
and peak RSS from ``wait4``; the search and recall rows give wall-time p50 too, since an agent
waits for them.

* curve (per size, a workspace from :func:`bank_workload.retain_year`: Retain sections every
  fourth day): the cold ``sweep``, ``memory index --rebuild`` (MB of notes per CPU second: cold,
  then again over the same notes, whose redaction and fragments the note cache holds), the
  cold ``memory reflect --apply`` over every note and the one after it, a ``memory search`` and
  a ``memory recall`` right after a new note was written (the index must find it), then their
  p50 over repeated runs;
* store: a recall store of ``--store`` rows, trimmed by the first sweep (CPU, peak RSS);
* daemon (per fleet size): the real ``dreamd run`` with every workspace swept once, then
  ``POST /v1/sweep`` rounds that change nothing: CPU of the daemon and its workers per round,
  and its RSS after each milestone of rounds (flat memory: the last within 10 % of the first).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bank_workload import retain_year
from spawner import shared, tree_cpu
from workloads import NOW, fleet, huge_store

__all__ = ["Figure", "answers", "curve", "daemon_rounds", "main", "store_trim"]

SIZES = {30: "1 month", 365: "1 year", 7300: "20 years"}


@dataclass(frozen=True)
class Figure:
    """One line of the table."""

    name: str
    value: str
    target: str = ""
    ok: bool | None = None


@dataclass(frozen=True)
class Run:
    """One finished process: wall and CPU seconds, peak RSS in MiB, what it printed."""

    wall: float
    cpu: float
    rss_mib: float
    stdout: str


def label(days: int) -> str:
    """``1 year`` for 365 days."""
    return SIZES.get(days, f"{days} days")


def timed(args: Sequence[str], *, home: Path) -> Run:
    """Run ``python -m dreamd args`` from the spawner (CPU and peak RSS of its own)."""
    env = {**os.environ, "DREAMD_HOME": str(home), "DREAMD_LOG_LEVEL": "WARNING"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode cached
    with tempfile.NamedTemporaryFile(suffix=".out") as out:
        done = shared().run([sys.executable, "-m", "dreamd", *args], env=env, stdout=Path(out.name))
        text = Path(out.name).read_text()
    if done.code != 0:
        raise SystemExit(f"dreamd {' '.join(args)} exited {done.code}")
    return Run(done.wall, done.cpu, done.rss_mib, text)


def _p50(runs: Sequence[Run]) -> tuple[float, float, float]:
    """Median wall ms, median CPU ms and the largest peak RSS (MiB) of ``runs``."""
    return (
        statistics.median(r.wall for r in runs) * 1000,
        statistics.median(r.cpu for r in runs) * 1000,
        max(r.rss_mib for r in runs),
    )


def _write_note(root: Path, days: int) -> str:
    """A new note the agent just wrote (today's), with a word no other note has."""
    word = f"zephyrine{days}"
    note = root / "memory" / f"{NOW.date().isoformat()}.md"
    note.write_text(f"# {NOW.date()}\n\n- Ana filed the {word} ticket for the billing team.\n")
    return word


def curve(base: Path, days: int, *, runs: int) -> list[Figure]:
    """Every whole-process figure of one workspace with ``days`` of notes."""
    name = label(days)
    root = base / f"ws-{days}"
    home = base / f"home-{days}"
    size = retain_year(root, days=days)
    common = ["--workspace", str(root), "--now", NOW.replace(hour=9).isoformat(), "--json"]
    figures = [Figure(f"{name}: notes", f"{size / 1e6:.2f} MB")]
    sweep = timed([*common, "sweep"], home=home)
    figures.append(Figure(f"{name}: cold sweep", f"{sweep.cpu:.2f} CPU s, {sweep.rss_mib:.0f} MiB"))
    index = timed([*common, "memory", "index", "--rebuild"], home=home)
    rate = size / 1e6 / index.cpu
    figures.append(
        Figure(
            f"{name}: index build (cold)",
            f"{rate:.2f} MB/CPU s ({index.cpu:.2f} CPU s, {index.rss_mib:.0f} MiB)",
        )
    )
    again = timed([*common, "memory", "index", "--rebuild"], home=home)
    rate = size / 1e6 / again.cpu
    figures.append(
        Figure(
            f"{name}: index rebuild (notes seen before)",
            f"{rate:.2f} MB/CPU s ({again.cpu:.2f} CPU s, {again.rss_mib:.0f} MiB)",
            ">= 3 MB/s",
            rate >= 3 if days >= 365 else None,
        )
    )
    reflect = timed([*common, "memory", "reflect", "--apply"], home=home)
    again = timed([*common, "memory", "reflect", "--apply"], home=home)
    figures.append(
        Figure(
            f"{name}: reflect (cold, every note)",
            f"{reflect.cpu:.2f} CPU s, {reflect.rss_mib:.0f} MiB "
            f"({reflect.cpu / (size / 1e6):.2f} CPU s/MB)",
        )
    )
    figures.append(
        Figure(f"{name}: reflect again", f"{again.cpu:.2f} CPU s, {again.rss_mib:.0f} MiB")
    )
    word = _write_note(root, days)
    fresh = timed([*common, "memory", "search", word, "--no-record"], home=home)
    found = any(hit["path"].endswith(f"{NOW.date()}.md") for hit in _hits(fresh.stdout))
    figures.append(
        Figure(
            f"{name}: search after a new note",
            f"{fresh.wall * 1000:.0f} ms, {'found' if found else 'NOT FOUND'}",
            "finds it",
            found,
        )
    )
    commands = {
        "search": [*common, "memory", "search", "billing service on db-02"],
        "recall": [*common, "memory", "recall", "tell me about Ana"],
    }
    samples: dict[str, list[Run]] = {key: [] for key in commands}
    for round_ in range(runs + 2):  # two warm-up rounds, the commands taking turns
        for key, args in commands.items():
            run = timed(args, home=home)
            if round_ >= 2:
                samples[key].append(run)
    for key, taken in samples.items():
        wall, cpu, rss = _p50(taken)
        figures.append(
            Figure(
                f"{name}: {key} p50",
                f"{wall:.0f} ms ({cpu:.0f} CPU ms, {rss:.1f} MiB)",
                "<= 120 ms" if days == 365 else ("<= 40 MiB" if days >= 7300 else ""),
                (wall <= 120 if days == 365 else (rss <= 40 if days >= 7300 else None)),
            )
        )
    return figures


def _hits(stdout: str) -> list[dict[str, object]]:
    hits: list[dict[str, object]] = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            hits += json.loads(line).get("hits", [])
    return hits


def store_trim(base: Path, rows: int) -> list[Figure]:
    """A recall store of ``rows`` rows, trimmed by the first sweep: CPU and peak RSS."""
    root = base / f"store-{rows}"
    huge_store(root, rows)
    common = ["--workspace", str(root), "--now", NOW.isoformat(), "--json"]
    run = timed([*common, "sweep"], home=base / "store-home")
    return [
        Figure(
            f"store of {rows} rows: first sweep",
            f"{run.cpu:.2f} CPU s, {run.rss_mib:.0f} MiB",
            "bounded memory",
        )
    ]


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def answers(socket: Path) -> bool:
    """True once the daemon answers ``GET /v1/status`` (its socket file comes before that)."""
    import aiohttp

    try:
        connector = aiohttp.UnixConnector(path=str(socket))
        async with (
            aiohttp.ClientSession(connector=connector) as session,
            session.get("http://dreamd/v1/status") as response,
        ):
            return response.status == 200
    except aiohttp.ClientError:
        return False


async def _post_sweep(socket: Path) -> None:
    import aiohttp

    connector = aiohttp.UnixConnector(path=str(socket))
    async with aiohttp.ClientSession(connector=connector) as session:
        timeout = aiohttp.ClientTimeout(total=3600)
        async with session.post("http://dreamd/v1/sweep", timeout=timeout) as response:
            await response.read()
            if response.status != 200:
                raise SystemExit(f"POST /v1/sweep answered {response.status}")


def daemon_rounds(base: Path, count: int, milestones: Sequence[int]) -> list[Figure]:
    """The daemon over ``count`` workspaces: no-op round CPU, RSS at each milestone of rounds."""
    where = base / f"daemon-{count}"
    config = fleet(where, count)
    text = config.read_text()
    config.write_text("[jobs]\nnice = 0\nfold_every_s = 0\n" + text)
    home = where / "home"
    env = {**os.environ, "DREAMD_HOME": str(home), "DREAMD_LOG_LEVEL": "WARNING"}
    argv = [sys.executable, "-m", "dreamd", "--config", str(config), "run"]
    daemon = subprocess.Popen(argv, env=env)
    socket = home / "run" / "dreamd.sock"
    cpu: list[float] = []
    rss: dict[int, float] = {}
    try:
        deadline = time.monotonic() + 120
        while not (socket.exists() and asyncio.run(answers(socket))):
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise SystemExit("the daemon did not start")
            time.sleep(0.1)
        asyncio.run(_post_sweep(socket))  # the cold round
        asyncio.run(_post_sweep(socket))  # verifies the no-ops (fingerprints)
        for round_ in range(1, max(milestones) + 1):
            before = tree_cpu(daemon.pid)
            asyncio.run(_post_sweep(socket))
            cpu.append(tree_cpu(daemon.pid) - before)
            if round_ in milestones:
                rss[round_] = _rss_mib(daemon.pid)
    finally:
        daemon.terminate()
        daemon.wait(timeout=120)
    first, last = min(rss), max(rss)
    growth = rss[last] / rss[first] - 1
    per_round = statistics.median(cpu)
    figures = [
        Figure(
            f"daemon, {count} workspaces: no-op round",
            f"{per_round:.2f} CPU s",
            "<= 1 s" if count >= 1000 else "",
            per_round <= 1 if count >= 1000 else None,
        )
    ]
    for round_, value in sorted(rss.items()):
        figures.append(
            Figure(f"daemon, {count} workspaces: RSS after {round_} rounds", f"{value:.1f} MiB")
        )
    figures.append(
        Figure(
            f"daemon, {count} workspaces: RSS growth, round {first} to {last}",
            f"{growth * 100:+.1f} %",
            "<= 10 %",
            growth <= 0.10,
        )
    )
    return figures


def render(figures: Sequence[Figure]) -> str:
    """The figures as a Markdown table."""
    lines = ["| figure | value | target | met |", "| --- | --- | --- | --- |"]
    for figure in figures:
        met = "" if figure.ok is None else ("yes" if figure.ok else "**no**")
        lines.append(f"| {figure.name} | {figure.value} | {figure.target} | {met} |")
    return "\n".join(lines)


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="30,365,7300", help="days of notes, comma-separated")
    parser.add_argument("--runs", type=int, default=10, help="search and recall runs per size")
    parser.add_argument("--store", type=int, default=50_000, help="rows of a huge store (0: none)")
    parser.add_argument("--fleets", default="100,1000", help="daemon fleet sizes (empty: none)")
    parser.add_argument("--rounds", default="20,200", help="RSS milestones in no-op rounds")
    args = parser.parse_args(argv)
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="dreamd-scale-") as scratch:
        base = Path(scratch)
        for days in _ints(args.sizes):
            figures += curve(base, days, runs=args.runs)
            print(render(figures), file=sys.stderr, flush=True)
        if args.store:
            figures += store_trim(base, args.store)
        for count in _ints(args.fleets):
            figures += daemon_rounds(base, count, _ints(args.rounds))
            print(render(figures), file=sys.stderr, flush=True)
    print(render(figures))
    return 1 if any(figure.ok is False for figure in figures) else 0


if __name__ == "__main__":
    raise SystemExit(main())
