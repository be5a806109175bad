"""The memory bank on a generated year of notes: reflect time, pages, recall latency per shape.

Usage: ``python bench/bank.py [--runs N] [--json]``

A workspace with a year of daily notes (``bench/workloads.year``, 1.5 MB) gains a ``## Retain``
section every fourth day (``bench/bank_workload.py``). Measured:

- ``memory reflect --apply`` over every note (cold: no ledger), then again (nothing to do),
  and the pages, facts and opinions it wrote;
- a full sweep of a copy with ``[dreaming.reflect]`` on (its 7-day lookback) and off;
- recall p50 for each question shape, in-process (:func:`dreamd.recall.answers.recall` on an
  open index, nothing recorded) and as a whole ``dreamd memory recall`` process (start-up,
  recording the traces and printing included; see ``bench/startup.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bank_workload import retain_year
from startup import launcher_for, measure
from workloads import NOW

from dreamd.cli.main import main as dreamd
from dreamd.config import DreamingConfig, ReflectConfig
from dreamd.recall.answers import recall
from dreamd.recall.index import RecallIndex
from dreamd.runs.sweep import sweep_workspace

SHAPES = {
    "entity": "tell me about Ana",
    "time": "what happened around Oct 3",
    "opinion": "what does Ana prefer?",
    "general": "billing service on db-02",
}


def _quiet(*argv: str) -> tuple[dict[str, object], float]:
    started = time.perf_counter()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert dreamd(list(argv)) == 0
    return json.loads(out.getvalue()), (time.perf_counter() - started) * 1000


def main() -> int:
    """Build, reflect, sweep, recall; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="dreamd-bank-") as tmp:
        root = Path(tmp) / "year"
        figures["notesBytes"] = retain_year(root)
        sweep_copy = Path(tmp) / "sweep"
        shutil.copytree(root, sweep_copy)
        plain_copy = Path(tmp) / "plain"
        shutil.copytree(root, plain_copy)
        at = ["--json", "--workspace", str(root), "--now", NOW.replace(hour=8).isoformat()]
        done, cold = _quiet(*at, "memory", "reflect", "--apply")
        _, again = _quiet(*at, "memory", "reflect", "--apply")
        figures.update(
            reflectColdMs=round(cold),
            reflectAgainMs=round(again),
            pages=len(done["pages"]),
            entityPages=sum(1 for p in done["pages"] if p["kind"] == "entity"),
            facts=done["facts"],
            opinions=len(done["opinions"]),
            bankBytes=sum(p.stat().st_size for p in (root / "bank").rglob("*.md")),
        )
        for label, config, where in (
            ("sweepWithReflectMs", DreamingConfig(), sweep_copy),
            (
                "sweepWithoutReflectMs",
                DreamingConfig(reflect=ReflectConfig(enabled=False)),
                plain_copy,
            ),
        ):
            started = time.perf_counter()
            sweep_workspace(where, config, now=NOW, zone=NOW.tzinfo)
            figures[label] = round((time.perf_counter() - started) * 1000)
        _quiet(*at, "memory", "index")
        inside: dict[str, float] = {}
        with RecallIndex.open(root) as index:
            index.update()
            for shape, question in SHAPES.items():
                times = []
                for _ in range(args.runs):
                    started = time.perf_counter()
                    recall(index, root, question, k=25, now=NOW)
                    times.append((time.perf_counter() - started) * 1000)
                inside[shape] = round(statistics.median(times), 2)
        figures["recallInProcessP50Ms"] = inside
        tree = Path(__file__).resolve().parents[1]
        rows = measure(root, runs=args.runs, tree=tree, launcher=launcher_for(tree))
        figures["processP50Ms"] = {str(r["command"]): r.get("p50_ms") for r in rows}
    if args.json:
        print(json.dumps(figures))
        return 0
    print("dreamd memory bank, a generated year of notes")
    for key, value in figures.items():
        print(f"  {key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
