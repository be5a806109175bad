"""The health of one workspace's memory machinery, for ``dreamd memory status``. Read-only.

With ``deep`` (``memory status --deep``: OpenClaw's probes its vector store and embeddings; dreamd's
index is plain FTS5, so the probe is of that) it also opens the index read-only and checks it:
SQLite's ``quick_check``, the schema version, the full-text table answering a query, and the
indexed files against the files it derives from (``totalFiles``; ``dirty`` when one is missing,
changed or gone, so the next search re-indexes).

It counts both recall layers — the short-term store, read as every other reader reads it
(:func:`dreamd.workspace.statesources.load_state`: dreamd's ``short-term-recall.json``, the
files OpenClaw renamed, OpenClaw's SQLite rows; ``sources`` says which), at most 512 rows — and
the long-term layer (``memory/.rag/longterm.jsonl``, rows that left the store) — and
reports the index, the session corpus and the diary. A workspace with a symlinked folder that
every writer refuses (:func:`dreamd.layout.check_workspace_folders`) is reported with that one
issue and zero counts: nothing is read through the link.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamd.clock import format_instant
from dreamd.engine.state import RECALL_STORE
from dreamd.errors import StateError, UnsafePathError
from dreamd.layout import (
    DREAMS_FILE,
    DREAMS_FILE_LOWER,
    INDEX_FILE,
    STATE_DIR,
    check_workspace_folders,
)
from dreamd.recall.schema import SCHEMA_VERSION
from dreamd.recall.sources import discover_sources
from dreamd.store.longterm import LONGTERM_FILE, read_longterm
from dreamd.store.statefiles import state_path
from dreamd.workspace.discovery import Workspace
from dreamd.workspace.statesources import load_state

__all__ = ["audit_report", "audit_workspace", "probe_index"]


def _index_counts(root: Path) -> dict[str, int] | None:
    path = root / INDEX_FILE
    if not path.exists():
        return None
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        files = connection.execute("SELECT count(*) FROM files").fetchone()[0]
        chunks = connection.execute("SELECT count(*) FROM chunks").fetchone()[0]
    except sqlite3.Error:
        return None
    finally:
        connection.close()
    return {"files": int(files), "chunks": int(chunks)}


def probe_index(root: Path) -> dict[str, Any] | None:
    """The ``--deep`` probe of the index (see the module rules), ``None`` for a workspace whose
    folders are refused. Read-only."""
    try:
        check_workspace_folders(root)
    except UnsafePathError:
        return None
    path = root / INDEX_FILE
    sources = discover_sources(root)
    report: dict[str, Any] = {
        "path": str(path),
        "ok": False,
        "integrity": None,
        "schemaVersion": None,
        "fullText": False,
        "indexedFiles": 0,
        "totalFiles": len(sources),
        "dirty": bool(sources),
        "missingFiles": sorted(sources),
        "changedFiles": [],
        "goneFiles": [],
        "error": None if path.exists() else "no index yet (the next search builds it)",
    }
    if not path.exists():
        return report
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            integrity = str(connection.execute("PRAGMA quick_check").fetchone()[0])
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            files = {
                str(name): (int(mtime), int(size))
                for name, mtime, size in connection.execute(
                    "SELECT path, mtime_ns, size FROM files"
                )
            }
            connection.execute(
                "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'probe' LIMIT 1"
            )
        finally:
            connection.close()
    except sqlite3.Error as exc:
        report["error"] = f"cannot read the index: {exc}"
        return report
    changed = sorted(
        name
        for name, source in sources.items()
        if name in files and files[name] != (source.mtime_ns, source.size)
    )
    report |= {
        "integrity": integrity,
        "schemaVersion": version,
        "fullText": True,
        "indexedFiles": len(files),
        "missingFiles": sorted(sources.keys() - files.keys()),
        "changedFiles": changed,
        "goneFiles": sorted(files.keys() - sources.keys()),
    }
    report["dirty"] = bool(report["missingFiles"] or changed or report["goneFiles"])
    if version != SCHEMA_VERSION:
        report["error"] = f"schema version {version}, expected {SCHEMA_VERSION} (rebuilt on use)"
    report["ok"] = integrity == "ok" and version == SCHEMA_VERSION
    return report


def _long_term(root: Path) -> tuple[dict[str, Any], list[str]]:
    try:
        rows, issues = read_longterm(root)
    except StateError as exc:
        return {"path": str(root / LONGTERM_FILE), "entryCount": 0, "reasons": {}}, [str(exc)]
    reasons = Counter(row.reason or "unknown" for row in rows.values())
    layer = {
        "path": str(root / LONGTERM_FILE),
        "entryCount": len(rows),
        "reasons": dict(sorted(reasons.items())),
    }
    return layer, issues


def audit_workspace(root: Path, *, now: datetime) -> dict[str, Any]:
    """Counts and issues of the recall layers, index, corpus and diary of ``root``."""
    try:
        check_workspace_folders(root)
    except UnsafePathError as exc:
        return _refused(root, str(exc))
    state = load_state(root, readonly=True)
    store, issues = state.store, list(state.warnings)
    rows = list(store.rows.values())
    dangling = [row for row in rows if not (root / row.path).is_file()]
    corpus = root / STATE_DIR / "session-corpus"
    long_term, long_issues = _long_term(root)
    return {
        "workspaceDir": str(root),
        "storePath": str(state_path(root, RECALL_STORE)),
        "updatedAt": store.updated_at,
        "entryCount": len(rows),
        "promotedCount": sum(1 for row in rows if row.promoted_at),
        "spacedEntryCount": sum(1 for row in rows if len(row.recall_days) > 1),
        "conceptTaggedEntryCount": sum(1 for row in rows if row.concept_tags),
        "groundedEntryCount": sum(1 for row in rows if row.grounded_count > 0),
        "danglingEntryCount": len(dangling),
        "longTerm": long_term,
        "index": _index_counts(root),
        "corpusFiles": len(list(corpus.glob("*.txt"))) if corpus.is_dir() else 0,
        "diaryPresent": (root / DREAMS_FILE).exists() or (root / DREAMS_FILE_LOWER).exists(),
        "issues": issues + long_issues,
        "sources": list(state.sources),
    }


def _refused(root: Path, reason: str) -> dict[str, Any]:
    """The report of a workspace whose folders are refused: nothing read through the link."""
    return {
        "workspaceDir": str(root),
        "storePath": str(state_path(root, RECALL_STORE)),
        "updatedAt": None,
        "entryCount": 0,
        "promotedCount": 0,
        "spacedEntryCount": 0,
        "conceptTaggedEntryCount": 0,
        "groundedEntryCount": 0,
        "danglingEntryCount": 0,
        "longTerm": {"path": str(root / LONGTERM_FILE), "entryCount": 0, "reasons": {}},
        "index": None,
        "corpusFiles": 0,
        "diaryPresent": (root / DREAMS_FILE).exists() or (root / DREAMS_FILE_LOWER).exists(),
        "issues": [reason],
        "sources": [],
    }


def _deep_line(probe: dict[str, Any]) -> str:
    state = "ready" if probe["ok"] else "unavailable"
    counts = f"{probe['indexedFiles']}/{probe['totalFiles']} files"
    dirty = "dirty" if probe["dirty"] else "clean"
    return (
        f"\n  index probe: {state} ({counts}, {dirty}, integrity {probe['integrity'] or '-'})"
        + (f"\n  ! {probe['error']}" if probe["error"] else "")
    )


def audit_report(
    workspaces: Iterable[Workspace], *, now: datetime, deep: bool = False
) -> tuple[dict[str, Any], str]:
    """The ``memory status`` document and text for ``workspaces`` (``deep``: probe the index)."""
    reports = []
    for ws in workspaces:
        report = audit_workspace(ws.root, now=now)
        if deep:
            report["deep"] = {"index": probe_index(ws.root)}
        reports.append(report)
    text = "\n".join(
        f"{r['workspaceDir']}: {r['entryCount']} short-term entries "
        f"({r['promotedCount']} promoted, {r['spacedEntryCount']} spaced, "
        f"{r['danglingEntryCount']} dangling), {r['longTerm']['entryCount']} long-term, "
        f"index {r['index']['chunks'] if r['index'] else 'absent'}, "
        f"diary {'present' if r['diaryPresent'] else 'absent'}"
        + "".join(f"\n  ! {issue}" for issue in r["issues"])
        + (_deep_line(r["deep"]["index"]) if r.get("deep", {}).get("index") else "")
        for r in reports
    )
    return {"now": format_instant(now), "workspaces": reports}, text
