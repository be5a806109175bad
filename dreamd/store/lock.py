"""The per-workspace lock: every writer (sweep, promote, search recording) holds it.

It is an advisory ``flock`` on ``memory/.dreams/lock`` (a sidecar: never a file that gets
atomically replaced), taken with :mod:`fcntl` directly: every search that records a recall
holds it, so it costs no lock library's import. The kernel drops it when its holder dies, so
a lock file left behind by a crash is not stale: the next taker simply gets it. The holder
writes its pid into the file so a waiter can say who is in the way: a record of fixed width
written in place, and only when the file does not already say it (a worker that sweeps
workspace after workspace rewrites nothing; truncating a file costs far more than reading or
overwriting it, and workers taking turns on a fleet's workspaces did it on every take).

Before the lock is taken, the workspace's folders are checked
(:func:`dreamd.layout.check_workspace_folders`): the lock file lives in ``memory/.dreams/``, and
every writer holds the lock, so a symlinked folder is refused here before anything is created
through it. A lock file that is itself a symbolic link is refused too, never truncated.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dreamd.errors import LockError, UnsafePathError, WorkspaceError
from dreamd.layout import STATE_DIR, check_workspace_folders

__all__ = ["LOCK_FILE", "workspace_lock"]

LOCK_FILE = f"{STATE_DIR}/lock"
_HOLDER_WIDTH = 16  # the holder's pid, padded: rewriting it never changes the file's length


def _holder(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return "another process"
    return f"pid {text}" if text.isdigit() else "another process"


@contextmanager
def workspace_lock(root: Path, *, timeout: float = 10.0) -> Iterator[None]:
    """Hold the workspace lock for the ``with`` body; :class:`LockError` after ``timeout`` s."""
    check_workspace_folders(root)
    path = root / LOCK_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkspaceError(
            f"cannot create {path.parent}: {exc.strerror}; is the workspace writable?"
        ) from exc
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW: the lock file is a symbolic link
            raise UnsafePathError(
                f"{path} is a symlink; dreamd refuses to read or write it"
            ) from exc
        raise WorkspaceError(f"cannot open {path}: {exc.strerror}") from exc
    try:
        _take(fd, timeout, root)
        holder = f"{os.getpid():<{_HOLDER_WIDTH - 1}}\n".encode()
        if os.pread(fd, _HOLDER_WIDTH + 1, 0) != holder:
            os.pwrite(fd, holder, 0)  # one fixed-width record: nothing to truncate
            if os.fstat(fd).st_size > _HOLDER_WIDTH:
                os.ftruncate(fd, _HOLDER_WIDTH)  # a file written otherwise, once
        yield
    finally:
        os.close(fd)  # closing the descriptor drops the flock


def _take(fd: int, timeout: float, root: Path) -> None:
    """``flock(LOCK_EX)`` on ``fd``, polled every 50 ms until ``timeout``; LockError after it."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if time.monotonic() >= deadline:
                path = root / LOCK_FILE
                raise LockError(
                    f"workspace {root} is busy: {_holder(path)} holds {LOCK_FILE}; "
                    f"waited {timeout:g}s, try again later"
                ) from None
            time.sleep(0.05)
        else:
            return
