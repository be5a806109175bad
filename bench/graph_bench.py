"""Graph benchmark: building the inverted-cone graph and bundle search at scale.

Usage: ``python bench/graph_bench.py [--chunks N] [--queries Q] [--seed S]``

Uses the workspace of :mod:`search_bench` (daily notes of ~40 chunks, Zipf-distributed words)
with a person's name and a project's name sprinkled into a tenth of the lines, so entities
link episodes. Measures:

- graph build: every note's fragment (:func:`dreamd.engine.graph.fragments.build_fragment`),
  the merge and the statistics, in process, from the notes' text (what a cold sweep would do
  if the graph's lookback held every note);
- index build: a full recall-index build, which stores each note's fragment beside its chunks;
- bundle search and the hybrid (``memory search``'s default): latency p50/p99 over the queries.

Targets (not asserted): bundle p50 < 20 ms, p99 < 100 ms at 100k chunks.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from search_bench import generate, percentile, sentence

from dreamd.engine.graph.cone import merge_fragments
from dreamd.engine.graph.fragments import build_fragment
from dreamd.recall.bundle import bundle_search, hybrid_search
from dreamd.recall.index import RecallIndex

NAMES = ["Atlas", "Dana", "Orion", "Hana", "Kepler"]


def sprinkle(notes: list[Path], rng: random.Random) -> None:
    """Put an entity into a tenth of the lines, mid-sentence, as notes name people and projects."""
    for note in notes:
        lines = note.read_text(encoding="utf-8").split("\n")
        for index, line in enumerate(lines):
            if line.startswith("- ") and rng.random() < 0.1:
                lines[index] = f"{line} with {rng.choice(NAMES)}"
        note.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20260301)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed + 2)
    with tempfile.TemporaryDirectory(prefix="dreamd-graph-bench-") as tmp:
        root = Path(tmp)
        notes, size, words, weights = generate(root, args.chunks, args.seed)
        sprinkle(notes, rng)
        texts = [(n.relative_to(root).as_posix(), n.read_text(encoding="utf-8")) for n in notes]
        started = time.perf_counter()
        graph = merge_fragments(build_fragment(path, text, "") for path, text in texts)
        stats = graph.stats()
        graph_build = time.perf_counter() - started
        with RecallIndex.open(root) as index:
            started = time.perf_counter()
            built = index.update()
            index_build = time.perf_counter() - started
            now = datetime(2030, 1, 1)
            queries = [
                f"{sentence(rng, words, weights, rng.randint(1, 3))} {rng.choice(NAMES)}"
                for _ in range(args.queries)
            ]
            bundle_search(index, queries[0], k=10, now=now)  # warm the page cache
            timings: dict[str, list[float]] = {"bundle": [], "hybrid": []}
            for query in queries:
                for mode, run in (("bundle", bundle_search), ("hybrid", hybrid_search)):
                    began = time.perf_counter()
                    run(index, query, k=10, now=now)
                    timings[mode].append(time.perf_counter() - began)
    counts = graph.counts()
    rows = [
        ("chunks indexed", f"{built.chunks}"),
        ("markdown", f"{size / 1e6:.1f} MB"),
        ("graph", ", ".join(f"{value} {name}" for name, value in counts.items())),
        ("graph stats", ", ".join(f"{name} {value}" for name, value in stats.items())),
        ("graph build (fragments, merge, stats)", f"{graph_build:.2f} s"),
        ("index build (chunks and graph)", f"{index_build:.2f} s"),
        *(
            (f"{mode} search p{p}", f"{percentile(samples, p / 100) * 1e3:.2f} ms")
            for mode, samples in timings.items()
            for p in (50, 99)
        ),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"dreamd graph bench (python {sys.version.split()[0]})")
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
