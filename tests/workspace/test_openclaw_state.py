"""OpenClaw's SQLite state, read from the database OpenClaw 2026.9.6 itself wrote."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from dreamd.workspace.openclaw_state import read_openclaw_state, workspace_key
from dreamd.workspace.statesources import load_state
from tests.workspace.openclaw_fixture import BUILT_AT, install_stage, unpack_database


def test_rows_are_read_for_the_workspace_they_name(tmp_path: Path) -> None:
    """The untouched fixture: this workspace's recall, signal and checkpoint rows, by key."""
    database = unpack_database("stage-1", tmp_path / "openclaw.sqlite")
    found, warnings = read_openclaw_state(Path(BUILT_AT), [database])
    assert warnings == []
    [state] = found
    assert (len(state.recall), len(state.signals), len(state.daily)) == (3, 9, 3)
    assert sorted(state.recall) == [
        "memory:memory/2026-11-18.md:1:13",
        "memory:memory/2026-11-19.md:1:10",
        "memory:memory/2026-11-20.md:4:4:4a8ea0ea12df",
    ]
    assert state.recall["memory:memory/2026-11-18.md:1:13"]["promotedAt"].startswith("2026-11-24")


def test_other_workspaces_rows_are_not_read(tmp_path: Path) -> None:
    """A workspace the database does not know gets nothing and no warning."""
    database = unpack_database("stage-1", tmp_path / "openclaw.sqlite")
    assert read_openclaw_state(tmp_path / "elsewhere", [database]) == ([], [])


def test_workspace_key_is_openclaws(tmp_path: Path) -> None:
    """sha256 of the absolute path, as the fixture's entry keys start."""
    expected = hashlib.sha256(BUILT_AT.encode()).hexdigest()
    assert workspace_key(Path(BUILT_AT)) == expected


def test_reading_never_writes_and_tolerates_a_writer(tmp_path: Path) -> None:
    """With OpenClaw holding a write transaction (WAL), the read still answers; the file's
    bytes are unchanged by it."""
    database = unpack_database("stage-1", tmp_path / "openclaw.sqlite")
    writer = sqlite3.connect(database, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE plugin_state_entries SET created_at = created_at + 1")
    before = database.read_bytes()
    found, warnings = read_openclaw_state(Path(BUILT_AT), [database])
    assert (len(found), warnings) == (1, [])
    assert database.read_bytes() == before
    writer.execute("ROLLBACK")
    writer.close()


def test_a_database_that_is_not_one_is_a_warning(tmp_path: Path) -> None:
    """Garbage where the database should be: a warning naming it, no rows, no exception."""
    database = tmp_path / "openclaw.sqlite"
    database.write_bytes(b"not a database at all" * 100)
    found, warnings = read_openclaw_state(Path(BUILT_AT), [database])
    assert found == []
    assert len(warnings) == 1 and warnings[0].startswith(f"OpenClaw state {database} could not")


def test_state_says_where_it_came_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dreamd's renamed files and OpenClaw's rows together, with each source named."""
    root = install_stage("stage-1", tmp_path, monkeypatch)
    state = load_state(root, readonly=True)
    assert len(state.store.rows) == 12
    assert state.sources[0] == (
        "memory/.dreams/short-term-recall.json.migrated (9 row(s); renamed by OpenClaw, read back)"
    )
    assert state.sources[-1] == (
        f"OpenClaw state {tmp_path / 'openclaw' / 'state' / 'openclaw.sqlite'}: 3 recall row(s), "
        "9 phase signal(s), 3 checkpoint(s); merged 3 new and 0 shared row(s)"
    )
