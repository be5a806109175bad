"""A bug's traceback log is its owner's alone: 0600 in a 0700 folder, whatever the umask."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from dreamd.cli.main import _crash_log


def test_the_crash_log_is_private(tmp_path: Path) -> None:
    """Two crashes in one second write two logs, each mode 0600, holding the traceback."""
    error = RuntimeError("boom")
    error.__traceback__ = None
    old = os.umask(0o022)
    try:
        first, second = _crash_log(error), _crash_log(error)
    finally:
        os.umask(old)
    assert first is not None and second is not None and first != second
    modes = [stat.S_IMODE(path.stat().st_mode) for path in (first, second)]
    folder = stat.S_IMODE(first.parent.stat().st_mode)
    assert (modes, folder) == ([0o600, 0o600], 0o700)
    assert first.read_text(encoding="utf-8").endswith("RuntimeError: boom\n")
