"""The graph's edge: the one type a bundle search needs, kept apart from the fragment builder.

Bundle search walks edges read from the index; importing it must not load what builds
fragments from notes (salience cues, keyword statistics).

May import: msgspec.
"""

from __future__ import annotations

import msgspec

__all__ = ["Edge"]


class Edge(msgspec.Struct, frozen=True, array_like=True):
    """A directed edge from the tip towards the base, with its cost and why it exists."""

    src: str
    dst: str
    cost: float
    reason: str
    line: int = 0
