"""A sweep's plan: the data the pure planners hand to the one writer.

A :class:`SweepPlan` lists whole-file writes (each with the digest of the bytes it was planned
from, ``None`` meaning the file must not exist yet), source files that must still be unchanged
when the writes happen, the new state tables, and audit events. Events attached to a write are
recorded only when that write really changes the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dreamd.engine.dreamwork.request import DreamworkRequest
from dreamd.engine.phases.consolidate import Candidate
from dreamd.engine.phases.dreams import DreamsDraft
from dreamd.engine.phases.promotion import PromotionEntry
from dreamd.engine.retirement import Retired
from dreamd.engine.snapshot import BankFiles, NoteStat
from dreamd.engine.state import (
    DailyCheckpoint,
    PhaseSignal,
    RecallEntry,
    SeenMessages,
    SessionCheckpoint,
    Table,
)

__all__ = [
    "BankRequest",
    "ConsolidationInput",
    "DiaryInput",
    "FileWrite",
    "ModelRequests",
    "SweepPlan",
]

Event = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class FileWrite:
    """Replace ``path`` (workspace-relative) with ``text`` if it still has digest ``expected``."""

    path: str
    text: str
    expected: str | None
    kind: str  # "memory", "dreams", "report", "note", "corpus" or "bank"
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class SweepPlan:
    """Everything one sweep of one workspace would change."""

    writes: tuple[FileWrite, ...] = ()
    sources: Mapping[str, str] = field(default_factory=dict)  # path -> digest that must hold
    store: Table[RecallEntry] | None = None
    signals: Table[PhaseSignal] | None = None
    daily: Table[DailyCheckpoint] | None = None
    session_checkpoints: Table[SessionCheckpoint] | None = None
    session_seen: Table[SeenMessages] | None = None
    summary: Mapping[str, Any] = field(default_factory=dict)
    model: ModelRequests | None = None  # what a model could improve; see phases.modelwork
    retired: tuple[Retired, ...] = ()  # rows leaving the store for the long-term layer


@dataclass(frozen=True)
class DiaryInput:
    """What the diary entry may draw on."""

    fragments: tuple[str, ...]
    themes: tuple[str, ...]
    promotions: tuple[str, ...]
    recent: tuple[str, ...]


@dataclass(frozen=True)
class ConsolidationInput:
    """MEMORY.md as read, and the candidates this sweep promotes."""

    memory: str
    candidates: tuple[Candidate, ...]
    append_only: tuple[PromotionEntry, ...]
    day: str
    max_chars: int
    max_loss: float


@dataclass(frozen=True)
class BankRequest:
    """The notes a model could read bank facts from, and the bank as read (to plan it again)."""

    bank: BankFiles
    notes: Mapping[str, NoteStat]
    texts: Mapping[str, str]  # path -> text of the notes the claim rule read


@dataclass(frozen=True)
class ModelRequests:
    """What a sweep could ask a model, and how to write DREAMS.md afterwards."""

    dreams: DreamsDraft
    diary: DiaryInput | None
    consolidation: ConsolidationInput | None
    bank: BankRequest | None = None
    dreamwork: DreamworkRequest | None = None  # patterns and the dream report's prose
