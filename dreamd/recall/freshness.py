"""When a search may trust the recall index without walking the workspace: the freshness stamp.

An agent searches on every turn, in a new process; walking the notes and stat-ing every one
(tens of thousands after years) cost most of a search. A full update (:meth:`RecallIndex.update`
that walks) leaves a stamp in the index's ``meta`` table; the next update checks the stamp with
a handful of ``stat`` calls and walks only when it fails.

Rules:

- The stamp holds the modification time of every folder the walk entered (and of the workspace
  root, and whether the session-corpus folder existed): a note created, deleted or renamed
  changes its folder's time, so a new note is always seen.
- It holds the size and time of the *hot* files: ``MEMORY.md``, ``SOUL.md``, ``USER.md`` and
  the files modified within :data:`HOT_NS` of the walk (the :data:`HOT_FILES` newest: today's
  daily note, which an agent appends to in place, among them): an edit in place of any of them
  is seen.
- It holds the redaction rules (:func:`dreamd.redaction.rules_fingerprint`) and the totals the
  walk found. Another rule set, or a stamp older than :data:`WALK_EVERY_NS`, means a walk.
- What the stamp cannot see is an edit in place of an older note whose folder did not change;
  the sweep walks (it updates the index), and so does the first search :data:`WALK_EVERY_NS`
  after the last walk.
- A folder whose time is within :data:`RACY_NS` of the walk's start could have changed again
  in the same clock tick: no stamp is kept then, and the next update walks (as ``git`` treats a
  racily clean index entry).
"""

from __future__ import annotations

import json
import os

__all__ = ["HOT_FILES", "HOT_NS", "RACY_NS", "WALK_EVERY_NS", "Stamp", "still_fresh"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from collections.abc import Mapping

HOT_NS = 7 * 24 * 3600 * 10**9  # files modified within a week of the walk are stat-ed each time
HOT_FILES = 64  # at most this many of them (a workspace copied today has only new files)
WALK_EVERY_NS = 10 * 60 * 10**9  # a search walks at least this often
RACY_NS = 50_000_000  # 50 ms: coarser than any file system's time stamp tick that matters here
_MISSING = -1


class Stamp:
    """What a walk saw (see the module rules); ``encode`` for the ``meta`` table."""

    __slots__ = ("chunks", "files", "folders", "hot", "rules", "walked_ns")

    def __init__(
        self,
        *,
        rules: str,
        walked_ns: int,
        folders: Mapping[str, int],
        hot: Mapping[str, tuple[int, int]],
        files: int,
        chunks: int,
    ) -> None:
        self.rules = rules
        self.walked_ns = walked_ns
        self.folders = dict(folders)
        self.hot = dict(hot)
        self.files = files
        self.chunks = chunks

    def encode(self) -> str | None:
        """The stamp as JSON, or ``None`` when a folder changed too close to the walk."""
        if any(mtime >= self.walked_ns - RACY_NS for mtime in self.folders.values()):
            return None
        document = {
            "rules": self.rules,
            "walkedNs": self.walked_ns,
            "folders": self.folders,
            "hot": {path: list(stat) for path, stat in self.hot.items()},
            "files": self.files,
            "chunks": self.chunks,
        }
        return json.dumps(document, separators=(",", ":"))

    @classmethod
    def decode(cls, text: str) -> Stamp | None:
        """The stamp stored as ``text``; ``None`` when it is not one."""
        try:
            document = json.loads(text)
            return cls(
                rules=str(document["rules"]),
                walked_ns=int(document["walkedNs"]),
                folders={str(k): int(v) for k, v in document["folders"].items()},
                hot={str(k): (int(v[0]), int(v[1])) for k, v in document["hot"].items()},
                files=int(document["files"]),
                chunks=int(document["chunks"]),
            )
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            return None


def folder_time(path: str) -> int:
    """A folder's modification time (ns), or -1 when it is not there."""
    try:
        return os.stat(path).st_mtime_ns  # noqa: PTH116 - string paths, no Path per call
    except OSError:
        return _MISSING


def still_fresh(stamp: Stamp, *, rules: str, now_ns: int) -> bool:
    """True when nothing the stamp watches changed, under the same rules, recently walked."""
    if stamp.rules != rules or not 0 <= now_ns - stamp.walked_ns < WALK_EVERY_NS:
        return False
    for path, mtime in stamp.folders.items():
        if folder_time(path) != mtime:
            return False
    for path, (mtime, size) in stamp.hot.items():
        try:
            info = os.stat(path)  # noqa: PTH116 - string paths, no Path per call
        except OSError:
            return False
        if (info.st_mtime_ns, info.st_size) != (mtime, size):
            return False
    return True
