"""The second stage: features from what the first ranking has, a fitted linear order."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dreamd.recall.candidates import Filters
from dreamd.recall.index import RecallIndex
from dreamd.recall.query import parse_query
from dreamd.recall.ranking import idf_of
from dreamd.recall.rerank import DEPTH, FEATURES, WEIGHTS, explain, features, rerank
from dreamd.recall.search import rank_candidates, search
from tests.builders import write

NOW = datetime(2026, 5, 20, 9, 0, tzinfo=UTC)
DIALOGUE = (
    "# 2026-05-12\n\n"
    "- Ana: How was the trip to Porto?\n"
    "- Ben: Rainy, but the tile museum was worth it.\n"
    "- Ana: Which hotel did you pick in Porto?\n"
    "- Ben: The small one by the river, Casa Ribeira.\n"
)


def test_each_feature_is_read_from_the_first_stage_and_the_line_before(tmp_path: Path) -> None:
    """The reply after a matching question gets ``answer``; a question gets ``asks``; the
    person asked about gets ``subject``; two query words side by side give ``proximity``."""
    write(tmp_path, "memory/2026-05-12.md", DIALOGUE)
    parsed = parse_query("Which hotel did Ben pick in Porto?", today=NOW.date())
    with RecallIndex.open(tmp_path) as index:
        index.update()
        staged = rank_candidates(index, parsed, Filters(), k=5, today=NOW.date())
    idf = idf_of(parsed, documents=staged.documents, frequency=staged.frequency)
    found = features(parsed, staged.ranked, staged.previous, idf=idf, names=staged.names)
    by_line = {
        item.row.start_line: {name: round(value, 3) for name, value in row.items() if value}
        for item, row in zip(staged.ranked, found, strict=True)
    }
    assert sorted(by_line) == [3, 4, 5, 6]
    assert by_line[5]["asks"] == 1.0 and "subject" not in by_line[5]  # Ana asks
    assert by_line[6]["answer"] > 0.5 and by_line[6]["subject"] == 1.0  # Ben answers her
    assert by_line[4]["answer"] < by_line[6]["answer"]  # its question was about the trip
    assert by_line[5]["proximity"] == 0.333  # "pick in Porto": 1 / (1 + 2)
    assert set(FEATURES) >= {name for row in found for name in row}


def test_the_answer_to_the_question_leads(tmp_path: Path) -> None:
    """Asked which hotel Ben picked, the line that answers (and names no query word: it is
    shown as context) comes before the question that matches every word."""
    write(tmp_path, "memory/2026-05-12.md", DIALOGUE)
    with RecallIndex.open(tmp_path) as index:
        index.update()
        hits = search(index, "Which hotel did Ben pick in Porto?", k=3, now=NOW)
    places = [(hit.start_line, hit.context) for hit in hits]
    assert places[0] == (6, True)
    assert (5, False) in places
    assert explain(dict(hits[0].why)).startswith("rerank ")


def test_only_the_first_depth_are_reordered_and_ties_keep_the_first_order(
    tmp_path: Path,
) -> None:
    """Lines past DEPTH keep their place after the reordered head; equal scores keep the
    first stage's order (the same input, the same output)."""
    lines = "".join(f"- Crate {n} holds tomato seeds.\n" for n in range(DEPTH + 10))
    write(tmp_path, "memory/2026-05-01.md", lines)
    parsed = parse_query("tomato seeds", today=NOW.date())
    with RecallIndex.open(tmp_path) as index:
        index.update()
        staged = rank_candidates(index, parsed, Filters(), k=20, today=NOW.date())
    args = {"documents": staged.documents, "frequency": staged.frequency, "names": staged.names}
    again = rerank(parsed, staged.ranked, staged.previous, **args)
    assert len(staged.ranked) > DEPTH
    assert again[DEPTH:] == staged.ranked[DEPTH:]
    assert [item.row.id for item in again[:DEPTH]] == [
        item.row.id for item in staged.ranked[:DEPTH]
    ]
    assert rerank(parsed, staged.ranked, staged.previous, **args) == again


def test_the_weights_name_only_features_and_first_stays_one() -> None:
    """Every weight belongs to a feature, and the first stage's own value keeps weight 1 (the
    fit moves the others around it)."""
    assert set(WEIGHTS) == set(FEATURES)
    assert WEIGHTS["first"] == 1.0


def test_explain_writes_the_sum_term_by_term() -> None:
    """The line --explain prints: each weighted feature, then the first stage's signals."""
    why = {"first": 1.0, "answer": 0.8, "lexical": 0.5, "rerank": 1.4}
    assert explain(why) == (
        f"rerank 1.400 = first 1.000x1 + answer 0.800x{WEIGHTS['answer']:g};"
        " first stage: lexical 0.500"
    )
