"""The only reader of workspace files: builds the :class:`Snapshot` a sweep plans from.

Rules: daily notes are found under ``memory/`` (subfolders too), never under
``memory/dreaming/`` or the state dir (session-corpus files excepted), never through a symlinked
folder, never ``.git`` or ``node_modules``. A file over 16 MiB is skipped and named in
``skipped``; a symlinked note is read only when it stays inside the workspace. A symlinked
``MEMORY.md`` or ``DREAMS.md`` is refused (:class:`UnsafePathError`). Texts are read for the notes
the phases may need: those inside the light lookback, today's note, and every note a recall row
points at. Invalid UTF-8 is decoded with replacement characters and flagged; NUL bytes in notes
are dropped.

A workspace whose ``memory/``, ``memory/.dreams/`` or another folder dreamd writes into is a
symbolic link is refused here too, with the writer's message
(:func:`dreamd.layout.check_workspace_folders`): a preview or a status never shows what a sweep
would refuse to do, and the person sees the same fix wherever they look.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from datetime import datetime, tzinfo
from pathlib import Path

from dreamd.clock import day_of
from dreamd.config import DreamingConfig
from dreamd.engine.phases.light import in_lookback
from dreamd.engine.snapshot import NoteStat, Snapshot, TextFile
from dreamd.engine.state import (
    DAILY_CHECKPOINTS,
    PHASE_SIGNALS,
    RECALL_STORE,
    SESSION_CHECKPOINTS,
    SESSION_SEEN,
)
from dreamd.engine.text.snippets import content_hash
from dreamd.errors import UnsafePathError, WorkspaceError
from dreamd.layout import (
    DREAMS_FILE,
    DREAMS_FILE_LOWER,
    MAX_FILE_BYTES,
    MEMORY_FILE,
    NOTES_DIR,
    REPORTS_DIR,
    SESSION_CORPUS_DIR,
    STATE_DIR,
    check_workspace_folders,
    daily_note_day,
    is_short_term_path,
    report_path,
    resolve_inside,
)
from dreamd.store.statefiles import load_table
from dreamd.workspace.sessions import read_transcripts

__all__ = ["check_workspace", "list_notes", "read_snapshot", "read_text"]

_SKIP_DIRS = frozenset({".git", "node_modules"})


def check_workspace(root: Path) -> Path:
    """``root`` as a resolved directory, or a :class:`WorkspaceError` saying what is wrong."""
    if not root.exists():
        raise WorkspaceError(f"workspace {root} does not exist; create it or fix the path")
    if not root.is_dir():
        raise WorkspaceError(f"workspace {root} is not a directory")
    return Path(os.path.realpath(root))


def read_text(root: Path, relpath: str, *, strip_nul: bool = False) -> TextFile:
    """A workspace file as text with the digest of its bytes (absent: empty, digest ``None``)."""
    path = resolve_inside(root, relpath)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return TextFile(relpath, "", None)
    except IsADirectoryError as exc:
        raise WorkspaceError(f"{path} is a directory, expected a file") from exc
    except OSError as exc:
        raise WorkspaceError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        text, valid = data.decode("utf-8"), True
    except UnicodeDecodeError:
        text, valid = data.decode("utf-8", errors="replace"), False
    if strip_nul:
        text = text.replace("\x00", "")
    return TextFile(relpath, text, content_hash(data), valid)


def _protected(root: Path, name: str) -> TextFile:
    if (root / name).is_symlink():
        raise UnsafePathError(f"{root / name} is a symlink; dreamd refuses to read or write it")
    return read_text(root, name)


def _walk(root: Path, directory: Path, rel: str, skipped: list[str]) -> Iterator[NoteStat]:
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError as exc:
        skipped.append(f"{rel}: cannot list ({exc.strerror})")
        return
    for entry in entries:
        child = f"{rel}/{entry.name}"
        if entry.is_dir(follow_symlinks=False):
            if child == STATE_DIR:
                corpus = Path(entry.path) / "session-corpus"
                if corpus.is_dir() and not corpus.is_symlink():
                    yield from _walk(root, corpus, SESSION_CORPUS_DIR, skipped)
            elif entry.name not in _SKIP_DIRS and child != REPORTS_DIR:
                yield from _walk(root, Path(entry.path), child, skipped)
            continue
        if not is_short_term_path(child):
            continue
        try:
            if entry.is_symlink():
                resolve_inside(root, child)
            stat = entry.stat()
        except (UnsafePathError, OSError) as exc:
            skipped.append(f"{child}: {exc}")
            continue
        if stat.st_size > MAX_FILE_BYTES:
            skipped.append(f"{child}: larger than 16 MiB, skipped")
            continue
        day = daily_note_day(child)
        if day:
            yield NoteStat(child, day, stat.st_mtime_ns / 1e6, stat.st_size)


def list_notes(root: Path) -> tuple[dict[str, NoteStat], list[str]]:
    """Every short-term note in the workspace, and what was skipped (with the reason)."""
    skipped: list[str] = []
    notes_dir = root / NOTES_DIR
    if not notes_dir.is_dir() or notes_dir.is_symlink():
        return {}, skipped
    notes = {note.path: note for note in _walk(root, notes_dir, NOTES_DIR, skipped)}
    return notes, skipped


def read_snapshot(
    root: Path,
    *,
    dreaming: DreamingConfig,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...] = ("main",),
    sessions: Sequence[tuple[str, Path]] = (),
    owners: frozenset[str] = frozenset(),
    readonly: bool = False,
) -> Snapshot:
    """Read everything one sweep of ``root`` may need (caller holds the workspace lock).

    ``readonly`` (previews) never sets a corrupt state file aside.
    """
    root = check_workspace(root)
    check_workspace_folders(root)
    memory = _protected(root, MEMORY_FILE)
    dreams_name = DREAMS_FILE
    if not (root / DREAMS_FILE).exists() and (root / DREAMS_FILE_LOWER).exists():
        dreams_name = DREAMS_FILE_LOWER
    dreams = _protected(root, dreams_name)
    notes, skipped = list_notes(root)
    warnings: list[str] = []
    store, issues = load_table(root, RECALL_STORE, readonly=readonly)
    warnings += issues
    signals, issues = load_table(root, PHASE_SIGNALS, readonly=readonly)
    warnings += issues
    daily, issues = load_table(root, DAILY_CHECKPOINTS, readonly=readonly)
    warnings += issues
    session_checkpoints, issues = load_table(root, SESSION_CHECKPOINTS, readonly=readonly)
    warnings += issues
    session_seen, issues = load_table(root, SESSION_SEEN, readonly=readonly)
    warnings += issues
    transcripts, issues = read_transcripts(sessions, session_checkpoints)
    warnings += issues
    today = day_of(now, zone)
    wanted = {
        note.path
        for note in notes.values()
        if in_lookback(note.day, now=now, days=dreaming.light.lookback_days, zone=zone)
    }
    wanted |= {entry.path for entry in store.rows.values() if entry.path in notes}
    wanted |= {
        f"{NOTES_DIR}/{entry.path}" for entry in store.rows.values() if "/" not in entry.path
    } & notes.keys()
    wanted.add(f"{NOTES_DIR}/{today}.md")
    texts = {path: read_text(root, path, strip_nul=True) for path in sorted(wanted)}
    for text in texts.values():
        if text.exists and not text.valid_utf8:
            warnings.append(f"{text.path}: not valid UTF-8; undecodable bytes replaced")
    reports = {
        path: read_text(root, path)
        for path in (report_path(phase, today) for phase in ("light", "rem", "deep"))
    }
    return Snapshot(
        root=root,
        agents=agents,
        notes=notes,
        texts=texts,
        memory=memory,
        dreams=dreams,
        reports=reports,
        store=store,
        signals=signals,
        daily=daily,
        transcripts=tuple(transcripts),
        owners=owners,
        session_checkpoints=session_checkpoints,
        session_seen=session_seen,
        skipped=tuple(skipped),
        warnings=tuple(warnings),
    )
