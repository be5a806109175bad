"""The only writer of workspace files: compare-and-swap, temp file + fsync + rename.

Rules:

* Every replaced file is checked against the digest it was planned from, first for the whole
  plan and again just before its own rename; a mismatch (a person or agent edited it while the
  sweep planned) raises :class:`ConflictError` and nothing of theirs is overwritten.
* A write whose bytes equal what is on disk is skipped, so a no-op sweep touches nothing.
* Data goes to a temp file in the same directory, is fsynced, renamed over the target, and the
  directory is fsynced: a crash leaves the old file or the new one, never half of either. A
  temp file a crash left behind is removed by the next write of the same file.
* Symlinked targets are refused, and so is a plan whose files sit in (or under) a symlinked
  folder (:func:`dreamd.layout.check_workspace_folders`). ``MEMORY.md`` and
  ``DREAMS.md`` are copied to ``memory/.dreams/backups/`` (the last 8 of each kept) before
  they are replaced; a new ``MEMORY.md`` is created with mode 0600, as OpenClaw creates it.
  State files are saved last, then events are appended. The events are saved ahead of the
  first rename and settled by the next writer if this one stops half-way
  (:mod:`dreamd.store.intent`): the log tells each write that landed, once.
* A ``fence`` passed in from above (a fleet's check that this host still holds the workspace)
  runs just before every rename and append; raising there stops the writes, and each file is
  left old or new. The store knows nothing of what the fence checks.
"""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from dreamd.clock import format_instant
from dreamd.engine.retirement import retire_over_cap
from dreamd.engine.state import (
    DAILY_CHECKPOINTS,
    PHASE_SIGNALS,
    RECALL_STORE,
    SESSION_CHECKPOINTS,
    SESSION_SEEN,
    DailyCheckpoint,
    RecallEntry,
    RowT,
    Table,
    TableFormat,
)
from dreamd.engine.text.snippets import content_hash
from dreamd.engine.traces import MAX_STORE_ENTRIES
from dreamd.errors import (
    ConflictError,
    DreamdError,
    StateError,
    UnsafePathError,
    WorkspaceError,
)
from dreamd.layout import (
    BACKUP_DIR,
    check_workspace_folders,
    daily_note_day,
    refuse_stable,
    resolve_inside,
)
from dreamd.store.appendlog import append_lines
from dreamd.store.events import EVENTS_FILE, append_events, event_lines
from dreamd.store.intent import INTENT_FILE, HeldWrite, decode_intent, encode_intent, lines_due
from dreamd.store.longterm import append_longterm
from dreamd.store.pending import discard_applied
from dreamd.store.statefiles import state_path

if TYPE_CHECKING:  # types only: recording a search must not import every planner
    from dreamd.engine.plan import FileWrite, SweepPlan

__all__ = [
    "ApplyResult",
    "apply_plan",
    "current_digest",
    "save_store",
    "save_table",
    "settle_events",
    "write_atomic",
    "write_cache",
]

BACKUPS_KEPT = 8
STALE_TEMP_SECONDS = 600
_UMASK = os.umask(0)
os.umask(_UMASK)


_HASH_WHOLE_BYTES = 1 << 22  # larger files (a huge recall store) are hashed a block at a time


def current_digest(path: Path) -> str | None:
    """sha256 of the file's bytes, ``None`` when it does not exist."""
    try:
        with path.open("rb") as handle:
            if os.fstat(handle.fileno()).st_size <= _HASH_WHOLE_BYTES:
                return content_hash(handle.read())
            import hashlib  # only for a file too large to hold twice

            digest = hashlib.sha256()
            while block := handle.read(1 << 20):
                digest.update(block)
            return digest.hexdigest()
    except FileNotFoundError:
        return None


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(
    path: Path,
    data: bytes,
    *,
    mode: int | None = None,
    before_rename: Callable[[], object] | None = None,
) -> None:
    """Replace ``path`` with ``data`` atomically (see the module rules).

    ``before_rename`` runs after the temp file is durable and just before the rename; raising
    there (a compare-and-swap that failed) removes the temp file and leaves ``path`` untouched.
    An OS failure (full disk, read-only file system, permissions) leaves the old file in place
    and becomes a :class:`WorkspaceError` naming the file and the reason.
    """
    if path.is_symlink():
        raise UnsafePathError(f"refusing to write through the symlink {path}")
    try:
        _replace(path, data, mode, before_rename)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise WorkspaceError(f"cannot write {path}: {reason}; the previous file is intact") from exc


def write_cache(path: Path, data: bytes) -> bool:
    """Replace a cache file (0600, as :func:`write_atomic`); ``False`` when it cannot be written:
    a cache that is lost costs the next reader time, never the command that wrote it."""
    try:
        write_atomic(path, data, mode=0o600)
    except DreamdError:
        return False
    return True


def _clear_leftovers(path: Path) -> None:
    """Remove temp files a crashed writer left beside ``path`` (older than a few minutes)."""
    cutoff = time.time() - STALE_TEMP_SECONDS
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()


def _replace(
    path: Path, data: bytes, mode: int | None, before_rename: Callable[[], object] | None = None
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _clear_leftovers(path)
    if mode is None:
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_UMASK
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        if before_rename is not None:
            before_rename()
        Path(temp).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(temp).unlink()
        raise
    _fsync_dir(path.parent)


def save_table(
    root: Path,
    fmt: TableFormat[RowT],
    table: Table[RowT],
    *,
    before_rename: Callable[[], object] | None = None,
) -> bool:
    """Write a state table if its bytes changed; returns whether it wrote."""
    path = state_path(root, fmt)
    data = fmt.encode(table)
    try:
        # sizes first: a huge store trimmed to its cap is not read back whole to be compared
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror}") from exc
    write_atomic(path, data, mode=0o600, before_rename=before_rename)
    return True


def save_store(
    root: Path,
    store: Table[RecallEntry],
    *,
    before_rename: Callable[[], object] | None = None,
) -> bool:
    """Save the recall store, then drop the searches recorded ahead that it now holds
    (:mod:`dreamd.store.pending`); returns whether the store's file changed."""
    wrote = save_table(root, RECALL_STORE, store, before_rename=before_rename)
    discard_applied(root, store.top)
    return wrote


@dataclass(frozen=True)
class ApplyResult:
    """What applying a plan changed."""

    changed: tuple[str, ...]
    state_saved: tuple[str, ...]
    events: int


def _backup_memory(root: Path, data: bytes, base: str = "MEMORY.md") -> None:
    directory = root / BACKUP_DIR
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    name = f"{base}.{stamp}.{content_hash(data)[:12]}.md"
    write_atomic(directory / name, data, mode=0o600)
    found = directory.glob(f"{glob.escape(base)}.*.md")
    backups = sorted(found, key=lambda p: p.stat().st_mtime_ns)
    for old in backups[:-BACKUPS_KEPT]:
        with contextlib.suppress(OSError):
            old.unlink()


def _check(root: Path, write: FileWrite) -> bool:
    """True when the write would change the file; raises when the file moved on since planning."""
    target = resolve_inside(root, write.path)
    if target.is_symlink():
        raise UnsafePathError(f"{write.path} is a symlink; dreamd does not write through links")
    try:
        current = target.read_bytes()
    except FileNotFoundError:
        current = None
    data = write.text.encode("utf-8")
    if current == data:
        return False
    digest = content_hash(current) if current is not None else None
    if digest != write.expected:
        raise ConflictError(f"{write.path} changed on disk after it was read; not overwritten")
    return True


def _unfenced() -> None:
    return None


def _fenced(fence: Callable[[], object], check: Callable[[], object]) -> None:
    fence()
    check()


def apply_plan(
    root: Path,
    plan: SweepPlan,
    *,
    checkpoint_notes: bool = True,
    fence: Callable[[], object] | None = None,
) -> ApplyResult:
    """Write ``plan`` into the workspace at ``root`` (caller holds the workspace lock).

    ``fence`` runs before every rename and append (see the module rules).
    """
    guard = fence or _unfenced
    check_workspace_folders(root, *(write.path for write in plan.writes))
    refuse_stable(write.path for write in plan.writes)
    settle_events(root, guard)
    for path, digest in plan.sources.items():
        if current_digest(resolve_inside(root, path)) != digest:
            raise ConflictError(f"{path} changed on disk after it was read; promotion re-planned")
    pending = [write for write in plan.writes if _check(root, write)]
    held = _hold_events(root, pending, guard)
    try:
        result = _apply(root, plan, pending, guard, checkpoint_notes=checkpoint_notes)
    except BaseException:
        if held:  # what landed before the stop is told now, or by the next writer
            with contextlib.suppress(Exception):
                settle_events(root, guard)
        raise
    if held:
        (root / INTENT_FILE).unlink(missing_ok=True)
    return result


def _apply(
    root: Path,
    plan: SweepPlan,
    pending: list[FileWrite],
    guard: Callable[[], object],
    *,
    checkpoint_notes: bool,
) -> ApplyResult:
    changed: list[str] = []
    events: list[Mapping[str, Any]] = []
    daily = plan.daily
    for write in pending:
        if not _check(root, write):
            continue
        target = resolve_inside(root, write.path)
        before = target.stat() if target.exists() else None
        if write.kind in ("memory", "dreams") and before is not None:
            guard()
            base = "DREAMS.md" if write.kind == "dreams" else "MEMORY.md"
            _backup_memory(root, target.read_bytes(), base)
        # checked again once the new bytes are durable: an edit made meanwhile is not lost
        check = partial(_fenced, guard, partial(_check, root, write))
        # a new MEMORY.md is private to its owner, as OpenClaw creates it
        mode = 0o600 if write.kind == "memory" and before is None else None
        write_atomic(target, write.text.encode("utf-8"), mode=mode, before_rename=check)
        changed.append(write.path)
        events.extend(write.events)
        if write.kind == "note" and daily is not None and checkpoint_notes:
            daily = _follow_own_write(daily, write.path, before, target.stat())
    saved = []
    store, retired = plan.store, plan.retired
    if store is not None and len(store.rows) > MAX_STORE_ENTRIES:  # searches replayed past it
        stamp = store.updated_at or format_instant(datetime.now(UTC))
        kept, over = retire_over_cap(store.rows, stamp=stamp, extras=store.extras)
        store, retired = store.with_rows(kept, updated_at=store.updated_at), retired + over
    if retired:  # before the store drops them: a crash here duplicates, never loses
        guard()
        append_longterm(root, retired)
    save = partial(save_table, root, before_rename=guard)
    if store is not None and save_store(root, store, before_rename=guard):
        saved.append(RECALL_STORE.name)
    if plan.signals is not None and save(PHASE_SIGNALS, plan.signals):
        saved.append(PHASE_SIGNALS.name)
    if daily is not None and save(DAILY_CHECKPOINTS, daily):
        saved.append(DAILY_CHECKPOINTS.name)
    if plan.session_seen is not None and save(SESSION_SEEN, plan.session_seen):
        saved.append(SESSION_SEEN.name)
    checkpoints = plan.session_checkpoints
    if checkpoints is not None and save(SESSION_CHECKPOINTS, checkpoints):
        saved.append(SESSION_CHECKPOINTS.name)
    if events:
        guard()
    count = append_events(root, events)
    return ApplyResult(tuple(changed), tuple(saved), count)


def _hold_events(root: Path, pending: list[FileWrite], guard: Callable[[], object]) -> bool:
    """Save the intent for ``pending`` (see :mod:`dreamd.store.intent`); whether one was due."""
    held = [
        HeldWrite(write.path, content_hash(write.text.encode("utf-8")), event_lines(write.events))
        for write in pending
        if write.events
    ]
    if not held:
        return False
    try:
        size = (root / EVENTS_FILE).stat().st_size
    except FileNotFoundError:
        size = 0
    data = encode_intent(held, size)
    write_atomic(root / INTENT_FILE, data, mode=0o600, before_rename=guard)
    return True


def settle_events(root: Path, guard: Callable[[], object] = _unfenced) -> int:
    """Append the events an earlier writer held for writes that landed, then drop its intent
    (:mod:`dreamd.store.intent`); returns how many lines were appended."""
    path = root / INTENT_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror}") from exc
    intent = decode_intent(data)
    lines = b""
    if intent is not None:
        lines = lines_due(intent, partial(_landed_digest, root), _log_after(root, intent.log_size))
    if lines:
        guard()
        append_lines(root / EVENTS_FILE, lines)
    path.unlink(missing_ok=True)
    return lines.count(b"\n")


def _landed_digest(root: Path, path: str) -> str | None:
    try:
        return current_digest(resolve_inside(root, path))
    except (DreamdError, OSError):  # a path that is not the workspace's: nothing landed there
        return None


def _log_after(root: Path, offset: int) -> bytes:
    try:
        with (root / EVENTS_FILE).open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(min(offset, size))
            return handle.read()
    except FileNotFoundError:
        return b""


def _follow_own_write(
    daily: Table[DailyCheckpoint], path: str, before: os.stat_result | None, after: os.stat_result
) -> Table[DailyCheckpoint]:
    """Move a note's checkpoint past dreamd's own inline write, so it is not re-ingested.

    Only when the checkpoint described the note exactly as it was before the write (or dreamd
    created the note): a person's edit made earlier still triggers ingestion.
    """
    row = daily.rows.get(path)
    mtime_ms, size = after.st_mtime_ns / 1e6, after.st_size
    if before is None:
        day = daily_note_day(path)
        moved = DailyCheckpoint(mtime_ms=mtime_ms, size=size, last_dreaming_day_ingested=day)
    elif row is not None and (row.mtime_ms, row.size) == (before.st_mtime_ns / 1e6, before.st_size):
        moved = replace(row, mtime_ms=mtime_ms, size=size)
    else:
        return daily
    return daily.with_rows({**daily.rows, path: moved}, updated_at=daily.updated_at)
