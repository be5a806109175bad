"""dreamd's benchmark suite: one command, one table, targets checked.

Run ``python bench/run.py`` for the full table (fleets of 1, 100 and 1,000 workspaces, the scale
curve from a month to 20 years of notes), which exits 1 when a target is missed, or
``python bench/run.py --quick`` for the same table at small sizes (a month of notes, fleets of
1, 3 and 10): the test suite runs it as a smoke test (``tests/test_bench.py``), so no benchmark
can break unseen; its figures are not compared with the targets. ``--markdown`` prints
the table under a line naming the commit and the date, as docs/performance.md holds it, and
``--write docs/performance.md`` (or ``--readme``, any Markdown file with the two markers)
replaces the table there.
Workloads come from :mod:`workloads` (deterministic): a one-year workspace (~1.5 MB of notes, a
full 512-row recall store) and fleets with a month of notes each. Every figure is the median of
several runs; sweep times are also given as a ratio to a floor measured in the same run: reading
and tokenising the same files in plain Python.

* cold sweep: the first sweep of a fresh copy of the year workspace (in process);
* no-op sweep: a sweep after a sweep that changed nothing (nothing changed since);
* search: ``dreamd.recall.search`` over the year workspace's index, p50/p99;
* index rebuild: the year workspace's index rebuilt (its notes seen before: redaction and
  fragments from the note cache), MB of Markdown per CPU second;
* fleet sweeps: ``dreamd sweep`` over N workspaces as a real subprocess (text output, which
  streams), cold and no-op, with the process's peak RSS; slopes per workspace from the
  smallest to the largest fleet;
* status during a sweep: the real daemon sweeping the largest fleet in the quick set (100) or
  the full set (1,000) while ``GET /v1/status`` is timed over its Unix socket; idle RSS;
* the scale curve (:mod:`scale`): at 1 month, 1 year and 20 years of notes, the cold sweep,
  the index build (MB per CPU second), reflect, and ``memory search``/``memory recall`` as
  whole processes (p50, CPU, peak RSS); a 50,000-row recall store trimmed by the first sweep;
  the daemon's no-op round (CPU) over 100 and 1,000 workspaces and its RSS after 20 and 200
  rounds;
* a fleet (:mod:`fleet`, needs ``redis-server``): one scheduled slot over the largest fleet on 1,
  2 and 3 daemons sharing it through Redis (CPU per workspace), coordination per workspace,
  ``fleet status`` at 10,000 workspaces.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import scale
from daemon import measure, rss_kib
from fleet import figures
from workloads import NOW, fleet, year

from dreamd.config import DreamingConfig
from dreamd.recall.index import RecallIndex
from dreamd.recall.search import search
from dreamd.runs.sweep import sweep_workspace

WORD = re.compile(r"\w+")
QUERIES = ["billing db-02", "postgres upgrade", "nightly export timing out", "Hana cache", "queue"]


@dataclass(frozen=True)
class Row:
    """One line of the table: a figure, its floor ratio and its target (when it has one)."""

    name: str
    value: str
    ratio: str = ""
    target: str = ""
    ok: bool | None = None


def _median_ms(action: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def floor_ms(root: Path, runs: int) -> float:
    """Read every note, MEMORY.md and the state files and split them into words, in Python."""
    files = sorted(root.glob("memory/*.md")) + sorted(root.glob("memory/.dreams/*.json"))
    files.append(root / "MEMORY.md")

    def read_and_tokenise() -> int:
        return sum(len(WORD.findall(path.read_text(encoding="utf-8").lower())) for path in files)

    return _median_ms(read_and_tokenise, runs)


def _sweep(root: Path) -> None:
    outcome = sweep_workspace(root, DreamingConfig(), now=NOW, zone=UTC)
    if outcome.status != "ok":
        raise SystemExit(f"sweep failed: {outcome.error}")


def year_rows(base: Path, runs: int, *, days: int = 365) -> list[Row]:
    """Cold and no-op sweeps of the year workspace, search and index build, against the floor."""
    template = base / "year"
    size = year(template, days=days)
    floor = floor_ms(template, runs)
    colds = []
    for run in range(runs):
        copy = base / f"year-{run}"
        shutil.copytree(template, copy)
        colds.append(_median_ms(lambda copy=copy: _sweep(copy), 1))  # type: ignore[misc]
    warm = base / "year-0"
    _sweep(warm)  # verifies the no-op and leaves its fingerprint
    noop = _median_ms(lambda: _sweep(warm), max(runs, 5))
    cold = statistics.median(colds)
    builds, latencies = [], []
    for run in range(runs):
        with RecallIndex.open(warm) as index:
            started = time.process_time()  # CPU: a shared machine moves wall time far more
            index.rebuild()
            builds.append(time.process_time() - started)
            if run == 0:
                for query in QUERIES * 40:
                    began = time.perf_counter()
                    search(index, query, k=10, now=NOW)
                    latencies.append((time.perf_counter() - began) * 1000)
    latencies.sort()
    build_rate = size / 1e6 / statistics.median(builds)
    return [
        Row("year: notes", f"{size / 1e6:.2f} MB", "", "~1.5 MB"),
        Row("year: read-and-tokenise floor", f"{floor:.1f} ms", "1.0x"),
        Row("year: cold sweep", f"{cold:.0f} ms", f"{cold / floor:.1f}x", "< 1000 ms", cold < 1000),
        Row("year: no-op sweep", f"{noop:.1f} ms", f"{noop / floor:.2f}x", "< 50 ms", noop < 50),
        Row("year: cold sweep vs floor", f"{cold / floor:.1f}x", "", "<= 5x", cold / floor <= 5),
        Row("search p50", f"{statistics.median(latencies):.2f} ms"),
        Row("search p99", f"{latencies[int(len(latencies) * 0.99) - 1]:.2f} ms"),
        Row(
            "index rebuild (notes seen before)",
            f"{build_rate:.1f} MB/CPU s",
            "",
            ">= 3 MB/s",
            build_rate >= 3,
        ),
    ]


@dataclass(frozen=True)
class FleetRun:
    """One ``dreamd sweep`` subprocess over a fleet."""

    seconds: float
    peak_kib: int


def _cli_sweep(config: Path, home: Path) -> FleetRun:
    argv = [sys.executable, "-m", "dreamd", "--config", str(config), "--now", NOW.isoformat()]
    env = {**os.environ, "DREAMD_HOME": str(home), "DREAMD_LOG_LEVEL": "WARNING"}
    started = time.perf_counter()
    child = subprocess.Popen([*argv, "sweep"], env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"dreamd sweep over {config} failed")
    return FleetRun(seconds, usage.ru_maxrss)


def fleet_rows(base: Path, sizes: list[int], runs: int) -> tuple[list[Row], Path]:
    """Cold and no-op sweeps of each fleet, peak RSS, and the slopes from first to last."""
    rows, results = [], {}
    config = base
    for count in sizes:
        where = base / f"fleet-{count}"
        config = fleet(where, count)
        home = where / "home"
        cold = _cli_sweep(config, home)
        _cli_sweep(config, home)  # verifies the no-op
        noops = [_cli_sweep(config, home) for _ in range(runs)]
        noop = statistics.median(run.seconds for run in noops)
        peak = max(run.peak_kib for run in (cold, *noops))
        results[count] = (cold.seconds, noop, peak)
        rows.append(Row(f"fleet {count}: cold sweep", f"{cold.seconds:.2f} s"))
        met = noop < 5 if count == 1000 else None
        target = "< 5 s" if count == 1000 else ""
        rows.append(Row(f"fleet {count}: no-op sweep", f"{noop:.2f} s", "", target, met))
        rows.append(Row(f"fleet {count}: peak RSS", f"{peak / 1024:.1f} MiB"))
    low, high = min(sizes), max(sizes)
    span = high - low
    (cold_a, noop_a, rss_a), (cold_b, noop_b, rss_b) = results[low], results[high]
    rss_slope = (rss_b - rss_a) / span
    if high < 1000:  # the quick set: project the 1,000-workspace no-op from the measured slope
        projected = noop_a + (noop_b - noop_a) / span * (1000 - low)
        rows.append(
            Row(
                "fleet 1000: no-op sweep (projected)",
                f"{projected:.2f} s",
                "",
                "< 5 s",
                projected < 5,
            )
        )
    rows += [
        Row("slope: cold sweep per workspace", f"{(cold_b - cold_a) / span * 1000:.1f} ms"),
        Row("slope: no-op sweep per workspace", f"{(noop_b - noop_a) / span * 1000:.2f} ms"),
        Row(
            "slope: peak RSS per workspace",
            f"{rss_slope:.1f} KiB",
            "",
            "< 20 KiB (flat)",
            rss_slope < 20,
        ),
    ]
    return rows, config


def daemon_rows(config: Path, base: Path, probes: int) -> list[Row]:
    """Status latency over the socket while the real daemon sweeps the fleet; RSS."""
    home = base / "daemon-home"
    env = {**os.environ, "DREAMD_HOME": str(home), "DREAMD_LOG_LEVEL": "WARNING"}
    argv = [sys.executable, "-m", "dreamd", "--config", str(config), "run"]
    daemon = subprocess.Popen(argv, env=env)
    try:
        socket = home / "run" / "dreamd.sock"
        deadline = time.monotonic() + 60
        while not (socket.exists() and asyncio.run(scale.answers(socket))):
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise SystemExit("the daemon did not start")
            time.sleep(0.1)
        time.sleep(3)  # let the first counting settle
        idle = rss_kib(daemon.pid)
        latencies, _, _ = asyncio.run(measure(socket, probes))
        after = rss_kib(daemon.pid)
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    return [
        Row("daemon: status p50 during sweep", f"{statistics.median(latencies):.1f} ms"),
        Row("daemon: status p99 during sweep", f"{p99:.1f} ms", "", "< 20 ms", p99 < 20),
        Row("daemon: idle RSS", f"{idle / 1024:.1f} MiB"),
        Row("daemon: RSS after the sweep", f"{after / 1024:.1f} MiB"),
    ]


def render(rows: list[Row]) -> str:
    """The table as Markdown (it is pasted into docs/performance.md as it is printed)."""
    lines = ["| figure | value | vs floor | target | met |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        met = "" if row.ok is None else ("yes" if row.ok else "**no**")
        lines.append(f"| {row.name} | {row.value} | {row.ratio} | {row.target} | {met} |")
    return "\n".join(lines)


@dataclass(frozen=True)
class Sizes:
    """How big each part of a run is."""

    year_days: int
    fleets: list[int]
    runs: int
    probes: int
    curve: list[int]
    store: int
    rounds_fleets: list[int]
    rounds: list[int]
    status_workspaces: int


FULL = Sizes(365, [1, 100, 1000], 5, 400, [30, 365, 7300], 50_000, [100, 1000], [20, 200], 10_000)
QUICK = Sizes(30, [1, 3, 10], 2, 40, [30], 2_000, [10], [2, 4], 200)


def run(sizes: Sizes, base: Path) -> list[Row]:
    """Every row of the table at ``sizes``, in the scratch folder ``base``."""
    rows = year_rows(base, sizes.runs, days=sizes.year_days)
    more, config = fleet_rows(base, sizes.fleets, min(sizes.runs, 3))
    rows += more
    rows += daemon_rows(config, base, sizes.probes)
    figures_ = []
    for days in sizes.curve:
        figures_ += scale.curve(base, days, runs=max(sizes.runs, 3) * 2)
    figures_ += scale.store_trim(base, sizes.store)
    for count in sizes.rounds_fleets:
        figures_ += scale.daemon_rounds(base, count, sizes.rounds)
    figures_ += figures(
        base,
        workspaces=max(sizes.fleets),
        status_workspaces=sizes.status_workspaces,
        together=sizes is QUICK,
    )
    return rows + [Row(f.name, f.value, "", f.target, f.ok) for f in figures_]


def provenance() -> str:
    """Which commit was measured, when, with what: the line above the README's table."""
    tree = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(
            ["git", "-C", str(tree), "log", "-1", "--format=%h %cs"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        dirty = subprocess.run(
            ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = ["unknown", "unknown"], ""
    when = time.strftime("%Y-%m-%d", time.gmtime())
    changed = " (with uncommitted changes)" if dirty else ""
    return (
        f"Measured {when} at commit {commit[0]}{changed} (committed {commit[1]}), "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores."
    )


START = "<!-- bench/run.py: start -->"
END = "<!-- bench/run.py: end -->"


def write_readme(readme: Path, table: str, measured: str | None = None) -> None:
    """Replace what stands between the README's two bench markers with ``table`` (and the
    ``measured`` line, :func:`provenance` taken when the run began)."""
    text = readme.read_text(encoding="utf-8")
    head, found, rest = text.partition(START)
    _, ended, tail = rest.partition(END)
    if not (found and ended):
        raise SystemExit(f"{readme}: no {START} ... {END} section to replace")
    readme.write_text(head + block(table, measured) + tail, encoding="utf-8")


def block(table: str, measured: str | None = None) -> str:
    """The table as docs/performance.md holds it: between the markers, under the line naming
    the commit and the date (``measured``, else :func:`provenance` now)."""
    return f"{START}\n{measured or provenance()}\n\n{table}\n{END}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: the smoke test")
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="print only the table under the line naming the commit and the date",
    )
    parser.add_argument(
        "--write",
        "--readme",
        dest="write",
        type=Path,
        help="replace the table between the bench markers of this Markdown file",
    )
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    measured = provenance()  # the tree as it was when the run began
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="dreamd-bench-") as scratch:
        rows = run(sizes, Path(scratch))
    table = render(rows)
    if args.markdown:
        print(block(table, measured))
    else:
        print(
            f"dreamd bench ({'quick' if args.quick else 'full'}; python {sys.version.split()[0]},"
            f" {os.cpu_count()} cores) in {time.perf_counter() - started:.0f} s"
        )
        print(table)
    if args.write is not None:
        write_readme(args.write, table, measured)
    missed = [row.name for row in rows if row.ok is False]
    if missed:
        where = sys.stderr if args.markdown else sys.stdout  # --markdown prints the doc alone
        print(f"targets missed: {', '.join(missed)}", file=where)
    return 1 if missed and not args.quick else 0


if __name__ == "__main__":
    raise SystemExit(main())
