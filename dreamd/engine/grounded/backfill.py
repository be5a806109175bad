"""The plans of ``rem-backfill``: backfill entries and grounded rows in, or out again.

Both planners take a snapshot and return a :class:`~dreamd.engine.plan.SweepPlan` for the writer:
DREAMS.md's diary (:mod:`dreamd.engine.grounded.entries`), the recall store and phase signals
(:mod:`dreamd.engine.grounded.staging`). A file or table that would not change is left out of
the plan, so nothing is created empty and a repeated run writes nothing. The DREAMS.md write
carries a ``memory.backfill.applied`` or ``memory.backfill.rolledBack`` event. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from dreamd.clock import format_instant
from dreamd.engine.grounded.entries import plan_backfill_diary, remove_backfill_entries
from dreamd.engine.grounded.preview import GroundedNote
from dreamd.engine.grounded.staging import rollback_grounded, stage_grounded
from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.engine.snapshot import Snapshot

__all__ = ["plan_backfill", "plan_rollback"]


def _event(kind: str, now: datetime, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "timestamp": format_instant(now), **fields}


def plan_backfill(
    snapshot: Snapshot,
    grounded: Sequence[GroundedNote],
    digests: Mapping[str, str],
    *,
    now: datetime,
    stage: bool,
    source_path: str,
) -> SweepPlan:
    """DREAMS.md with the notes' backfill entries and, with ``stage``, the grounded rows.

    ``digests`` are the workspace notes the entries were planned from, with the digest each
    had: the writer refuses the plan when one of them changed since.
    """
    diary = plan_backfill_diary(snapshot.dreams.text, grounded)
    summary: dict[str, Any] = {
        "writtenEntries": diary.written,
        "replacedEntries": diary.replaced,
        "dreamsPath": str(snapshot.root / snapshot.dreams.path),
    }
    store = signals = None
    if stage:
        staging = stage_grounded(snapshot.store, snapshot.signals, grounded, now=now)
        if staging.changed:
            store = staging.store
            signals = staging.signals if staging.signals is not snapshot.signals else None
        summary |= {
            "stagedShortTermEntries": len(staging.staged),
            "replacedShortTermEntries": len(staging.cleared),
            "skippedClaims": {"storeFull": staging.over_budget, "refused": staging.refused},
        }
    writes: tuple[FileWrite, ...] = ()
    if diary.text != snapshot.dreams.text:
        event = _event("memory.backfill.applied", now, sourcePath=source_path, **summary)
        event.pop("dreamsPath")
        dreams = snapshot.dreams
        writes = (FileWrite(dreams.path, diary.text, dreams.digest, "dreams", (event,)),)
    return SweepPlan(writes=writes, sources=digests, store=store, signals=signals, summary=summary)


def plan_rollback(snapshot: Snapshot, *, now: datetime, short_term: bool) -> SweepPlan:
    """DREAMS.md without backfill entries and, with ``short_term``, without grounded-only rows."""
    diary = remove_backfill_entries(snapshot.dreams.text)
    summary: dict[str, Any] = {
        "dreamsPath": str(snapshot.root / snapshot.dreams.path),
        "removedEntries": diary.removed,
    }
    store = signals = None
    if short_term:
        new_store, new_signals, removed = rollback_grounded(
            snapshot.store, snapshot.signals, now=now
        )
        store = new_store if new_store is not snapshot.store else None
        signals = new_signals if new_signals is not snapshot.signals else None
        summary |= {
            "removedShortTermEntries": len(removed),
            "removedPhaseSignals": len(snapshot.signals.rows) - len(new_signals.rows),
        }
    writes: tuple[FileWrite, ...] = ()
    if diary.text != snapshot.dreams.text:
        event = _event("memory.backfill.rolledBack", now, removedEntries=diary.removed)
        dreams = snapshot.dreams
        writes = (FileWrite(dreams.path, diary.text, dreams.digest, "dreams", (event,)),)
    return SweepPlan(writes=writes, store=store, signals=signals, summary=summary)
