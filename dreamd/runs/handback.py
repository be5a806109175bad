"""``dreamd memory export-openclaw``: hand one workspace's state back to OpenClaw.

What OpenClaw reads, by version (``docs/migrating-from-openclaw.md``):

* With a state database (OpenClaw 2026.6 and later, ``<state dir>/state/openclaw.sqlite``),
  dreamd's merged rows (:func:`dreamd.engine.handback.plan_handback`) are upserted into it,
  keyed as OpenClaw keys them, in one transaction, and only while
  :func:`dreamd.runs.openclaw_guard.openclaw_stopped` holds OpenClaw's state ownership. Rows
  only OpenClaw holds stay as they are (those dreamd promoted and retired get ``promotedAt``;
  past OpenClaw's cap of 512, those dreamd retired are removed: dreamd's long-term layer has
  them).
  The database OpenClaw already keeps this workspace's rows in is used, else the first found.
* Without one, OpenClaw imports ``memory/.dreams/*.json`` on its first start: the merged
  state (the searches still pending folded in) is saved there through the one writer.

A preview writes nothing. ``--apply`` needs dreamd's own dreaming off, so dreamd does not dream
the workspace again after handing it over. The workspace lock is held throughout.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamd.clock import format_instant
from dreamd.engine.handback import Handback, plan_handback
from dreamd.engine.plan import SweepPlan
from dreamd.engine.retirement import plan_retirement
from dreamd.errors import DreamdError
from dreamd.layout import check_workspace_folders
from dreamd.runs.openclaw_guard import openclaw_stopped
from dreamd.store.lock import workspace_lock
from dreamd.store.longterm import read_longterm
from dreamd.store.writer import apply_plan
from dreamd.workspace.openclaw_state import (
    read_openclaw_state,
    workspace_candidates,
    workspace_key,
)
from dreamd.workspace.statesources import load_state

__all__ = ["MAX_PLUGIN_ROWS", "MAX_VALUE_BYTES", "run_handback"]

PLUGIN = "memory-core"
MAX_PLUGIN_ROWS = 50_000  # OpenClaw's cap on one plugin's rows
MAX_VALUE_BYTES = 65_536  # OpenClaw's cap on one row's JSON
_COLUMNS = ["plugin_id", "namespace", "entry_key", "value_json", "created_at", "expires_at"]


def _promoted(rows: Mapping[str, Any]) -> int:
    return sum(1 for value in rows.values() if isinstance(value, dict) and value.get("promotedAt"))


def _row_json(key: str, value: Any, *, where: str) -> str:
    document = {
        "version": 1,
        "workspaceKey": hashlib.sha256(where.encode()).hexdigest(),
        "workspaceDir": where,
        "key": key,
        "value": value,
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def _check_table(connection: sqlite3.Connection, database: Path) -> set[tuple[str, str]]:
    """The (namespace, entry key) of every row of the plugin; an error when the table is not
    the one dreamd knows."""
    columns = [row[1] for row in connection.execute("PRAGMA table_info(plugin_state_entries)")]
    if columns != _COLUMNS:
        raise DreamdError(
            f"{database}: not an OpenClaw state database dreamd knows "
            "(table plugin_state_entries is missing or has other columns); nothing written"
        )
    query = "SELECT namespace, entry_key FROM plugin_state_entries WHERE plugin_id = ?"
    return {(namespace, key) for namespace, key in connection.execute(query, (PLUGIN,))}


def _check_room(database: Path, existing: int, added: int) -> None:
    if existing + added > MAX_PLUGIN_ROWS:
        raise DreamdError(
            f"{database}: {existing} rows plus {added} new would pass OpenClaw's cap of "
            f"{MAX_PLUGIN_ROWS} for {PLUGIN}; nothing written"
        )


def _encode(where: Path, handback: Handback) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(namespace, entry key, value JSON) per row, and the keys of rows too large to write."""
    text_dir = str(where).replace("\\", "/")
    prefix = workspace_key(where)
    todo, skipped = [], []
    for namespace, rows in handback.rows.items():
        for key, value in rows.items():
            value_json = _row_json(key, value, where=text_dir)
            if len(value_json.encode()) > MAX_VALUE_BYTES:
                skipped.append(key)
                continue
            todo.append(
                (namespace, f"{prefix}:{hashlib.sha256(key.encode()).hexdigest()}", value_json)
            )
    return todo, skipped


def _write(database: Path, where: Path, handback: Handback, *, now_ms: int) -> list[str]:
    """Upsert the rows in one transaction; returns the rows skipped (too large), by key."""
    todo, skipped = _encode(where, handback)
    prefix, removed = workspace_key(where), handback.removed
    connection = sqlite3.connect(database, timeout=5.0, isolation_level=None)
    try:
        connection.execute("PRAGMA busy_timeout = 5000")
        connection.execute("BEGIN IMMEDIATE")
        existing = _check_table(connection, database)
        added = sum(1 for namespace, key, _ in todo if (namespace, key) not in existing)
        _check_room(database, len(existing), added)
        connection.executemany(
            "INSERT INTO plugin_state_entries "
            "(plugin_id, namespace, entry_key, value_json, created_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (plugin_id, namespace, entry_key) "
            "DO UPDATE SET value_json = excluded.value_json",
            [(PLUGIN, namespace, key, value_json, now_ms) for namespace, key, value_json in todo],
        )
        gone = [f"{prefix}:{hashlib.sha256(key.encode()).hexdigest()}" for key in removed]
        connection.executemany(
            "DELETE FROM plugin_state_entries WHERE plugin_id = ? AND namespace IN "
            "('short-term-recall', 'short-term-phase-signals') AND entry_key = ?",
            [(PLUGIN, key) for key in gone],
        )
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    finally:
        connection.close()
    return skipped


def _choose(
    root: Path, databases: Sequence[Path]
) -> tuple[Path | None, Path, dict[str, Any], list[str]]:
    """The database to write, the workspace path its rows are keyed by, OpenClaw's rows now,
    and what could not be read (the write checks the database again)."""
    found, warnings = read_openclaw_state(root, databases)
    for state in found:
        database = Path(state.origin.removeprefix("openclaw-sqlite:"))
        return database, Path(state.workspace_dir), dict(state.recall), warnings
    first = databases[0] if databases else None
    return first, workspace_candidates(root)[0], {}, warnings


def run_handback(
    root: Path,
    *,
    databases: Sequence[Path],
    now: datetime,
    apply: bool,
    proc: Path = Path("/proc"),
) -> dict[str, Any]:
    """Preview (or, with ``apply``, write) the handback of ``root`` (see the module rules)."""
    check_workspace_folders(root)
    with workspace_lock(root):
        state = load_state(root, readonly=True, databases=databases)
        database, where, theirs, unread = _choose(root, databases)
        longterm, _ = read_longterm(root)
        stamp = format_instant(now)
        # the store as its next save leaves it: searches still pending can take it past 512
        kept, leaving = plan_retirement(state.store.rows, now=now, extras=state.store.extras)
        store = state.store.with_rows(kept, updated_at=stamp) if leaving else state.store
        retired = {key: row.entry.promoted_at for key, row in longterm.items()}
        retired |= {row.entry.key: row.entry.promoted_at for row in leaving}
        handback = plan_handback(
            store,
            state.signals,
            state.daily,
            theirs=theirs,
            retired=retired,
            stamp=stamp,
        )
        recall = handback.rows["short-term-recall"]
        after = {k: v for k, v in {**theirs, **recall}.items() if k not in handback.removed}
        report: dict[str, Any] = {
            "workspaceDir": str(root),
            "database": str(database) if database else None,
            "route": "sqlite" if database else "json",
            "rows": handback.counts(),
            "recall": handback.recall,
            "retired": len(leaving),
            "promoted": handback.promoted,
            "patched": handback.patched,
            "removed": len(handback.removed),
            "openclawBefore": {"recall": len(theirs), "promoted": _promoted(theirs)},
            "openclawAfter": {"recall": len(after), "promoted": _promoted(after)},
            "skipped": [],
            "applied": False,
            "warnings": [*state.warnings, *unread],
        }
        if not apply:
            return report
        if database is None or leaving:  # dreamd's own files first: OpenClaw's cap, retirements
            signals = state.signals if database is None else None
            daily = state.daily if database is None else None
            apply_plan(root, SweepPlan(store=store, signals=signals, daily=daily, retired=leaving))
        if database is not None:
            with openclaw_stopped(database.parent.parent, proc=proc):
                report["skipped"] = _write(
                    database, where, handback, now_ms=int(now.timestamp() * 1000)
                )
        report["applied"] = True
        return report
