"""An agent's memory writes, carried out: a line remembered in today's note, a person's
MEMORY.md line replaced or inserted (the rules are :mod:`dreamd.engine.memory_edits`').

Each write takes the workspace lock, reads the file afresh, plans, and goes through the one
writer (:func:`dreamd.store.writer.apply_plan`): atomic, refused through a symlink or a
symlinked folder, compare-and-swap against the bytes read. ``MEMORY.md`` is backed up first, so
``dreamd memory revert --last --apply`` undoes an edit. Each write appends one event
(``memory.remembered`` or ``memory.edited``) naming the file and line, never the text; an
edit's event carries the digest of the line it wrote, so a revert knows that line for the
agent's, not a person's (:func:`dreamd.engine.phases.undo.tool_line_hash`). A busy
workspace (a sweep holds the lock) is a :class:`dreamd.errors.LockError` for the caller to
report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from dreamd.clock import day_of, format_instant
from dreamd.engine.memory_edits import plan_insert, plan_remember, plan_replace
from dreamd.engine.phases.undo import tool_line_hash
from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.errors import DreamdError
from dreamd.layout import NOTES_DIR, check_workspace_folders
from dreamd.store.lock import workspace_lock
from dreamd.store.writer import apply_plan
from dreamd.workspace.backups import list_backups
from dreamd.workspace.reader import memory_file, read_text

__all__ = ["LOCK_SECONDS", "edit_memory", "remember", "today_note"]

LOCK_SECONDS = 30.0
"""How long a write waits for a sweep that holds the workspace lock (sweeps take well under a
second per workspace; a backfill may take longer)."""


def today_note(now: datetime, zone: tzinfo) -> str:
    """``memory/YYYY-MM-DD.md`` for today in ``zone``."""
    return f"{NOTES_DIR}/{day_of(now, zone)}.md"


def _write(
    root: Path,
    path: str,
    kind: str,
    plan: Callable[[str | None], tuple[str, dict[str, Any]]],
    *,
    fence: Callable[[], object] | None,
) -> dict[str, Any]:
    """Under the lock: read ``path``, ``plan`` its new text from the old one (``None``: absent),
    write it through the one writer; the plan's document, with ``path`` and ``changed``."""
    check_workspace_folders(root, path)
    with workspace_lock(root, timeout=LOCK_SECONDS):
        current = read_text(root, path)
        if current.exists and not current.valid_utf8:
            raise DreamdError(f"{path} is not valid UTF-8; dreamd does not rewrite it")
        text, document = plan(current.text if current.exists else None)
        event = {**document.pop("event"), "path": path}
        write = FileWrite(path, text, current.digest, kind, (event,))
        result = apply_plan(root, SweepPlan(writes=(write,)), checkpoint_notes=False, fence=fence)
    return {**document, "path": path, "changed": bool(result.changed)}


def remember(
    root: Path,
    text: str,
    *,
    now: datetime,
    zone: tzinfo,
    kind: str | None = None,
    entities: Sequence[str] = (),
    confidence: float | None = None,
    fence: Callable[[], object] | None = None,
) -> dict[str, Any]:
    """Append ``text`` to today's note, as a Retain fact when ``kind`` is given."""
    path = today_note(now, zone)
    day = day_of(now, zone)

    def plan(current: str | None) -> tuple[str, dict[str, Any]]:
        new, line, number = plan_remember(
            current, day, text, kind=kind, entities=entities, confidence=confidence
        )
        event = {"type": "memory.remembered", "timestamp": format_instant(now), "line": number}
        return new, {"line": number, "text": line, "fact": kind is not None, "event": event}

    return _write(root, path, "note", plan, fence=fence)


def edit_memory(
    root: Path,
    action: str,
    new: str,
    *,
    now: datetime,
    line: int | None = None,
    expected: str | None = None,
    fence: Callable[[], object] | None = None,
) -> dict[str, Any]:
    """``replace`` the person's MEMORY.md line ``line`` (which must read ``expected``) with
    ``new``, or ``insert`` ``new`` after line ``line`` (``None``: after the person's last)."""
    if action not in ("replace", "insert"):
        raise DreamdError(f"action must be replace or insert, got {action!r}")
    if action == "replace" and (line is None or expected is None):
        raise DreamdError("a replace names the line and the text expected there")
    path = memory_file(root)

    def plan(current: str | None) -> tuple[str, dict[str, Any]]:
        if current is None and action == "replace":
            raise DreamdError(f"{path} does not exist yet; insert a line instead")
        text = current or ""
        if action == "replace" and line is not None and expected is not None:
            new_text, written = plan_replace(text, line, expected, new)
            number = line
        else:
            new_text, written, number = plan_insert(text, new, after=line)
        event = {
            "type": "memory.edited",
            "timestamp": format_instant(now),
            "memoryPath": path,
            "action": action,
            "line": number,
            "lineHash": tool_line_hash(written),
        }
        document = {"action": action, "line": number, "text": written, "event": event}
        return new_text, {**document, "created": current is None}

    document = _write(root, path, "memory", plan, fence=fence)
    backups = list_backups(root) if document["changed"] and not document["created"] else []
    document["backup"] = backups[-1].name if backups else None
    document["undo"] = "dreamd memory revert --last --apply" if document["backup"] else None
    return document
