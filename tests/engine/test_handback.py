"""dreamd's state as OpenClaw's rows: nothing handed back as promotable that must not be."""

from __future__ import annotations

from dreamd.engine.handback import MAX_ENTRIES, plan_handback
from dreamd.engine.state import DAILY_CHECKPOINTS, PHASE_SIGNALS, PhaseSignal, Table
from tests.builders import entry, table

STAMP = "2026-10-16T08:00:00.000Z"


def _theirs(*keys: str, last: str = "2026-10-01T00:00:00Z") -> dict[str, dict[str, object]]:
    """OpenClaw's raw rows for ``keys``, last recalled at ``last``."""
    row: dict[str, object] = {"path": "memory/2026-10-01.md", "lastRecalledAt": last}
    return {key: {**row, "key": key} for key in keys}


def test_rows_go_back_as_the_json_store_holds_them() -> None:
    """A row's value is its JSON store shape; meta says when both stores were written."""
    row = entry(recall_count=2, total_score=1.6, recall_days=("2026-10-14", "2026-10-15"))
    signal = PhaseSignal(key=row.key, light_hits=3)
    handback = plan_handback(
        table([row]),
        Table({row.key: signal}),
        DAILY_CHECKPOINTS.empty(),
        theirs={},
        retired={},
        stamp=STAMP,
    )
    assert handback.rows["short-term-recall"] == {
        row.key: {
            "key": row.key,
            "path": "memory/2026-11-20.md",
            "startLine": 3,
            "endLine": 3,
            "snippet": row.snippet,
            "source": "memory",
            "recallCount": 2,
            "dailyCount": 0,
            "groundedCount": 0,
            "totalScore": 1.6,
            "maxScore": 0.0,
            "queryHashes": [],
            "recallDays": ["2026-10-14", "2026-10-15"],
            "conceptTags": [],
        }
    }
    assert handback.rows["short-term-phase-signals"] == {
        row.key: {"key": row.key, "lightHits": 3, "remHits": 0}
    }
    assert handback.rows["short-term-meta"] == {
        "recall": {"updatedAt": STAMP},
        "phase": {"updatedAt": STAMP},
    }
    assert (handback.recall, handback.promoted, handback.patched, handback.removed) == (1, 0, 0, ())


def test_forgotten_and_duplicate_rows_go_back_promoted() -> None:
    """A row forgotten on request or repeating a MEMORY.md entry must not be promoted by
    OpenClaw: it carries promotedAt (its own, else when forgotten, else when last seen)."""
    promoted = entry(start=1, end=1, promoted_at="2026-10-10T20:00:00Z")
    forgotten = entry(start=2, end=2, forgotten_at="2026-10-11T09:00:00Z")
    duplicate = entry(
        start=3, end=3, duplicate_of="memory:x", last_recalled_at="2026-10-12T20:00:00Z"
    )
    plain = entry(start=4, end=4)
    handback = plan_handback(
        table([promoted, forgotten, duplicate, plain]),
        PHASE_SIGNALS.empty(),
        DAILY_CHECKPOINTS.empty(),
        theirs={},
        retired={},
        stamp=STAMP,
    )
    recall = handback.rows["short-term-recall"]
    assert {key: value.get("promotedAt") for key, value in recall.items()} == {
        promoted.key: "2026-10-10T20:00:00Z",
        forgotten.key: "2026-10-11T09:00:00Z",
        duplicate.key: "2026-10-12T20:00:00Z",
        plain.key: None,
    }
    assert handback.promoted == 3


def test_openclaw_rows_dreamd_promoted_and_retired_get_promoted_at() -> None:
    """A row only OpenClaw still holds, which dreamd promoted and then retired, goes back
    with that promotedAt; OpenClaw's other rows are not written at all."""
    theirs = _theirs("k:retired", "k:untouched")
    handback = plan_handback(
        table([]),
        PHASE_SIGNALS.empty(),
        DAILY_CHECKPOINTS.empty(),
        theirs=theirs,
        retired={"k:retired": "2026-10-09T20:00:00Z"},
        stamp=STAMP,
    )
    assert handback.rows["short-term-recall"] == {
        "k:retired": {**theirs["k:retired"], "promotedAt": "2026-10-09T20:00:00Z"}
    }
    assert handback.patched == 1


def test_past_the_cap_retired_rows_make_room_promoted_last() -> None:
    """Over OpenClaw's 512, only rows dreamd retired (its long-term layer has them) are removed,
    unpromoted and least recently recalled first, just as many as needed."""
    mine = [entry(start=n, end=n) for n in range(1, MAX_ENTRIES)]  # 511 rows
    theirs = {
        **_theirs("old:promoted", last="2026-01-01T00:00:00Z"),
        **_theirs("old:plain", last="2026-02-01T00:00:00Z"),
        **_theirs("new:plain", last="2026-09-01T00:00:00Z"),
        **_theirs("kept:not-retired", last="2025-01-01T00:00:00Z"),
    }
    retired = {"old:promoted": "2026-01-02T00:00:00Z", "old:plain": None, "new:plain": None}
    handback = plan_handback(
        table(mine),
        PHASE_SIGNALS.empty(),
        DAILY_CHECKPOINTS.empty(),
        theirs=theirs,
        retired=retired,
        stamp=STAMP,
    )
    assert (handback.removed, handback.patched) == (("old:plain", "new:plain", "old:promoted"), 0)
    fewer = plan_handback(
        table(mine[:-1]),
        PHASE_SIGNALS.empty(),
        DAILY_CHECKPOINTS.empty(),
        theirs=theirs,
        retired=retired,
        stamp=STAMP,
    )
    assert fewer.removed == ("old:plain", "new:plain")
    assert (fewer.patched, "old:promoted" in fewer.rows["short-term-recall"]) == (1, True)
