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
from dreamd.engine.tally import Promoted
from dreamd.engine.transcripts import TranscriptRead
from dreamd.layout import BANK_LEDGER, PENDING_TASKS_FILE, TRUTH_LEDGER, USER_STATE_FILE

__all__ = ["BankFiles", "DreamworkFiles", "NoteStat", "Snapshot", "TextFile", "TruthFiles"]


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


@dataclass(frozen=True)
class BankFiles:
    """What reflecting reads: the pages under ``bank/``, the bank's ledger, the notes whose
    facts it reads afresh (the others' facts come from the ledger) and ``MEMORY.md``."""

    pages: Mapping[str, TextFile] = field(default_factory=dict)
    ledger: TextFile = field(default_factory=lambda: TextFile(BANK_LEDGER, "", None))
    notes: Mapping[str, TextFile] = field(default_factory=dict)
    memory: TextFile | None = None  # MEMORY.md: a person's own lines say who people are


@dataclass(frozen=True)
class DreamworkFiles:
    """What the graph, the patterns and the report read: the graph ledger, the texts of the
    graph's notes (those it holds and those in its lookback), every note's (mtime, size), the
    export, the pattern and topic pages, ``.learnings/``, today's report and the dream log."""

    ledger: TextFile
    sources: Mapping[str, TextFile] = field(default_factory=dict)
    stats: Mapping[str, tuple[float, int]] = field(default_factory=dict)
    exports: Mapping[str, TextFile] = field(default_factory=dict)
    pages: Mapping[str, TextFile] = field(default_factory=dict)
    learnings: Mapping[str, TextFile] = field(default_factory=dict)
    report: TextFile | None = None
    log: TextFile | None = None


@dataclass(frozen=True)
class TruthFiles:
    """What the truth files are planned around: both files and their ledger as read, and those
    of the two that are symbolic links (never written through)."""

    state: TextFile = field(default_factory=lambda: TextFile(USER_STATE_FILE, "", None))
    pending: TextFile = field(default_factory=lambda: TextFile(PENDING_TASKS_FILE, "", None))
    ledger: TextFile = field(default_factory=lambda: TextFile(TRUTH_LEDGER, "", None))
    links: frozenset[str] = frozenset()


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
    archive: TextFile = field(default_factory=lambda: TextFile("memory/archive.md", "", None))
    reports: Mapping[str, TextFile] = field(default_factory=dict)
    store: Table[RecallEntry] = field(default_factory=_empty_store)
    signals: Table[PhaseSignal] = field(default_factory=_empty_signals)
    daily: Table[DailyCheckpoint] = field(default_factory=_empty_daily)
    transcripts: tuple[TranscriptRead, ...] = ()
    owners: frozenset[str] = frozenset()  # chat owner ids: whose turns in a shared session count
    trusted_unmarked: frozenset[str] = frozenset()  # agents whose unmarked direct turns count
    transcripts_gone: tuple[str, ...] = ()  # checkpoint keys of transcripts no longer on disk
    session_checkpoints: Table[SessionCheckpoint] = field(default_factory=SESSION_CHECKPOINTS.empty)
    session_seen: Table[SeenMessages] = field(default_factory=SESSION_SEEN.empty)
    skipped: tuple[str, ...] = ()
    unreadable: frozenset[str] = frozenset()  # notes on disk that were not read (size, bytes)
    warnings: tuple[str, ...] = ()
    note_warnings: tuple[str, ...] = ()  # notes skipped or read with a fallback, for status
    bank: BankFiles | None = None  # read when reflecting is on (``[dreaming.reflect]``)
    dreamwork: DreamworkFiles | None = None  # read when the graph is on (``[dreaming.graph]``)
    truth: TruthFiles | None = None  # read when the truth files are on (``truth_files``)
    state_sources: tuple[str, ...] = ()  # where the state tables came from, in words
    openclaw: bool = False  # OpenClaw dreamed here too (its SQLite state or renamed files)
    promoted_today: tuple[Promoted, ...] = ()  # the night's promotions so far (engine.tally)
