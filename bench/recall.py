"""LoCoMo recall benchmark: does ``dreamd memory search`` find the turns a question is about?

Usage: ``python bench/recall.py [--data PATH] [--conversations N] [--mode M] [--json]``

``--mode`` picks the ranking: ``lexical`` (:func:`dreamd.recall.search.search`), ``bundle``
(:func:`dreamd.recall.bundle.bundle_search` alone) or ``hybrid`` (the default of ``memory
search``: :func:`dreamd.recall.bundle.hybrid_search`); ``--mode both`` prints lexical and
hybrid side by side (the hybrid must not fall below lexical).

The LoCoMo data (Maharana et al. 2024, CC BY-NC 4.0) is read at run time from
``../shared/eval/locomo/locomo10.json`` beside the checkout, or ``--data``, or ``$DREAMD_LOCOMO``;
nothing of it is copied into the repository. Each conversation becomes a workspace in a temporary
folder; each session a daily note ``memory/<day>.md`` dated from its timestamp (a second session
on the same day is ``memory/<day>-session-<n>.md``) with one bullet per turn,
``- <speaker>: <text>``. The index and :func:`dreamd.recall.search.search` are exactly what
users run, asked "now" = the day after the conversation's last session.

Measured for categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop) and 5
(adversarial) on its own line:

- turn level Recall@1/5/10: hits are expanded into the turns on their lines, in rank order, and
  cut at k turns (a bigger chunk earns no extra credit); recall is the share of a question's
  evidence turns found, averaged over questions;
- day level: the share of the evidence turns' days among the days of those k turns;
- the baseline, computed in the same run: plain SQLite FTS5 (porter tokenizer) with one row per
  turn, the question's words minus stop words OR-ed, ranked by bm25; and the ratio of ours to it.

Target (not asserted): turn-level Recall@5 >= 0.65 on categories 1-4.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from dreamd.recall.analysis import STOP_WORDS
from dreamd.recall.bundle import bundle_search, hybrid_search
from dreamd.recall.index import RecallIndex
from dreamd.recall.search import search

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared/eval/locomo/locomo10.json"
KS = (1, 5, 10)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_STAMP = re.compile(r"(\d{1,2}):(\d{2})\s*([ap]m) on (\d{1,2}) (\w+),? (\d{4})", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")

Turn = tuple[str, str, str]  # (day, speaker, text)


def session_moment(stamp: str) -> datetime:
    """``1:56 pm on 8 May, 2023`` as a datetime."""
    found = _STAMP.search(stamp)
    if found is None:
        raise ValueError(f"unreadable session time {stamp!r}")
    hour, minute, half, day, month, year = found.groups()
    text = f"{int(hour) % 12 + (12 if half.lower() == 'pm' else 0)}:{minute} {day} {month} {year}"
    return datetime.strptime(text, "%H:%M %d %B %Y").replace(tzinfo=UTC)


def sessions(conversation: dict[str, Any]) -> Iterator[tuple[int, datetime, list[dict[str, Any]]]]:
    """(number, time, turns) of every session, in order."""
    numbers = sorted(
        int(key.split("_")[1]) for key in conversation if re.fullmatch(r"session_\d+", key)
    )
    for number in numbers:
        turns = conversation[f"session_{number}"]
        if turns:
            yield number, session_moment(conversation[f"session_{number}_date_time"]), turns


def lay_out(
    root: Path, conversation: dict[str, Any]
) -> tuple[dict[str, tuple[str, int]], datetime]:
    """Write the workspace; return turn id -> (path, line) and the time of the last session."""
    where: dict[str, tuple[str, int]] = {}
    used: set[str] = set()
    last = datetime.min.replace(tzinfo=UTC)
    for number, moment, turns in sessions(conversation):
        day = moment.date().isoformat()
        rel = f"memory/{day}.md" if day not in used else f"memory/{day}-session-{number}.md"
        used.add(day)
        lines = [f"# {conversation[f'session_{number}_date_time']}", ""]
        for turn in turns:
            text = " ".join(str(turn.get("text", "")).split())
            lines.append(f"- {turn['speaker']}: {text}")
            where[str(turn["dia_id"])] = (rel, len(lines))
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        last = max(last, moment)
    return where, last


def questions(sample: dict[str, Any], known: set[str]) -> Iterator[tuple[int, str, list[str]]]:
    """(category, question, evidence turn ids) of questions whose evidence is in the data."""
    for qa in sample["qa"]:
        evidence = [e.strip() for item in qa.get("evidence", []) for e in str(item).split(";")]
        evidence = [e for e in dict.fromkeys(evidence) if e in known]
        if evidence:
            yield int(qa["category"]), str(qa["question"]), evidence


def baseline_index(where: dict[str, tuple[str, int]], root: Path) -> sqlite3.Connection:
    """An in-memory FTS5 table with one row per turn: ``<speaker>: <text>``."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE turns USING fts5(id UNINDEXED, body, tokenize='porter')")
    cache: dict[str, list[str]] = {}
    for turn, (rel, line) in where.items():
        lines = cache.setdefault(rel, (root / rel).read_text(encoding="utf-8").split("\n"))
        conn.execute("INSERT INTO turns(id, body) VALUES (?, ?)", (turn, lines[line - 1][2:]))
    return conn


def baseline_turns(conn: sqlite3.Connection, question: str, k: int) -> list[str]:
    """The baseline's top ``k`` turn ids."""
    words = [w for w in _WORD.findall(question.lower()) if w not in STOP_WORDS]
    if not words:
        return []
    expression = " OR ".join('"' + word.replace('"', '""') + '"' for word in dict.fromkeys(words))
    query = "SELECT id FROM turns WHERE turns MATCH ? ORDER BY rank LIMIT ?"
    return [row[0] for row in conn.execute(query, (expression, k))]


def expand(hits: list[Any], turn_at: dict[tuple[str, int], str], k: int) -> list[str]:
    """The turns on the hits' lines, in rank order, cut at ``k``."""
    turns: list[str] = []
    for hit in hits:
        for line in range(hit.start_line, hit.end_line + 1):
            turn = turn_at.get((hit.path, line))
            if turn is not None and turn not in turns:
                turns.append(turn)
    return turns[:k]


def recall(
    found: list[str], evidence: list[str], day_of: dict[str, str], k: int
) -> tuple[float, float]:
    """(turn-level, day-level) recall of the first ``k`` of ``found``."""
    top = found[:k]
    turns = len(set(top) & set(evidence)) / len(evidence)
    wanted = {day_of[e] for e in evidence}
    days = len({day_of[t] for t in top} & wanted) / len(wanted)
    return turns, days


def find(index: RecallIndex, question: str, *, k: int, now: datetime, mode: str) -> list[Any]:
    """The hits of one ranking."""
    if mode == "bundle":
        return [routed.hit for routed in bundle_search(index, question, k=k, now=now)]
    if mode == "hybrid":
        return [routed.hit for routed in hybrid_search(index, question, k=k, now=now)]
    return search(index, question, k=k, now=now)


def run(data: Path, limit: int | None, mode: str = "lexical") -> dict[str, Any]:
    """Score every question of the first ``limit`` conversations; return the table's numbers."""
    samples = json.loads(data.read_text(encoding="utf-8"))[:limit]
    sums: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[int, int] = defaultdict(int)
    latencies: list[float] = []
    for sample in samples:
        with tempfile.TemporaryDirectory(prefix="dreamd-locomo-") as tmp:
            root = Path(tmp)
            where, last = lay_out(root, sample["conversation"])
            turn_at = {place: turn for turn, place in where.items()}
            day_of = {turn: rel[7:17] for turn, (rel, _) in where.items()}
            now = last + timedelta(days=1)
            base = baseline_index(where, root)
            with RecallIndex.open(root) as index:
                index.update()
                for category, question, evidence in questions(sample, set(where)):
                    started = time.perf_counter()
                    hits = find(index, question, k=max(KS), now=now, mode=mode)
                    latencies.append(time.perf_counter() - started)
                    ours = expand(hits, turn_at, max(KS))
                    theirs = baseline_turns(base, question, max(KS))
                    counts[category] += 1
                    for k in KS:
                        for system, found in (("ours", ours), ("baseline", theirs)):
                            turn_level, day_level = recall(found, evidence, day_of, k)
                            sums[(system, category)][f"turn@{k}"] += turn_level
                            sums[(system, category)][f"day@{k}"] += day_level
            base.close()
    return {"sums": sums, "counts": counts, "latencies": latencies}


def table(result: dict[str, Any]) -> dict[str, dict[str, dict[str, float]]]:
    """Mean recall per system and category group ("1-4" and each category)."""
    sums, counts = result["sums"], result["counts"]
    groups = {"1-4": [1, 2, 3, 4], **{str(c): [c] for c in sorted(counts)}}
    out: dict[str, dict[str, dict[str, float]]] = {}
    for group, members in groups.items():
        n = sum(counts[c] for c in members)
        if not n:
            continue
        out[group] = {"n": {"questions": n}}
        for system in ("ours", "baseline"):
            keys = [f"{level}@{k}" for level in ("turn", "day") for k in KS]
            out[group][system] = {
                key: sum(sums[(system, c)][key] for c in members) / n for key in keys
            }
    return out


def render(numbers: dict[str, dict[str, dict[str, float]]], latencies: list[float]) -> str:
    """The table as text."""
    header = "category          n   system     R@1    R@5   R@10 | day R@1   R@5   R@10"
    lines = [f"dreamd LoCoMo recall bench ({len(latencies)} questions)", header, "-" * len(header)]
    for group, row in numbers.items():
        name = "1-4 (all)" if group == "1-4" else f"{group} {CATEGORIES.get(int(group), '')}"
        for system in ("ours", "baseline"):
            v = row[system]
            label, count = (name, str(int(row["n"]["questions"]))) if system == "ours" else ("", "")
            lines.append(
                f"{label:<16}{count:>4}   {system:<9}"
                f"{v['turn@1']:6.3f} {v['turn@5']:6.3f} {v['turn@10']:6.3f} |"
                f" {v['day@1']:6.3f} {v['day@5']:6.3f} {v['day@10']:6.3f}"
            )
        base = row["baseline"]["turn@5"]
        ratio = row["ours"]["turn@5"] / base if base else 0.0
        lines.append(f"{'':<23}ratio R@5 ours/baseline = {ratio:.2f}")
    ordered = sorted(latencies)
    middle, worst = ordered[len(ordered) // 2] * 1e3, ordered[-1] * 1e3
    lines.append(f"search latency: p50 {middle:.2f} ms, max {worst:.2f} ms (small workspaces)")
    target = numbers["1-4"]["ours"]["turn@5"]
    verdict = "met" if target >= 0.65 else "NOT met"
    lines.append(f"target: turn-level R@5 >= 0.65 on categories 1-4: {target:.3f} ({verdict})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(os.environ.get("DREAMD_LOCOMO", DEFAULT_DATA))
    parser.add_argument("--data", type=Path, default=default, help="path to locomo10.json")
    parser.add_argument("--conversations", type=int, help="only the first N conversations")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument(
        "--mode", choices=["lexical", "bundle", "hybrid", "both"], default="lexical"
    )
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"recall bench: no LoCoMo data at {args.data} (use --data PATH)", file=sys.stderr)
        return 1
    if args.mode == "both":
        figures = {}
        for mode in ("lexical", "hybrid"):
            figures[mode] = table(run(args.data, args.conversations, mode))["1-4"]["ours"]
        for mode, values in figures.items():
            print(
                f"{mode:<8} R@1 {values['turn@1']:.3f}  R@5 {values['turn@5']:.3f}"
                f"  R@10 {values['turn@10']:.3f}"
            )
        fell = figures["hybrid"]["turn@5"] < figures["lexical"]["turn@5"]
        print("hybrid R@5 fell below lexical" if fell else "hybrid R@5 >= lexical")
        return 1 if fell else 0
    result = run(args.data, args.conversations, args.mode)
    numbers = table(result)
    if args.json:
        print(json.dumps({"recall": numbers, "queries": len(result["latencies"])}, indent=2))
    else:
        print(render(numbers, result["latencies"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
