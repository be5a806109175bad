"""Appending lines to a log file durably: the one way the store's JSON-lines files grow.

The events log, the long-term layer and the pending searches are each appended with
``O_APPEND`` and ``O_NOFOLLOW`` (a symlink planted there is refused, not followed), mode 0600 for
a new file, and fsynced. A last line a crash cut short is ended before the new lines are
written, so it costs only itself (readers skip it), never the line after it.
"""

from __future__ import annotations

import os
from pathlib import Path

from dreamd.errors import StateError

__all__ = ["append_lines"]


def append_lines(path: Path, data: bytes) -> int:
    """Append ``data`` (whole lines) to ``path``, creating it and its folder; returns the size
    of the file after it. An OS failure is a :class:`StateError` naming the file."""
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, flags, 0o600)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data  # a line a crash cut short ends here
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise StateError(f"cannot append to {path}: {exc.strerror or exc}") from exc
    return size + len(data)
