"""Workspace path rules: short-term paths, note days, ordering, escapes."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamd.errors import UnsafePathError
from dreamd.layout import daily_note_day, is_short_term_path, note_sort_key, resolve_inside


@pytest.mark.parametrize(
    ("path", "short", "day"),
    [
        ("memory/2026-11-12.md", True, "2026-11-12"),
        ("memory/projects/2026-11-12-launch plan.md", True, "2026-11-12"),
        ("./memory/2026-11-12.md", True, "2026-11-12"),
        ("2026-11-12.md", True, "2026-11-12"),
        ("memory/.dreams/session-corpus/2026-11-12.txt", True, "2026-11-12"),
        ("memory/dreaming/deep/2026-11-12.md", False, None),
        ("MEMORY.md", False, None),
        ("notes/2026-11-12.md", False, None),
        ("memory/readme.md", False, None),
    ],
)
def test_short_term_paths(path: str, short: bool, day: str | None) -> None:
    """Daily notes and corpus files are short-term; reports and MEMORY.md never are."""
    assert (is_short_term_path(path), daily_note_day(path)) == (short, day)


def test_note_order() -> None:
    """Newest day first; the date-only file before slugged ones; then by name."""
    paths = [
        "memory/2026-11-12-b.md",
        "memory/2026-11-12.md",
        "memory/2026-11-13.md",
        "memory/2026-11-12-a.md",
    ]
    assert sorted(paths, key=note_sort_key) == [
        "memory/2026-11-13.md",
        "memory/2026-11-12.md",
        "memory/2026-11-12-a.md",
        "memory/2026-11-12-b.md",
    ]


def test_resolve_inside_refuses_escapes(tmp_path: Path) -> None:
    """Relative escapes, absolute paths and symlinks pointing outside are refused."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "out").symlink_to(tmp_path)
    assert resolve_inside(root, "memory/2026-01-01.md") == root / "memory/2026-01-01.md"
    for bad in ("../x.md", "/etc/passwd", "memory/out/secret.md", ""):
        with pytest.raises(UnsafePathError):
            resolve_inside(root, bad)
