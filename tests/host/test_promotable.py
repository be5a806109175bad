"""Health and status count only what could still be promoted, and show skipped notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.host.health import problems
from tests.builders import write

AT = "2026-11-26T03:00:00Z"
FACT = "- The ledger keeps 30 days of backups on host db-02."


def _recorded_store(root: Path, rows: dict[str, dict[str, object]]) -> None:
    store = {"version": 1, "entries": rows}
    write(root, "memory/.dreams/short-term-recall.json", json.dumps(store))


def _row(path: str, **fields: object) -> dict[str, object]:
    return {
        "key": f"memory:{path}:3:3",
        "path": path,
        "startLine": 3,
        "endLine": 3,
        "snippet": FACT,
        "recallCount": 5,
        "totalScore": 4.5,
        "queryHashes": ["q1", "q2", "q3", "q4"],
        "userQueryHashes": ["q1", "q2", "q3", "q4"],
        "lastRecalledAt": "2026-11-25T12:00:00.000Z",
        "recallDays": ["2026-11-21", "2026-11-23", "2026-11-25"],
        "conceptTags": ["ledger", "backups", "host", "db-02"],
        **fields,
    }


def test_status_counts_neither_duplicates_nor_forgotten_entries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A candidate repeating MEMORY.md is not "ready"; a forgotten entry is not "promoted"."""
    root = tmp_path / "ws"
    write(
        root, "MEMORY.md", "# Long-Term Memory\n\n- The ledger keeps 30 days of backups on db-02.\n"
    )
    _recorded_store(
        root,
        {
            "memory:memory/2026-11-20.md:3:3": _row("memory/2026-11-20.md"),
            "memory:memory/2026-11-19.md:3:3": _row(
                "memory/2026-11-19.md",
                promotedAt="2026-11-22T03:00:00.000Z",
                forgottenAt="2026-11-24T03:00:00.000Z",
            ),
        },
    )
    assert main(["--json", "--workspace", str(root), "--now", AT, "status"]) == 0
    entry = json.loads(capsys.readouterr().out)["workspaces"][0]
    assert (entry["candidates"], entry["promoted"], entry["noteWarnings"]) == (0, 0, [])


def test_quiet_sweeps_after_a_promotion_are_not_idle() -> None:
    """Sweeps with nothing left to promote are healthy; ones whose candidates keep failing are not."""
    after_promotion = [{"status": "ok", "ranked": 1, "promoted": 1}] + [
        {"status": "ok", "ranked": 0, "promoted": 0}
    ] * 3
    stuck = [{"status": "ok", "ranked": 2, "promoted": 0}] * 3
    assert (problems(after_promotion, idle_sweeps=3), list(problems(stuck, idle_sweeps=3))) == (
        {},
        ["idle"],
    )
