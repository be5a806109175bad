"""Grounded backfill, the shell: find historical notes, read them, then plan and apply.

Rules:

* Historical notes are files named ``YYYY-MM-DD.md`` or ``YYYY-MM-DD-<slug>.md`` under ``--path``
  (a file, or a folder walked in name order). Skipped, each with its reason: ``.git``,
  ``node_modules`` and ``.dreams`` folders and dreaming's own reports (``memory/dreaming``,
  ``memory/dreams``), symlinks, files over 1 MB (1,000,000 bytes); beyond the file limit (512 unless
  ``--limit-files``) the newest notes are kept. A relative ``--path`` is taken from the current
  directory when it exists there, else from the workspace.
* A note inside the workspace is named by its workspace path; one outside by its absolute path
  (its diary entry says where it came from, but its claims cannot be staged: only workspace
  notes are short-term memory).
* Notes are read and analysed before the workspace lock is taken, with progress reported per
  file. The plan then lists every analysed workspace note with the digest it was read with,
  so a note edited in the meantime fails the write (compare-and-swap) rather than staging
  claims that are no longer there.
* Every write goes through :func:`dreamd.runs.sweep.run_planned`: DREAMS.md's diary, the recall
  store, phase signals. A write that would change nothing is left out of the plan, so a file
  that did not exist is never created empty.
* A workspace with a symlinked ``memory/`` or state folder is refused before any note is read
  (:func:`dreamd.layout.check_workspace_folders`), not after the analysis of every note.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from dreamd.clock import parse_day
from dreamd.config import DreamingConfig
from dreamd.engine.grounded.backfill import plan_backfill, plan_rollback
from dreamd.engine.grounded.preview import GroundedNote, plan_grounded
from dreamd.engine.plan import SweepPlan
from dreamd.engine.snapshot import Snapshot
from dreamd.engine.state import RECALL_STORE
from dreamd.engine.text.decoding import decode_note
from dreamd.errors import DreamdError
from dreamd.layout import BACKFILL_FILE_LIMIT, check_workspace_folders, is_short_term_path
from dreamd.runs.progress import Progress
from dreamd.runs.sweep import run_planned
from dreamd.store.statefiles import state_path
from dreamd.workspace.reader import read_note

__all__ = [
    "DEFAULT_FILE_LIMIT",
    "MAX_NOTE_BYTES",
    "SourceNote",
    "Sources",
    "analyse",
    "find_sources",
    "resolve_target",
    "run_backfill",
    "run_rollback",
]

MAX_NOTE_BYTES = 1_000_000
DEFAULT_FILE_LIMIT = BACKFILL_FILE_LIMIT
_SKIP_DIRS = frozenset({".git", "node_modules", ".dreams"})
_NOTE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})(-[^/]+)?\.md$")


@dataclass(frozen=True)
class Sources:
    """The historical notes found under a path, and what was skipped (with reasons)."""

    target: Path
    files: tuple[Path, ...]
    skipped: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SourceNote:
    """One historical note as read: its name, the name it gets in a copy, day, text, digest."""

    label: str  # workspace path, or the absolute path of a note outside the workspace
    copy_path: str  # where a temporary copy holds it: memory/<path under --path> unless the
    # note is already a short-term note of the workspace, so a replay always has notes to seed
    day: str
    text: str
    digest: str | None  # of a workspace note: the compare-and-swap token


def resolve_target(raw: str, root: Path) -> Path:
    """``--path`` as an absolute path: a relative one from the current folder, else from the
    workspace (``--path memory`` works from any folder)."""
    given = Path(raw).expanduser()
    for candidate in (given.absolute(), root / given) if not given.is_absolute() else (given,):
        if candidate.exists():
            return Path(os.path.realpath(candidate))
    where = f"in {Path.cwd()} and in {root}" if not given.is_absolute() else "there"
    raise DreamdError(f"--path {raw}: no such file or folder (looked {where})")


def _note_day(name: str) -> str | None:
    found = _NOTE_NAME.match(name)
    return found.group(1) if found and parse_day(found.group(1)) else None


_OWN_REPORTS = ("dreaming", "dreams")  # memory/dreaming/ phase reports, memory/dreams/ reports


def _walk(directory: Path, files: list[Path], skipped: list[str]) -> None:
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError as exc:
        skipped.append(f"{directory}: cannot list ({exc.strerror})")
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.is_symlink():
            if entry.is_dir() or _note_day(entry.name):
                skipped.append(f"{path}: symlink")
            continue
        if entry.is_dir():
            own_reports = entry.name in _OWN_REPORTS and directory.name == "memory"
            if entry.name not in _SKIP_DIRS and not own_reports:
                _walk(path, files, skipped)
            continue
        if _note_day(entry.name):
            files.append(path)


def _is_machinery(path: Path, base: Path) -> bool:
    """True inside a state folder or dreaming's own reports (even when ``--path`` points there)."""
    parts = path.relative_to(base).parts if path.is_relative_to(base) else path.parts
    pairs = set(itertools.pairwise(parts))
    return bool(_SKIP_DIRS & set(parts)) or any(("memory", own) in pairs for own in _OWN_REPORTS)


def _sort_key(path: Path) -> tuple[str, int, str]:
    day = _note_day(path.name) or ""
    return (day, 0 if path.name == f"{day}.md" else 1, str(path))


def find_sources(target: Path, *, root: Path, limit: int = DEFAULT_FILE_LIMIT) -> Sources:
    """The historical notes under ``target`` (see the module rules), oldest first."""
    found: list[Path] = []
    skipped: list[str] = []
    if target.is_dir():
        _walk(target, found, skipped)
    elif _note_day(target.name):
        found.append(target)
    else:
        raise DreamdError(
            f"--path {target} is not a daily note; expected YYYY-MM-DD.md or YYYY-MM-DD-<slug>.md"
        )
    files: list[Path] = []
    for path in sorted(found, key=_sort_key):
        if _is_machinery(path, root if path.is_relative_to(root) else target):
            continue
        try:
            size = path.stat().st_size
        except OSError as exc:
            skipped.append(f"{path}: cannot read ({exc.strerror})")
            continue
        if size > MAX_NOTE_BYTES:
            skipped.append(f"{path}: larger than 1 MB")
            continue
        files.append(path)
    if len(files) > limit:
        skipped.append(f"{len(files) - limit} older note(s) beyond the limit of {limit} files")
        files = files[len(files) - limit :]
    return Sources(target, tuple(files), tuple(skipped))


def _read(path: Path, root: Path, target: Path) -> SourceNote | str:
    """The note as read, or why it was skipped (unreadable, not text)."""
    day = _note_day(path.name) or ""
    inner = path.relative_to(target).as_posix() if path != target else path.name
    if path.is_relative_to(root):
        label = path.relative_to(root).as_posix()
        loaded, problem = read_note(root, label)
        if loaded is None:
            return f"{path}: {(problem or 'skipped').removeprefix(label + ': ')}"
        copy = label if is_short_term_path(label) else f"memory/{inner}"
        return SourceNote(label, copy, day, loaded.text, loaded.digest)
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"{path}: cannot read ({exc.strerror or exc}); skipped"
    decoded = decode_note(data, strip_nul=True)
    if decoded.text is None:
        return f"{path}: {decoded.problem}"
    return SourceNote(str(path), f"memory/{inner}", day, decoded.text, None)


def analyse(
    sources: Sources, root: Path, progress: Progress
) -> tuple[list[SourceNote], list[GroundedNote], list[str]]:
    """Read each note and plan its grounded preview, advancing ``progress`` per file.

    A note that cannot be read or is not text is skipped, named in the third list; the others
    are replayed as usual.
    """
    notes: list[SourceNote] = []
    grounded: list[GroundedNote] = []
    unread: list[str] = []
    for path in sources.files:
        note = _read(path, root, sources.target)
        if isinstance(note, str):
            unread.append(note)
        else:
            notes.append(note)
            grounded.append(plan_grounded(note.label, note.day, note.text))
        progress.advance()
    return notes, grounded, unread


def _run(
    root: Path,
    planner: Callable[[Snapshot], SweepPlan],
    dreaming: DreamingConfig,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...],
) -> dict[str, Any]:
    outcome = run_planned(root, planner, dreaming=dreaming, now=now, zone=zone, agents=agents)
    if outcome.status != "ok":
        raise DreamdError(f"{root}: {outcome.error}")
    summary = dict(outcome.summary)
    if "stagedShortTermEntries" in summary or "removedShortTermEntries" in summary:
        summary["shortTermStorePath"] = str(state_path(root, RECALL_STORE))
    return {**summary, "changedFiles": list(outcome.changed)}


def run_backfill(
    root: Path,
    sources: Sources,
    progress: Progress,
    *,
    dreaming: DreamingConfig,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...] = ("main",),
    stage: bool = False,
) -> dict[str, Any]:
    """Write the backfill entries (and stage grounded rows) for ``sources`` into ``root``."""
    check_workspace_folders(root)
    notes, grounded, unread = analyse(sources, root, progress)

    digests = {note.label: note.digest for note in notes if note.digest is not None}

    def planner(snapshot: Snapshot) -> SweepPlan:
        return plan_backfill(
            snapshot, grounded, digests, now=now, stage=stage, source_path=str(sources.target)
        )

    result = _run(root, planner, dreaming, now, zone, agents)
    return {
        "workspaceDir": str(root),
        "sourcePath": str(sources.target),
        "sourceFiles": [note.label for note in notes],
        "skippedFiles": [*sources.skipped, *unread],
        "groundedFiles": sum(1 for note in grounded if note.statements),
        **result,
    }


def run_rollback(
    root: Path,
    *,
    dreaming: DreamingConfig,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...] = ("main",),
    short_term: bool = False,
) -> dict[str, Any]:
    """Remove every backfill entry (and, with ``short_term``, the grounded-only rows)."""
    check_workspace_folders(root)

    def planner(snapshot: Snapshot) -> SweepPlan:
        return plan_rollback(snapshot, now=now, short_term=short_term)

    result = _run(root, planner, dreaming, now, zone, agents)
    return {
        "workspaceDir": str(root),
        "rollback": True,
        "rollbackShortTerm": short_term,
        **result,
    }
