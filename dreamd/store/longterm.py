"""The long-term layer on disk: ``memory/.rag/longterm.jsonl``, appended safely, read tolerantly.

Rules:

- Appends happen under the workspace lock (the caller holds it): one ``write`` of whole lines
  with ``O_APPEND``, then ``fsync``. A crash can at worst leave a torn last line: the reader
  skips it (reported), and the next append starts on a fresh line, so no complete row is lost.
- Rows are appended *before* the store that lost them is saved: a crash in between leaves a row
  in both places (the later retirement's line wins), never in neither.
- The file is created ``0600``; a symlinked file or folder is refused, like state files.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from dreamd.engine.retirement import Retired, decode_lines, encode_lines
from dreamd.errors import StateError
from dreamd.layout import resolve_inside
from dreamd.store.appendlog import append_batches

__all__ = ["LONGTERM_FILE", "append_longterm", "read_longterm"]

LONGTERM_FILE = "memory/.rag/longterm.jsonl"
BATCH_ROWS = 1024  # rows encoded at a time: a huge store's retirement never encodes all at once


def _path(root: Path) -> Path:
    path = resolve_inside(root, LONGTERM_FILE)
    if path.is_symlink() or path.parent.is_symlink():
        raise StateError(f"{path} is a symlink; refusing to use it for the long-term layer")
    return path


def append_longterm(root: Path, rows: Iterable[Retired]) -> int:
    """Append ``rows`` to the workspace's long-term file; returns how many were written."""
    rows = list(rows)
    if not rows:
        return 0
    batches = (encode_lines(rows[at : at + BATCH_ROWS]) for at in range(0, len(rows), BATCH_ROWS))
    append_batches(_path(root), batches)
    return len(rows)


def read_longterm(root: Path) -> tuple[dict[str, Retired], list[str]]:
    """The workspace's long-term rows by key (empty when there is no file) and read issues."""
    path = _path(root)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, []
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror or exc}") from exc
    rows, issues = decode_lines(data)
    return rows, [f"{LONGTERM_FILE} {issue}" for issue in issues]
