"""Reading state files from ``memory/.dreams/``, with corrupt files set aside, never lost.

A file that is not valid JSON (or not our shape) is renamed to ``<name>.corrupt-<timestamp>``
and an empty table is used, with a warning: the next save rebuilds it. A file whose rows are
partly unreadable is copied aside the same way before the readable rows are used, so every
byte the user had is still on disk. Writes go through ``writer``.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import cast

import msgspec

from dreamd.engine.state import RECALL_STORE, RecallEntry, RowT, Table, TableFormat
from dreamd.errors import StateError
from dreamd.layout import STATE_DIR
from dreamd.store.pending import APPLIED, read_pending, unapplied

__all__ = ["load_table", "state_path", "with_pending"]


def state_path(root: Path, fmt: TableFormat[RowT]) -> Path:
    """``<root>/memory/.dreams/<name>``."""
    return root / STATE_DIR / fmt.name


def _aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
        counter += 1
    return target


def load_table(
    root: Path, fmt: TableFormat[RowT], *, readonly: bool = False
) -> tuple[Table[RowT], list[str]]:
    """The table stored in ``root`` (empty when absent) and warnings about what was set aside.

    ``readonly`` (status, previews) reports problems without setting anything aside. The recall
    store comes with the searches recorded ahead of it replayed (:mod:`dreamd.store.pending`).
    """
    table, issues = _read(root, fmt, readonly=readonly)
    if fmt is not RECALL_STORE:
        return table, issues
    store, pending_issues = with_pending(root, cast(Table[RecallEntry], table))
    return cast(Table[RowT], store), issues + pending_issues


def with_pending(root: Path, store: Table[RecallEntry]) -> tuple[Table[RecallEntry], list[str]]:
    """``store`` with the searches recorded ahead of it replayed (and what was unreadable)."""
    searches, issues = read_pending(root)
    todo = unapplied(searches, store.top)
    if not todo:
        return store, issues
    from dreamd.engine.traces import replay_pending

    replayed = replay_pending(store, todo)
    top = {**replayed.top, APPLIED: todo[-1].id}
    return Table(replayed.rows, replayed.updated_at, replayed.version, replayed.extras, top), issues


def _read(root: Path, fmt: TableFormat[RowT], *, readonly: bool) -> tuple[Table[RowT], list[str]]:
    path = state_path(root, fmt)
    if path.is_symlink():
        raise StateError(f"{path} is a symlink; refusing to use it as state")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return fmt.empty(), []
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        table, issues = fmt.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        if readonly:
            return fmt.empty(), [f"{fmt.name} is unreadable ({exc}); the next sweep rebuilds it"]
        target = _aside(path)
        path.rename(target)
        return fmt.empty(), [f"{fmt.name} was unreadable ({exc}); moved to {target.name}, rebuilt"]
    if issues and not readonly:
        target = _aside(path)
        shutil.copy2(path, target)
        issues.append(f"{fmt.name}: original kept as {target.name}")
    return table, issues
