"""What the graph's part of a sweep tells a model, and what a model's checked answer holds.

Data only, so :mod:`dreamd.engine.plan` can carry a :class:`DreamworkRequest` in its
``ModelRequests`` without importing the planner: :class:`Tonight` (what the rest of the sweep
tells the report), :class:`PatternAsk` (a pattern whose ``trigger``/``response`` a model may
phrase), :class:`DreamworkRequest` (everything needed to ask, to check the answer and to plan
again) and :class:`Prose` (the answer, once checked by :mod:`dreamd.engine.dreamwork.prose`).
Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dreamd.engine.dreamwork.report import Night
from dreamd.engine.snapshot import DreamworkFiles

__all__ = ["DreamworkRequest", "PatternAsk", "Prose", "Tonight"]


@dataclass(frozen=True)
class Tonight:
    """What the rest of the sweep tells the report."""

    day: str
    stamp: str
    fresh: bool
    store_rows: int
    store_cap: int
    ranked: int
    promoted: Sequence[str]
    retired: int
    refused: Mapping[str, int] = field(default_factory=dict)  # screen gate -> candidates
    replaced: Sequence[tuple[str, str]] = ()  # MEMORY.md entries replaced: (old, new)
    archived: Sequence[str] = ()  # MEMORY.md entries archived to make room
    durable: int = 0  # lasting facts MEMORY.md held before the night
    lost: int = 0  # of them, archived without a replacement
    bank: Sequence[str] = ()  # memory bank pages the night changed


@dataclass(frozen=True, slots=True)
class PatternAsk:
    """A pattern created or updated tonight: its id, kind, topic and the occasions' words."""

    id: str
    kind: str
    topic: str
    examples: tuple[str, ...]


@dataclass(frozen=True)
class Prose:
    """A model's checked words: a pattern's (trigger, response) by id, and the report's lines
    (``None``: that section keeps its own lines)."""

    patterns: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    learned: tuple[str, ...] | None = None
    focus: tuple[str, ...] | None = None
    health: tuple[str, ...] | None = None


@dataclass(frozen=True)
class DreamworkRequest:
    """What the model is shown and how the plan is made again with its answer.

    ``paths`` are the files the deterministic plan writes (the plan made again replaces them);
    ``material`` the night's lines a report line must stand on.
    """

    files: DreamworkFiles
    tonight: Tonight
    paths: frozenset[str]
    patterns: tuple[PatternAsk, ...]
    night: Night | None
    material: tuple[str, ...]
