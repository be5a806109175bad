"""Restoring an archived entry: ``memory/archive.md`` back into MEMORY.md (``memory restore``).

The selector names one entry the archive holds and that was not restored since
(:func:`dreamd.engine.phases.archive.archived_entries`): its promotion key, or text of its key
or line (case-insensitive); several matches are refused with the list. Its line goes back into
MEMORY.md byte for byte, after its promotion marker, in a section of the day; the archive gains
a ``## Restored <day>`` note (it stays append-only); the entry's store row is promoted again and
loses ``archivedAt``. Refused: an entry whose key is in MEMORY.md already, and a restore that
would take MEMORY.md past its budget (say which entry to forget or archive first, or raise the
budget). The one writer backs MEMORY.md up first, so ``memory revert`` undoes a restore. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from msgspec.structs import replace

from dreamd.clock import format_instant
from dreamd.engine.phases.archive import Archived, archived_entries, mark_restored
from dreamd.engine.phases.promotion import MEMORY_HEADER, SECTION_TITLE, promoted_keys
from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.engine.snapshot import Snapshot
from dreamd.errors import DreamdError, SelectorError

__all__ = ["RestorePlan", "find_archived", "plan_restore"]


@dataclass(frozen=True)
class RestorePlan:
    """What restoring one archived entry would do."""

    entry: Archived
    memory_text: str
    plan: SweepPlan


def find_archived(archive_text: str, selector: str) -> Archived:
    """The one archived entry ``selector`` names (see the module rules)."""
    entries = archived_entries(archive_text)
    exact = [e for e in entries if e.key == selector]
    if exact:
        return exact[-1]
    wanted = selector.casefold()
    found = [e for e in entries if wanted in e.key.casefold() or wanted in e.line.casefold()]
    if not found:
        raise SelectorError(f'No archived entry in memory/archive.md matched "{selector}".')
    if len(found) > 1:
        listed = "; ".join(f"{e.key}: {e.line[:80]}" for e in found[:8])
        raise SelectorError(
            f'"{selector}" matches {len(found)} archived entries: {listed}. Name one by its key.'
        )
    return found[0]


def plan_restore(
    snapshot: Snapshot, selector: str, *, now: datetime, day: str, max_chars: int
) -> RestorePlan:
    """Plan putting the archived entry ``selector`` names back into MEMORY.md."""
    memory, archive = snapshot.memory, snapshot.archive
    if not memory.valid_utf8:
        raise DreamdError("MEMORY.md is not valid UTF-8; dreamd does not rewrite it")
    entry = find_archived(archive.text, selector)
    if entry.key in promoted_keys(memory.text):
        raise DreamdError(f"{entry.key} is in MEMORY.md already; nothing to restore")
    newline = "\r\n" if "\r\n" in memory.text else "\n"
    lines = [SECTION_TITLE.format(day=day), "", f"<!-- dreamd-memory-promotion:{entry.key} -->"]
    section = newline.join([*lines, entry.line]) + newline
    base = memory.text
    if not base.strip():
        text = MEMORY_HEADER + newline + newline + section
    else:
        glue = "" if base.endswith(("\n", "\r")) else newline
        text = base + glue + newline + section
    if len(text) > max_chars:
        raise DreamdError(
            f"restoring it would take MEMORY.md to {len(text):,} characters, past its "
            f"{max_chars:,}-character budget: forget an entry first (dreamd memory forget), or "
            "raise dreaming.deep.memory_file_max_chars"
        )
    stamp = format_instant(now)
    rows = dict(snapshot.store.rows)
    row = rows.get(entry.key)
    if row is not None:
        rows[entry.key] = replace(row, promoted_at=stamp, archived_at=None)
    store = snapshot.store.with_rows(rows, updated_at=stamp)
    event = {
        "type": "memory.archive.restored",
        "timestamp": stamp,
        "memoryPath": memory.path,
        "key": entry.key,
    }
    restored = mark_restored(archive.text, [entry.key], day=day)
    writes = (  # MEMORY.md first: a crash between the two leaves the entry in both, never lost
        FileWrite(memory.path, text, memory.digest, "memory", (event,)),
        FileWrite(archive.path, restored, archive.digest, "archive"),
    )
    return RestorePlan(entry, text, SweepPlan(writes=writes, store=store))
