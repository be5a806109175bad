"""The search hit: what recall returns and what recall traces record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Hit", "hit_json"]


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result: a line range of a workspace file.

    ``path`` is workspace-relative with forward slashes; lines are 1-based and inclusive;
    ``score`` is normalised to [0, 1] (a snippet matching every query term well scores >= 0.6).
    ``kind`` is the file's kind, or a Retain fact's (world, experience, opinion, observation),
    with the opinion's ``confidence``; ``entities`` are its ``@Name`` tags, lowercased. ``why``
    names the ranking signals that placed it; ``context`` marks a line that holds no query term
    and is shown for the lines around it — it is not recorded as recalled. Neither is part of
    equality.
    """

    path: str
    start_line: int
    end_line: int
    snippet: str
    score: float
    kind: str = "note"  # "daily", "memory" (MEMORY.md), "note", "corpus", or a Retain kind
    day: str | None = None
    entities: tuple[str, ...] = field(default=())
    confidence: float | None = None
    why: tuple[tuple[str, float], ...] = field(default=(), compare=False)
    context: bool = field(default=False, compare=False)

    @property
    def source(self) -> str:
        """``memory/2026-03-01.md#L12-L14``: a citation for people."""
        return f"{self.path}#L{self.start_line}-L{self.end_line}"


def hit_json(hit: Hit) -> dict[str, Any]:
    """A hit as ``memory search --json`` prints it (camelCase; ``why`` as an object)."""
    return {
        "path": hit.path,
        "startLine": hit.start_line,
        "endLine": hit.end_line,
        "snippet": hit.snippet,
        "score": hit.score,
        "source": hit.source,
        "kind": hit.kind,
        "day": hit.day,
        "entities": list(hit.entities),
        "confidence": hit.confidence,
        "context": hit.context,
        "why": dict(hit.why),
    }
