"""Deep ranking: gates in order with their categories, sorting, limits, and OpenClaw's golden data."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from dreamd.engine.phases.deep import GATES, Thresholds, rank
from dreamd.engine.state import RECALL_STORE
from tests.builders import NOW, entry, table

GOLDEN = Path(__file__).parents[1] / "fixtures" / "openclaw-golden"
STORE = GOLDEN / "workspace" / "memory" / ".dreams" / "short-term-recall.json"


def strong(**fields: Any) -> Any:
    """An entry that passes every default gate unless ``fields`` break one."""
    base: dict[str, Any] = {
        "recall_count": 5,
        "total_score": 4.5,
        "user_query_hashes": ("q1", "q2", "q3", "q4"),
        "query_hashes": ("q1", "q2", "q3", "q4"),
        "last_recalled_at": "2026-11-28T12:00:00.000Z",
        "recall_days": ("2026-11-20", "2026-11-24", "2026-11-28"),
        "concept_tags": ("staging", "database", "postgres", "host"),
    }
    base.update(fields)
    return entry(**base)


@pytest.mark.parametrize(
    ("fields", "category"),
    [
        ({"path": "MEMORY.md", "key": "memory:MEMORY.md:3:3"}, "short-term path"),
        ({"path": "memory/dreaming/deep/2026-11-20.md", "key": "k-report"}, "short-term path"),
        ({"provenance": "untrusted"}, "origin"),
        ({"provenance": "system"}, "origin"),
        (
            {
                "snippet": "- Candidate: x y z confidence: 0.9 evidence: memory/a.md:1-1 recalls: 3 status: staged"
            },
            "contamination",
        ),
        ({"snippet": "git status --short"}, "contamination"),
        ({"promoted_at": "2026-11-01T00:00:00.000Z"}, "already promoted"),
        ({"recall_count": 2, "total_score": 1.8}, "signal threshold"),
        ({"user_query_hashes": ("q1", "q2")}, "query threshold"),
        ({"last_recalled_at": "2026-10-20T12:00:00.000Z"}, "age threshold"),
        ({"total_score": 1.0}, "score threshold"),
    ],
)
def test_each_gate_rejects_with_its_category(fields: dict[str, Any], category: str) -> None:
    """An entry failing exactly one gate is rejected with that gate's category."""
    ranking = rank(table([strong(**fields)]).rows, {}, Thresholds(), now=NOW)
    assert ranking.candidates == ()
    assert ranking.rejected == {category: 1}
    assert ranking.verdicts[0].rejection == category


def test_gates_apply_in_order() -> None:
    """The first failing gate in SPEC order is the one reported."""
    row = strong(provenance="untrusted", recall_count=1, promoted_at="2026-11-01T00:00:00.000Z")
    ranking = rank(table([row]).rows, {}, Thresholds(), now=NOW)
    assert ranking.rejected == {"origin": 1}
    assert GATES.index("origin") < GATES.index("already promoted")


def test_a_strong_entry_passes() -> None:
    """An entry recalled on several days by distinct user queries passes every gate."""
    ranking = rank(table([strong()]).rows, {}, Thresholds(), now=NOW)
    assert [c.entry.key for c in ranking.candidates] == ["memory:memory/2026-11-20.md:3:3"]
    assert ranking.rejected == {}


def test_repeated_filler_without_user_recalls_never_passes() -> None:
    """A note re-ingested on many days (daily signals only) fails the query gate."""
    filler = entry(
        daily_count=12,
        total_score=12 * 0.62,
        query_hashes=tuple(f"d{i}" for i in range(12)),
        user_query_hashes=(),
        recall_days=tuple(f"2026-11-{day:02d}" for day in range(16, 28)),
        last_recalled_at="2026-11-28T12:00:00.000Z",
        concept_tags=("standup", "daily", "filler", "again", "notes", "team"),
    )
    ranking = rank(table([filler]).rows, {}, Thresholds(), now=NOW)
    assert ranking.rejected == {"query threshold": 1}


def test_include_promoted_lets_promoted_rows_through() -> None:
    """``include_promoted`` skips the already-promoted gate."""
    row = strong(promoted_at="2026-11-01T00:00:00.000Z")
    ranking = rank(table([row]).rows, {}, Thresholds(), now=NOW, include_promoted=True)
    assert len(ranking.candidates) == 1


def test_sort_order_and_limit() -> None:
    """Sorted by score desc, then recall count desc, then path; the rest is 'selection limit'."""
    rows = [
        strong(path="memory/2026-11-21.md", key="a", total_score=4.0),
        strong(path="memory/2026-11-22.md", key="b", total_score=4.9),
        strong(path="memory/2026-11-23.md", key="c", total_score=4.0),
        strong(path="memory/2026-11-24.md", key="d", total_score=4.5),
    ]
    ranking = rank(table(rows).rows, {}, Thresholds(limit=3), now=NOW)
    assert [c.entry.key for c in ranking.candidates] == ["b", "d", "a"]
    assert ranking.rejected == {"selection limit": 1}


def test_rows_promoted_today_use_up_the_daily_limit() -> None:
    """In a sweep (zone given), promotions made earlier the same day count against the limit."""
    done = strong(key="done", promoted_at="2026-11-29T03:00:00.000Z")
    rows = [
        done,
        strong(key="x", path="memory/2026-11-21.md"),
        strong(key="y", path="memory/2026-11-22.md"),
    ]
    ranking = rank(table(rows).rows, {}, Thresholds(limit=2), now=NOW, zone=UTC)
    assert ranking.promoted_today == 1
    assert len(ranking.candidates) == 1
    assert ranking.rejected == {"selection limit": 1}
    per_run = rank(table(rows).rows, {}, Thresholds(limit=2), now=NOW)
    assert len(per_run.candidates) == 2
    assert per_run.rejected == {"already promoted": 1}


def _golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / name).read_text())
    return data


@pytest.mark.parametrize(
    ("name", "thresholds"),
    [
        ("promote.json", Thresholds(limit=1000)),
        (
            "promote-all-gates-zero.json",
            Thresholds(limit=1000, min_score=0, min_recall_count=0, min_unique_queries=0),
        ),
    ],
)
def test_reproduces_openclaw_ranking(name: str, thresholds: Thresholds) -> None:
    """The golden store ranks to OpenClaw's candidates, order, components and scores."""
    store, issues = RECALL_STORE.decode(STORE.read_bytes())
    assert issues == []
    ranking = rank(store.rows, {}, thresholds, now=NOW)
    expected = _golden(name)["candidates"]
    assert [c.entry.key for c in ranking.candidates] == [c["key"] for c in expected]
    for mine, theirs in zip(ranking.candidates, expected, strict=True):
        assert mine.score == pytest.approx(theirs["score"], abs=1e-12)
        assert mine.components.as_dict() == pytest.approx(theirs["components"], abs=1e-12)
        assert mine.age_days == pytest.approx(theirs["ageDays"], abs=1e-9)
        assert (mine.signals, mine.unique_queries) == (
            theirs["signalCount"],
            theirs["uniqueQueries"],
        )
