"""Searches recorded ahead of the recall store: replayed exactly once, never lost."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dreamd.engine.hits import Hit
from dreamd.engine.plan import SweepPlan
from dreamd.engine.state import RECALL_STORE, RecallEntry, Table
from dreamd.engine.traces import MAX_STORE_ENTRIES, record_hits
from dreamd.errors import StateError
from dreamd.recall.record import fold_pending, record_search
from dreamd.store.lock import workspace_lock
from dreamd.store.longterm import read_longterm
from dreamd.store.pending import APPLIED, PENDING_FILE, read_pending
from dreamd.store.statefiles import load_table
from dreamd.store.writer import apply_plan, save_store, save_table

NOW = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
FACTS = [
    "- The billing service runs on Postgres 16 on db-02.",
    "- Ana owns the release checklist for the mobile app.",
    "- The VPN profile corp-eu is needed for staging deploys.",
    "- Backups of the wiki run nightly at 02:00 to the NAS.",
]


def _hit(number: int, score: float = 0.8) -> Hit:
    return Hit(
        f"memory/2026-11-{20 + number % 8:02d}.md", 3 + number, 3 + number, FACTS[number % 4], score
    )


def _rows(root: Path) -> dict[str, RecallEntry]:
    return dict(load_table(root, RECALL_STORE, readonly=True)[0].rows)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(0, 11), min_size=1, max_size=4, unique=True),
            st.integers(0, 72),
            st.sampled_from(["agent", "owner", "untrusted"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_replaying_recorded_searches_equals_recording_into_the_store(
    tmp_path_factory: pytest.TempPathFactory, searches: list[tuple[list[int], int, str]]
) -> None:
    """Whatever searches were recorded ahead, the store read back is the one each search would
    have written itself, in order."""
    root = tmp_path_factory.mktemp("ws")
    expected: Table[RecallEntry] = RECALL_STORE.empty()
    for number, (hits, hours, origin) in enumerate(searches):
        found = [_hit(n) for n in hits]
        when = NOW + timedelta(hours=hours + number)
        record_search(root, f"question {number}", found, now=when, zone=UTC, origin=origin)
        expected, _ = record_hits(
            expected,
            found,
            query=f"question {number}",
            now=when,
            day=when.date().isoformat(),
            origin=origin,
        )
    assert _rows(root) == dict(expected.rows)


def test_a_search_is_counted_once_whatever_crashes_between_saving_and_removing(
    tmp_path: Path,
) -> None:
    """The store saved but the pending file not yet removed: reading again adds nothing."""
    record_search(tmp_path, "billing", [_hit(0)], now=NOW, zone=UTC)
    store, _ = load_table(tmp_path, RECALL_STORE)
    save_table(tmp_path, RECALL_STORE, store)  # saved, as a crash before the removal leaves it
    assert (tmp_path / PENDING_FILE).exists()
    again, _ = load_table(tmp_path, RECALL_STORE)
    assert [row.recall_count for row in again.rows.values()] == [1]
    save_store(tmp_path, again)
    assert not (tmp_path / PENDING_FILE).exists()
    assert [row.recall_count for row in _rows(tmp_path).values()] == [1]


def test_a_search_recorded_after_the_store_was_read_is_kept(tmp_path: Path) -> None:
    """A search appended between reading the store and saving it stays pending, and is
    applied next time, once."""
    record_search(tmp_path, "billing", [_hit(0)], now=NOW, zone=UTC)
    store, _ = load_table(tmp_path, RECALL_STORE)
    record_search(tmp_path, "billing again", [_hit(0)], now=NOW + timedelta(hours=1), zone=UTC)
    save_store(tmp_path, store)
    assert len(read_pending(tmp_path)[0]) == 2  # the second is not in the saved store
    assert [row.recall_count for row in _rows(tmp_path).values()] == [2]
    with workspace_lock(tmp_path):
        fold_pending(tmp_path, now=NOW + timedelta(hours=2))
    assert not (tmp_path / PENDING_FILE).exists()
    assert [row.recall_count for row in _rows(tmp_path).values()] == [2]


def test_a_line_cut_short_by_a_crash_is_skipped_and_ended(tmp_path: Path) -> None:
    """A torn last line is ignored when read, and the next search starts on a line of its own."""
    record_search(tmp_path, "billing", [_hit(0)], now=NOW, zone=UTC)
    with (tmp_path / PENDING_FILE).open("ab") as handle:
        handle.write(b'{"id": "torn", "timestamp": "2026-11-')
    assert len(read_pending(tmp_path)[0]) == 1
    record_search(tmp_path, "wiki backups", [_hit(3)], now=NOW, zone=UTC)
    searches, issues = read_pending(tmp_path)
    assert (len(searches), len(issues)) == (2, 1)  # the torn line is reported, not replayed
    assert sum(row.recall_count for row in _rows(tmp_path).values()) == 2


@pytest.mark.parametrize(
    "line",
    [
        b"not json",
        b"[1, 2]",
        b'{"id": "x", "timestamp": "yesterday", "day": "2026-11-29", "queryHash": "h",'
        b' "origin": "agent", "sessionKind": "interactive", "redacted": true, "hits": []}',
        b'{"id": "x", "timestamp": "2026-11-29T10:00:00Z", "day": "2026-11-29", "queryHash": "h",'
        b' "origin": "agent", "sessionKind": "interactive", "redacted": true,'
        b' "hits": [{"path": "memory/2026-11-20.md", "startLine": 0, "endLine": 0,'
        b' "snippet": "x", "score": 1}]}',
    ],
)
def test_a_line_that_is_not_a_search_is_reported_never_fatal(tmp_path: Path, line: bytes) -> None:
    """Garbage in the pending file costs that line only."""
    record_search(tmp_path, "billing", [_hit(0)], now=NOW, zone=UTC)
    with (tmp_path / PENDING_FILE).open("ab") as handle:
        handle.write(line + b"\n")
    record_search(tmp_path, "wiki", [_hit(3)], now=NOW, zone=UTC)
    store, issues = load_table(tmp_path, RECALL_STORE, readonly=True)
    assert len(store.rows) == 2
    assert len(issues) == 1 and "line 2" in issues[0]


def test_the_pending_file_is_private_and_holds_no_query_text(tmp_path: Path) -> None:
    """Mode 0600; the query is stored as its hash, as in the events."""
    record_search(tmp_path, "where does ana keep the checklist", [_hit(1)], now=NOW, zone=UTC)
    path = tmp_path / PENDING_FILE
    assert path.stat().st_mode & 0o777 == 0o600
    assert b"checklist" not in path.read_bytes().split(b'"hits"')[0]
    (line,) = path.read_bytes().splitlines()
    assert set(json.loads(line)) == {
        "id",
        "timestamp",
        "day",
        "queryHash",
        "origin",
        "sessionKind",
        "redacted",
        "hits",
    }


def test_a_symlinked_pending_file_is_refused(tmp_path: Path) -> None:
    """Neither followed when appending nor when reading."""
    (tmp_path / "memory/.dreams").mkdir(parents=True)
    target = tmp_path / "elsewhere.jsonl"
    target.write_bytes(b"")
    (tmp_path / PENDING_FILE).symlink_to(target)
    with pytest.raises(StateError):
        record_search(tmp_path, "billing", [_hit(0)], now=NOW, zone=UTC)
    with pytest.raises(StateError):
        read_pending(tmp_path)
    assert target.read_bytes() == b""


def test_skipped_hits_are_not_written_ahead(tmp_path: Path) -> None:
    """MEMORY.md hits and contaminated snippets never reach the pending file."""
    memory = Hit("MEMORY.md", 3, 3, "- The billing service runs on Postgres 16.", 0.9)
    echo = Hit("memory/2026-11-20.md", 4, 4, "<!-- openclaw-memory-promotion: x -->", 0.9)
    outcome = record_search(tmp_path, "billing", [memory, echo], now=NOW, zone=UTC)
    assert [reason for _, reason in outcome.skipped] == [
        "non-short-term-memory-path",
        "contaminated",
    ]
    assert not (tmp_path / PENDING_FILE).exists()


def test_a_large_pending_file_is_saved_into_the_store_by_the_search_that_grows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past FOLD_BYTES the recording process saves the store itself: the file stays small."""
    monkeypatch.setattr("dreamd.recall.record.FOLD_BYTES", 1500)
    for number in range(8):
        record_search(tmp_path, f"q{number}", [_hit(number)], now=NOW, zone=UTC)
    assert (tmp_path / PENDING_FILE).stat().st_size <= 1500 + 600
    on_disk, _ = RECALL_STORE.decode(
        (tmp_path / "memory/.dreams/short-term-recall.json").read_bytes()
    )
    assert on_disk.top.get(APPLIED)
    assert sum(row.recall_count for row in _rows(tmp_path).values()) == 8


def test_searches_past_the_cap_retire_to_the_long_term_layer_when_saved(tmp_path: Path) -> None:
    """A full store plus pending searches of new rows: the writer keeps 512 and retires the
    rest to longterm.jsonl, so no recalled row is lost."""
    old = {
        f"memory:memory/2026-10-01.md:{n}:{n}": RecallEntry(
            key=f"memory:memory/2026-10-01.md:{n}:{n}",
            path="memory/2026-10-01.md",
            start_line=n,
            end_line=n,
            snippet=f"- Fact number {n} about the old cluster migration plan.",
            recall_count=3,
            last_recalled_at="2026-11-20T10:00:00.000Z",
        )
        for n in range(1, MAX_STORE_ENTRIES + 1)
    }
    save_table(tmp_path, RECALL_STORE, Table(old))
    record_search(tmp_path, "billing", [_hit(0), _hit(1)], now=NOW, zone=UTC)
    store, _ = load_table(tmp_path, RECALL_STORE)
    assert len(store.rows) == MAX_STORE_ENTRIES + 2  # replayed without the cap
    with workspace_lock(tmp_path):
        apply_plan(tmp_path, SweepPlan(store=store))
    saved = _rows(tmp_path)
    retired, _ = read_longterm(tmp_path)
    assert len(saved) == MAX_STORE_ENTRIES and len(retired) == 2
    assert set(saved) | set(retired) == set(old) | set(store.rows)
    assert {row.reason for row in retired.values()} == {"evicted"}
    assert not (tmp_path / PENDING_FILE).exists()
