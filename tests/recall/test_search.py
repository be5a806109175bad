"""Search over the recall index: safe queries, normalised scores, filters and determinism."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.hits import Hit
from dreamd.engine.text.snippets import collapse
from dreamd.recall.candidates import RANK_BUDGET, match_expression
from dreamd.recall.index import RecallIndex
from dreamd.recall.query import Term, parse_query
from dreamd.recall.search import search
from dreamd.redaction import redact

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
TERMS = ("glacier", "backup", "rotation", "schedule")


def write(root: Path, rel: str, text: str) -> None:
    """Write ``text`` to ``root/rel``, creating folders."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def build(root: Path) -> RecallIndex:
    """Open and fill the index of ``root``."""
    index = RecallIndex.open(root)
    index.update()
    return index


def fill(root: Path) -> None:
    """A workspace where each of the four query words is equally common."""
    write(
        root, "MEMORY.md", "# Long-Term Memory\n\n- The NAS keeps a glacier copy. @Alice knows.\n"
    )
    write(
        root,
        "memory/2026-03-01.md",
        "# Sunday\n\n## Storage\n"
        "- The glacier backup rotation schedule moved to Sundays with @Bob and @alice.\n"
        "- Tyre rotation for the car is due.\n"
        "- Mail alice@example.com about lunch.\n",
    )
    filler = [
        f"- {word} note number {n} about unrelated chores" for word in TERMS for n in range(3)
    ]
    write(root, "memory/2026-02-01.md", "# February\n\n" + "\n".join(filler) + "\n")
    write(root, "memory/projects/garden.md", "Tomatoes need water every morning.\n")


@pytest.fixture
def index(tmp_path: Path) -> Iterator[RecallIndex]:
    """The filled workspace's index, closed afterwards."""
    fill(tmp_path)
    with build(tmp_path) as opened:
        yield opened


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RecallIndex]:
    """One filled index shared by the property tests."""
    root = tmp_path_factory.mktemp("shared")
    fill(root)
    with build(root) as opened:
        yield opened


def test_all_terms_match_scores_high_and_first(index: RecallIndex) -> None:
    """The chunk holding every query word is the top hit with the full score."""
    hits = search(index, "glacier backup rotation schedule", now=NOW)
    assert hits[0] == Hit(
        path="memory/2026-03-01.md",
        start_line=4,
        end_line=4,
        snippet="- The glacier backup rotation schedule moved to Sundays with @Bob and @alice.",
        score=1.0,
        kind="daily",
        day="2026-03-01",
        entities=("bob", "alice"),
    )
    assert hits[0].score >= 0.6


def test_one_of_four_terms_scores_low(index: RecallIndex) -> None:
    """A chunk holding only one of four equally common words scores below 0.4."""
    hits = search(index, "glacier backup rotation schedule", k=50, now=NOW)
    partial = [hit for hit in hits if hit.snippet == "- Tyre rotation for the car is due."]
    assert len(partial) == 1
    assert partial[0].score < 0.4
    assert [hit for hit in hits if hit.score >= 0.6] == hits[:1]


def test_snippets_equal_the_collapsed_lines_of_the_file(index: RecallIndex) -> None:
    """Every snippet is the file's line range (redacted) joined by spaces, whitespace collapsed."""
    for hit in search(index, "glacier rotation tomatoes lunch", k=50, now=NOW):
        lines = redact((index.root / hit.path).read_text(encoding="utf-8")).split("\n")
        assert hit.snippet == collapse(" ".join(lines[hit.start_line - 1 : hit.end_line]))


def test_since_days_keeps_recent_and_undated_hits(index: RecallIndex) -> None:
    """Only notes inside the window, plus undated files like MEMORY.md, pass the filter."""
    hits = search(index, "glacier", k=50, since_days=7, now=NOW)
    assert sorted((hit.path, hit.start_line) for hit in hits if not hit.context) == [
        ("MEMORY.md", 3),
        ("memory/2026-03-01.md", 4),
    ]


def test_since_days_must_be_a_non_negative_number(index: RecallIndex) -> None:
    """A negative or NaN window is a caller error; a huge one keeps everything."""
    with pytest.raises(ValueError, match="since_days"):
        search(index, "glacier", since_days=-1, now=NOW)
    with pytest.raises(ValueError, match="since_days"):
        search(index, "glacier", since_days=float("nan"), now=NOW)
    everything = search(index, "glacier", k=50, now=NOW)
    assert search(index, "glacier", k=50, since_days=1e12, now=NOW) == everything


def test_k_limits_the_hits(index: RecallIndex) -> None:
    """At most k hits come back, the best ones."""
    assert search(index, "glacier", k=2, now=NOW) == search(index, "glacier", k=50, now=NOW)[:2]


def test_results_are_deterministic_across_rebuilds(index: RecallIndex) -> None:
    """The same query gives equal hits twice and after a rebuild."""
    first = search(index, "rotation glacier note", k=20, now=NOW)
    assert search(index, "rotation glacier note", k=20, now=NOW) == first
    index.rebuild()
    assert search(index, "rotation glacier note", k=20, now=NOW) == first


def test_entities_are_at_names_not_emails(index: RecallIndex) -> None:
    """@Name tokens become lowercased entities; an e-mail address is not one (nor indexed)."""
    [hit] = [hit for hit in search(index, "lunch", now=NOW) if not hit.context]
    assert (hit.snippet, hit.entities) == ("- Mail *** about lunch.", ())


@pytest.mark.parametrize("query", ["", "   ", "the and of", "a", "!!! ???"])
def test_queries_without_words_return_nothing(index: RecallIndex, query: str) -> None:
    """Empty, stop-word-only and punctuation-only queries return no hits."""
    assert search(index, query, now=NOW) == []


@pytest.mark.parametrize(
    ("query", "plain"),
    [
        ("foo AND (", "foo"),
        ('"', ""),
        ("*", ""),
        ("-x", ""),
        ("NEAR", "near"),
        ("NEAR(glacier rotation, 2)", "near glacier rotation 2"),
        ("glacier*", "glacier"),
        ('"rotation', "rotation"),
        ("{heading text}: glacier", "heading text glacier"),
        ("^glacier NOT rotation", "glacier not rotation"),
        ("text:tomatoes OR", "text tomatoes or"),
    ],
)
def test_hostile_queries_are_plain_text(index: RecallIndex, query: str, plain: str) -> None:
    """FTS5 syntax in a query is treated as the words it contains, never parsed."""
    assert search(index, query, k=50, now=NOW) == search(index, plain, k=50, now=NOW)


@settings(deadline=None, max_examples=150)
@given(st.text())
def test_arbitrary_queries_never_raise(shared: RecallIndex, query: str) -> None:
    """Any text at all is a valid query and scores stay in [0, 1]."""
    hits = search(shared, query, now=NOW)
    assert all(0.0 <= hit.score <= 1.0 for hit in hits)


SYNTAX = ["AND", "OR", "NOT", "NEAR", "(", ")", '"', "*", "^", ":", "-", "+", "{", "}", ","]
WORDS = ["glacier", "rotation", "text", "heading", "rank", "bm25", "chunks_fts", "Ünï", "東京"]


@settings(deadline=None, max_examples=150)
@given(st.lists(st.sampled_from(SYNTAX + WORDS)), st.sampled_from(["", " "]))
def test_fts_syntax_soup_never_raises(shared: RecallIndex, parts: list[str], glue: str) -> None:
    """Queries built from FTS5 operators and indexed words never raise and stay in [0, 1]."""
    hits = search(shared, glue.join(parts), k=5, now=NOW)
    assert all(0.0 <= hit.score <= 1.0 for hit in hits)


def test_query_terms_fold_case_and_diacritics() -> None:
    """Words are lowercased, stripped of accents, stemmed, deduplicated; stop words drop."""
    assert parse_query("Café CAFE the naïve x Ünïcode_words 42", today=NOW.date()).terms == (
        Term("cafe", "cafe"),
        Term("naive", "naiv"),
        Term("unicode", "unicod"),
        Term("words", "word"),
        Term("42", "42"),
    )


def test_match_expression_quotes_every_term() -> None:
    """Terms' words are quoted strings joined by OR."""
    assert match_expression((Term("near", "near"), Term('a"b', "ab"))) == '"near" OR "a""b"'


def test_rare_word_is_found_among_many_common_ones(tmp_path: Path) -> None:
    """With a word in more chunks than the rank budget, the rare word's old chunk still wins."""
    write(tmp_path, "memory/2020-01-01.md", "- deploy the quokka service\n")
    lines = [f"- deploy step {n}" for n in range(RANK_BUDGET + 200)]
    write(tmp_path, "memory/2026-03-01.md", "\n".join(lines) + "\n")
    with build(tmp_path) as index:
        hits = search(index, "deploy quokka", k=3, now=NOW)
        assert hits[0] == Hit(
            "memory/2020-01-01.md", 1, 1, "- deploy the quokka service", 1.0, "daily", "2020-01-01"
        )
        assert [hit.score < 0.6 for hit in hits[1:]] == [True, True]


def test_old_chunk_with_all_common_words_is_found(tmp_path: Path) -> None:
    """When every word is common, the chunk holding all of them is found however old it is."""
    write(tmp_path, "memory/2020-01-01.md", "- deploy the release today\n")
    lines = [f"- deploy {n}\n- release {n}" for n in range(RANK_BUDGET + 200)]
    write(tmp_path, "memory/2026-03-01.md", "\n".join(lines) + "\n")
    with build(tmp_path) as index:
        [hit] = search(index, "deploy release", k=1, now=NOW)
        assert (hit.path, hit.start_line, hit.score >= 0.6) == ("memory/2020-01-01.md", 1, True)
