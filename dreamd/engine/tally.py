"""The night's promotions, counted once, from the events log. Pure.

A promotion is a line written into ``MEMORY.md``: each write appends one
``memory.promotion.applied`` event listing the candidates it wrote (``key``, ``path``,
``startLine``, ``endLine``, ``score``). The night's promotions are the distinct keys of the
events whose ``timestamp`` falls on the dreaming day, in the dreaming zone. Every place that
shows a number of promotions for a day uses this one count: the sweep's log line and summary,
``status``, the Dreams page, ``DREAMS.md``'s deep report, the dream report, the API, metrics
and chat. A key reconciled under a marker already in ``MEMORY.md`` (nothing written) and a row
merely marked promoted by the other tool are not promotions of the night.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any

from dreamd.clock import day_of, parse_instant

__all__ = ["APPLIED", "Promoted", "promotions_on"]

APPLIED = "memory.promotion.applied"


@dataclass(frozen=True)
class Promoted:
    """One promotion of the night: what was written, from where, when."""

    key: str
    path: str
    start_line: int
    end_line: int
    at: str

    @property
    def source(self) -> str:
        """``path:start-end``."""
        return f"{self.path}:{self.start_line}-{self.end_line}"


def _item(candidate: Any, at: str) -> Promoted | None:
    if not isinstance(candidate, Mapping) or not isinstance(candidate.get("key"), str):
        return None
    start, end = candidate.get("startLine"), candidate.get("endLine")
    return Promoted(
        key=candidate["key"],
        path=str(candidate.get("path") or ""),
        start_line=start if isinstance(start, int) else 0,
        end_line=end if isinstance(end, int) else 0,
        at=at,
    )


def promotions_on(
    events: Iterable[Mapping[str, Any]], day: str, zone: tzinfo
) -> tuple[Promoted, ...]:
    """The promotions written on dreaming ``day`` (each key once, first write kept, in order)."""
    found: dict[str, Promoted] = {}
    for event in events:
        if event.get("type") != APPLIED:
            continue
        at = str(event.get("timestamp") or "")
        moment = parse_instant(at)
        if moment is None or day_of(moment, zone) != day:
            continue
        candidates = event.get("candidates")
        for candidate in candidates if isinstance(candidates, list) else ():
            item = _item(candidate, at)
            if item is not None:
                found.setdefault(item.key, item)
    return tuple(found.values())
