"""``memory status --deep``: the index probed read-only against the files it derives from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.recall.audit import probe_index
from tests.builders import write


def _status(capsys: pytest.CaptureFixture[str], root: Path, *flags: str) -> dict[str, object]:
    assert main(["--json", "--workspace", str(root), "memory", "status", *flags]) == 0
    workspaces = json.loads(capsys.readouterr().out)["workspaces"]
    assert len(workspaces) == 1
    report: dict[str, object] = workspaces[0]
    return report


def test_deep_probes_the_index_and_names_what_is_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No index yet, then a clean one after a search, then a changed and a new note: dirty."""
    write(
        tmp_path, "memory/2026-11-20.md", "# 2026-11-20\n\n- The billing service runs on db-02.\n"
    )
    assert "deep" not in _status(capsys, tmp_path)
    absent = probe_index(tmp_path)
    assert absent is not None
    assert (absent["ok"], absent["dirty"], absent["missingFiles"]) == (
        False,
        True,
        ["memory/2026-11-20.md"],
    )
    assert main(["--workspace", str(tmp_path), "memory", "search", "billing", "--no-record"]) == 0
    capsys.readouterr()
    probe = _status(capsys, tmp_path, "--deep")["deep"]["index"]  # type: ignore[index]
    assert (probe["ok"], probe["integrity"], probe["dirty"], probe["indexedFiles"]) == (
        True,
        "ok",
        False,
        1,
    )
    write(tmp_path, "memory/2026-11-20.md", "# 2026-11-20\n\n- The billing service moved.\n")
    write(tmp_path, "memory/2026-11-21.md", "# 2026-11-21\n\n- A new note.\n")
    stale = probe_index(tmp_path)
    assert stale is not None
    assert (stale["dirty"], stale["changedFiles"], stale["missingFiles"]) == (
        True,
        ["memory/2026-11-20.md"],
        ["memory/2026-11-21.md"],
    )
    assert main(["--workspace", str(tmp_path), "memory", "status", "--deep"]) == 0
    assert "index probe: ready (1/2 files, dirty, integrity ok)" in capsys.readouterr().out
