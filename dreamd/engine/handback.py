"""dreamd's state for one workspace as the rows OpenClaw keeps (going back to OpenClaw). Pure.

OpenClaw 2026.6 and later read dreaming state only from their SQLite database; they import a
workspace's ``memory/.dreams/*.json`` once, while their database holds no rows for it. Going
back after dreamd dreamed therefore means writing dreamd's rows into that database, in the
shapes OpenClaw reads (:mod:`dreamd.workspace.openclaw_state` reads the same shapes back).

Rules:

* The rows are dreamd's merged view (its own files, the searches still pending, OpenClaw's
  renamed files and rows): the row as the JSON store holds it is the row's value.
* Nothing OpenClaw must not promote again goes back as promotable: a row dreamd forgot on
  request or marked as a duplicate of a MEMORY.md entry carries ``promotedAt`` (its own, else
  the time it was forgotten, else the time it was last seen), and a row OpenClaw still holds
  that dreamd retired to its long-term layer after promoting it gets that ``promotedAt``.
* Rows only OpenClaw holds are kept as they are (the writer upserts), with one exception:
  when the store would pass OpenClaw's cap of :data:`MAX_ENTRIES` rows, rows only OpenClaw
  holds that dreamd retired to its long-term layer (so dreamd still has them) are removed,
  promoted ones last and the least recently recalled first, until it fits (OpenClaw would
  keep only its newest 512 anyway).
* ``short-term-meta`` says when the recall store and the phase signals were last written, as
  OpenClaw's own writes do.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import Any

import msgspec

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

__all__ = ["HANDBACK_NAMESPACES", "MAX_ENTRIES", "Handback", "plan_handback"]

MAX_ENTRIES = 512  # OpenClaw's SHORT_TERM_RECALL_MAX_ENTRIES

HANDBACK_NAMESPACES = (
    "short-term-recall",
    "short-term-phase-signals",
    "dreaming-daily-ingestion",
    "short-term-meta",
)


@dataclass(frozen=True)
class Handback:
    """Rows to write, by OpenClaw namespace then logical key, and what they amount to."""

    rows: Mapping[str, Mapping[str, Any]]
    recall: int  # recall rows dreamd holds
    promoted: int  # of those, promoted (or kept from being promoted again)
    patched: int  # OpenClaw-only rows given the promotedAt dreamd recorded for them
    removed: tuple[str, ...] = ()  # OpenClaw-only rows dreamd retired, removed to fit the cap

    def counts(self) -> dict[str, int]:
        """Rows per namespace."""
        return {namespace: len(rows) for namespace, rows in self.rows.items()}


def _values(fmt: TableFormat[RowT], table: Table[RowT]) -> dict[str, Any]:
    """Each row as the JSON state file holds it (unknown fields kept)."""
    document = msgspec.json.decode(fmt.encode(table))
    rows: dict[str, Any] = document[fmt.rows_field]
    return rows


def _held_back(row: RecallEntry) -> str | None:
    """The ``promotedAt`` a row goes back with (see the module rules)."""
    if row.promoted_at:
        return row.promoted_at
    if row.forgotten_at:
        return row.forgotten_at
    if row.duplicate_of:
        return row.last_recalled_at or row.first_recalled_at
    return None


def plan_handback(
    store: Table[RecallEntry],
    signals: Table[PhaseSignal],
    daily: Table[DailyCheckpoint],
    *,
    theirs: Mapping[str, Any],
    retired: Mapping[str, str | None],
    stamp: str,
) -> Handback:
    """The rows that hand ``store``, ``signals`` and ``daily`` to OpenClaw.

    ``theirs`` are OpenClaw's recall rows for the workspace now (raw values by key);
    ``retired`` the rows in dreamd's long-term layer: their ``promotedAt`` (or None), by key.
    """
    recall = _values(RECALL_STORE, store)
    promoted = 0
    for key, row in store.rows.items():
        held = _held_back(row)
        if held:
            recall[key]["promotedAt"] = held
            promoted += 1
    patched = 0
    for key, value in theirs.items():
        when = retired.get(key)
        if key in recall or not when or not isinstance(value, dict) or value.get("promotedAt"):
            continue
        recall[key] = {**value, "promotedAt": when}
        patched += 1
    removed = _over_cap(len(recall.keys() | theirs.keys()), theirs, retired, store.rows.keys())
    for key in removed:
        patched -= recall.pop(key, None) is not None
    meta = {"recall": {"updatedAt": stamp}, "phase": {"updatedAt": stamp}}
    rows = {
        "short-term-recall": recall,
        "short-term-phase-signals": _values(PHASE_SIGNALS, signals),
        "dreaming-daily-ingestion": _values(DAILY_CHECKPOINTS, daily),
        "short-term-meta": meta,
    }
    return Handback(rows, len(store.rows), promoted, patched, removed)


def _over_cap(
    total: int, theirs: Mapping[str, Any], retired: Mapping[str, str | None], mine: Set[str]
) -> tuple[str, ...]:
    """OpenClaw-only rows dreamd retired, least recently recalled first, past the cap."""
    if total <= MAX_ENTRIES:
        return ()
    spare = [key for key in theirs if key in retired and key not in mine]
    # promoted rows last: while OpenClaw holds one, it does not promote that fact again
    spare.sort(
        key=lambda key: (
            bool(_field(theirs[key], "promotedAt") or retired[key]),
            str(_field(theirs[key], "lastRecalledAt") or ""),
            key,
        )
    )
    return tuple(spare[: total - MAX_ENTRIES])


def _field(value: Any, name: str) -> object:
    return value.get(name) if isinstance(value, dict) else None
