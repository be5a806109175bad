"""``memory recall``'s answer keeps what ``memory search`` shows around a match."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dreamd.recall.answers import recall
from dreamd.recall.index import RecallIndex
from tests.builders import write

NOW = datetime(2026, 5, 20, 9, 0, tzinfo=UTC)


def test_the_answer_line_search_shows_is_recalled_too_but_not_recorded(tmp_path: Path) -> None:
    """The reply to a matching question holds no word of the question: recall shows it, marked
    as context, as search does, and hands back only the matching line to record."""
    write(
        tmp_path,
        "memory/2026-05-12.md",
        "- Ana: Which database did the billing team pick?\n- Ben: Postgres 16, on db-02.\n",
    )
    with RecallIndex.open(tmp_path) as index:
        index.update()
        answer = recall(index, tmp_path, "billing database pick", k=5, now=NOW)
        typed = recall(index, tmp_path, "billing database pick", k=5, now=NOW, kinds=["world"])
    assert [(r.source, r.context) for r in answer.results] == [
        ("memory/2026-05-12.md#L2-L2", True),
        ("memory/2026-05-12.md#L1-L1", False),
    ]
    assert answer.results[0].as_json()["context"] is True
    assert [hit.source for hit in answer.hits] == ["memory/2026-05-12.md#L1-L1"]
    assert [r.context for r in typed.results] == [False] * len(typed.results)


def test_a_context_line_before_the_matching_line_does_not_open_the_answer() -> None:
    """The matching line goes ahead of context lines ranked before it, unless it is a question
    (then the line around it is its reply, the answer, and stays first)."""
    from dreamd.engine.hits import Hit
    from dreamd.recall.answers import _answer_first

    filler = Hit("memory/2026-05-13.md", 2, 2, "Cleared the inbox.", 0.3, context=True)
    fact = Hit("memory/2026-05-13.md", 3, 3, "- Ola's retro moved to 14:00.", 1.0)
    asked = Hit("memory/2026-05-13.md", 1, 1, "- Ana: Which database did we pick?", 1.0)
    assert _answer_first([filler, fact]) == [fact, filler]
    assert _answer_first([fact, filler]) == [fact, filler]
    assert _answer_first([filler, asked]) == [filler, asked]
