"""The writer: atomic replace, compare-and-swap, no-op skipping, symlink refusal, backups."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.engine.text.snippets import content_hash
from dreamd.errors import ConflictError, UnsafePathError, WorkspaceError
from dreamd.store.writer import apply_plan, current_digest, write_atomic


def test_write_atomic_keeps_mode_and_leaves_no_temp(tmp_path: Path) -> None:
    """Replacing keeps the file's mode and leaves no temporary files behind."""
    target = tmp_path / "MEMORY.md"
    target.write_text("old")
    target.chmod(0o640)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]


def test_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the data cannot be synced (disk full), the old file is untouched and no temp remains."""
    target = tmp_path / "MEMORY.md"
    target.write_text("old")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(
        WorkspaceError, match="No space left on device; the previous file is intact"
    ):
        write_atomic(target, b"new content")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]


def test_symlink_targets_are_refused(tmp_path: Path) -> None:
    """The writer never writes through a symlink."""
    real = tmp_path / "real.md"
    real.write_text("x")
    link = tmp_path / "MEMORY.md"
    link.symlink_to(real)
    with pytest.raises(UnsafePathError):
        write_atomic(link, b"y")
    assert real.read_text() == "x"


def test_apply_refuses_a_file_changed_since_planning(tmp_path: Path) -> None:
    """A digest mismatch raises ConflictError and writes nothing."""
    (tmp_path / "MEMORY.md").write_text("planned from this")
    planned = content_hash(b"planned from this")
    (tmp_path / "MEMORY.md").write_text("edited by a person")
    plan = SweepPlan(writes=(FileWrite("MEMORY.md", "new", planned, "memory"),))
    with pytest.raises(ConflictError):
        apply_plan(tmp_path, plan)
    assert (tmp_path / "MEMORY.md").read_text() == "edited by a person"


def test_apply_checks_sources_too(tmp_path: Path) -> None:
    """A re-hydration source that changed blocks the whole plan."""
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory/2026-01-01.md").write_text("changed")
    plan = SweepPlan(
        writes=(FileWrite("MEMORY.md", "new", None, "memory"),),
        sources={"memory/2026-01-01.md": content_hash(b"original")},
    )
    with pytest.raises(ConflictError):
        apply_plan(tmp_path, plan)
    assert not (tmp_path / "MEMORY.md").exists()


def test_identical_content_is_not_rewritten(tmp_path: Path) -> None:
    """A write of the same bytes is skipped even if the digest is stale."""
    target = tmp_path / "DREAMS.md"
    target.write_text("same")
    before = target.stat().st_mtime_ns
    result = apply_plan(
        tmp_path, SweepPlan(writes=(FileWrite("DREAMS.md", "same", "stale", "dreams"),))
    )
    assert result.changed == ()
    assert target.stat().st_mtime_ns == before


def test_paths_outside_the_workspace_are_refused(tmp_path: Path) -> None:
    """A planned path that escapes the workspace is refused."""
    plan = SweepPlan(writes=(FileWrite("../escape.md", "x", None, "report"),))
    with pytest.raises(UnsafePathError):
        apply_plan(tmp_path / "ws", plan)
    assert not (tmp_path / "escape.md").exists()


def test_memory_backups_keep_the_last_eight(tmp_path: Path) -> None:
    """Each MEMORY.md replacement keeps a backup; only the newest 8 remain."""
    target = tmp_path / "MEMORY.md"
    target.write_text("v0")
    for version in range(1, 11):
        digest = current_digest(target)
        apply_plan(
            tmp_path, SweepPlan(writes=(FileWrite("MEMORY.md", f"v{version}", digest, "memory"),))
        )
    backups = sorted((tmp_path / "memory/.dreams/backups").glob("MEMORY.md.*.md"))
    assert len(backups) == 8
    assert sorted(b.read_text() for b in backups) == sorted(f"v{i}" for i in range(2, 10))


def test_a_large_file_is_hashed_a_block_at_a_time_to_the_same_digest(tmp_path: Path) -> None:
    """``current_digest`` of a file over the whole-read size is its sha256, as for a small one."""
    data = bytes(range(256)) * (5 * 4096 + 3)  # ~5 MiB, not a multiple of the block
    big, small = tmp_path / "big.json", tmp_path / "small.json"
    big.write_bytes(data)
    small.write_bytes(data[:1000])
    assert [current_digest(big), current_digest(small), current_digest(tmp_path / "none")] == [
        content_hash(data),
        content_hash(data[:1000]),
        None,
    ]
