"""dreamd's own state merged with the state another writer keeps for the same workspace.

OpenClaw 2026.6 and later keep the recall store, the phase signals and the daily-ingestion
checkpoints in SQLite (:mod:`dreamd.workspace.openclaw_state` reads them) and rename the
workspace's JSON files to ``*.migrated``. A workspace both tools dream in must lose nothing.

Rules:

* Never lose a row: every key of either side is in the result.
* A key both sides hold becomes one row: each counter and score is the larger of the two (the
  same recall seen by both tools is not counted twice), the query hashes and recall days are
  the union (newest kept, as the caps say), ``firstRecalledAt`` the earlier, ``lastRecalledAt``
  the later, and the snippet, tags and lines those of the side recalled last. ``promotedAt``
  is the earlier one set: a row promoted by either tool stays promoted. dreamd's own
  ``duplicateOf``/``forgottenAt`` are kept.
* Imported rows are merged once per change of the other writer: the store remembers, under
  :data:`IMPORTED`, the stamp of what it merged last (OpenClaw's ``short-term-meta`` time). A
  row dreamd itself later drops (evicted to the long-term layer, rolled back) is then not
  brought back until that writer writes again.
* Rows the other writer wrote in a shape dreamd cannot read are reported, never fatal.

Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from msgspec.structs import replace

from dreamd.engine.state import (
    DAILY_CHECKPOINTS,
    PHASE_SIGNALS,
    RECALL_STORE,
    DailyCheckpoint,
    PhaseSignal,
    RecallEntry,
    RowT,
    Table,
    TableFormat,
)

__all__ = ["IMPORTED", "ImportedState", "MergeReport", "merge_imported"]

IMPORTED = "dreamdImported"
"""Top-level field of the recall store: ``{<origin id>: <stamp merged last>}``."""
MAX_QUERY_HASHES = 32
MAX_RECALL_DAYS = 16
HIT_CAP = 9999


@dataclass(frozen=True)
class ImportedState:
    """Raw rows another writer keeps for one workspace, by logical key (its JSON shapes)."""

    origin: str  # stable id of where they came from (a database path)
    label: str  # how status names it
    stamp: str  # changes whenever that writer writes; equal stamps need no merge
    recall: Mapping[str, Any] = field(default_factory=dict)
    signals: Mapping[str, Any] = field(default_factory=dict)
    daily: Mapping[str, Any] = field(default_factory=dict)
    workspace_dir: str = ""  # the workspace path the other writer keys these rows by


@dataclass(frozen=True)
class MergeReport:
    """What a merge found and added, for status and the sweep's summary."""

    label: str
    recall: int  # rows the other writer holds
    signals: int
    daily: int
    added: int  # recall rows dreamd did not have
    updated: int  # recall rows both had, now combined
    merged: bool  # False: nothing new since the last merge
    issues: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line for status."""
        text = (
            f"{self.label}: {self.recall} recall row(s), {self.signals} phase signal(s), "
            f"{self.daily} checkpoint(s)"
        )
        if self.merged:
            return f"{text}; merged {self.added} new and {self.updated} shared row(s)"
        return f"{text}; already merged"


def _decode(fmt: TableFormat[RowT], raw: Mapping[str, Any]) -> tuple[Table[RowT], list[str]]:
    """Rows as the JSON state file would hold them, through the same decoder."""
    document = {"version": 1, fmt.rows_field: dict(raw)}
    return fmt.decode(msgspec.json.encode(document))


def _earlier(a: str | None, b: str | None) -> str | None:
    return min(x for x in (a, b) if x) if (a or b) else None


def _later(a: str | None, b: str | None) -> str | None:
    return max(x for x in (a, b) if x) if (a or b) else None


def _union(a: tuple[str, ...], b: tuple[str, ...], cap: int, *, ordered: bool) -> tuple[str, ...]:
    merged = list(dict.fromkeys((*a, *b)))
    if ordered:
        merged.sort()
    return tuple(merged[-cap:])


def _merge_entry(mine: RecallEntry, theirs: RecallEntry) -> RecallEntry:
    """One row from both sides' copies (see the module rules)."""
    base = theirs if (theirs.last_recalled_at or "") > (mine.last_recalled_at or "") else mine
    users: tuple[str, ...] | None = None
    if mine.user_query_hashes is not None or theirs.user_query_hashes is not None:
        users = _union(
            mine.user_query_hashes or (),
            theirs.user_query_hashes or (),
            MAX_QUERY_HASHES,
            ordered=False,
        )
    return replace(
        base,
        recall_count=max(mine.recall_count, theirs.recall_count),
        daily_count=max(mine.daily_count, theirs.daily_count),
        grounded_count=max(mine.grounded_count, theirs.grounded_count),
        total_score=max(mine.total_score, theirs.total_score),
        max_score=max(mine.max_score, theirs.max_score),
        first_recalled_at=_earlier(mine.first_recalled_at, theirs.first_recalled_at),
        last_recalled_at=_later(mine.last_recalled_at, theirs.last_recalled_at),
        query_hashes=_union(
            mine.query_hashes, theirs.query_hashes, MAX_QUERY_HASHES, ordered=False
        ),
        recall_days=_union(mine.recall_days, theirs.recall_days, MAX_RECALL_DAYS, ordered=True),
        concept_tags=base.concept_tags or mine.concept_tags or theirs.concept_tags,
        claim_hash=base.claim_hash or mine.claim_hash or theirs.claim_hash,
        promoted_at=_earlier(mine.promoted_at, theirs.promoted_at),
        user_query_hashes=users,
        provenance=mine.provenance or theirs.provenance,
        duplicate_of=mine.duplicate_of,
        forgotten_at=mine.forgotten_at or theirs.forgotten_at,
    )


def _merge_signal(mine: PhaseSignal, theirs: PhaseSignal) -> PhaseSignal:
    return replace(
        mine,
        light_hits=min(HIT_CAP, max(mine.light_hits, theirs.light_hits)),
        rem_hits=min(HIT_CAP, max(mine.rem_hits, theirs.rem_hits)),
        last_light_at=_later(mine.last_light_at, theirs.last_light_at),
        last_rem_at=_later(mine.last_rem_at, theirs.last_rem_at),
        last_rem_considered_at=_later(mine.last_rem_considered_at, theirs.last_rem_considered_at),
    )


def _merge_daily(mine: DailyCheckpoint, theirs: DailyCheckpoint) -> DailyCheckpoint:
    if (theirs.last_dreaming_day_ingested or "") > (mine.last_dreaming_day_ingested or ""):
        return theirs
    return mine


def _merge_table(
    own: Table[RowT], imported: Table[RowT], combine: Any
) -> tuple[Table[RowT], int, int]:
    rows = dict(own.rows)
    extras = {key: dict(value) for key, value in own.extras.items()}
    added = updated = 0
    for key, theirs in imported.rows.items():
        mine = rows.get(key)
        if mine is None:
            rows[key] = theirs
            added += 1
        else:
            merged = combine(mine, theirs)
            updated += merged != mine
            rows[key] = merged
        for name, value in imported.extras.get(key, {}).items():
            extras.setdefault(key, {}).setdefault(name, value)
    table = Table(rows, own.updated_at, own.version, extras, own.top)
    return table, added, updated


def merge_imported(
    store: Table[RecallEntry],
    signals: Table[PhaseSignal],
    daily: Table[DailyCheckpoint],
    imported: ImportedState,
) -> tuple[Table[RecallEntry], Table[PhaseSignal], Table[DailyCheckpoint], MergeReport]:
    """dreamd's three tables with ``imported`` merged in (see the module rules)."""
    counts = (len(imported.recall), len(imported.signals), len(imported.daily))
    cursor = store.top.get(IMPORTED)
    seen = cursor.get(imported.origin) if isinstance(cursor, dict) else None
    if seen == imported.stamp:
        return store, signals, daily, MergeReport(imported.label, *counts, 0, 0, merged=False)
    recall_rows, issues = _decode(RECALL_STORE, imported.recall)
    signal_rows, more = _decode(PHASE_SIGNALS, imported.signals)
    issues += more
    daily_rows, more = _decode(DAILY_CHECKPOINTS, imported.daily)
    issues += more
    store, added, updated = _merge_table(store, recall_rows, _merge_entry)
    signals, _, _ = _merge_table(signals, signal_rows, _merge_signal)
    daily, _, _ = _merge_table(daily, daily_rows, _merge_daily)
    marks = {**(cursor if isinstance(cursor, dict) else {}), imported.origin: imported.stamp}
    store = Table(
        store.rows, store.updated_at, store.version, store.extras, {**store.top, IMPORTED: marks}
    )
    issues = [f"{imported.label}: {issue}" for issue in issues]
    report = MergeReport(imported.label, *counts, added, updated, merged=True, issues=tuple(issues))
    return store, signals, daily, report
