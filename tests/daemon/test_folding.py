"""Recall traces folded while the daemon idles: due by size, never waiting for a busy lock,
each search counted once; and a real daemon doing it between sweeps."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamd.daemon.folding import due_for_fold, fold_if_due
from dreamd.engine.hits import Hit
from dreamd.engine.state import RECALL_STORE
from dreamd.recall.record import record_search
from dreamd.store.lock import workspace_lock
from dreamd.store.pending import PENDING_FILE
from dreamd.store.statefiles import load_table
from tests.processes import running_daemon, wait_until

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _searched(root: Path, searches: int) -> None:
    """A workspace with one note, asked about ``searches`` times (recorded ahead)."""
    (root / "memory").mkdir(parents=True, exist_ok=True)
    fact = "- The billing service runs on Postgres 16 on host db-02."
    (root / "memory" / "2026-11-27.md").write_text(f"# 2026-11-27\n\n{fact}\n", encoding="utf-8")
    for index in range(searches):
        hit = Hit("memory/2026-11-27.md", 3, 3, fact, 0.9)
        when = NOW - timedelta(minutes=searches - index)
        record_search(root, f"which host {index}", [hit], now=when, zone=UTC)


def _recalls(root: Path) -> int:
    store, _ = load_table(root, RECALL_STORE)
    return sum(row.recall_count for row in store.rows.values())


def test_only_workspaces_past_the_threshold_are_due(tmp_path: Path) -> None:
    busy, quiet, empty = tmp_path / "busy", tmp_path / "quiet", tmp_path / "empty"
    _searched(busy, 12)
    _searched(quiet, 1)
    empty.mkdir()
    size = (busy / PENDING_FILE).stat().st_size
    assert due_for_fold([busy, quiet, empty], threshold=size) == [busy]
    assert due_for_fold([busy, quiet, empty], threshold=size + 1) == []


def test_a_fold_takes_every_search_in_once(tmp_path: Path) -> None:
    _searched(tmp_path, 12)
    before = _recalls(tmp_path)  # reading replays what is pending: the count is already right
    assert fold_if_due(tmp_path, NOW, threshold=1)
    assert not (tmp_path / PENDING_FILE).exists()
    assert _recalls(tmp_path) == before == 12
    assert not fold_if_due(tmp_path, NOW, threshold=1)  # nothing pending any more


def test_a_busy_workspace_is_left_for_the_next_round(tmp_path: Path) -> None:
    _searched(tmp_path, 6)
    pending = (tmp_path / PENDING_FILE).read_bytes()
    with workspace_lock(tmp_path):
        assert not fold_if_due(tmp_path, NOW, threshold=1)
    assert (tmp_path / PENDING_FILE).read_bytes() == pending
    assert fold_if_due(tmp_path, NOW, threshold=1)


def test_the_daemon_folds_between_sweeps(tmp_path: Path, isolated_home: Path) -> None:
    """With dreaming off (no sweep), a real daemon folds a workspace whose pending traces passed
    the threshold, and leaves one below it alone."""
    heavy, light = tmp_path / "heavy", tmp_path / "light"
    _searched(heavy, 210)  # past 64 KiB of pending traces
    _searched(light, 2)
    assert (heavy / PENDING_FILE).stat().st_size >= 64 * 1024
    config = tmp_path / "config.toml"
    config.write_text(
        "[dreaming]\nenabled = false\n\n[jobs]\nfold_every_s = 0.5\n\n"
        f'[[agents.list]]\nid = "a"\nworkspace = "{heavy}"\n\n'
        f'[[agents.list]]\nid = "b"\nworkspace = "{light}"\n',
        encoding="utf-8",
    )
    env = {**os.environ, "DREAMD_HOME": str(isolated_home), "DREAMD_CONFIG": str(config)}
    env.pop("DREAMD_NOW", None)
    with running_daemon(env, cwd=tmp_path) as daemon:
        folded = wait_until(lambda: not (heavy / PENDING_FILE).exists(), 30, every=0.2)
        assert folded, daemon.log()
    assert _recalls(heavy) == 210
    assert (light / PENDING_FILE).exists()
