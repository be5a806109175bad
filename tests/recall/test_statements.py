"""Lines read as statements, kept in the index: the same statements as reading them afresh,
read again under other rules, never a wait on another process's write."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.cli.main import main
from dreamd.engine.facts.statement import read_statement
from dreamd.recall import statements as cache
from dreamd.recall.index import RecallIndex
from dreamd.recall.statements import cached_statements, decode, encode
from tests.builders import write

AT = "2026-11-01T09:00:00Z"
LINES = (
    "Mia's swimming lesson is on Tuesdays at 17:00 at the Nordbad.",
    "Mia's swimming moved to Thursdays, same time.",
    "Correction: it's Ingrid Solberg, not Solheim.",
    "O(c=0.3) @Peter: No longer prefers voice notes",
    "Backups now run at 04:00 instead of 02:00.",
    "We dropped the Lisbon trip plan.",
)
NOTES = {
    "memory/2026-09-07.md": "# 2026-09-07\n\n## Family\n"
    "- Mia's swimming lesson is on Tuesdays at 17:00 at the Nordbad.\n"
    "- Backups run nightly at 02:00 to the NAS.\n",
    "memory/2026-10-06.md": "# 2026-10-06\n\n## Family\n"
    "- Mia's swimming moved to Thursdays, same time.\n- Backups now run at 04:00.\n",
}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[RecallIndex]:
    root = tmp_path / "ws"
    for rel, text in NOTES.items():
        write(root, rel, text)
    with RecallIndex.open(root) as opened:
        opened.update(walk=True)
        yield opened


def rows(index: RecallIndex) -> dict[str, str]:
    return dict(index.read(lambda conn: conn.execute("SELECT text, body FROM statement_cache")))


@given(st.sampled_from(LINES), st.text(max_size=40))
@settings(max_examples=60, deadline=None)
def test_a_statement_survives_its_encoding(line: str, tail: str) -> None:
    """Whatever a line reads as, decoding its encoding gives that statement back."""
    statement = read_statement(f"{line} {tail}")
    assert decode(encode(statement)) == statement


@pytest.mark.parametrize("body", ["", "[1, 2]", "{}", "not json", '["a", null]'])
def test_a_row_that_does_not_decode_is_no_statement(body: str) -> None:
    assert decode(body) is None


def test_lines_read_once_are_answered_from_the_index(index: RecallIndex) -> None:
    """The first call reads and keeps every line; the second answers from what was kept: a
    row changed in between is what comes back."""
    first = cached_statements(index, LINES)
    assert first == [read_statement(line) for line in LINES]
    assert set(rows(index)) == set(LINES)
    other = encode(read_statement("Swimming is on Fridays now."))
    index.write_derived(
        lambda conn: conn.execute(
            "UPDATE statement_cache SET body = ? WHERE text = ?", (other, LINES[0])
        )
    )
    again = cached_statements(index, [LINES[0], LINES[1], LINES[0]])
    assert [s.text for s in again] == ["Swimming is on Fridays now.", LINES[1], again[0].text]


def test_other_rules_read_every_line_again(
    index: RecallIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows read under other rules are not used, and the next write makes the table again."""
    cached_statements(index, LINES[:2])
    stale = encode(read_statement("Swimming is on Fridays now."))
    index.write_derived(lambda conn: conn.execute("UPDATE statement_cache SET body = ?", (stale,)))
    monkeypatch.setattr(cache, "rules_stamp", lambda: "other rules")
    assert cached_statements(index, LINES[:1]) == [read_statement(LINES[0])]
    assert set(rows(index)) == {LINES[0]}


def test_a_table_of_another_shape_is_made_again(index: RecallIndex) -> None:
    """An index whose cache table has other columns (another dreamd) still answers and keeps."""
    index.write_derived(lambda conn: conn.execute("DROP TABLE statement_cache"))
    index.write_derived(lambda conn: conn.execute("CREATE TABLE statement_cache(key, value)"))
    assert cached_statements(index, LINES[:2]) == [read_statement(line) for line in LINES[:2]]
    assert set(rows(index)) == set(LINES[:2])


def test_an_index_made_before_the_cache_gets_it(index: RecallIndex) -> None:
    index.write_derived(lambda conn: conn.execute("DROP TABLE statement_cache"))
    assert cached_statements(index, LINES[:1]) == [read_statement(LINES[0])]
    assert set(rows(index)) == {LINES[0]}


def test_the_oldest_rows_leave_first(index: RecallIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_ROWS", 3)
    for line in LINES:
        cached_statements(index, [line])
    assert set(rows(index)) == set(LINES[-3:])


def test_another_process_writing_never_makes_a_turn_wait(index: RecallIndex) -> None:
    """While another connection holds the write lock, lines are read, not kept, and the call
    does not wait out the five-second busy timeout."""
    other = sqlite3.connect(index.db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        assert cached_statements(index, LINES) == [read_statement(line) for line in LINES]
        assert time.monotonic() - started < 4
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert rows(index) == {}
    cached_statements(index, LINES[:1])  # the busy timeout is back for what comes next
    assert set(rows(index)) == {LINES[0]}


def _answer(capsys: pytest.CaptureFixture[str], root: Path, verb: str) -> list[Any]:
    question = "When is the swimming lesson now?"
    argv = ["--json", "--workspace", str(root), "--now", AT, "memory", verb, question]
    assert main([*argv, "--no-record"]) == 0
    return list(json.loads(capsys.readouterr().out)["hits" if verb == "search" else "results"])


@pytest.mark.parametrize("verb", ["search", "recall"])
def test_an_answer_from_kept_statements_is_the_answer_read_afresh(
    capsys: pytest.CaptureFixture[str], index: RecallIndex, verb: str
) -> None:
    """The first question keeps the lines it read; asked again, it answers the same, and the
    moved lesson leads with the old weekday as what it was."""
    first = _answer(capsys, index.root, verb)
    assert rows(index)
    assert _answer(capsys, index.root, verb) == first
    lead = first[0]
    assert "Thursdays" in str(lead.get("snippet", lead.get("content")))
    assert [e["until"] for e in lead["was"]] == ["2026-10-06"]


def test_a_rebuild_drops_what_was_kept(index: RecallIndex) -> None:
    """A rebuild empties ``meta``, so rows kept under its rules could not be trusted: they go."""
    cached_statements(index, LINES[:2])
    index.rebuild()
    assert rows(index) == {}
    assert cached_statements(index, LINES[:1]) == [read_statement(LINES[0])]
