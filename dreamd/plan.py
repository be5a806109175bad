"""A sweep's plan: the data the pure planners hand to the one writer.

A :class:`SweepPlan` lists whole-file writes (each with the digest of the bytes it was planned
from, ``None`` meaning the file must not exist yet), source files that must still be unchanged
when the writes happen, the new state tables, and audit events. Events attached to a write are
recorded only when that write really changes the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dreamd.state import (
    DailyCheckpoint,
    PhaseSignal,
    RecallEntry,
    SeenMessages,
    SessionCheckpoint,
    Table,
)

if TYPE_CHECKING:
    from dreamd.phases.modelwork import ModelRequests
    from dreamd.recall.longterm import Retired

__all__ = ["FileWrite", "SweepPlan"]

Event = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class FileWrite:
    """Replace ``path`` (workspace-relative) with ``text`` if it still has digest ``expected``."""

    path: str
    text: str
    expected: str | None
    kind: str  # "memory", "dreams", "report", "note" or "corpus"
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
