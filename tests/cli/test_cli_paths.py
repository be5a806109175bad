"""Paths given to CLI verbs: from the current folder, else from the workspace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamd.cli.main import main
from tests.builders import write

AT = "2026-11-29T12:00:00Z"
NOTE = "# 2026-03-01\n\n## Decisions\n- Decided to keep the deploy window on Tuesdays.\n"


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace with one historical note, and the shell in an unrelated folder."""
    root = tmp_path / "ws"
    write(root, "memory/2026-03-01.md", NOTE)
    away = tmp_path / "elsewhere"
    away.mkdir()
    monkeypatch.chdir(away)
    return root


def _run(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--workspace", str(root), "--now", AT, *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_workspace_path_works_from_any_folder(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`memory rem-backfill --path memory --stage-short-term` from another folder reads the
    workspace's memory/ folder; so does `rem-harness --path memory`."""
    code, out, err = _run(
        capsys, elsewhere, "--json", "memory", "rem-backfill", "--path", "memory",
        "--stage-short-term",
    )  # fmt: skip
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["sourcePath"] == str(elsewhere.resolve() / "memory")
    assert document["sourceFiles"] == ["memory/2026-03-01.md"]
    code, out, err = _run(capsys, elsewhere, "--json", "memory", "rem-harness", "--path", "memory")
    assert (code, json.loads(out)["sourcePath"]) == (0, str(elsewhere.resolve() / "memory"))


def test_the_current_folder_comes_first(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A relative path that exists here is taken from here, not from the workspace."""
    write(Path.cwd(), "memory/2026-03-08.md", NOTE.replace("03-01", "03-08"))
    code, out, _ = _run(capsys, elsewhere, "--json", "memory", "rem-harness", "--path", "memory")
    assert (code, json.loads(out)["sourcePath"]) == (0, str(Path.cwd().resolve() / "memory"))


def test_a_missing_path_names_both_places(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Neither here nor in the workspace: the error says where it looked, exit 1."""
    code, _, err = _run(capsys, elsewhere, "memory", "rem-backfill", "--path", "notes")
    assert code == 1
    assert err == (
        f"dreamd: error: --path notes: no such file or folder (looked in {Path.cwd()} and in "
        f"{elsewhere.resolve()})\n"
    )
