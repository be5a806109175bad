"""Ranking on small hand-made workspaces: the behaviours recall quality rests on."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.engine.hits import Hit, hit_json
from dreamd.recall.index import RecallIndex
from dreamd.recall.search import search
from tests.builders import write

NOW = datetime(2023, 10, 25, 9, 0, tzinfo=UTC)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An empty workspace folder."""
    return tmp_path / "ws"


@pytest.fixture
def open_index(root: Path) -> Iterator[RecallIndex]:
    """The workspace's index, opened after the test wrote its notes (via ``fill``)."""
    index = RecallIndex.open(root)
    yield index
    index.close()


def ask(index: RecallIndex, query: str, k: int = 5, **filters: object) -> list[Hit]:
    """Search after bringing the index up to date."""
    index.update()
    return search(index, query, k=k, now=NOW, **filters)  # type: ignore[arg-type]


def places(hits: list[Hit]) -> list[tuple[str, int, bool]]:
    """(path, first line, context?) of each hit, in order."""
    return [(hit.path, hit.start_line, hit.context) for hit in hits]


def test_exact_terms_beat_partial_matches(root: Path, open_index: RecallIndex) -> None:
    """All query words (stemmed) outrank one of them, however often it repeats; scores say so."""
    write(
        root,
        "memory/2023-10-01.md",
        "# Ops\n\n- Rotation rotation rotation of the tyres, rotation again.\n\n"
        "- The glacier backups are rotated every Sunday.\n\n- Glacier pricing changed.\n",
    )
    hits = [hit for hit in ask(open_index, "glacier backup rotation") if not hit.context]
    assert (hits[0].start_line, hits[0].score >= 0.6) == (5, True)
    assert sorted((hit.start_line, hit.score < 0.4) for hit in hits[1:]) == [(3, True), (7, True)]


def test_a_named_speaker_is_preferred(root: Path, open_index: RecallIndex) -> None:
    """A question naming a speaker prefers that speaker's line over another's with the same words."""
    write(
        root,
        "memory/2023-05-08.md",
        "# Chat\n\n- Bob: I adopted a dog from the shelter.\n- Alice: I adopted a cat last week.\n"
        "- Bob: Nice!\n",
    )
    hits = ask(open_index, "What did Alice adopt?", k=2)
    assert places(hits) == [("memory/2023-05-08.md", 4, False), ("memory/2023-05-08.md", 3, False)]
    assert dict(hits[0].why)["speaker"] == 1.0
    assert hits[0].score >= 0.6 > hits[1].score


def test_an_at_entity_is_preferred(root: Path, open_index: RecallIndex) -> None:
    """An @Entity in the query prefers chunks tagged with it; hits carry their entities."""
    write(
        root,
        "memory/2023-10-02.md",
        "- Deploy of the billing API went fine.\n\n- @Carol handled the deploy of billing.\n",
    )
    [first, second] = ask(open_index, "billing deploy @Carol", k=2)
    assert (first.start_line, first.entities, second.start_line) == (3, ("carol",), 1)


def test_a_date_in_the_question_prefers_that_day(root: Path, open_index: RecallIndex) -> None:
    """ "in May 2023" lifts the May note above an otherwise equal note of another month: the
    May line speaks for the fact, and cites the other."""
    write(root, "memory/2023-05-10.md", "- Ola found a new bolt supplier for the workshop.\n")
    write(root, "memory/2023-09-10.md", "- Ola found a new bolt supplier for the workshop.\n")
    hits = ask(open_index, "Which bolt supplier did Ola find in May 2023?", k=2)
    also = [tuple(other.source for other in hit.also) for hit in hits]
    assert [(hit.day, dict(hit.why).get("day", 0.0)) for hit in hits] == [("2023-05-10", 1.0)]
    assert also == [("memory/2023-09-10.md#L1-L1",)]


def test_a_when_question_prefers_a_line_that_says_when(root: Path, open_index: RecallIndex) -> None:
    """For "when did ..." a line with a time reference outranks an equal one without."""
    write(
        root,
        "memory/2023-06-01.md",
        "- Priya repainted the shed with Tomas.\n\n- Priya repainted the shed last weekend.\n",
    )
    first = ask(open_index, "When did Priya repaint the shed?", k=2)[0]
    assert (first.start_line, dict(first.why)["time"]) == (3, 1.0)


def test_near_duplicates_do_not_crowd_the_top(root: Path, open_index: RecallIndex) -> None:
    """Copies of one line give way to a different relevant line in the top k."""
    copy = "- The VPN profile corp-eu must be enabled before staging deploys."
    write(root, "memory/2023-10-01.md", f"{copy}\n\n{copy}\n")
    write(root, "memory/2023-10-02.md", f"{copy}\n")
    write(root, "memory/2023-10-03.md", "- Staging deploys failed until the VPN profile was on.\n")
    hits = [hit for hit in ask(open_index, "staging deploys vpn profile", k=3) if not hit.context]
    assert "memory/2023-10-03.md" in [hit.path for hit in hits[:2]]


def test_cjk_text_is_found_by_its_words(root: Path, open_index: RecallIndex) -> None:
    """Chinese and Japanese notes are found by words inside unspaced sentences."""
    write(
        root,
        "memory/2023-10-05.md",
        "- 我们在东京开会讨论了预算。\n\n- 明日は大阪で会議があります。\n\n- Unrelated English line.\n",
    )
    assert [hit.start_line for hit in ask(open_index, "东京 预算") if not hit.context] == [1]
    assert [hit.start_line for hit in ask(open_index, "大阪の会議") if not hit.context] == [3]


def test_the_reply_to_a_matching_question_comes_first_as_context(
    root: Path, open_index: RecallIndex
) -> None:
    """A reply that shares no word with the query answers the question that matches it: it
    leads, marked as context (with a context score), and the question follows."""
    write(
        root,
        "memory/2023-10-06.md",
        "- Ana: Which database did the billing team pick?\n- Ben: Postgres 16, on db-02.\n",
    )
    hits = ask(open_index, "billing database pick", k=2)
    assert [(hit.start_line, hit.context, hit.score <= 0.3) for hit in hits] == [
        (2, True, True),
        (1, False, False),
    ]
    assert dict(hits[0].why)["answer"] == 1.0


def test_lines_under_another_heading_are_not_context(root: Path, open_index: RecallIndex) -> None:
    """The chunk after a match but under another heading is about something else: it is not
    shown as the match's context."""
    write(
        root,
        "memory/2023-10-06.md",
        "# Billing\n\n- The billing team picked Postgres.\n\n# Lunch\n\n- Soup again.\n",
    )
    assert places(ask(open_index, "billing team picked")) == [("memory/2023-10-06.md", 3, False)]


def test_filters_kind_entity_and_days(root: Path, open_index: RecallIndex) -> None:
    """--kind, --entity and a day range are hard filters; Retain facts carry kind and confidence."""
    write(
        root,
        "memory/2023-10-07.md",
        "# Day\n\n- Peter likes tea.\n\n## Retain\n- O(c=0.8) @Peter: Prefers tea over coffee.\n"
        "- W @Peter: Drinks tea in Marrakech.\n",
    )
    write(root, "memory/2023-09-01.md", "- Peter bought tea.\n")
    opinions = ask(open_index, "tea", kinds=["opinion"])
    assert [hit_json(hit) for hit in opinions] == [
        {
            "path": "memory/2023-10-07.md",
            "startLine": 6,
            "endLine": 6,
            "snippet": "- O(c=0.8) @Peter: Prefers tea over coffee.",
            "score": opinions[0].score,
            "source": "memory/2023-10-07.md#L6-L6",
            "kind": "opinion",
            "day": "2023-10-07",
            "entities": ["peter"],
            "confidence": 0.8,
            "context": False,
            "why": dict(opinions[0].why),
            "also": [],
            "was": [],
        }
    ]
    assert {hit.start_line for hit in ask(open_index, "tea", entity="@peter")} == {6, 7}
    assert {hit.path for hit in ask(open_index, "tea", last_day="2023-09-30")} == {
        "memory/2023-09-01.md"
    }
    assert {hit.path for hit in ask(open_index, "tea", first_day="2023-10-01")} == {
        "memory/2023-10-07.md"
    }


def test_an_entity_filter_alone_searches_for_the_entity(
    root: Path, open_index: RecallIndex
) -> None:
    """A query with no words but an entity filter finds the entity's chunks."""
    write(root, "memory/2023-10-08.md", "- @Peter lands at nine.\n\n- Nothing else.\n")
    assert [hit.start_line for hit in ask(open_index, "the", entity="Peter")] == [1]


def test_ranking_is_deterministic(root: Path, open_index: RecallIndex) -> None:
    """The same query over the same notes gives the same hits, scores and reasons."""
    write(root, "memory/2023-10-09.md", "- alpha beta\n- beta gamma\n- gamma alpha\n- alpha\n")
    first = ask(open_index, "alpha beta gamma", k=4)
    again = ask(open_index, "alpha beta gamma", k=4)
    assert [(h, h.why, h.context) for h in first] == [(h, h.why, h.context) for h in again]
