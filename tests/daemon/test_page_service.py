"""What the Dreams page reads and does through the daemon's service: history, grounded lane,
clearing grounded-only rows, against a real workspace."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dreamd.daemon.backend import DaemonService
from dreamd.errors import DreamdError
from tests.fakes.host import make_daemon, make_host
from tests.processes import scaled

OLD_NOTE = "# {day}\n\n## Decisions\n- Decided to keep the deploy window on Tuesdays.\n"


def _backfill(root: Path) -> None:
    """Two old notes replayed with ``rem-backfill --stage-short-term``."""
    for day in ("2026-03-01", "2026-03-08"):
        (root / "memory" / f"{day}.md").write_text(OLD_NOTE.format(day=day))
    argv = ["--workspace", str(root), "memory", "rem-backfill", "--path", str(root / "memory")]
    done = subprocess.run(
        [sys.executable, "-m", "dreamd", *argv, "--stage-short-term"],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
    )
    assert done.returncode == 0, done.stderr


async def test_history_grounded_lane_and_clear(tmp_path: Path) -> None:
    """The lane lists staged grounded rows; a sweep fills history and phases; clear empties it."""
    config, root, note = make_host(tmp_path)
    _backfill(root)
    daemon = make_daemon(config)
    service = DaemonService(daemon)
    try:
        history = await service.history()
        assert history == {
            "workspaces": [
                {
                    "path": str(root),
                    "agents": ["main"],
                    "history": [],
                    "phases": None,
                    "lastStatus": None,
                }
            ]
        }
        lane = await service.grounded(None)
        assert lane["workspace"] == str(root)
        assert {(e["path"], e["groundedLed"]) for e in lane["entries"]} == {
            ("memory/2026-03-08.md", True),
            (note, True),
        }
        assert lane["total"] == len(lane["entries"])
        assert all(e["signalCount"] >= e["groundedCount"] > 0 for e in lane["entries"])

        await daemon.sweep_all("manual")
        [space] = (await service.history())["workspaces"]
        assert [record["status"] for record in space["history"]] == ["ok"]
        assert space["lastStatus"] == "ok"
        assert set(space["phases"]) == {"light", "rem", "deep"}
        assert space["phases"]["deep"]["promoted"] == space["history"][0]["promoted"] >= 1

        cleared = await service.clear_grounded(str(root))
        assert cleared["rollbackShortTerm"] is True
        assert cleared["removedShortTermEntries"] >= 1
        after = await service.grounded(str(root))
        assert [e["path"] for e in after["entries"] if e["path"] == "memory/2026-03-08.md"] == []
        assert "backfill-entry" not in (root / "DREAMS.md").read_text()
    finally:
        daemon.workers.shutdown()


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


async def test_backfill_preview_write_and_rollback(tmp_path: Path) -> None:
    """Preview writes nothing; write adds diary entries and stages rows; rollback removes them."""
    config, root, _ = make_host(tmp_path)
    (root / "notes").mkdir()
    (root / "notes" / "2026-03-01.md").write_text(OLD_NOTE.format(day="2026-03-01"))
    daemon = make_daemon(config)
    service = DaemonService(daemon)
    try:
        before = _tree(root)
        preview = await service.backfill(None, "preview", "notes", stage=False)
        assert _tree(root) == before
        assert preview["sourceFiles"] == ["notes/2026-03-01.md"]
        [note] = preview["files"]
        assert note["day"] == "2026-03-01"
        assert (
            "- Decided to keep the deploy window on Tuesdays. [notes/2026-03-01.md:4]"
            in (note["bodyLines"])
        )

        written = await service.backfill(str(root), "write", "notes", stage=False)
        assert written["writtenEntries"] == 1
        assert "backfill-entry day=2026-03-01" in (root / "DREAMS.md").read_text()

        with pytest.raises(DreamdError, match="no such file or folder"):
            await service.backfill(None, "preview", "nowhere", stage=False)
        with pytest.raises(DreamdError, match="needs a path"):
            await service.backfill(None, "write", None, stage=False)

        rolled = await service.backfill(None, "rollback", None, stage=False)
        assert rolled["removedEntries"] == 1
        assert "backfill-entry" not in (root / "DREAMS.md").read_text()
    finally:
        daemon.workers.shutdown()
