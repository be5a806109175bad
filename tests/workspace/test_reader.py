"""Reading a workspace: which notes count, what is skipped, how odd bytes are handled."""

from __future__ import annotations

import errno
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from dreamd.config import DreamingConfig
from dreamd.errors import WorkspaceError
from dreamd.workspace.reader import check_workspace, list_notes, read_snapshot, read_text
from tests.builders import NOW, write


def test_notes_are_found_in_subfolders_but_not_reports(tmp_path: Path) -> None:
    """Daily notes anywhere under memory/ count; reports, .git and other files do not."""
    for path in (
        "memory/2026-11-28.md",
        "memory/projects/2026-11-27-launch.md",
        "memory/dreaming/deep/2026-11-28.md",
        "memory/.git/2026-11-28.md",
        "memory/readme.md",
        "memory/.dreams/session-corpus/2026-11-28.txt",
        "notes/2026-11-28.md",
    ):
        write(tmp_path, path, "- text line here\n")
    notes, skipped = list_notes(tmp_path)
    assert sorted(notes) == [
        "memory/.dreams/session-corpus/2026-11-28.txt",
        "memory/2026-11-28.md",
        "memory/projects/2026-11-27-launch.md",
    ]
    assert skipped == []


def test_symlink_loops_and_escapes_are_not_followed(tmp_path: Path) -> None:
    """A symlinked folder (even a loop) is not walked; a note linking outside is skipped."""
    root = tmp_path / "ws"
    write(root, "memory/2026-11-28.md", "- inside\n")
    (root / "memory" / "loop").symlink_to(root / "memory")
    secret = write(tmp_path, "secret.md", "- outside the workspace\n")
    (root / "memory" / "2026-11-27.md").symlink_to(secret)
    notes, skipped = list_notes(root)
    assert sorted(notes) == ["memory/2026-11-28.md"]
    assert len(skipped) == 1 and "outside the workspace" in skipped[0]


def test_invalid_utf8_and_nul_bytes(tmp_path: Path) -> None:
    """Stray bytes are read as cp1252 and flagged; NUL bytes are dropped from notes."""
    path = tmp_path / "memory" / "2026-11-28.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"- caf\xe9 \x00latte order\n")
    text = read_text(tmp_path, "memory/2026-11-28.md", strip_nul=True)
    assert (text.text, text.valid_utf8) == ("- café latte order\n", False)
    snapshot = read_snapshot(tmp_path, dreaming=DreamingConfig(), now=NOW, zone=UTC)
    warning = "memory/2026-11-28.md: not valid UTF-8; undecodable bytes read as cp1252"
    assert (snapshot.warnings, snapshot.note_warnings) == ((warning,), (warning,))
    assert snapshot.texts["memory/2026-11-28.md"].text == "- café latte order\n"


def test_an_unreadable_or_binary_note_is_skipped_and_the_rest_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A note that cannot be read, or is not text, is skipped by name; the others are read."""
    write(tmp_path, "memory/2026-11-28.md", "- The billing service runs on db-02.\n")
    locked = write(tmp_path, "memory/2026-11-27.md", "- private\n")
    (tmp_path / "memory" / "2026-11-29.md").write_bytes(bytes(range(256)) * 8)
    real = Path.open

    def open_file(path: Path, *args: Any, **kwargs: Any) -> Any:  # root reads any file
        if path == locked:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_file)
    snapshot = read_snapshot(tmp_path, dreaming=DreamingConfig(), now=NOW, zone=UTC)
    assert snapshot.skipped == (
        "memory/2026-11-27.md: cannot read (Permission denied); skipped",
        "memory/2026-11-29.md: not text (a binary file or an unknown encoding); skipped",
    )
    assert snapshot.note_warnings == snapshot.skipped
    assert sorted(snapshot.notes) == ["memory/2026-11-28.md"]
    assert snapshot.texts["memory/2026-11-28.md"].text == "- The billing service runs on db-02.\n"


def test_missing_workspace_is_a_clear_error(tmp_path: Path) -> None:
    """A path that does not exist, or is a file, is refused with the reason."""
    with pytest.raises(WorkspaceError, match="does not exist"):
        check_workspace(tmp_path / "nope")
    (tmp_path / "file").write_text("x")
    with pytest.raises(WorkspaceError, match="not a directory"):
        check_workspace(tmp_path / "file")


def test_lowercase_dreams_file_is_used(tmp_path: Path) -> None:
    """An existing dreams.md is the diary file when DREAMS.md does not exist."""
    write(tmp_path, "dreams.md", "# Dream Diary\n")
    snapshot = read_snapshot(
        tmp_path, dreaming=DreamingConfig(), now=NOW, zone=__import__("datetime").UTC
    )
    assert snapshot.dreams.path == "dreams.md"
    assert snapshot.dreams.exists
