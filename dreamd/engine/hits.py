"""The search hit: what recall returns and what recall traces record."""

from __future__ import annotations

from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any


__all__ = ["Earlier", "Hit", "hit_json"]


class Earlier(Value):
    """What a hit's line replaced: the older line, where it was, its day and the day it ended
    (the day of the line that replaced it): shown as "was …, until <until>"."""

    __match_args__ = ("snippet", "source", "day", "until")
    __slots__ = __match_args__

    snippet: str
    source: str
    day: str | None
    until: str

    def __init__(self, snippet: str, source: str, day: str | None, until: str) -> None:
        self.snippet = snippet
        self.source = source
        self.day = day
        self.until = until


class Hit(Value):
    """One search result: a line range of a workspace file.

    ``path`` is workspace-relative with forward slashes; lines are 1-based and inclusive;
    ``score`` is normalised to [0, 1] (a snippet matching every query term well scores >= 0.6).
    ``kind`` is the file's kind, or a Retain fact's (world, experience, opinion, observation),
    with the opinion's ``confidence``; ``entities`` are its ``@Name`` tags, lowercased. ``why``
    names the ranking signals that placed it; ``context`` marks a line that holds no query term
    and is shown for the lines around it — it is not recorded as recalled. ``also`` holds the
    hits of the other lines that state the same fact (this one speaks for them: one result per
    fact; they are recalled with it), and ``was`` the older lines this one replaced
    (:class:`Earlier`; never recalled). None of the four is part of equality.

    Immutable and hashable. A :class:`~dreamd.value.Value` (its ``repr`` and pickling), not a
    dataclass: a search runs in a fresh process on every agent turn and :mod:`dataclasses` is
    slow to import. Unlike other values it refuses assignment at run time too.
    """

    __match_args__ = (
        "path",
        "start_line",
        "end_line",
        "snippet",
        "score",
        "kind",
        "day",
        "entities",
        "confidence",
        "why",
        "context",
        "also",
        "was",
    )
    __slots__ = __match_args__

    path: str
    start_line: int
    end_line: int
    snippet: str
    score: float
    kind: str  # "daily", "memory" (MEMORY.md), "note", "corpus", or a Retain kind
    day: str | None
    entities: tuple[str, ...]
    confidence: float | None
    why: tuple[tuple[str, float], ...]
    context: bool
    also: tuple[Hit, ...]
    was: tuple[Earlier, ...]

    def __init__(
        self,
        path: str,
        start_line: int,
        end_line: int,
        snippet: str,
        score: float,
        kind: str = "note",
        day: str | None = None,
        entities: tuple[str, ...] = (),
        confidence: float | None = None,
        why: tuple[tuple[str, float], ...] = (),
        context: bool = False,
        also: tuple[Hit, ...] = (),
        was: tuple[Earlier, ...] = (),
    ) -> None:
        put = object.__setattr__
        put(self, "path", path)
        put(self, "start_line", start_line)
        put(self, "end_line", end_line)
        put(self, "snippet", snippet)
        put(self, "score", score)
        put(self, "kind", kind)
        put(self, "day", day)
        put(self, "entities", entities)
        put(self, "confidence", confidence)
        put(self, "why", why)
        put(self, "context", context)
        put(self, "also", also)
        put(self, "was", was)

    def _key(self) -> tuple[object, ...]:
        """The fields equality and the hash compare (``why``, ``context``, ``also`` and ``was``
        are not)."""
        return (
            self.path,
            self.start_line,
            self.end_line,
            self.snippet,
            self.score,
            self.kind,
            self.day,
            self.entities,
            self.confidence,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hit) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    @property
    def source(self) -> str:
        """``memory/2026-03-01.md#L12-L14``: a citation for people."""
        return f"{self.path}#L{self.start_line}-L{self.end_line}"


def hit_json(hit: Hit) -> dict[str, Any]:
    """A hit as ``memory search --json`` prints it (camelCase; ``why`` as an object; ``also``
    the other sources of the same fact; ``was`` what it replaced)."""
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
        "also": [other.source for other in hit.also],
        "was": [
            {"snippet": e.snippet, "source": e.source, "day": e.day, "until": e.until}
            for e in hit.was
        ],
    }
