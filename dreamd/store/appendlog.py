"""Appending lines to a log file durably: the one way the store's JSON-lines files grow.

The events log, the long-term layer and the pending searches are each appended with
``O_APPEND`` and ``O_NOFOLLOW`` (a symlink planted there is refused, not followed), mode 0600 for
a new file, and fsynced. A last line a crash cut short is ended before the new lines are
written, so it costs only itself (readers skip it), never the line after it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from dreamd.errors import StateError

__all__ = ["append_batches", "append_lines"]


def append_lines(path: Path, data: bytes) -> int:
    """Append ``data`` (whole lines) to ``path``, creating it and its folder; returns the size
    of the file after it. An OS failure is a :class:`StateError` naming the file."""
    return append_batches(path, (data,))


def append_batches(path: Path, batches: Iterable[bytes]) -> int:
    """Append each of ``batches`` (whole lines each) to ``path`` in turn, fsynced once at the
    end, so a caller encodes tens of thousands of lines a batch at a time, never all at once;
    returns the size of the file after it. A crash between batches leaves whole lines."""
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, flags, 0o600)
        try:
            size = os.fstat(fd).st_size
            torn = bool(size) and os.pread(fd, 1, size - 1) != b"\n"
            for data in batches:
                if torn and data:
                    data = b"\n" + data  # a line a crash cut short ends here
                    torn = False
                written = 0
                view = memoryview(data)
                while written < len(data):  # a large write may be partial
                    written += os.write(fd, view[written:])
                size += len(data)
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise StateError(f"cannot append to {path}: {exc.strerror or exc}") from exc
    return size
