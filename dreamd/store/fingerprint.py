"""A workspace's input fingerprint: a sweep that would change nothing skips its own work.

A full sweep that wrote nothing at all (no file, no state table, no event) leaves
``memory/.dreams/sweep-fingerprint.json``: a digest of everything the sweep read and of what
it was asked to do, with the summary it produced. The next sweep takes the same fingerprint
first; when it matches, the workspace is unchanged and that sweep would plan the very same
no-op, so it returns the stored summary without reading, planning or writing.

What the fingerprint covers:

* the settings: dreamd's version, the dreaming day in the sweep's timezone (reports, lookback
  and per-day limits follow the day), the ``[dreaming]`` and ``[model]`` config, the agents
  and their transcript folders, whose turns count as the owner's;
* the path, size and modification time of every file under ``memory/`` that the notes walk
  could see (reports and state aside, the session corpus included), and of every file in the
  transcript folders;
* the bytes of ``MEMORY.md``, ``DREAMS.md``/``dreams.md``, the state tables, today's reports,
  the graph's ledger and export, the truth files' ledger, today's dream report and the dream log
  (files the sweep itself writes are compared by content, never by time: a file whose size,
  inode and change time are those it had when the fingerprint was stored, and whose change time
  lies :data:`RACY_NS` before that, keeps the digest it had then, and any other is read again);
* the size and time of OpenClaw's state database (and its WAL), whose rows a sweep merges.

A note modified while the verifying sweep ran, or within :data:`RACY_NS` of its start, might
share its size and time stamp with a later edit; such a fingerprint is not stored (the next
sweep does the full work again), as ``git`` treats a racily clean index entry.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

import msgspec

from dreamd import __version__
from dreamd.clock import day_of
from dreamd.config import DreamingConfig, ModelConfig
from dreamd.engine.graph.export import EXPORT_FILES as GRAPH_EXPORTS
from dreamd.engine.state import (
    DAILY_CHECKPOINTS,
    PHASE_SIGNALS,
    RECALL_STORE,
    SESSION_CHECKPOINTS,
    SESSION_SEEN,
)
from dreamd.layout import (
    BANK_LEDGER,
    DREAM_LOG,
    DREAM_REPORTS_DIR,
    DREAMS_FILE,
    DREAMS_FILE_LOWER,
    GRAPH_DIR,
    GRAPH_LEDGER,
    MEMORY_FILE,
    MEMORY_FILE_LOWER,
    NOTES_DIR,
    REPORTS_DIR,
    SESSION_CORPUS_DIR,
    STATE_DIR,
    TRUTH_LEDGER,
    report_path,
)
from dreamd.store.pending import PENDING_FILE
from dreamd.store.writer import write_atomic

__all__ = [
    "FINGERPRINT_FILE",
    "RACY_NS",
    "Fingerprint",
    "Memo",
    "forget",
    "load",
    "save",
    "settings_key",
    "take",
]

FINGERPRINT_FILE = "sweep-fingerprint.json"
RACY_NS = 50_000_000  # 50 ms: coarser than any file system's time stamp tick that matters here
_TABLES = (RECALL_STORE, PHASE_SIGNALS, DAILY_CHECKPOINTS, SESSION_CHECKPOINTS, SESSION_SEEN)


class Fingerprint(msgspec.Struct, kw_only=True, frozen=True):
    """What one verified no-op sweep read, and what it answered."""

    version: int = 1
    key: str
    inputs: str
    summary: dict[str, Any] = msgspec.field(default_factory=dict)
    warnings: list[str] = msgspec.field(default_factory=list)
    # the files the sweep writes, as read: relative path -> [size, ctime_ns, inode, sha256]
    owned: dict[str, tuple[int, int, int, str]] = msgspec.field(default_factory=dict)
    taken_ns: int = 0  # when the inputs were taken (wall clock, ns)


class Taken(msgspec.Struct, frozen=True):
    """A fingerprint of the inputs as they are now, the newest note's time stamp (ns), the
    digests of the files the sweep writes and when all this was taken."""

    inputs: str
    newest_ns: int
    owned: dict[str, tuple[int, int, int, str]] = msgspec.field(default_factory=dict)
    taken_ns: int = 0


def settings_key(
    dreaming: DreamingConfig,
    model: ModelConfig | None,
    *,
    now: datetime,
    zone: tzinfo,
    agents: Sequence[str],
    sessions: Sequence[tuple[str, Path]],
    owners: frozenset[str] = frozenset(),
    trusted_unmarked: frozenset[str] = frozenset(),
) -> str:
    """A digest of what a sweep is asked to do (not of what it reads)."""
    document = {
        "dreamd": __version__,
        "day": day_of(now, zone),
        "zone": str(zone),
        "dreaming": dreaming,
        "model": model,
        "agents": list(agents),
        "sessions": [[agent, str(path)] for agent, path in sessions],
        "owners": sorted(owners),
        "trustedUnmarked": sorted(trusted_unmarked),
    }
    return hashlib.sha256(msgspec.json.encode(document)).hexdigest()


def _stats(paths: Iterable[Path]) -> Iterable[str]:
    for path in paths:
        try:
            stat = path.stat()
        except OSError:
            yield f"{path}\0-"
            continue
        yield f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}"


def _folder(directory: Path) -> list[Path]:
    try:
        return sorted(p for p in directory.iterdir() if p.is_file())
    except OSError:
        return []


def _walk(directory: str, rel: str, out: list[tuple[str, int, int]]) -> None:
    """Every file under ``directory`` with size and time stamp, as the notes walk sees them.

    A superset of the sweep's notes (any file, not only dated notes; symlinked folders are not
    entered, as the sweep never enters them): a change to any of them invalidates.
    """
    try:
        entries = list(os.scandir(directory))
    except OSError:
        out.append((rel, -1, -1))
        return
    for entry in entries:
        child = f"{rel}/{entry.name}"
        try:
            if entry.is_dir(follow_symlinks=False):
                if child == STATE_DIR:
                    _walk(f"{entry.path}/session-corpus", SESSION_CORPUS_DIR, out)
                elif child not in (REPORTS_DIR, GRAPH_DIR, DREAM_REPORTS_DIR):
                    _walk(entry.path, child, out)
                continue
            if child == DREAM_LOG:  # written by the sweep: compared by content in take()
                continue
            stat = entry.stat()
        except OSError:
            out.append((child, -1, -1))
            continue
        out.append((child, stat.st_size, stat.st_mtime_ns))


def take(
    root: Path,
    *,
    now: datetime,
    zone: tzinfo,
    sessions: Sequence[tuple[str, Path]],
    known: Mapping[str, tuple[int, int, int, str]] | None = None,
    trusted_before_ns: int = 0,
) -> Taken:
    """Fingerprint the inputs of a sweep of ``root`` as they are on disk now.

    A file the sweep writes is compared by its bytes; ``known`` (from the stored fingerprint)
    gives the digest of each as it was then, reused when its size, change time and inode are
    unchanged and that change time is older than ``trusted_before_ns`` (a file changed in the
    same tick as it was read could keep its change time: it is read again).
    """
    taken_ns = time.time_ns()
    digest = hashlib.sha256()
    files: list[tuple[str, int, int]] = []
    if (root / NOTES_DIR).is_dir() and not (root / NOTES_DIR).is_symlink():
        _walk(str(root / NOTES_DIR), NOTES_DIR, files)
    files.sort()
    digest.update(repr(files).encode())
    newest = max((mtime for _, _, mtime in files), default=0)
    for _, directory in sessions:
        for line in _stats(_folder(directory)):
            digest.update(f"t\0{line}\n".encode())
    for line in _stats_of(_openclaw_databases()):  # OpenClaw's SQLite state, merged on read
        digest.update(f"o\0{line}\n".encode())
    base = str(root)
    owned: dict[str, tuple[int, int, int, str]] = {}
    for relpath in _owned(day_of(now, zone)):
        found = _owned_digest(f"{base}/{relpath}", (known or {}).get(relpath), trusted_before_ns)
        if found is None:
            digest.update(f"f\0{relpath}\0-\n".encode())
            continue
        owned[relpath] = found
        digest.update(f"f\0{relpath}\0{found[3]}\n".encode())
    return Taken(digest.hexdigest(), newest, owned, taken_ns)


def _owned_digest(
    path: str, known: tuple[int, int, int, str] | None, trusted_before_ns: int
) -> tuple[int, int, int, str] | None:
    """``(size, ctime_ns, inode, sha256)`` of a file the sweep writes, or None when absent.

    The change time, not the modification time: writing a file sets it, and no program can set
    it back (``touch`` and ``utime`` set the modification time, and set the change time to now).
    """
    try:
        info = os.stat(path)  # noqa: PTH116 - a string path, one call per file
        if (
            known is not None
            and known[:3] == (info.st_size, info.st_ctime_ns, info.st_ino)
            and info.st_ctime_ns < trusted_before_ns
        ):
            return known
        with open(path, "rb") as handle:  # noqa: PTH123 - one call per file
            data = handle.read()
    except OSError:
        return None
    return (info.st_size, info.st_ctime_ns, info.st_ino, hashlib.sha256(data).hexdigest())


@functools.lru_cache(maxsize=4)
def _owned(today: str) -> tuple[str, ...]:
    """The files a sweep writes itself, compared by content (relative paths) on ``today``."""
    owned = [MEMORY_FILE, MEMORY_FILE_LOWER, DREAMS_FILE, DREAMS_FILE_LOWER, BANK_LEDGER]
    owned += [GRAPH_LEDGER, TRUTH_LEDGER, DREAM_LOG, f"{DREAM_REPORTS_DIR}/{today}.md"]
    owned += [f"{GRAPH_DIR}/{name}.json" for name in GRAPH_EXPORTS]
    owned += [f"{STATE_DIR}/{fmt.name}" for fmt in _TABLES] + [PENDING_FILE]
    owned += [report_path(phase, today) for phase in ("light", "rem", "deep")]
    return tuple(owned)


def _openclaw_databases() -> tuple[str, ...]:
    """Where OpenClaw's state database may be (as :mod:`dreamd.workspace.openclaw_state`)."""
    return _databases_under(
        os.environ.get("OPENCLAW_STATE_DIR", ""),
        os.environ.get("OPENCLAW_CONFIG_PATH", ""),
        os.environ.get("HOME", ""),
    )


@functools.lru_cache(maxsize=8)
def _databases_under(state_dir: str, config_path: str, home: str) -> tuple[str, ...]:
    dirs = [state_dir.strip()]
    config = config_path.strip()
    dirs.append(str(Path(config).expanduser().parent) if config else "")
    dirs.append(str(Path.home() / ".openclaw"))
    base = [Path(d).expanduser() / "state" / "openclaw.sqlite" for d in dirs if d]
    return tuple(f"{path}{suffix}" for path in base for suffix in ("", "-wal"))


def _stats_of(paths: Iterable[str]) -> list[str]:
    found = []
    for path in paths:
        with contextlib.suppress(OSError):
            info = os.stat(path)  # noqa: PTH116 - a string path, no Path object per call
            found.append(f"{path}\0{info.st_size}\0{info.st_mtime_ns}")
    return found


def _path(root: Path) -> Path:
    return root / STATE_DIR / FINGERPRINT_FILE


def load(root: Path) -> Fingerprint | None:
    """The stored fingerprint, or ``None`` (absent, unreadable or from another format)."""
    try:
        return msgspec.json.decode(_path(root).read_bytes(), type=Fingerprint)
    except (OSError, msgspec.DecodeError):
        return None


def save(
    root: Path,
    key: str,
    taken: Taken,
    *,
    read_started_ns: int,
    summary: Mapping[str, Any],
    warnings: Sequence[str],
) -> bool:
    """Store the fingerprint of a verified no-op sweep unless a note was racily fresh."""
    if taken.newest_ns >= read_started_ns - RACY_NS:
        forget(root)
        return False
    fingerprint = Fingerprint(
        key=key,
        inputs=taken.inputs,
        summary=dict(summary),
        warnings=list(warnings),
        owned=taken.owned,
        taken_ns=taken.taken_ns,
    )
    write_atomic(_path(root), msgspec.json.encode(fingerprint) + b"\n", mode=0o600)
    return True


def forget(root: Path) -> None:
    """Drop the stored fingerprint (the next sweep does the full work)."""
    with contextlib.suppress(FileNotFoundError):
        _path(root).unlink()


@dataclass(frozen=True)
class Memo:
    """One sweep's use of the fingerprint: ``recall`` before reading, ``remember`` after."""

    key: str
    now: datetime
    zone: tzinfo
    sessions: Sequence[tuple[str, Path]] = ()

    def recall(self, root: Path) -> Fingerprint | None:
        """The stored fingerprint when it matches the workspace as it is now, else ``None``."""
        stored = load(root)
        if stored is None or stored.key != self.key:
            return None
        taken = take(
            root,
            now=self.now,
            zone=self.zone,
            sessions=self.sessions,
            known=stored.owned,
            trusted_before_ns=stored.taken_ns - RACY_NS,
        )
        return stored if taken.inputs == stored.inputs else None

    def remember(
        self,
        root: Path,
        *,
        wrote: bool,
        read_started_ns: int,
        summary: Mapping[str, Any],
        warnings: Sequence[str],
    ) -> None:
        """After a full sweep: store its fingerprint if it wrote nothing, else drop the old one."""
        if wrote:
            forget(root)
            return
        taken = take(root, now=self.now, zone=self.zone, sessions=self.sessions)
        save(
            root,
            self.key,
            taken,
            read_started_ns=read_started_ns,
            summary=summary,
            warnings=warnings,
        )
