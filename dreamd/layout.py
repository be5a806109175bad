"""The shape of a workspace: file names, path rules, and which paths are short-term memory.

Pure: nothing here touches the disk except :func:`resolve_inside` and
:func:`check_workspace_folders`, which only look at paths (``realpath``, ``lstat``), never write.
Paths inside a workspace are always relative, with forward slashes and no leading ``./``.

The rule for folders: dreamd never writes through a symlinked folder.
:func:`check_workspace_folders` refuses a workspace when one of :data:`WRITTEN_FOLDERS`, or a
folder on the way to a file about to be written, is a symbolic link, with one message saying
which link and how to fix it. It runs before the workspace lock is taken (every writer holds
the lock, and the lock file lives in ``memory/.dreams/``), in the writer for the folders of the
files it writes, before the recall index is opened (every search creates or updates it), and
where a snapshot or a status is read, so that no command shows what a sweep would refuse.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from datetime import date
from pathlib import Path, PurePosixPath

from dreamd.errors import UnsafePathError
from dreamd.patterns import LazyPattern

__all__ = [
    "ARCHIVE_FILE",
    "BACKFILL_FILE_LIMIT",
    "BACKUP_DIR",
    "BANK_DIR",
    "BANK_LEDGER",
    "DREAMS_FILE",
    "DREAMS_FILE_LOWER",
    "DREAM_LOG",
    "DREAM_REPORTS_DIR",
    "GRAPH_DIR",
    "GRAPH_LEDGER",
    "INDEX_FILE",
    "LEARNINGS_DIR",
    "LONGTERM_DIR",
    "MAX_FILE_BYTES",
    "MAX_NOTE_LINES",
    "MEMORY_FILE",
    "MEMORY_FILE_LOWER",
    "NOTES_DIR",
    "PATTERNS_DIR",
    "PENDING_TASKS_FILE",
    "REPORTS_DIR",
    "SESSION_CORPUS_DIR",
    "STABLE_FILES",
    "STATE_DIR",
    "TOPICS_DIR",
    "TRUTH_LEDGER",
    "USER_STATE_FILE",
    "WRITTEN_FOLDERS",
    "check_workspace_folders",
    "daily_note_day",
    "is_short_term_path",
    "normalize_relpath",
    "note_sort_key",
    "refuse_stable",
    "report_path",
    "resolve_inside",
]

MEMORY_FILE = "MEMORY.md"
MEMORY_FILE_LOWER = "memory.md"  # the seed's spelling: used when it is the one that exists
STABLE_FILES = ("SOUL.md", "USER.md")  # read (and indexed), never written
DREAMS_FILE = "DREAMS.md"
DREAMS_FILE_LOWER = "dreams.md"
NOTES_DIR = "memory"
STATE_DIR = "memory/.dreams"
INDEX_FILE = "memory/.dreams/index.sqlite"
REPORTS_DIR = "memory/dreaming"
SESSION_CORPUS_DIR = "memory/.dreams/session-corpus"
BACKUP_DIR = "memory/.dreams/backups"
LONGTERM_DIR = "memory/.rag"
BANK_DIR = "bank"
BANK_LEDGER = "memory/.dreams/bank.json"
BACKFILL_FILE_LIMIT = 512  # most notes one backfill reads (the newest)
GRAPH_LEDGER = "memory/.dreams/graph.json"  # the graph's fragments, kept between sweeps
GRAPH_DIR = "memory/graph"  # the inverted-cone graph, exported as JSON (derived)
PATTERNS_DIR = "memory/patterns"  # p-<slug>.md, the pattern library
TOPICS_DIR = "memory/topics"  # {user,feedback,project,reference}_<slug>.md
DREAM_REPORTS_DIR = "memory/dreams"  # the dream report of each day, YYYY-MM-DD.md
DREAM_LOG = "memory/dream-log.md"  # one line per dream report
ARCHIVE_FILE = "memory/archive.md"  # entries that left MEMORY.md (append-only, restorable)
USER_STATE_FILE = "memory/user_state.md"  # the person's current values (derived truth file)
PENDING_TASKS_FILE = "memory/pending.md"  # open action items from the notes (derived truth file)
TRUTH_LEDGER = "memory/.dreams/truth.json"  # the truth files' items and the lines dreamd wrote
LEARNINGS_DIR = ".learnings"  # LEARNINGS.md, ERRORS.md, FEATURE_REQUESTS.md: read, never written
# Every folder dreamd writes into (or will: ``bank/``), parents before children.
WRITTEN_FOLDERS = (
    NOTES_DIR,
    STATE_DIR,
    BACKUP_DIR,
    SESSION_CORPUS_DIR,
    REPORTS_DIR,
    LONGTERM_DIR,
    BANK_DIR,
)
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_NOTE_LINES = 50_000  # a "note" longer than this is a pasted log: skipped, named

_DAILY_NAME = LazyPattern(r"^(\d{4}-\d{2}-\d{2})(?:-([^/]+))?\.md$")
_DAILY_PATH = LazyPattern(r"(?:^|/)memory/(?:[^/]+/)*(\d{4}-\d{2}-\d{2})(?:-[^/]+)?\.md$")
_CORPUS_PATH = LazyPattern(
    r"(?:^|/)memory/\.dreams/session-corpus/(\d{4}-\d{2}-\d{2})\.(?:md|txt)$"
)
_REPORTS = LazyPattern(r"(?:^|/)memory/(?:dreaming|dreams|graph|patterns|topics)/")


def normalize_relpath(path: str) -> str:
    """Forward slashes, no leading ``./``, no duplicate separators."""
    text = path.replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return re.sub(r"/{2,}", "/", text)


def is_short_term_path(path: str) -> bool:
    """True for daily notes and session-corpus files; never for reports or ``MEMORY.md``."""
    rel = normalize_relpath(path)
    if _REPORTS.search(rel):
        return False
    if _DAILY_PATH.search(rel) or _CORPUS_PATH.search(rel):
        return True
    return "/" not in rel and _DAILY_NAME.match(rel) is not None


def daily_note_day(path: str) -> str | None:
    """The ``YYYY-MM-DD`` a short-term path belongs to, or ``None``."""
    rel = normalize_relpath(path)
    if _REPORTS.search(rel):
        return None
    for pattern in (_DAILY_PATH, _CORPUS_PATH):
        found = pattern.search(rel)
        if found:
            return found.group(1)
    found = _DAILY_NAME.match(rel)
    return found.group(1) if found and "/" not in rel else None


def note_sort_key(path: str) -> tuple[int, int, str]:
    """Newest day first; for one day the date-only file before slugged ones; then by name."""
    day = daily_note_day(path) or "0001-01-01"
    try:
        ordinal = date.fromisoformat(day).toordinal()
    except ValueError:
        ordinal = 0
    slugged = 0 if PurePosixPath(path).name == f"{day}.md" else 1
    return (-ordinal, slugged, path)


def report_path(phase: str, day: str) -> str:
    """``memory/dreaming/<phase>/<day>.md``."""
    return f"{REPORTS_DIR}/{phase}/{day}.md"


def resolve_inside(root: Path, relpath: str) -> Path:
    """The absolute path of ``relpath`` under ``root``; refuses anything that leaves ``root``.

    Symlinks are followed for the check, so a link pointing outside the workspace is refused too.
    """
    rel = normalize_relpath(relpath)
    if not rel or rel.startswith("/") or PurePosixPath(rel).is_absolute():
        raise UnsafePathError(f"{relpath!r}: expected a path relative to the workspace")
    candidate = root / rel
    real_root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(candidate))
    if real != real_root and real_root not in real.parents:
        raise UnsafePathError(f"{relpath!r} resolves outside the workspace {root}; refused")
    return candidate


def refuse_stable(relpaths: Iterable[str]) -> None:
    """Refuse a write to ``SOUL.md`` or ``USER.md``: the person's stable files, read only."""
    for relpath in relpaths:
        if normalize_relpath(relpath) in STABLE_FILES:
            raise UnsafePathError(f"{relpath} is read, never written, by dreamd; not written")


def check_workspace_folders(root: Path, *relpaths: str) -> None:
    """Refuse ``root`` when a folder dreamd would write through is a symbolic link.

    The folders are :data:`WRITTEN_FOLDERS` and every folder on the way to each of ``relpaths``
    (files about to be written), checked from the top down with one ``lstat`` each. A folder
    whose every component below the workspace is a real folder cannot resolve outside it, so a
    link is refused wherever it points, inside the workspace or out. A folder that does not
    exist yet is fine: dreamd creates it as a real one. Raises :class:`UnsafePathError`.
    """
    folders = dict.fromkeys(WRITTEN_FOLDERS)
    for relpath in relpaths:
        parents = PurePosixPath(normalize_relpath(relpath)).parents
        folders.update(dict.fromkeys(str(p) for p in reversed(parents) if str(p) != "."))
    top = os.fspath(root)
    for folder in folders:
        path = f"{top}/{folder}"  # strings, not Paths: this runs before every sweep
        try:
            if not stat.S_ISLNK(os.lstat(path).st_mode):
                continue
        except OSError:  # absent, or under a file: nothing can be written through it
            continue
        raise UnsafePathError(
            f"{path} is a symbolic link (to {os.path.realpath(path)}); "
            "dreamd refuses to write through it: replace it with a real folder"
        )
