"""The only reader of workspace files: builds the :class:`Snapshot` a sweep plans from.

Rules: daily notes are found under ``memory/`` (subfolders too), never under ``memory/dreaming/``
or the state dir (session-corpus files excepted), never through a symlinked folder, never ``.git``
or ``node_modules``. A file over 16 MiB, or of more than 50,000 lines (a pasted log, not a note),
is skipped and named in ``skipped``; a symlinked note is read only when it stays inside the
workspace. A symlinked ``MEMORY.md`` or ``DREAMS.md`` is refused (:class:`UnsafePathError`);
``memory.md`` is ``MEMORY.md`` when it is the one that exists. With ``[dreaming.reflect]`` on, the
memory bank is read too (:mod:`dreamd.workspace.bank`); with ``[dreaming.graph]`` on, what the
graph and the report need (:mod:`dreamd.workspace.dreamwork`); with ``truth_files`` on, the
truth files and their ledger (:mod:`dreamd.workspace.truth`). Texts are read for the notes the
phases may need: those inside the light lookback, today's note, and every note a recall row points
at. Invalid UTF-8 is read byte by byte as cp1252 and flagged; NUL bytes in notes are dropped. A
note that cannot be read (permissions, an I/O error) or is not text at all is skipped and named in
``skipped``: the rest of the workspace sweeps.

A workspace whose ``memory/``, ``memory/.dreams/`` or another folder dreamd writes into is a
symbolic link is refused here too, with the writer's message
(:func:`dreamd.layout.check_workspace_folders`): a preview or a status never shows what a sweep
would refuse to do, and the person sees the same fix wherever they look.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime, time, timedelta, tzinfo
from pathlib import Path

from dreamd.clock import day_of
from dreamd.config import DreamingConfig
from dreamd.engine.phases.light import in_lookback
from dreamd.engine.snapshot import BankFiles, NoteStat, Snapshot, TextFile
from dreamd.engine.tally import Promoted, promotions_on
from dreamd.engine.text.decoding import decode_note
from dreamd.engine.text.snippets import content_hash
from dreamd.errors import UnsafePathError, WorkspaceError
from dreamd.layout import (
    ARCHIVE_FILE,
    DREAMS_FILE,
    DREAMS_FILE_LOWER,
    MAX_FILE_BYTES,
    MAX_NOTE_LINES,
    MEMORY_FILE,
    MEMORY_FILE_LOWER,
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
from dreamd.store.events import read_events_since
from dreamd.workspace.bank import read_ledger, read_pages
from dreamd.workspace.dreamwork import read_dreamwork
from dreamd.workspace.sessions import read_transcripts
from dreamd.workspace.statesources import load_state
from dreamd.workspace.truth import read_truth

__all__ = [
    "check_workspace",
    "list_notes",
    "memory_file",
    "read_bank",
    "read_note",
    "read_promotions",
    "read_snapshot",
    "read_text",
]

_SKIP_DIRS = frozenset({".git", "node_modules"})


def check_workspace(root: Path) -> Path:
    """``root`` as a resolved directory, or a :class:`WorkspaceError` saying what is wrong."""
    if not root.exists():
        raise WorkspaceError(f"workspace {root} does not exist; create it or fix the path")
    if not root.is_dir():
        raise WorkspaceError(f"workspace {root} is not a directory")
    return Path(os.path.realpath(root))


def read_text(root: Path, relpath: str, *, strip_nul: bool = False) -> TextFile:
    """A workspace file as text with the digest of its bytes (absent: empty, digest ``None``).

    Decoded by :func:`~dreamd.engine.text.decoding.decode_note`; bytes that are not text at all
    are kept as UTF-8 with replacement characters here (``valid_utf8`` false): the notes walk
    skips such a note (:func:`read_note`), ``MEMORY.md`` is then never rewritten.
    """
    path = resolve_inside(root, relpath)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return TextFile(relpath, "", None)
    except IsADirectoryError as exc:
        raise WorkspaceError(f"{path} is a directory, expected a file") from exc
    except OSError as exc:
        raise WorkspaceError(f"cannot read {path}: {exc.strerror}") from exc
    decoded = decode_note(data, strip_nul=strip_nul)
    text = decoded.text
    if text is None:
        text = data.decode("utf-8", errors="replace")
        text = text.replace("\x00", "") if strip_nul else text
    return TextFile(relpath, text, content_hash(data), decoded.encoding == "utf-8")


def too_large(relpath: str) -> str:
    """The warning that names a note over :data:`MAX_FILE_BYTES`."""
    return f"{relpath}: larger than 16 MiB, skipped"


def read_note(root: Path, relpath: str) -> tuple[TextFile | None, str | None]:
    """A note's text, or ``None`` and why it was skipped; a fallback decoding is a warning too.

    One unreadable or undecodable note is that note's problem: the caller skips it and says so,
    the rest of the workspace is read as usual.
    """
    path = resolve_inside(root, relpath)
    try:
        with path.open("rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_FILE_BYTES:
                return None, too_large(relpath)
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return TextFile(relpath, "", None), None
    except OSError as exc:
        return None, f"{relpath}: cannot read ({exc.strerror or exc}); skipped"
    if len(data) > MAX_FILE_BYTES:  # it grew while being read
        return None, too_large(relpath)
    if data.count(b"\n") > MAX_NOTE_LINES:
        return None, f"{relpath}: more than {MAX_NOTE_LINES:,} lines, skipped"
    decoded = decode_note(data, strip_nul=True)
    if decoded.text is None:
        return None, f"{relpath}: {decoded.problem}"
    loaded = TextFile(relpath, decoded.text, content_hash(data), decoded.encoding == "utf-8")
    return loaded, f"{relpath}: {decoded.problem}" if decoded.problem else None


def read_bank(
    root: Path,
    paths: Sequence[str],
    texts: Mapping[str, TextFile],
    skipped: list[str],
    memory: TextFile | None = None,
) -> BankFiles:
    """The bank's pages and ledger, the texts of the notes at ``paths`` (an unreadable note
    is added to ``skipped``; one already in ``texts`` is not read twice) and ``memory``."""
    read: dict[str, TextFile] = {}
    for path in sorted(paths):
        loaded, problem = (texts[path], None) if path in texts else read_note(root, path)
        if loaded is None:
            skipped.append(problem or f"{path}: skipped")
        else:
            read[path] = loaded
    return BankFiles(read_pages(root), read_ledger(root), read, memory)


def memory_file(root: Path) -> str:
    """``MEMORY.md``, or ``memory.md`` when that is the one that exists: never a second one."""
    try:
        names = {path.name for path in root.iterdir()}
    except OSError:
        return MEMORY_FILE
    if MEMORY_FILE not in names and MEMORY_FILE_LOWER in names:
        return MEMORY_FILE_LOWER
    return MEMORY_FILE


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
            skipped.append(too_large(child))
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
    trusted_unmarked: frozenset[str] = frozenset(),
    readonly: bool = False,
) -> Snapshot:
    """Read everything one sweep of ``root`` may need (caller holds the workspace lock).

    ``readonly`` (previews) never sets a corrupt state file aside.
    """
    root = check_workspace(root)
    check_workspace_folders(root)
    memory = _protected(root, memory_file(root))
    dreams_name = DREAMS_FILE
    if not (root / DREAMS_FILE).exists() and (root / DREAMS_FILE_LOWER).exists():
        dreams_name = DREAMS_FILE_LOWER
    dreams = _protected(root, dreams_name)
    notes, skipped = list_notes(root)
    warnings: list[str] = []
    state = load_state(root, readonly=readonly)  # with OpenClaw's renamed files and SQLite rows
    warnings += state.warnings
    store, signals, daily = state.store, state.signals, state.daily
    session_checkpoints, session_seen = state.session_checkpoints, state.session_seen
    transcripts, issues, gone = read_transcripts(sessions, session_checkpoints)
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
    texts: dict[str, TextFile] = {}
    fallbacks: list[str] = []
    unreadable: set[str] = set()
    for path in sorted(wanted):
        loaded, problem = read_note(root, path)
        if loaded is None:
            if (problem or f"{path}: skipped") not in skipped:
                skipped.append(problem or f"{path}: skipped")
            notes.pop(path, None)
            unreadable.add(path)
        else:
            texts[path] = loaded
            if problem:
                fallbacks.append(problem)
    warnings += fallbacks
    bank = None
    if dreaming.reflect.enabled:  # the memory bank: its files and the notes it reads facts from
        days = dreaming.reflect.lookback_days
        recent = [n for n in notes.values() if in_lookback(n.day, now=now, days=days, zone=zone)]
        bank = read_bank(root, [n.path for n in recent], texts, skipped, memory)
    dreamwork = None
    if dreaming.graph.enabled:  # the graph, patterns and report (dreamd.workspace.dreamwork)
        days = dreaming.graph.lookback_days
        dreamwork = read_dreamwork(
            root, notes, texts, lookback_days=days, now=now, zone=zone, today=today
        )
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
        archive=read_text(root, ARCHIVE_FILE),
        reports=reports,
        store=store,
        signals=signals,
        daily=daily,
        transcripts=tuple(transcripts),
        owners=owners,
        trusted_unmarked=trusted_unmarked,
        transcripts_gone=tuple(gone),
        session_checkpoints=session_checkpoints,
        session_seen=session_seen,
        skipped=tuple(skipped),
        unreadable=frozenset(unreadable),
        warnings=tuple(warnings),
        note_warnings=(*skipped, *fallbacks),
        bank=bank,
        dreamwork=dreamwork,
        truth=read_truth(root) if dreaming.truth_files else None,
        state_sources=state.sources,
        openclaw=state.openclaw,
        promoted_today=read_promotions(root, now=now, zone=zone),
    )


def read_promotions(root: Path, *, now: datetime, zone: tzinfo) -> tuple[Promoted, ...]:
    """The promotions written on ``now``'s dreaming day, from the events log (the one count:
    :mod:`dreamd.engine.tally`)."""
    today = day_of(now, zone)
    midnight = datetime.combine(date.fromisoformat(today), time(0), tzinfo=zone)
    return promotions_on(read_events_since(root, midnight - timedelta(hours=1)), today, zone)
