"""Recall index benchmark: build rate, incremental update and search latency.

Usage: ``python bench/search_bench.py [--chunks N] [--queries Q] [--seed S]``

Generates a deterministic workspace in a temporary directory: daily notes under
``memory/<year>/YYYY-MM-DD.md`` with ~40 chunks each (list items and a few paragraphs under
headings), words drawn from a Zipf-Mandelbrot distribution over a synthetic vocabulary with
English stop words mixed in. Then it measures:

- build: a full index build from nothing, as MB of Markdown per second;
- incremental: ``update()`` after appending one line to one note (median of 5 edits);
- search: ``search()`` latency p50/p99 over the queries (1-4 words from the same distribution).

Targets (not asserted): p50 < 5 ms, p99 < 30 ms at 100k chunks; build >= 20 MB/s;
incremental < 50 ms.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from dreamd.recall.index import RecallIndex
from dreamd.recall.search import search

CHUNKS_PER_NOTE = 40
STOP = [
    "the",
    "a",
    "to",
    "and",
    "of",
    "in",
    "for",
    "on",
    "with",
    "is",
    "was",
    "we",
    "it",
    "that",
    "this",
    "at",
    "by",
    "from",
    "as",
    "be",
]
SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in ("a", "e", "i", "o", "u", "ai", "or")]


def vocabulary(rng: random.Random, size: int) -> list[str]:
    """``size`` distinct pronounceable pseudo-words."""
    words: dict[str, None] = {}
    while len(words) < size:
        words["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))] = None
    return list(words)


def zipf_weights(size: int, *, shift: float = 10.0) -> list[float]:
    """Cumulative Zipf-Mandelbrot weights (``1 / (rank + shift)``)."""
    return list(itertools.accumulate(1.0 / (rank + shift) for rank in range(1, size + 1)))


def sentence(rng: random.Random, words: list[str], weights: list[float], length: int) -> str:
    """``length`` words: content words by Zipf, one in three a stop word."""
    content = rng.choices(words, cum_weights=weights, k=length)
    return " ".join(rng.choice(STOP) if i % 3 == 1 else word for i, word in enumerate(content))


def note_text(rng: random.Random, words: list[str], weights: list[float], chunks: int) -> str:
    """A daily note with ``chunks`` chunks: list items in sections, some two-line paragraphs."""
    lines = ["# Daily note", ""]
    for index in range(chunks):
        if index % 10 == 0:
            lines += ["", f"## {sentence(rng, words, weights, 3).title()}", ""]
        if index % 10 == 9:
            lines += ["", sentence(rng, words, weights, 10), sentence(rng, words, weights, 8), ""]
        else:
            lines.append(f"- {sentence(rng, words, weights, rng.randint(8, 20))}")
    return "\n".join(lines) + "\n"


def generate(root: Path, chunks: int, seed: int) -> tuple[list[Path], int, list[str], list[float]]:
    """Write the workspace; return the notes, total Markdown bytes and the word distribution."""
    rng = random.Random(seed)
    words = vocabulary(rng, 5000)
    weights = zipf_weights(len(words))
    notes: list[Path] = []
    total = 0
    day = date(2019, 1, 1)
    remaining = chunks
    while remaining > 0:
        count = min(CHUNKS_PER_NOTE, remaining)
        path = root / "memory" / str(day.year) / f"{day.isoformat()}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = note_text(rng, words, weights, count).encode()
        path.write_bytes(data)
        notes.append(path)
        total += len(data)
        remaining -= count
        day += timedelta(days=1)
    memory = b"# Long-Term Memory\n\n- " + sentence(rng, words, weights, 12).encode() + b"\n"
    (root / "MEMORY.md").write_bytes(memory)
    return notes, total + len(memory), words, weights


def percentile(samples: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20260301)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed + 1)
    with tempfile.TemporaryDirectory(prefix="dreamd-bench-") as tmp:
        root = Path(tmp)
        notes, size, words, weights = generate(root, args.chunks, args.seed)
        with RecallIndex.open(root) as index:
            started = time.perf_counter()
            stats = index.update()
            build = time.perf_counter() - started

            edits = []
            for number in range(5):
                note = notes[rng.randrange(len(notes))]
                with note.open("a", encoding="utf-8") as handle:
                    handle.write(f"- edited line {number} {sentence(rng, words, weights, 8)}\n")
                started = time.perf_counter()
                index.update()
                edits.append(time.perf_counter() - started)

            now = datetime(2030, 1, 1)
            queries = [
                sentence(rng, words, weights, rng.randint(1, 4)).replace(" the ", " ")
                for _ in range(args.queries)
            ]
            search(index, queries[0], now=now)  # warm the page cache and statements
            latencies = []
            empty = 0
            for query in queries:
                started = time.perf_counter()
                hits = search(index, query, k=10, now=now)
                latencies.append(time.perf_counter() - started)
                empty += not hits

    rows = [
        ("chunks indexed", f"{stats.chunks}"),
        ("files", f"{stats.scanned}"),
        ("markdown", f"{size / 1e6:.1f} MB"),
        (
            "build",
            f"{build:.2f} s = {size / 1e6 / build:.1f} MB/s ({stats.chunks / build:,.0f} chunks/s)",
        ),
        ("incremental (median of 5)", f"{statistics.median(edits) * 1e3:.1f} ms"),
        ("search p50", f"{percentile(latencies, 0.50) * 1e3:.2f} ms"),
        ("search p99", f"{percentile(latencies, 0.99) * 1e3:.2f} ms"),
        ("search max", f"{max(latencies) * 1e3:.2f} ms"),
        ("queries without hits", f"{empty}/{len(queries)}"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"dreamd recall bench (python {sys.version.split()[0]})")
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
