"""Reading agents' session transcripts from disk, from where the last sweep stopped.

For each agent's sessions folder: every ``*.jsonl`` transcript and its rotations
(``*.jsonl.reset.<iso>``, ``*.jsonl.deleted.<iso>``; ``*.checkpoint.*`` files are skipped). A file
whose mtime and size match its checkpoint, and that was read to its end, is not opened; one
that a cap left half read is, even when nothing was appended. Otherwise reading resumes at the
checkpoint's byte offset when the bytes just before it still hash to the checkpoint's anchor
(the file only grew), and starts over when the file was rewritten or truncated — the
seen-message hashes then keep anything from being counted twice. A file seen for the first
time resumes from the checkpoint of another file of the same logical session whose anchor
matches at its offset: a rotated transcript (``x.jsonl`` renamed ``x.jsonl.reset.<iso>``) is
read on from where ``x.jsonl`` stopped. Only complete lines are read. The keys of checkpoints
whose file is no longer in a folder that could be listed are reported as gone. The session kind
comes from :func:`dreamd.engine.transcripts.session_kind`, with the folder's ``sessions.json``; so
does whether the session is shared (:func:`dreamd.engine.transcripts.is_shared`), which the
checkpoint keeps once found, so a resumed read of a group session is still a group's.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from dreamd.engine.state import SessionCheckpoint, Table
from dreamd.engine.transcripts import (
    TranscriptRead,
    is_shared,
    kind_from_store,
    logical_session_id,
    parse_records,
    session_kind,
    shared_from_store,
    spoken,
)

__all__ = ["anchor", "read_transcripts"]

ANCHOR_BYTES = 256
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024


def anchor(data: bytes) -> str:
    """Hash of the last ``ANCHOR_BYTES`` of ``data`` (what precedes a checkpoint's offset)."""
    return hashlib.sha1(data[-ANCHOR_BYTES:], usedforsecurity=False).hexdigest()[:16]


def _store(directory: Path) -> Mapping[str, Any]:
    try:
        data = msgspec.json.decode((directory / "sessions.json").read_bytes())
    except (OSError, msgspec.DecodeError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _transcripts(directory: Path) -> list[Path] | None:
    """The transcripts in ``directory``, or None when it cannot be listed."""
    try:
        names = sorted(p for p in directory.iterdir() if p.is_file() and not p.is_symlink())
    except OSError:
        return None
    return [
        p
        for p in names
        if (p.name.endswith(".jsonl") or ".jsonl.reset." in p.name or ".jsonl.deleted." in p.name)
        and ".checkpoint." not in p.name
    ]


def _anchored(path: Path, checkpoint: SessionCheckpoint, size: int) -> bool:
    """Whether the bytes of ``path`` before the checkpoint's offset hash to its anchor."""
    if checkpoint.offset > size or checkpoint.offset <= 0:
        return False
    with path.open("rb") as handle:
        handle.seek(max(0, checkpoint.offset - ANCHOR_BYTES))
        before = handle.read(min(ANCHOR_BYTES, checkpoint.offset))
    return anchor(before) == checkpoint.anchor


def _resume(
    path: Path, checkpoint: SessionCheckpoint | None, size: int
) -> tuple[int, int, str | None]:
    """(byte offset, lines before it, kind) to read from; (0, 0, None) to start over."""
    if checkpoint is None or not _anchored(path, checkpoint, size):
        return 0, 0, None
    return checkpoint.offset, checkpoint.line_count, checkpoint.kind


def _read_one(
    agent: str,
    path: Path,
    checkpoint: SessionCheckpoint | None,
    store_kind: str | None,
    *,
    store_shared: bool = False,
) -> TranscriptRead:
    stat = path.stat()
    start, lines_before, known_kind = _resume(path, checkpoint, stat.st_size)
    with path.open("rb") as handle:
        handle.seek(max(0, start - ANCHOR_BYTES))
        head = handle.read(start - max(0, start - ANCHOR_BYTES)) if start else b""
        data = handle.read(MAX_TRANSCRIPT_BYTES)
    records = parse_records(data, start=start, first_line=lines_before + 1)
    end = start + data.rfind(b"\n") + 1 if b"\n" in data else start
    lines = lines_before + data.count(b"\n", 0, end - start)
    kind = known_kind or session_kind(records, store_kind)
    buffer = head + data

    def anchor_at(offset: int) -> str:
        position = offset - start + len(head)
        return anchor(buffer[max(0, position - ANCHOR_BYTES) : position])

    marks = {r.end: (r.line, anchor_at(r.end)) for r in records}
    marks[start] = (lines_before, anchor(head))
    marks[end] = (lines, anchor_at(end))
    messages = tuple(spoken(records)) if kind == "interactive" else ()
    resumed = start > 0 and checkpoint is not None and checkpoint.shared
    shared = resumed or is_shared(records, messages, store_shared)
    return TranscriptRead(
        key=f"{agent}:{path.name}",
        agent=agent,
        session=logical_session_id(path.name),
        kind=kind,
        mtime_ms=stat.st_mtime_ns / 1e6,
        size=stat.st_size,
        messages=messages,
        marks=marks,
        start=start,
        end=end,
        lines=lines,
        shared=shared,
        prior=checkpoint,
    )


def _unchanged(checkpoint: SessionCheckpoint, stat: os.stat_result) -> bool:
    """Read to its end before, and neither grown nor touched since."""
    same = (checkpoint.mtime_ms, checkpoint.size) == (stat.st_mtime_ns / 1e6, stat.st_size)
    return same and checkpoint.offset >= stat.st_size


def _sibling(
    agent: str, path: Path, checkpoints: Table[SessionCheckpoint], size: int
) -> SessionCheckpoint | None:
    """The checkpoint of another file of ``path``'s logical session that ``path`` continues."""
    session = logical_session_id(path.name)
    prefix = f"{agent}:"
    for key, row in sorted(checkpoints.rows.items(), key=lambda item: -item[1].offset):
        name = key[len(prefix) :] if key.startswith(prefix) else None
        if name is None or name == path.name or logical_session_id(name) != session:
            continue
        if _anchored(path, row, size):
            return row
    return None


def read_transcripts(
    sessions: Sequence[tuple[str, Path]], checkpoints: Table[SessionCheckpoint]
) -> tuple[list[TranscriptRead], list[str], list[str]]:
    """New content of every changed transcript, what could not be read, and the keys of
    checkpoints whose file is gone."""
    reads: list[TranscriptRead] = []
    warnings: list[str] = []
    present: set[str] = set()
    listed: set[str] = set()
    for agent, directory in sessions:
        if not directory.is_dir():
            continue
        store = _store(directory)
        files = _transcripts(directory)
        if files is None:
            continue
        listed.add(agent)
        for path in files:
            key = f"{agent}:{path.name}"
            present.add(key)
            checkpoint = checkpoints.rows.get(key)
            try:
                stat = path.stat()
                if checkpoint is not None and _unchanged(checkpoint, stat):
                    continue
                if checkpoint is None:
                    checkpoint = _sibling(agent, path, checkpoints, stat.st_size)
                session = logical_session_id(path.name)
                store_kind = kind_from_store(store, session)
                shared = shared_from_store(store, session)
                reads.append(_read_one(agent, path, checkpoint, store_kind, store_shared=shared))
            except OSError as exc:
                warnings.append(f"{path}: cannot read transcript ({exc.strerror})")
    gone = [
        key for key in checkpoints.rows if key not in present and key.split(":", 1)[0] in listed
    ]
    return reads, warnings, sorted(gone)
