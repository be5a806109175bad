"""A timeline of dated statements: what is current, and what was true until when.

Each item is a statement with the day it was made (a note's day, a transcript line's day, the
day a MEMORY.md entry's source was written) and its place in that day. Items are taken in time
order; a later item that :func:`~dreamd.engine.facts.relations.replaces` an earlier one ends
it: the earlier is *superseded* from the later one's day ("was …, until <day>"). An item that
states the same fact as an earlier one (:func:`~dreamd.engine.facts.relations.same_fact`)
repeats it: the earlier stays the one that speaks for both, and a later change ends both.
Same-day items are ordered by their place in the day. Pure; quadratic in the items, which are
a MEMORY.md's entries, a search's hits or a night's candidates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dreamd.engine.facts.relations import replaces, same_fact
from dreamd.engine.facts.statement import Statement

__all__ = ["Dated", "Ending", "Timeline", "plan_timeline"]


@dataclass(frozen=True, slots=True)
class Dated:
    """A statement, the day it was made and where (``ref``: the caller's name for it)."""

    ref: str
    day: str
    statement: Statement
    order: int = 0  # its place in the day (line, rank)


@dataclass(frozen=True, slots=True)
class Ending:
    """Why an item is no longer current: the item that replaced it, from which day."""

    by: str
    day: str


@dataclass(frozen=True)
class Timeline:
    """What :func:`plan_timeline` found."""

    ended: Mapping[str, Ending]  # ref -> what replaced it
    repeats: Mapping[str, str]  # ref -> the earlier ref that states the same fact

    def current(self, ref: str) -> bool:
        """True when nothing replaced ``ref``."""
        return ref not in self.ended

    def as_of(self, items: Sequence[Dated], day: str) -> list[Dated]:
        """The items that were current at the end of ``day``."""
        return [
            item
            for item in items
            if item.day <= day and (item.ref not in self.ended or self.ended[item.ref].day > day)
        ]


def plan_timeline(items: Sequence[Dated]) -> Timeline:
    """Which items replaced which, and which repeat which (see the module rules)."""
    ordered = sorted(items, key=lambda item: (item.day, item.order, item.ref))
    ended: dict[str, Ending] = {}
    repeats: dict[str, str] = {}
    for index, later in enumerate(ordered):
        for earlier in ordered[:index]:
            if earlier.ref == later.ref or earlier.ref in repeats:
                continue
            if same_fact(later.statement, earlier.statement):
                if later.ref not in repeats and earlier.ref not in ended:
                    repeats[later.ref] = earlier.ref
                continue
            if earlier.ref not in ended and replaces(later.statement, earlier.statement):
                ended[earlier.ref] = Ending(later.ref, later.day)
    for ref, first in repeats.items():  # a change that ended the first ends its repeats too
        if first in ended and ref not in ended:
            ended[ref] = ended[first]
    return Timeline(ended, repeats)
