"""Fit the second stage's weights on LoCoMo, and say how they do on conversations left out.

Usage: ``python bench/rerank_fit.py [--data PATH] [--json]``

For every question of categories 1-4, the first stage of ``memory search``
(:func:`dreamd.recall.search.rank_candidates`, asked for 10 hits) ranks the candidates and
:func:`dreamd.recall.rerank.features` computes the features of its first
:data:`~dreamd.recall.rerank.DEPTH`: exactly what a search computes. A candidate is relevant when
it holds an evidence turn. The weights are fitted by coordinate ascent on turn-level Recall@5
(Metzler and Croft's method for a few features): ``first`` stays 1, every other weight in turn
takes the value of :data:`GRID` that raises the mean Recall@5 most, for up to :data:`ROUNDS`
rounds; ties keep the smaller change. Deterministic: no sampling.

Printed: the first stage alone and the shipped :data:`~dreamd.recall.rerank.WEIGHTS` on each half;
weights fitted on conversations 0-4 and judged on 5-9, and the reverse (the out-of-sample
figures); and the weights fitted on all ten, which are what ``WEIGHTS`` should hold. Recall@5
here counts candidates, before one result per fact is made of them; ``bench/recall.py`` measures
what the verbs show. LoCoMo is read at run time as in ``bench/recall.py`` (never copied).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from recall import DEFAULT_DATA, lay_out, questions

from dreamd.recall.candidates import Filters
from dreamd.recall.index import RecallIndex
from dreamd.recall.query import parse_query
from dreamd.recall.ranking import idf_of
from dreamd.recall.rerank import DEPTH, FEATURES, WEIGHTS, features
from dreamd.recall.search import rank_candidates

GRID = (-1.0, -0.5, -0.3, -0.2, -0.1, -0.05, 0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)
ROUNDS = 4
HALVES = {"0-4": range(5), "5-9": range(5, 10)}

# One question: its features per candidate (in FEATURES order), which candidates hold evidence
# (the evidence turn each holds, or None), and how many evidence turns it has.
Question = tuple[list[list[float]], list[str | None], int]


def collect(data: Path) -> dict[int, list[Question]]:
    """Every conversation's questions (categories 1-4) as feature rows and labels."""
    samples = json.loads(data.read_text(encoding="utf-8"))
    found: dict[int, list[Question]] = {}
    for number, sample in enumerate(samples):
        found[number] = []
        with tempfile.TemporaryDirectory(prefix="dreamd-rerank-") as tmp:
            root = Path(tmp)
            where, last = lay_out(root, sample["conversation"])
            turn_at = {place: turn for turn, place in where.items()}
            now = last + timedelta(days=1)
            with RecallIndex.open(root) as index:
                index.update()
                for category, question, evidence in questions(sample, set(where)):
                    if category == 5:
                        continue
                    parsed = parse_query(question, today=now.date())
                    if not parsed.terms:
                        found[number].append(([], [], len(evidence)))
                        continue
                    staged = rank_candidates(index, parsed, Filters(), k=10, today=now.date())
                    head = staged.ranked[:DEPTH]
                    idf = idf_of(parsed, documents=staged.documents, frequency=staged.frequency)
                    rows = features(parsed, head, staged.previous, idf=idf, names=staged.names)
                    wanted = set(evidence)
                    labels = []
                    for item in head:
                        turns = [
                            turn_at.get((item.row.path, line))
                            for line in range(item.row.start_line, item.row.end_line + 1)
                        ]
                        labels.append(next((t for t in turns if t in wanted), None))
                    matrix = [[row[name] for name in FEATURES] for row in rows]
                    found[number].append((matrix, labels, len(evidence)))
    return found


def _recall(scores: Sequence[float], labels: list[str | None], evidence: int) -> float:
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:5]
    return len({labels[i] for i in order if labels[i] is not None}) / evidence


def mean_recall(asked: list[Question], weights: Sequence[float]) -> float:
    """Mean Recall@5 of ``asked`` ordered by ``weights``."""
    total = 0.0
    for matrix, labels, evidence in asked:
        if matrix:
            scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in matrix]
            total += _recall(scores, labels, evidence)
    return total / max(1, len(asked))


def fit(asked: list[Question]) -> tuple[list[float], float]:
    """Coordinate ascent on mean Recall@5 (see the module docstring)."""
    weights = [1.0 if name == "first" else 0.0 for name in FEATURES]
    current = mean_recall(asked, weights)
    for _ in range(ROUNDS):
        moved = False
        for j, name in enumerate(FEATURES):
            if name == "first":
                continue
            rest = [
                [
                    sum(w * x for w, x in zip(weights, row, strict=True)) - weights[j] * row[j]
                    for row in matrix
                ]
                for matrix, _, _ in asked
            ]
            best, best_value = weights[j], current
            for value in sorted(GRID, key=lambda v: abs(v - weights[j])):
                total = sum(
                    _recall(
                        [base + value * row[j] for base, row in zip(bases, matrix, strict=True)],
                        labels,
                        evidence,
                    )
                    for (matrix, labels, evidence), bases in zip(asked, rest, strict=True)
                    if matrix
                )
                if total / max(1, len(asked)) > best_value + 1e-12:
                    best, best_value = value, total / max(1, len(asked))
            if best != weights[j]:
                weights[j], current, moved = best, best_value, True
        if not moved:
            break
    return weights, current


def main(argv: list[str] | None = None) -> int:
    """Fit, judge out of sample, and print the weights."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(os.environ.get("DREAMD_LOCOMO", DEFAULT_DATA))
    parser.add_argument("--data", type=Path, default=default, help="path to locomo10.json")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"rerank fit: no LoCoMo data at {args.data} (use --data PATH)", file=sys.stderr)
        return 1
    found = collect(args.data)
    half = {name: [q for n in numbers for q in found[n]] for name, numbers in HALVES.items()}
    everything = [q for n in sorted(found) for q in found[n]]
    first = [1.0 if name == "first" else 0.0 for name in FEATURES]
    shipped = [WEIGHTS.get(name, 0.0) for name in FEATURES]
    report: dict[str, Any] = {"features": list(FEATURES), "halves": {}}
    for name, asked in half.items():
        other = half["5-9" if name == "0-4" else "0-4"]
        weights, inside = fit(asked)
        report["halves"][name] = {
            "firstStage": mean_recall(asked, first),
            "shipped": mean_recall(asked, shipped),
            "fitted": dict(zip(FEATURES, weights, strict=True)),
            "inSample": inside,
            "otherHalfFirstStage": mean_recall(other, first),
            "otherHalf": mean_recall(other, weights),
        }
    weights, inside = fit(everything)
    report["all"] = {
        "firstStage": mean_recall(everything, first),
        "fitted": dict(zip(FEATURES, weights, strict=True)),
        "inSample": inside,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"second-stage fit on LoCoMo, categories 1-4, candidate R@5 (depth {DEPTH})")
    for name, row in report["halves"].items():
        other = "5-9" if name == "0-4" else "0-4"
        print(
            f"fit on {name}: first stage {row['firstStage']:.4f}, shipped {row['shipped']:.4f},"
            f" fitted {row['inSample']:.4f} (in sample)"
        )
        print(
            f"  judged on {other}: first stage {row['otherHalfFirstStage']:.4f}"
            f" -> {row['otherHalf']:.4f} (out of sample)"
        )
        print("  weights " + ", ".join(f"{k} {v:g}" for k, v in row["fitted"].items() if v))
    row = report["all"]
    print(f"fit on all: first stage {row['firstStage']:.4f} -> {row['inSample']:.4f} (in sample)")
    print("WEIGHTS = {" + ", ".join(f'"{k}": {v:g}' for k, v in row["fitted"].items()) + "}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
