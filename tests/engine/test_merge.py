"""dreamd's state merged with OpenClaw's: no row and no promotedAt lost, counts not doubled."""

from __future__ import annotations

from dreamd.engine.merge import IMPORTED, ImportedState, merge_imported
from dreamd.engine.state import DAILY_CHECKPOINTS, PHASE_SIGNALS, RECALL_STORE, RecallEntry
from tests.builders import entry, table


def _raw(key: str, **fields: object) -> dict[str, object]:
    line = int(key.split(":")[3])
    base: dict[str, object] = {
        "key": key,
        "path": "memory/2026-11-18.md",
        "startLine": line,
        "endLine": line,
        "source": "memory",
        "snippet": f"fact {line}",
    }
    return {**base, **fields}


def _mine(line: int, **fields: object) -> RecallEntry:
    return entry("memory/2026-11-18.md", line, line, f"fact {line}", **fields)


KEY4 = "memory:memory/2026-11-18.md:4:4"
KEY9 = "memory:memory/2026-11-18.md:9:9"


def test_rows_of_both_sides_are_kept_and_shared_rows_combined() -> None:
    """Every key survives; a shared row takes the larger counts and the earlier promotedAt."""
    own = table([_mine(4, recall_count=3), _mine(5)])
    theirs = ImportedState(
        origin="db",
        label="OpenClaw state db",
        stamp="s1",
        recall={
            KEY4: _raw(KEY4, recallCount=2, dailyCount=4, promotedAt="2026-11-24T09:05:00.000Z"),
            KEY9: _raw(KEY9, groundedCount=3),
        },
    )
    store, _, _, report = merge_imported(
        own, PHASE_SIGNALS.empty(), DAILY_CHECKPOINTS.empty(), theirs
    )
    assert sorted(store.rows) == [
        "memory:memory/2026-11-18.md:4:4",
        "memory:memory/2026-11-18.md:5:5",
        "memory:memory/2026-11-18.md:9:9",
    ]
    shared = store.rows["memory:memory/2026-11-18.md:4:4"]
    assert (shared.recall_count, shared.daily_count, shared.promoted_at) == (
        3,
        4,
        "2026-11-24T09:05:00.000Z",
    )
    assert (report.added, report.updated, report.merged) == (1, 1, True)
    assert store.top[IMPORTED] == {"db": "s1"}


def test_a_promoted_row_stays_promoted_whichever_side_promoted_it() -> None:
    """dreamd's promotedAt is kept when OpenClaw's copy has none."""
    own = table([_mine(4, promoted_at="2026-11-20T19:00:00.000Z")])
    theirs = ImportedState(
        origin="db",
        label="x",
        stamp="s",
        recall={"memory:memory/2026-11-18.md:4:4": _raw("memory:memory/2026-11-18.md:4:4")},
    )
    store, *_ = merge_imported(own, PHASE_SIGNALS.empty(), DAILY_CHECKPOINTS.empty(), theirs)
    assert store.rows["memory:memory/2026-11-18.md:4:4"].promoted_at == "2026-11-20T19:00:00.000Z"


def test_the_same_stamp_is_not_merged_again() -> None:
    """A row dreamd dropped after merging is not brought back until OpenClaw writes again."""
    key = "memory:memory/2026-11-18.md:9:9"
    theirs = ImportedState(origin="db", label="x", stamp="s", recall={key: _raw(key)})
    store, *_ = merge_imported(
        RECALL_STORE.empty(), PHASE_SIGNALS.empty(), DAILY_CHECKPOINTS.empty(), theirs
    )
    dropped = store.with_rows({}, updated_at=None)
    again, _, _, report = merge_imported(
        dropped, PHASE_SIGNALS.empty(), DAILY_CHECKPOINTS.empty(), theirs
    )
    assert (dict(again.rows), report.merged) == ({}, False)
    newer = ImportedState(origin="db", label="x", stamp="s2", recall={key: _raw(key)})
    third, *_ = merge_imported(dropped, PHASE_SIGNALS.empty(), DAILY_CHECKPOINTS.empty(), newer)
    assert list(third.rows) == [key]


def test_rows_dreamd_cannot_read_are_reported_not_fatal() -> None:
    """A row without a path is named in the report's issues and left out."""
    theirs = ImportedState(origin="db", label="x", stamp="s", recall={"k": {"snippet": "no path"}})
    store, _, _, report = merge_imported(
        RECALL_STORE.empty(), PHASE_SIGNALS.empty(), DAILY_CHECKPOINTS.empty(), theirs
    )
    assert dict(store.rows) == {}
    assert len(report.issues) == 1 and report.issues[0].startswith("x: short-term-recall.json")
