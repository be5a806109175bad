"""Text analysis for recall: Porter stems equal FTS5's, folding, CJK grams, dates and queries."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.text.stemming import stem
from dreamd.recall.analysis import cjk_grams, fold, query_grams, stems
from dreamd.recall.dates import DayWindow, day_bound, find_window
from dreamd.recall.query import Query, Term, parse_query
from dreamd.recall.schema import TOKENIZER
from tests.builders import NOW

TODAY = date(2023, 10, 25)


def fts5_terms(texts: list[str]) -> list[list[str]]:
    """What FTS5 with the index's tokenizer stores for each text, in token order."""
    with closing(sqlite3.connect(":memory:")) as conn:
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{TOKENIZER}')")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
        conn.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", list(enumerate(texts)))
        found: list[list[tuple[int, str]]] = [[] for _ in texts]
        for term, doc, offset in conn.execute("SELECT term, doc, offset FROM v"):
            found[doc].append((offset, term))
    return [[term for _, term in sorted(tokens)] for tokens in found]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("running", "run"),
        ("generalization", "gener"),
        ("hopeful", "hope"),
        ("ies", "ie"),
        ("eed", "e"),
        ("yyed", "y"),
        ("1990s", "1990"),
        ("go", "go"),
        ("東京", "東京"),
    ],
)
def test_stem_examples(word: str, expected: str) -> None:
    """Porter stems as FTS5 computes them, short words and other scripts unchanged."""
    assert stem(word) == expected


@settings(deadline=None, max_examples=300)
@given(st.text(alphabet="aeiouybcdlmnrstgzw019éß東", min_size=1, max_size=30))
def test_stem_equals_fts5_porter(word: str) -> None:
    """For any word, the Python stem of its folded form is the term FTS5's porter stores."""
    [[expected]] = fts5_terms([word])
    assert stem(fold(word)) == expected


def test_stems_are_what_the_index_stores() -> None:
    """A note's words, accents and capitals included, stem exactly as the index's tokenizer."""
    text = "Dana's Café: we were RESEARCHING tide tables, naïvely; Straße 12b"
    assert stems(text) == fts5_terms([text])[0]


def test_fold_strips_latin_accents_only() -> None:
    """Latin accents go (remove_diacritics 2); kana voicing marks and Hangul stay."""
    assert fold("Ünïcode CAFÉ で 한국어 ñ") == "unicode cafe で 한국어 n"


def test_cjk_grams_are_characters_and_pairs() -> None:
    """Each CJK run gives its characters and adjacent pairs; other text gives nothing."""
    assert cjk_grams("会議 ok 東京") == "会 議 会議 東 京 東京"
    assert cjk_grams("plain ascii") == ""


def test_query_grams_skip_particle_pairs() -> None:
    """A CJK query word becomes its pairs, minus pairs holding a one-character particle."""
    assert query_grams("東京で会議") == [("東京", "東京"), ("会議", "会議")]
    assert query_grams("the") == []
    assert query_grams("Researching".lower()) == [("researching", "research")]


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("When did Priya repaint the shed in June?", "2023-06-01", "2023-06-30"),
        ("What did she do in December?", "2022-12-01", "2022-12-31"),
        ("What happened on October 13, 2023?", "2023-10-13", "2023-10-13"),
        ("on 1 February, 2023", "2023-02-01", "2023-02-01"),
        ("notes from 2023-05-08", "2023-05-08", "2023-05-08"),
        ("what was true in Nov 2025", "2025-11-01", "2025-11-30"),
        ("in 2022", "2022-01-01", "2022-12-31"),
        ("yesterday", "2023-10-24", "2023-10-24"),
        ("last week", "2023-10-16", "2023-10-22"),
        ("last month", "2023-09-01", "2023-09-30"),
        ("last Friday", "2023-10-20", "2023-10-20"),
        ("3 days ago", "2023-10-21", "2023-10-23"),
        ("the week before August 3, 2023", "2023-07-20", "2023-08-03"),
        ("last weekend before April 10, 2023", "2023-03-27", "2023-04-10"),
        ("since 2023-05-01", "2023-05-01", "2023-10-25"),
    ],
)
def test_find_window(text: str, first: str, last: str) -> None:
    """Date phrases become the window of days they mean, counted from today when relative."""
    window, _ = find_window(text, TODAY)
    assert window == DayWindow(date.fromisoformat(first), date.fromisoformat(last))


def test_find_window_blanks_the_phrase_and_ignores_non_dates() -> None:
    """The date phrase is blanked out of the text; "may" as a verb and a bad day are not dates."""
    assert find_window("kayaking in June with Ola", TODAY) == (
        DayWindow(date(2023, 6, 1), date(2023, 6, 30)),
        "kayaking         with Ola",
    )
    assert find_window("you may go on 31 Februar 2023", TODAY) == (
        None,
        "you may go on 31 Februar 2023",
    )


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=80))
def test_find_window_never_raises(text: str) -> None:
    """Any text gives a window or none, and keeps its length."""
    window, rest = find_window(text, TODAY)
    assert len(rest) == len(text)
    assert window is None or window.first <= window.last


def test_day_bound_reads_days_and_durations() -> None:
    """--since/--until take a day or a duration back from now; anything else is None."""
    assert [day_bound(v, NOW) for v in ("2025-11-01", "30d", "12h", "soon", "2025-02-30")] == [
        "2025-11-01",
        "2026-10-30",
        "2026-11-29",
        None,
        None,
    ]


def test_parse_query() -> None:
    """A question gives stemmed terms, @entities, its window and whether it asks "when"."""
    assert parse_query(
        "When did @Alice start researching budgets in May 2023?", today=TODAY
    ) == Query(
        terms=(
            Term("alice", "alic"),
            Term("start", "start"),
            Term("researching", "research"),
            Term("budgets", "budget"),
        ),
        entities=("alice",),
        window=DayWindow(date(2023, 5, 1), date(2023, 5, 31)),
        temporal=True,
    )
    assert parse_query("the of and", today=TODAY).terms == ()
