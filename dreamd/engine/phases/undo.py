"""Undoing promotions: forgetting one MEMORY.md entry, or reverting MEMORY.md to a backup.

Both plan a :class:`~dreamd.engine.plan.SweepPlan` for the one writer (which backs MEMORY.md up
first, so every undo can itself be undone), with a diary entry in DREAMS.md and an event.

**Forget** (``memory forget SELECTOR``): the selector names one *promoted* entry: its promotion
key, or text of its key or its line (case-insensitive); several matches are refused with the
list, a person's line is never touched. The marker line and the entry line go (a section left
without entries loses its heading too); nothing else changes byte for byte. The entry's sources
are marked in the recall store: the row with its key, rows backing it as duplicates, and rows
that promoted the same text under another key get ``forgottenAt``, and the store's forgotten
list keeps the text, so neither they nor any later row stating the same claim is promoted again.
With ``allow_repromote`` the rows lose ``promotedAt`` instead and may earn their place again.
An entry line that no longer looks as dreaming wrote it was edited by a person: refused unless
``force``.

**Revert** (``memory revert``): MEMORY.md becomes the backup's text. Lines the revert would drop
that a person wrote (not a marker, a promoted entry, a promotion heading or a blank line) make
it refuse unless ``force``; a line an agent's memory tool wrote and nobody changed since (its
:func:`tool_line_hash` is in ``tool_lines``, from the ``memory.edited`` events) is the
agent's, so reverting an agent's edit needs no ``force``. Promotions the revert takes out are
marked forgotten as above (or, with ``allow_repromote``, unpromoted); promotions it puts back
are promoted again. Pure.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from msgspec.structs import replace

from dreamd.clock import format_instant
from dreamd.engine.phases.diary import add_entry, render_entry
from dreamd.engine.phases.screen import forgotten_list
from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.engine.snapshot import Snapshot
from dreamd.engine.state import FORGOTTEN, RecallEntry, Table
from dreamd.engine.text.memory_entries import (
    MemoryEntry,
    claim_of,
    generated_lines,
    memory_entries,
)
from dreamd.engine.text.snippets import content_hash
from dreamd.errors import DreamdError, SelectorError

__all__ = [
    "ForgetPlan",
    "RevertPlan",
    "find_promotion",
    "memory_diff",
    "plan_forget",
    "plan_revert",
    "tool_line_hash",
]

MAX_FORGOTTEN = 256
_RENDERED = re.compile(
    r"\[score=[^\]]*source=[^\]]*\]|\sSource:\s*\S+#L\d+-L\d+"
    r"|\s\((?:chat \d{4}-\d{2}-\d{2}|[^()]+?)#L\d+(?:-L\d+)?(?:; replaces: .*)?\)\s*$"
)
_SECTION = re.compile(r"^#{2,3}\s+(?:Promoted From Short-Term Memory|Consolidated Memory)\s+\(")
_MARKER_ONLY = re.compile(r"^\s*<!--\s*(?:dreamd|openclaw)-memory-(?:promotion|lineage):.+-->\s*$")
_HEADING = re.compile(r"^#{1,6}\s")


@dataclass(frozen=True)
class ForgetPlan:
    """What forgetting one entry would do."""

    entry: MemoryEntry
    sources: tuple[RecallEntry, ...]  # the rows marked
    edited: bool  # the entry line was changed by a person since dreaming wrote it
    memory_text: str
    plan: SweepPlan


@dataclass(frozen=True)
class RevertPlan:
    """What restoring MEMORY.md from one backup would do."""

    backup: str
    memory_text: str
    removed: tuple[str, ...]  # promotion keys the revert takes out
    restored: tuple[str, ...]  # promotion keys it puts back
    lost: tuple[str, ...]  # a person's lines it would drop
    plan: SweepPlan


def memory_diff(before: str, after: str, *, label: str = "MEMORY.md") -> str:
    """A unified diff of two MEMORY.md texts (empty when they are equal)."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=label,
        tofile=f"{label} (after)",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def find_promotion(memory_text: str, selector: str) -> MemoryEntry:
    """The one promoted entry ``selector`` names (see the module rules)."""
    promoted = [item for item in memory_entries(memory_text) if item.generated]
    exact = [item for item in promoted if item.key == selector]
    if exact:
        return exact[0]
    wanted = selector.lower().strip()
    found = [
        item
        for item in promoted
        if wanted and (wanted in (item.key or "").lower() or wanted in item.raw.lower())
    ]
    if not found:
        people = any(wanted in item.raw.lower() for item in memory_entries(memory_text))
        hint = " (only a line you wrote matches: edit MEMORY.md yourself)" if people else ""
        raise SelectorError(f'No promoted entry in MEMORY.md matched "{selector}"{hint}.')
    if len(found) > 1:
        listing = "; ".join(f"line {item.line}: {item.key}" for item in found[:8])
        raise SelectorError(
            f'"{selector}" matches {len(found)} promoted entries ({listing}); '
            "give a longer selector or the promotion key"
        )
    return found[0]


def _remove_entry(text: str, entry: MemoryEntry) -> str:
    """``text`` without ``entry``, its marker lines and, when emptied, its section heading."""
    lines = text.splitlines(keepends=True)
    index = entry.line - 1
    first = index
    while first > 0 and (_MARKER_ONLY.match(lines[first - 1]) or not lines[first - 1].strip()):
        first -= 1
    while first < index and not lines[first].strip():
        first += 1  # blank lines before the marker belong to the layout around it
    kept = lines[:first] + lines[index + 1 :]
    heading = first - 1
    while heading >= 0 and not lines[heading].strip():
        heading -= 1
    if heading >= 0 and _SECTION.match(lines[heading]):
        end = first
        while end < len(kept) and not _HEADING.match(kept[end]):
            end += 1
        body = kept[heading + 1 : end]
        if all(not line.strip() or _MARKER_ONLY.match(line) for line in body):
            start = heading
            if end == len(kept) and start > 0 and not kept[start - 1].strip():
                start -= 1  # the last section: the blank line that led to it goes too
            kept = kept[:start] + kept[end:]
    return "".join(kept)


def _sources(entry: MemoryEntry, rows: Mapping[str, RecallEntry]) -> list[RecallEntry]:
    """The rows behind an entry: its key, its duplicates, its text promoted under another key."""
    key = entry.key or ""
    found = []
    for row in rows.values():
        twin = bool(row.promoted_at) and claim_of(row.snippet) == entry.text
        if row.key == key or row.duplicate_of == key or twin:
            found.append(row)
    return sorted(found, key=lambda row: row.key)


def _mark(
    store: Table[RecallEntry],
    entries: Sequence[MemoryEntry],
    *,
    stamp: str,
    allow_repromote: bool,
) -> tuple[Table[RecallEntry], list[RecallEntry]]:
    """The store with the sources of ``entries`` forgotten (or unpromoted), and those rows."""
    rows = dict(store.rows)
    marked: list[RecallEntry] = []
    forgotten = forgotten_list(store)
    for entry in entries:
        for row in _sources(entry, store.rows):
            if allow_repromote:
                fresh = replace(row, promoted_at=None, duplicate_of=None, forgotten_at=None)
            else:
                fresh = replace(row, forgotten_at=stamp)
            rows[row.key] = fresh
            marked.append(fresh)
        if not allow_repromote and entry.key:
            forgotten = [item for item in forgotten if item["key"] != entry.key]
            forgotten.append({"key": entry.key, "text": entry.text, "at": stamp})
    top = {key: value for key, value in store.top.items() if key != FORGOTTEN}
    if forgotten:
        top[FORGOTTEN] = forgotten[-MAX_FORGOTTEN:]
    table = store.with_rows(rows, updated_at=stamp if marked else store.updated_at)
    return dataclasses.replace(table, top=top), marked


def _restore(
    store: Table[RecallEntry], entries: Sequence[MemoryEntry], *, stamp: str
) -> Table[RecallEntry]:
    """The store with the rows of entries put back into MEMORY.md promoted again."""
    keys = {entry.key for entry in entries if entry.key}
    if not keys:
        return store
    rows = dict(store.rows)
    for entry in entries:
        for row in _sources(entry, store.rows):
            rows[row.key] = replace(row, promoted_at=row.promoted_at or stamp, forgotten_at=None)
    top = dict(store.top)
    remaining = [item for item in forgotten_list(store) if item["key"] not in keys]
    top.pop(FORGOTTEN, None)
    if remaining:
        top[FORGOTTEN] = remaining
    return dataclasses.replace(store.with_rows(rows, updated_at=stamp), top=top)


def _looks_rendered(entry: MemoryEntry) -> bool:
    return bool(_RENDERED.search(entry.raw))


def _diary(snapshot: Snapshot, date_line: str, text: str) -> FileWrite:
    dreams = add_entry(snapshot.dreams.text, render_entry(date_line, text))
    return FileWrite(snapshot.dreams.path, dreams, snapshot.dreams.digest, "dreams")


def plan_forget(
    snapshot: Snapshot,
    selector: str,
    *,
    now: datetime,
    date_line: str,
    allow_repromote: bool = False,
    force: bool = False,
) -> ForgetPlan:
    """Plan forgetting the promoted entry ``selector`` names (see the module rules)."""
    memory = snapshot.memory
    if not memory.valid_utf8:
        raise DreamdError("MEMORY.md is not valid UTF-8; dreamd does not rewrite it")
    entry = find_promotion(memory.text, selector)
    edited = not _looks_rendered(entry)
    if edited and not force:
        raise DreamdError(
            f"MEMORY.md:{entry.line} was edited by hand since it was promoted; "
            "forgetting it would lose that edit (use --force to remove it anyway)"
        )
    stamp = format_instant(now)
    text = _remove_entry(memory.text, entry)
    store, marked = _mark(snapshot.store, [entry], stamp=stamp, allow_repromote=allow_repromote)
    where = marked[0] if marked else None
    source = f" (from {where.path}:{where.start_line}-{where.end_line})" if where else ""
    after = (
        "its sources may be promoted again if they earn it"
        if allow_repromote
        else "its sources will not be promoted again"
    )
    diary = f"On request, a promoted memory was forgotten{source}; {after}."
    event: dict[str, Any] = {
        "type": "memory.promotion.forgotten",
        "timestamp": stamp,
        "memoryPath": memory.path,
        "key": entry.key,
        "line": entry.line,
        "allowRepromote": allow_repromote,
        "sources": [row.key for row in marked],
    }
    writes = (
        FileWrite(memory.path, text, memory.digest, "memory", (event,)),
        _diary(snapshot, date_line, diary),
    )
    plan = SweepPlan(writes=writes, store=store)
    return ForgetPlan(entry, tuple(marked), edited, text, plan)


def tool_line_hash(line: str) -> str:
    """The digest an agent's MEMORY.md edit records for the line it wrote."""
    return content_hash(line.encode("utf-8"))[:16]


def _lost_lines(current: str, restored: str, tool_lines: frozenset[str]) -> list[str]:
    """A person's lines of ``current`` that ``restored`` does not have."""
    old, new = current.splitlines(), restored.splitlines()
    generated = generated_lines(current)
    lost = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, first, last, _, _ in matcher.get_opcodes():
        if tag in ("delete", "replace"):
            lost += [
                old[i]
                for i in range(first, last)
                if i + 1 not in generated and tool_line_hash(old[i]) not in tool_lines
            ]
    return lost


def plan_revert(
    snapshot: Snapshot,
    backup: str,
    backup_text: str,
    *,
    now: datetime,
    date_line: str,
    force: bool = False,
    allow_repromote: bool = False,
    tool_lines: frozenset[str] = frozenset(),
) -> RevertPlan:
    """Plan restoring MEMORY.md to ``backup_text`` (the backup named ``backup``)."""
    memory = snapshot.memory
    current = memory.text
    lost = _lost_lines(current, backup_text, tool_lines)
    if lost and not force:
        shown = "; ".join(line.strip()[:80] for line in lost[:3])
        raise DreamdError(
            f"reverting to {backup} would lose {len(lost)} line(s) a person wrote in MEMORY.md "
            f"({shown}); copy them out first or use --force"
        )
    stamp = format_instant(now)
    now_keys = {e.key: e for e in memory_entries(current) if e.key}
    then_keys = {e.key: e for e in memory_entries(backup_text) if e.key}
    removed = [now_keys[key] for key in now_keys if key not in then_keys]
    restored = [then_keys[key] for key in then_keys if key not in now_keys]
    if current == backup_text:
        return RevertPlan(backup, current, (), (), (), SweepPlan())
    store, _ = _mark(snapshot.store, removed, stamp=stamp, allow_repromote=allow_repromote)
    store = _restore(store, restored, stamp=stamp)
    diary = (
        f"On request, MEMORY.md was restored from the backup {backup}: "
        f"{len(removed)} promoted entr{'y' if len(removed) == 1 else 'ies'} taken out, "
        f"{len(restored)} put back."
    )
    event = {
        "type": "memory.reverted",
        "timestamp": stamp,
        "memoryPath": memory.path,
        "backup": backup,
        "removed": [e.key for e in removed],
        "restored": [e.key for e in restored],
        "forced": bool(lost),
    }
    writes = (
        FileWrite(memory.path, backup_text, memory.digest, "memory", (event,)),
        _diary(snapshot, date_line, diary),
    )
    return RevertPlan(
        backup,
        backup_text,
        tuple(e.key or "" for e in removed),
        tuple(e.key or "" for e in restored),
        tuple(lost),
        SweepPlan(writes=writes, store=store),
    )
