"""Searches recorded from several processes while the store is saved: none lost, none twice."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dreamd.engine.state import RECALL_STORE
from dreamd.store.statefiles import load_table
from tests.processes import scaled

RECORDER = """
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
import dreamd.recall.record as record
from dreamd.engine.hits import Hit

record.FOLD_BYTES = 2000  # a fold every few searches, from the recorders themselves too
root, name = Path(sys.argv[1]), sys.argv[2]
now = datetime(2026, 11, 29, 10, tzinfo=UTC)
for n in range(int(sys.argv[3])):
    hit = Hit(f"memory/2026-11-{20 + n % 5}.md", 3, 3, f"- Fact {n % 5} about the billing cluster.", 0.8)
    record.record_search(root, f"{name} {n}", [hit], now=now + timedelta(seconds=n), zone=UTC)
"""

SAVER = """
import sys
from datetime import UTC, datetime
from pathlib import Path
from dreamd.recall.record import fold_pending
from dreamd.store.lock import workspace_lock
root = Path(sys.argv[1])
for _ in range(int(sys.argv[2])):
    with workspace_lock(root):
        fold_pending(root, now=datetime(2026, 11, 29, 12, tzinfo=UTC))
"""


def test_concurrent_searches_and_saves_count_every_search_once(tmp_path: Path) -> None:
    """Three recording processes and one saving the store, side by side: every search is in
    the store exactly once when they are done."""
    per, recorders = 150, 3
    procs = [
        subprocess.Popen([sys.executable, "-c", RECORDER, str(tmp_path), f"r{i}", str(per)])
        for i in range(recorders)
    ]
    procs.append(subprocess.Popen([sys.executable, "-c", SAVER, str(tmp_path), "60"]))
    assert [proc.wait(timeout=scaled(120)) for proc in procs] == [0] * len(procs)
    store, issues = load_table(tmp_path, RECALL_STORE, readonly=True)
    assert issues == []
    assert sum(row.recall_count for row in store.rows.values()) == per * recorders
    assert len(store.rows) == 5
