"""The per-workspace lock: exclusive across processes, clear when busy, no stale-lock trap."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dreamd.errors import LockError, WorkspaceError
from dreamd.store.lock import LOCK_FILE, workspace_lock

HOLDER = """
import sys, time
from pathlib import Path
from dreamd.store.lock import workspace_lock
with workspace_lock(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(30)
"""


def test_busy_workspace_names_the_holder(tmp_path: Path) -> None:
    """While another process holds the lock, taking it fails with its pid in the message."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        with (
            pytest.raises(LockError, match=rf"pid {holder.pid} holds"),
            workspace_lock(tmp_path, timeout=0.3),
        ):
            pass
        assert time.monotonic() - started < 5
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    with workspace_lock(tmp_path, timeout=5):
        assert (tmp_path / LOCK_FILE).exists()


def test_left_over_lock_file_is_not_stale(tmp_path: Path) -> None:
    """A lock file left by a crashed process does not block anyone."""
    lock = tmp_path / LOCK_FILE
    lock.parent.mkdir(parents=True)
    lock.write_text("999999\n")
    with workspace_lock(tmp_path, timeout=0.5):
        assert lock.read_text().strip().isdigit()


def test_the_holder_is_written_in_place_at_a_fixed_width(tmp_path: Path) -> None:
    """The holder's pid replaces what the file said (a longer record from elsewhere too), at
    one width, so a new holder overwrites it without truncating; the same holder writes
    nothing."""
    lock = tmp_path / LOCK_FILE
    lock.parent.mkdir(parents=True)
    lock.write_text("4194303 left by a much older holder\n")
    with workspace_lock(tmp_path, timeout=0.5):
        assert lock.read_text().strip() == str(os.getpid())
    size, written = lock.stat().st_size, lock.stat().st_mtime_ns
    with workspace_lock(tmp_path, timeout=0.5):
        pass
    assert (lock.stat().st_size, lock.stat().st_mtime_ns) == (size, written)
    lock.write_bytes(b"7".ljust(size - 1) + b"\n")  # another holder's record
    with workspace_lock(tmp_path, timeout=0.5):
        assert lock.read_text().strip() == str(os.getpid())
    assert lock.stat().st_size == size


def test_read_only_workspace_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A workspace on a read-only file system gives a WorkspaceError, not a traceback."""
    root = tmp_path / "ro"
    (root / "memory").mkdir(parents=True)

    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "mkdir", read_only)  # root ignores chmod, so fake the OS answer
    with pytest.raises(WorkspaceError, match="is the workspace writable"), workspace_lock(root):
        pass
