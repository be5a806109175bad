"""Process start-up: how long ``dreamd memory recall`` and ``memory search`` take as a process.

Usage: ``python bench/startup.py [--runs N] [--days D] [--tree PATH] [--module] [--json]``

Agents run recall on every turn, as a new process, so what counts is the wall time of the whole
process: interpreter start, imports, reading the config, opening the index, searching,
recording the recall traces and printing. A workspace with a year of generated daily notes
(``bench/workloads.year``, with a ``## Retain`` section every fourth day so the bank has
entities and opinions) is built and reflected once; each command then runs ``--runs`` times
after two warm-up runs (which also cache the bytecode, as an installed package has it), the
commands taking turns, and its p50 and p95 wall times are printed, next to a bare
``python -c pass`` for the interpreter's own share, and each command's CPU p50 (user +
system, which a busy machine moves far less than wall time) and peak RSS (from ``wait4``).
``--days`` sets the length of the history (30: a month, 7300: 20 years): a turn's cost must
not grow with it. Commands start through the installed
``dreamd`` script, as an agent runs them (``--module``: ``python -m dreamd``, which also loads
:mod:`runpy`). ``--tree`` runs another checkout's ``dreamd`` (an exported earlier commit, say)
with ``python -m`` and the same interpreter, for a before/after. The warm-up runs also fill the
cache of the resolved configuration (:mod:`dreamd.host.resolved`), as an agent's first turn does.

Targets (not asserted): ``memory recall`` and ``memory search`` p50 <= 120 ms at a year, at
most 1.2 times that at 20 years, and RSS <= 40 MiB at 20 years.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bank_workload import retain_year
from spawner import shared
from workloads import NOW

TARGET_MS = 120.0
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("python -c pass", ()),
    ("memory search", ("memory", "search", "billing service on db-02", "--json")),
    ("memory recall (entity)", ("memory", "recall", "tell me about Ana", "--json")),
    ("memory recall (time)", ("memory", "recall", "what happened around Oct 3", "--json")),
    ("memory recall (opinion)", ("memory", "recall", "what does Ana prefer?", "--json")),
    ("memory recall (general)", ("memory", "recall", "billing service on db-02", "--json")),
    (
        "recall, nothing recorded",
        ("memory", "recall", "billing service on db-02", "--json", "--no-record"),
    ),
    ("search, nothing recorded", ("memory", "search", "billing service on db-02", "--no-record")),
)


def _timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """Wall ms, CPU ms and peak RSS (MiB) of one process running ``command``."""
    done = shared().run(command, env=env, cwd=cwd)
    if done.code != 0:
        raise subprocess.CalledProcessError(done.code, command)
    return done.wall * 1000, done.cpu * 1000, done.rss_mib


def launcher_for(tree: Path, *, module: bool = False) -> list[str]:
    """How to start dreamd from ``tree``: the installed ``dreamd`` script for this checkout (as
    an agent runs it), else (another tree, or ``module``) ``python -m dreamd``."""
    script = Path(sys.executable).with_name("dreamd")
    own = tree.resolve() == Path(__file__).resolve().parents[1]
    if script.is_file() and own and not module:
        return [str(script)]
    return [sys.executable, "-m", "dreamd"]


def measure(root: Path, *, runs: int, tree: Path, launcher: list[str]) -> list[dict[str, object]]:
    """p50/p95 wall time of each command over ``runs`` processes started with ``launcher``.

    The commands take turns, one process each per round, so a host that speeds up or slows
    down meanwhile (a shared machine does) moves every row alike.
    """
    env = {**os.environ, "DREAMD_HOME": str(root.parent / "home")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode cached
    now = (NOW.replace(hour=9)).isoformat()
    commands: dict[str, list[str]] = {}
    failed: set[str] = set()
    for label, words in COMMANDS:
        if words:
            commands[label] = [*launcher, "--workspace", str(root), "--now", now, *words]
        else:
            commands[label] = [sys.executable, "-c", "pass"]
    times: dict[str, list[float]] = {label: [] for label in commands}
    cpus: dict[str, list[float]] = {label: [] for label in commands}
    peaks: dict[str, float] = dict.fromkeys(commands, 0.0)
    for round_ in range(runs + 2):  # two rounds of warm-up
        for label, command in commands.items():
            if label in failed:
                continue
            try:
                took, cpu, rss = _timed(command, tree, env)
            except subprocess.CalledProcessError:
                failed.add(label)
                continue
            if round_ >= 2:
                times[label].append(took)
                cpus[label].append(cpu)
                peaks[label] = max(peaks[label], rss)
    rows: list[dict[str, object]] = []
    for label in commands:
        if label in failed:
            rows.append({"command": label, "error": "failed (not in this tree?)"})
            continue
        ordered = sorted(times[label])
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        rows.append(
            {
                "command": label,
                "p50_ms": round(statistics.median(ordered), 1),
                "p95_ms": round(p95, 1),
                "cpu_p50_ms": round(statistics.median(cpus[label]), 1),
                "rss_mib": round(peaks[label], 1),
            }
        )
    return rows


def main() -> int:
    """Build the workspace, time the processes, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--days", type=int, default=365, help="days of notes (365: a year)")
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--module",
        action="store_true",
        help="start 'python -m dreamd' (default: the installed 'dreamd' script, as agents run it)",
    )
    args = parser.parse_args()
    tree = args.tree.resolve()
    launcher = launcher_for(tree, module=args.module)
    with tempfile.TemporaryDirectory(prefix="dreamd-startup-") as tmp:
        root = Path(tmp) / "year"
        retain_year(root, reflect=True, days=args.days)
        rows = measure(root, runs=args.runs, tree=tree, launcher=launcher)
    started = " ".join(Path(part).name for part in launcher)
    if args.json:
        document = {"rows": rows, "targetMs": TARGET_MS, "launcher": started, "days": args.days}
        print(json.dumps(document))
        return 0
    print(
        f"dreamd process start-up ({args.runs} runs each, {args.days} days of notes, "
        f"tree {args.tree}, via {started!r})"
    )
    print(f"{'command':<28} {'p50':>9} {'p95':>9} {'CPU p50':>9} {'peak RSS':>10}")
    for row in rows:
        if "error" in row:
            print(f"{row['command']:<28} {row['error']}")
        else:
            print(
                f"{row['command']:<28} {row['p50_ms']:>7} ms {row['p95_ms']:>7} ms "
                f"{row['cpu_p50_ms']:>7} ms {row['rss_mib']:>6} MiB"
            )
    print(f"target: recall and search p50 <= {TARGET_MS:g} ms as a whole process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
