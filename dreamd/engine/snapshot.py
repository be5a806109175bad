"""What a sweep knows about one workspace at one moment: pure data, read by ``workspace``.

The planners in ``dreamd.phases`` see only a :class:`Snapshot`; every file they may replace carries
the digest of the bytes it was read from, so the writer can refuse to overwrite a file that
changed after planning (compare-and-swap).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dreamd.engine.state import (
    DAILY_CHECKPOINTS,
    PHASE_SIGNALS,
    RECALL_STORE,
    SESSION_CHECKPOINTS,
    SESSION_SEEN,
    DailyCheckpoint,
    PhaseSignal,
    RecallEntry,
    SeenMessages,
    SessionCheckpoint,
    Table,
)
from dreamd.engine.transcripts import TranscriptRead

__all__ = ["NoteStat", "Snapshot", "TextFile"]


@dataclass(frozen=True, slots=True)
class TextFile:
    """A file's decoded text and the sha256 of its bytes (``None`` digest: it does not exist)."""

    path: str
    text: str
    digest: str | None
    valid_utf8: bool = True

    @property
    def exists(self) -> bool:
        """True when the file was present when read."""
        return self.digest is not None


@dataclass(frozen=True, slots=True)
class NoteStat:
    """A daily note present on disk."""

    path: str
    day: str
    mtime_ms: float
    size: int


def _empty_store() -> Table[RecallEntry]:
    return RECALL_STORE.empty()


def _empty_signals() -> Table[PhaseSignal]:
    return PHASE_SIGNALS.empty()


def _empty_daily() -> Table[DailyCheckpoint]:
    return DAILY_CHECKPOINTS.empty()


@dataclass(frozen=True)
class Snapshot:
    """One workspace as read for planning."""

    root: Path
    agents: tuple[str, ...] = ("main",)
    notes: Mapping[str, NoteStat] = field(default_factory=dict)
    texts: Mapping[str, TextFile] = field(default_factory=dict)
    memory: TextFile = field(default_factory=lambda: TextFile("MEMORY.md", "", None))
    dreams: TextFile = field(default_factory=lambda: TextFile("DREAMS.md", "", None))
    reports: Mapping[str, TextFile] = field(default_factory=dict)
    store: Table[RecallEntry] = field(default_factory=_empty_store)
    signals: Table[PhaseSignal] = field(default_factory=_empty_signals)
    daily: Table[DailyCheckpoint] = field(default_factory=_empty_daily)
    transcripts: tuple[TranscriptRead, ...] = ()
    owners: frozenset[str] = frozenset()  # chat owner ids: whose turns in a shared session count
    session_checkpoints: Table[SessionCheckpoint] = field(default_factory=SESSION_CHECKPOINTS.empty)
    session_seen: Table[SeenMessages] = field(default_factory=SESSION_SEEN.empty)
    skipped: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
