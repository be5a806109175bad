"""The health of one workspace's memory machinery, for ``dreamd memory status``. Read-only."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamd.layout import DREAMS_FILE, DREAMS_FILE_LOWER, INDEX_FILE, STATE_DIR
from dreamd.state import RECALL_STORE
from dreamd.statefiles import load_table, state_path

__all__ = ["audit_workspace"]


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


def audit_workspace(root: Path, *, now: datetime) -> dict[str, Any]:
    """Counts and issues of the recall store, index, corpus and diary of ``root``."""
    store, issues = load_table(root, RECALL_STORE, readonly=True)
    rows = list(store.rows.values())
    dangling = [row for row in rows if not (root / row.path).is_file()]
    corpus = root / STATE_DIR / "session-corpus"
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
        "index": _index_counts(root),
        "corpusFiles": len(list(corpus.glob("*.txt"))) if corpus.is_dir() else 0,
        "diaryPresent": (root / DREAMS_FILE).exists() or (root / DREAMS_FILE_LOWER).exists(),
        "issues": issues,
    }
