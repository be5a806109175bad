"""OpenClaw's dreaming state for one workspace, read from its SQLite database (2026.6 and later).

OpenClaw keeps one database per install, ``<state dir>/state/openclaw.sqlite``, table
``plugin_state_entries(plugin_id, namespace, entry_key, value_json, created_at, expires_at)``.
Dreaming's rows have ``plugin_id = 'memory-core'``; ``entry_key`` is ``<workspaceKey>:<sha256 of
the row key>`` where ``workspaceKey`` is the sha256 of the workspace's absolute path (forward
slashes), and ``value_json`` is ``{"version", "workspaceKey", "workspaceDir", "key", "value"}``.

Rules:

* Read-only and brief: the database is opened with ``mode=ro`` and a short busy timeout, read
  in one transaction and closed. OpenClaw may be writing it (WAL) at the same time; a database
  that is busy, locked or unreadable is a warning and an empty read, never an error that stops
  a sweep.
* Only rows of this workspace are read: the key prefix must be its ``workspaceKey`` and the
  row's ``workspaceDir``, when present, must name it.
* The databases looked at: ``$OPENCLAW_STATE_DIR/state/``, the state dir of the OpenClaw
  install found (the folder of its ``openclaw.json``), and ``~/.openclaw/state/``.

May import: :mod:`dreamd.engine` and the shared top-level modules.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import quote

from dreamd.engine.merge import ImportedState

__all__ = [
    "DATABASE",
    "NAMESPACES",
    "find_state_databases",
    "read_openclaw_state",
    "workspace_candidates",
    "workspace_key",
]

DATABASE = Path("state") / "openclaw.sqlite"
PLUGIN = "memory-core"
NAMESPACES = {
    "short-term-recall": "recall",
    "short-term-phase-signals": "signals",
    "dreaming-daily-ingestion": "daily",
}
META = "short-term-meta"
BUSY_TIMEOUT_S = 0.25


def workspace_key(root: Path) -> str:
    """OpenClaw's key for a workspace: sha256 of its absolute path with forward slashes."""
    text = str(root.absolute()).replace("\\", "/")
    if os.name == "nt":
        text = text.lower()
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def find_state_databases(install_dirs: Iterable[Path] = ()) -> list[Path]:
    """Every OpenClaw state database that exists, each once (see the module rules)."""
    dirs: list[Path] = []
    env = os.environ.get("OPENCLAW_STATE_DIR", "").strip()
    if env:
        dirs.append(Path(env).expanduser())
    config = os.environ.get("OPENCLAW_CONFIG_PATH", "").strip()
    if config:
        dirs.append(Path(config).expanduser().parent)
    dirs += list(install_dirs)
    dirs.append(Path.home() / ".openclaw")
    found: dict[str, Path] = {}
    for directory in dirs:
        path = directory / DATABASE
        if path.is_file():
            found.setdefault(os.path.realpath(path), path)
    return list(found.values())


def _connect(path: Path) -> sqlite3.Connection:
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    return connection


def _rows(connection: sqlite3.Connection, prefix: str) -> list[tuple[str, str]]:
    names = (*NAMESPACES, META)
    # the primary key (plugin_id, namespace, entry_key) makes this a range scan
    query = (
        "SELECT namespace, value_json FROM plugin_state_entries WHERE plugin_id = ? "
        "AND namespace IN (?, ?, ?, ?) AND entry_key >= ? AND entry_key < ?"
    )
    connection.execute("BEGIN")
    try:
        return list(connection.execute(query, (PLUGIN, *names, f"{prefix}:", f"{prefix};")))
    finally:
        connection.execute("COMMIT")


def workspace_candidates(root: Path) -> list[Path]:
    """The paths OpenClaw may key this workspace by: as given (absolute), then its real path."""
    paths = [root.absolute()]
    real = Path(os.path.realpath(root))
    return paths if real in paths else [*paths, real]


def read_openclaw_state(
    root: Path, databases: Sequence[Path]
) -> tuple[list[ImportedState], list[str]]:
    """This workspace's rows in each database that has any, and warnings (see the module rules)."""
    found: list[ImportedState] = []
    warnings: list[str] = []
    for database in databases:
        try:
            connection = _connect(database)
        except sqlite3.Error as exc:
            warnings.append(f"OpenClaw state {database} could not be opened ({exc}); not read")
            continue
        try:
            for directory in workspace_candidates(root):
                state = _read_one(connection, database, directory)
                if state is not None:
                    found.append(state)
                    break
        except sqlite3.Error as exc:
            warnings.append(f"OpenClaw state {database} could not be read ({exc}); not read")
        finally:
            connection.close()
    return found, warnings


def _read_one(connection: sqlite3.Connection, database: Path, root: Path) -> ImportedState | None:
    key = workspace_key(root)
    tables: dict[str, dict[str, object]] = {"recall": {}, "signals": {}, "daily": {}}
    stamps: list[str] = []
    for namespace, value_json in _rows(connection, key):
        try:
            value = json.loads(value_json)
        except ValueError:
            continue
        if not isinstance(value, dict) or not isinstance(value.get("key"), str):
            continue
        where = value.get("workspaceDir")
        if isinstance(where, str) and Path(where) != root:
            continue
        if namespace == META:
            stamps.append(f"{value['key']}={json.dumps(value.get('value'), sort_keys=True)}")
            continue
        tables[NAMESPACES[namespace]][value["key"]] = value.get("value")
    if not any(tables.values()):
        return None
    # the meta rows change on every write of a namespace; the row keys catch any other change
    digest = hashlib.sha256()
    for name in sorted(tables):
        digest.update(json.dumps(tables[name], sort_keys=True).encode("utf-8"))
    stamp = ";".join(sorted(stamps)) + f";{digest.hexdigest()[:16]}"
    return ImportedState(
        origin=f"openclaw-sqlite:{os.path.realpath(database)}",
        label=f"OpenClaw state {database}",
        stamp=stamp,
        workspace_dir=str(root),
        recall=tables["recall"],
        signals=tables["signals"],
        daily=tables["daily"],
    )
