"""LoCoMo recall benchmark: do ``memory search`` and ``memory recall`` find the turns asked about?

Usage: ``python bench/recall.py [--data PATH] [--conversations N | --only 0-4] [--verb V]
[--mode M] [--json]``

``--verb`` picks what is measured: ``search`` (what ``memory search`` runs), ``recall`` (what
``memory recall`` runs: :func:`dreamd.recall.answers.recall`) or ``both`` (the default: one
table, both verbs, per category). ``--mode`` picks the ranking of ``search``: ``hybrid`` (the
default of ``memory search``: :func:`dreamd.recall.bundle.hybrid_search`), ``lexical``
(:func:`dreamd.recall.search.search`) or ``bundle`` (:func:`dreamd.recall.bundle.bundle_search`
alone); ``--mode both`` prints lexical and hybrid side by side (the hybrid must not fall below
lexical). ``--only 0-4`` (or ``5-9``, ``0,3,7``) runs those conversations, numbered from 0:
the re-ranker's weights are judged on conversations they were not fitted on
(``bench/rerank_fit.py``).

The LoCoMo data (Maharana et al. 2024, CC BY-NC 4.0) is read at run time from
``shared/eval/locomo/locomo10.json`` beside the checkout (or beside the folder of worktrees it is
in), or ``--data``, or ``$DREAMD_LOCOMO``;
nothing of it is copied into the repository. Each conversation becomes a workspace in a temporary
folder; each session a daily note ``memory/<day>.md`` dated from its timestamp (a second session
on the same day is ``memory/<day>-session-<n>.md``) with one bullet per turn,
``- <speaker>: <text>``. The index, ``memory search``'s ranking and ``memory recall``'s answer
are exactly what users run (asked for 10 results), "now" being the day after the conversation's
last session. A result that lists several lines (its sources, what it replaced) shows them in
that order, and each takes its place among the k turns.

Measured for categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop) and 5
(adversarial) on its own line:

- turn level Recall@1/5/10: hits are expanded into the turns on their lines, in rank order, and
  cut at k turns (a bigger chunk earns no extra credit); recall is the share of a question's
  evidence turns found, averaged over questions;
- day level: the share of the evidence turns' days among the days of those k turns;
- the baseline, computed in the same run: plain SQLite FTS5 (porter tokenizer) with one row per
  turn, the question's words minus stop words OR-ed, ranked by bm25.

Target (not asserted): turn-level Recall@5 >= 0.70 on categories 1-4, for both verbs.
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
from dreamd.recall.answers import recall as answer_question
from dreamd.recall.bundle import bundle_search, hybrid_search
from dreamd.recall.index import RecallIndex
from dreamd.recall.search import search

_BESIDE = [up / "shared/eval/locomo/locomo10.json" for up in Path(__file__).resolve().parents[2:4]]
DEFAULT_DATA = next((path for path in _BESIDE if path.is_file()), _BESIDE[0])
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


Place = tuple[str, int, int]  # (path, first line, last line) of what a result shows


def places_of(hit: Any) -> list[Place]:
    """The line ranges a search hit shows, in the order it shows them: its own, the other
    sources of the same fact, then what it replaced."""
    also = [(other.path, other.start_line, other.end_line) for other in hit.also]
    return [(hit.path, hit.start_line, hit.end_line), *also, *(cited(e.source) for e in hit.was)]


def cited(source: str) -> Place:
    """``memory/2023-05-08.md#L3-L4`` (or ``#L3``) as a place."""
    path, _, lines = source.partition("#L")
    first, _, last = lines.partition("-L")
    return path, int(first), int(last or first)


def expand(shown: list[Place], turn_at: dict[tuple[str, int], str], k: int) -> list[str]:
    """The turns on the shown lines, in rank order, cut at ``k``."""
    turns: list[str] = []
    for path, first, last in shown:
        for line in range(first, last + 1):
            turn = turn_at.get((path, line))
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


def find(
    index: RecallIndex, root: Path, question: str, *, k: int, now: datetime, verb: str, mode: str
) -> list[Place]:
    """What one verb shows for ``question``, as line ranges in order."""
    if verb == "recall":
        answer = answer_question(index, root, question, k=k, now=now)
        return [
            cited(source)
            for result in answer.results
            for source in (result.source, *result.also, *(e.source for e in result.was))
        ]
    if mode == "bundle":
        hits = [routed.hit for routed in bundle_search(index, question, k=k, now=now)]
    elif mode == "hybrid":
        hits = [routed.hit for routed in hybrid_search(index, question, k=k, now=now)]
    else:
        hits = search(index, question, k=k, now=now)
    return [place for hit in hits for place in places_of(hit)]


def chosen(samples: list[Any], only: str | None, limit: int | None) -> list[Any]:
    """The conversations ``--only`` (``0-4``, ``5-9``, ``0,3,7``) or ``--conversations`` names."""
    if only is None:
        return samples[:limit]
    numbers: set[int] = set()
    for part in only.split(","):
        first, _, last = part.strip().partition("-")
        numbers.update(range(int(first), int(last or first) + 1))
    return [sample for number, sample in enumerate(samples) if number in numbers]


def run(
    data: Path,
    limit: int | None,
    mode: str = "hybrid",
    *,
    verbs: tuple[str, ...] = ("search",),
    only: str | None = None,
) -> dict[str, Any]:
    """Score every question of the chosen conversations; return the table's numbers."""
    samples = chosen(json.loads(data.read_text(encoding="utf-8")), only, limit)
    sums: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[int, int] = defaultdict(int)
    latencies: dict[str, list[float]] = {verb: [] for verb in verbs}
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
                    found = {"baseline": baseline_turns(base, question, max(KS))}
                    for verb in verbs:
                        started = time.perf_counter()
                        shown = find(
                            index, root, question, k=max(KS), now=now, verb=verb, mode=mode
                        )
                        latencies[verb].append(time.perf_counter() - started)
                        found[verb] = expand(shown, turn_at, max(KS))
                    counts[category] += 1
                    for k in KS:
                        for system, turns in found.items():
                            turn_level, day_level = recall(turns, evidence, day_of, k)
                            sums[(system, category)][f"turn@{k}"] += turn_level
                            sums[(system, category)][f"day@{k}"] += day_level
            base.close()
    return {"sums": sums, "counts": counts, "latencies": latencies, "systems": (*verbs, "baseline")}


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
        for system in result["systems"]:
            keys = [f"{level}@{k}" for level in ("turn", "day") for k in KS]
            out[group][system] = {
                key: sum(sums[(system, c)][key] for c in members) / n for key in keys
            }
    return out


TARGET = 0.70


def render(
    numbers: dict[str, dict[str, dict[str, float]]], latencies: dict[str, list[float]]
) -> str:
    """The table as text."""
    systems = [system for system in next(iter(numbers.values())) if system != "n"]
    asked = len(next(iter(latencies.values()), []))
    header = "category          n   system     R@1    R@5   R@10 | day R@1   R@5   R@10"
    lines = [f"dreamd LoCoMo recall bench ({asked} questions)", header, "-" * len(header)]
    for group, row in numbers.items():
        name = "1-4 (all)" if group == "1-4" else f"{group} {CATEGORIES.get(int(group), '')}"
        for position, system in enumerate(systems):
            v = row[system]
            label, count = (name, str(int(row["n"]["questions"]))) if not position else ("", "")
            lines.append(
                f"{label:<16}{count:>4}   {system:<9}"
                f"{v['turn@1']:6.3f} {v['turn@5']:6.3f} {v['turn@10']:6.3f} |"
                f" {v['day@1']:6.3f} {v['day@5']:6.3f} {v['day@10']:6.3f}"
            )
    for verb, spent in latencies.items():
        ordered = sorted(spent)
        middle, worst = ordered[len(ordered) // 2] * 1e3, ordered[-1] * 1e3
        lines.append(f"{verb} latency: p50 {middle:.2f} ms, max {worst:.2f} ms (small workspaces)")
    for verb in latencies:
        shortfall = [
            group
            for group, row in numbers.items()
            if group not in ("5",) and row[verb]["turn@5"] < TARGET
        ]
        figure = numbers["1-4"][verb]["turn@5"]
        verdict = "met" if figure >= TARGET else "NOT met"
        below = f"; below it: {', '.join(shortfall)}" if shortfall else ""
        lines.append(
            f"target: {verb} turn-level R@5 >= {TARGET:.2f} on categories 1-4:"
            f" {figure:.3f} ({verdict}){below}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(os.environ.get("DREAMD_LOCOMO", DEFAULT_DATA))
    parser.add_argument("--data", type=Path, default=default, help="path to locomo10.json")
    parser.add_argument("--conversations", type=int, help="only the first N conversations")
    parser.add_argument("--only", help="only these conversations, from 0: 0-4, 5-9, 0,3,7")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--verb", choices=["search", "recall", "both"], default="both")
    parser.add_argument("--mode", choices=["lexical", "bundle", "hybrid", "both"], default="hybrid")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"recall bench: no LoCoMo data at {args.data} (use --data PATH)", file=sys.stderr)
        return 1
    if args.mode == "both":
        figures = {}
        for mode in ("lexical", "hybrid"):
            result = run(args.data, args.conversations, mode, only=args.only)
            figures[mode] = table(result)["1-4"]["search"]
        for mode, values in figures.items():
            print(
                f"{mode:<8} R@1 {values['turn@1']:.3f}  R@5 {values['turn@5']:.3f}"
                f"  R@10 {values['turn@10']:.3f}"
            )
        fell = figures["hybrid"]["turn@5"] < figures["lexical"]["turn@5"]
        print("hybrid R@5 fell below lexical" if fell else "hybrid R@5 >= lexical")
        return 1 if fell else 0
    verbs = ("search", "recall") if args.verb == "both" else (args.verb,)
    result = run(args.data, args.conversations, args.mode, verbs=verbs, only=args.only)
    numbers = table(result)
    if args.json:
        asked = len(next(iter(result["latencies"].values())))
        print(json.dumps({"recall": numbers, "queries": asked}, indent=2))
    else:
        print(render(numbers, result["latencies"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
