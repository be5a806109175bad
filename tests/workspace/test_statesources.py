"""The one merged view of a workspace's state: every reader sees the same rows."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import pytest

from dreamd.engine.hits import Hit
from dreamd.engine.state import RECALL_STORE
from dreamd.recall.audit import audit_workspace
from dreamd.recall.record import fold_pending, record_search
from dreamd.workspace.statesources import load_state, newest_archive
from tests.builders import NOW, entry, table, write
from tests.workspace.openclaw_fixture import install_stage

DREAMS = "memory/.dreams"


def _store(root: Path, name: str, *keys: int) -> None:
    """A recall store file ``name`` with one row per number in ``keys``."""
    rows = [
        entry(start=n, end=n, snippet=f"- Fact number {n} about the billing host.") for n in keys
    ]
    write(root, f"{DREAMS}/{name}", RECALL_STORE.encode(table(rows)).decode())


def test_newest_archive_is_the_highest_generation(tmp_path: Path) -> None:
    """OpenClaw renames to ``.migrated``, then ``.migrated.2``, ``.3``…: the highest is newest;
    names that are not its generations (``.migrated.02``, ``.migrated.x``) are ignored."""
    for name in (
        "a.json.migrated",
        "a.json.migrated.2",
        "a.json.migrated.10",
        "a.json.migrated.02",
    ):
        write(tmp_path, name, "{}")
    write(tmp_path, "a.json.migrated.x", "{}")
    assert newest_archive(tmp_path, "a.json") == "a.json.migrated.10"
    assert newest_archive(tmp_path, "b.json") is None
    assert newest_archive(tmp_path / "missing", "a.json") is None


def test_the_newest_renamed_store_is_read(tmp_path: Path) -> None:
    """With the plain file gone, the rows of the newest generation are the store, named so."""
    _store(tmp_path, "short-term-recall.json.migrated", 1)
    _store(tmp_path, "short-term-recall.json.migrated.2", 1, 2, 3)
    state = load_state(tmp_path, readonly=True, databases=[])
    assert sorted(state.store.rows) == [f"memory:memory/2026-11-20.md:{n}:{n}" for n in (1, 2, 3)]
    assert state.sources == (
        f"{DREAMS}/short-term-recall.json.migrated.2 (3 row(s); renamed by OpenClaw, read back)",
    )


def test_memory_status_counts_what_status_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After OpenClaw moved the store into its database, ``memory status`` counts the merged
    rows (renamed files and SQLite rows), not dreamd's missing JSON file: 12 and 1."""
    root = install_stage("stage-1", tmp_path, monkeypatch)
    report = audit_workspace(root, now=NOW)
    state = load_state(root, readonly=True)
    assert (report["entryCount"], report["promotedCount"]) == (12, 1)
    assert report["entryCount"] == len(state.store.rows)
    assert report["sources"] == list(state.sources)


def test_folding_searches_keeps_the_renamed_store(tmp_path: Path) -> None:
    """Searches folded into a store OpenClaw renamed away keep its rows: the saved store
    holds the renamed file's rows and the search's, not the search's alone."""
    _store(tmp_path, "short-term-recall.json.migrated", 1, 2)
    write(tmp_path, "memory/2026-11-20.md", "# Notes\n\n- Fact number 9 about the billing host.\n")
    hit = Hit("memory/2026-11-20.md", 3, 3, "- Fact number 9 about the billing host.", 0.9)
    record_search(tmp_path, "billing host", [hit], now=NOW, zone=UTC)
    fold_pending(tmp_path, now=NOW)
    saved = json.loads((tmp_path / DREAMS / "short-term-recall.json").read_text())
    assert sorted(saved["entries"]) == [
        "memory:memory/2026-11-20.md:1:1",
        "memory:memory/2026-11-20.md:2:2",
        "memory:memory/2026-11-20.md:3:3",
    ]
