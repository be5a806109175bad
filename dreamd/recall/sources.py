"""Which files the recall index covers, found by one walk of the workspace.

The evidence is what the person and the agent wrote: ``MEMORY.md`` (or ``memory.md`` when that
is the one that exists), ``SOUL.md`` and ``USER.md`` (stable files: read, never written); every
``*.md`` under ``memory/``, hidden folders (``memory/.dreams/``, ``.git``...) and
``node_modules`` excepted; ``.learnings/*.md``; and the session corpus
(``memory/.dreams/session-corpus/*.txt``).

What dreamd derives from the notes is not evidence (:data:`DERIVED`, ``docs/recall.md``): it
restates note lines without their dates, so it would answer with stale copies that no
``--since`` can filter out. Phase reports, dream reports, graph exports, the dream log, the
archive of entries that left ``MEMORY.md`` and the truth files (``memory/user_state.md``,
``memory/pending.md``) are not walked at all; topic files and patterns are
walked for the graph alone (:func:`is_derived`: they get no chunks), so a question can still
reach a note's line through the words a topic file gives its entity, and the result is that
line, with its day. ``DREAMS.md`` is outside the walk.

A symlink is followed only when it resolves inside the workspace (and not into an excluded
folder); each real folder is visited once, so symlink loops end; files over ``MAX_FILE_BYTES``
are skipped. Only ``stat`` calls: reading is the index's.
Asked for, the walk also tells the modification time of every folder it entered, of the
workspace root, and of the corpus folder (-1 when it is missing): the index's freshness stamp
(:mod:`dreamd.recall.freshness`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from dreamd.layout import (
    ARCHIVE_FILE,
    DREAM_LOG,
    DREAM_REPORTS_DIR,
    GRAPH_DIR,
    LEARNINGS_DIR,
    MAX_FILE_BYTES,
    MEMORY_FILE,
    MEMORY_FILE_LOWER,
    PATTERNS_DIR,
    PENDING_TASKS_FILE,
    REPORTS_DIR,
    SESSION_CORPUS_DIR,
    STABLE_FILES,
    STATE_DIR,
    TOPICS_DIR,
    USER_STATE_FILE,
)
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["CORPUS_DIR", "DERIVED", "Source", "discover_sources", "is_derived"]

CORPUS_DIR = SESSION_CORPUS_DIR
_UNREAD = (
    REPORTS_DIR,
    DREAM_REPORTS_DIR,
    GRAPH_DIR,
    DREAM_LOG,
    ARCHIVE_FILE,
    USER_STATE_FILE,
    PENDING_TASKS_FILE,
)
# What dreamd writes from the notes: never evidence of its own (topic files and patterns are
# read for the graph only).
DERIVED = (*_UNREAD, TOPICS_DIR, PATTERNS_DIR)
_EXCLUDED_DIRS = (STATE_DIR, *_UNREAD)


def is_derived(path: str) -> bool:
    """True for a workspace-relative path dreamd derived from the notes (see the module rules)."""
    return any(path == derived or path.startswith(f"{derived}/") for derived in DERIVED)


class Source(Value):
    """An indexable file: its path and stat fingerprint."""

    __match_args__ = ("file", "mtime_ns", "size")
    __slots__ = __match_args__
    file: Final[str]
    mtime_ns: Final[int]
    size: Final[int]

    def __init__(self, file: str, mtime_ns: int, size: int) -> None:
        self.file = file
        self.mtime_ns = mtime_ns
        self.size = size


def discover_sources(root: Path, folders: dict[str, int] | None = None) -> dict[str, Source]:
    """Every indexable file: workspace-relative path -> (file, mtime_ns, size).

    ``folders``, when given, receives each folder's modification time (see the module rules).
    """
    real_root = os.path.realpath(root)
    found: dict[str, Source] = {}
    seen: set[tuple[int, int]] = set()
    # (start, suffix, folder depth): MEMORY.md itself, the notes tree, the flat corpus folder.
    memory = MEMORY_FILE
    if not (root / MEMORY_FILE).exists() and (root / MEMORY_FILE_LOWER).exists():
        memory = MEMORY_FILE_LOWER  # the seed's spelling, when it is the one that exists
    for rel, suffix, depth in (
        (memory, ".md", 0),
        *((stable, ".md", 0) for stable in STABLE_FILES),
        ("memory", ".md", 64),
        (LEARNINGS_DIR, ".md", 1),
        (CORPUS_DIR, ".txt", 1),
    ):
        start = str(root / rel)
        if _inside(os.path.realpath(start), real_root, notes=suffix == ".md"):
            _visit(found, seen, real_root, start, rel, suffix, depth, folders)
        if folders is not None and depth > 0 and start not in folders:
            folders[start] = _folder_time(start)  # missing (-1), or not a folder walked
    if folders is not None:
        folders[str(root)] = _folder_time(str(root))  # MEMORY.md, SOUL.md, USER.md appear here
    return found


def _folder_time(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns  # noqa: PTH116 - a string path, as the walk has it
    except OSError:
        return -1


def _inside(real: str, real_root: str, *, notes: bool) -> bool:
    """True when ``real`` is in the workspace (and, for ``notes``, not in a dreamd folder)."""
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        return False
    rel = os.path.relpath(real, real_root).replace(os.sep, "/")
    return not notes or not any(rel == no or rel.startswith(f"{no}/") for no in _EXCLUDED_DIRS)


def _visit(
    found: dict[str, Source],
    seen: set[tuple[int, int]],
    real_root: str,
    path: str,
    rel: str,
    suffix: str,
    depth: int,
    folders: dict[str, int] | None = None,
) -> None:
    try:
        info = Path(path).stat()
    except OSError:
        return
    if stat.S_ISREG(info.st_mode):
        if rel.endswith(suffix) and info.st_size <= MAX_FILE_BYTES:
            found[rel] = Source(path, info.st_mtime_ns, info.st_size)
        return
    if depth <= 0 or not stat.S_ISDIR(info.st_mode) or (info.st_dev, info.st_ino) in seen:
        return  # not a folder we descend into, or one already reached (a symlink loop)
    seen.add((info.st_dev, info.st_ino))
    if folders is not None:
        folders[path] = info.st_mtime_ns
    try:
        with os.scandir(path) as listing:
            entries = list(listing)
    except OSError:
        return
    for entry in entries:
        name = entry.name
        child = f"{rel}/{name}"
        if name.startswith(".") or name == "node_modules" or child in _EXCLUDED_DIRS:
            continue
        try:
            if entry.is_symlink():
                if _inside(os.path.realpath(entry.path), real_root, notes=suffix == ".md"):
                    _visit(found, seen, real_root, entry.path, child, suffix, depth - 1, folders)
            elif entry.is_dir():
                _visit(found, seen, real_root, entry.path, child, suffix, depth - 1, folders)
            elif name.endswith(suffix) and entry.is_file():  # the common case: no extra call
                entry_info = entry.stat()
                if entry_info.st_size <= MAX_FILE_BYTES:
                    found[child] = Source(entry.path, entry_info.st_mtime_ns, entry_info.st_size)
        except OSError:
            continue
