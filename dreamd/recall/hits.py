"""The search hit: what recall returns and what recall traces record."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Hit"]


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result: a line range of a workspace file.

    ``path`` is workspace-relative with forward slashes; lines are 1-based and inclusive;
    ``score`` is normalised to [0, 1] (a snippet matching every query term well scores >= 0.6).
    """

    path: str
    start_line: int
    end_line: int
    snippet: str
    score: float
    kind: str = "note"  # "daily" (a short-term note), "memory" (MEMORY.md), "note", "corpus"
    day: str | None = None
    entities: tuple[str, ...] = field(default=())

    @property
    def source(self) -> str:
        """``memory/2026-03-01.md#L12-L14``: a citation for people."""
        return f"{self.path}#L{self.start_line}-L{self.end_line}"
