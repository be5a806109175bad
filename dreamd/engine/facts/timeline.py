"""A timeline of dated statements: what is current, and what was true until when.

Each item is a statement with the day it was made (a note's day, a transcript line's day, the
day a MEMORY.md entry's source was written) and its place in that day. Items are taken in time
order; a later item that :func:`~dreamd.engine.facts.relations.replaces` an earlier one ends
it: the earlier is *superseded* from the later one's day ("was …, until <day>"). An item that
states the same fact as an earlier one (:func:`~dreamd.engine.facts.relations.same_fact`)
repeats it: the earlier stays the one that speaks for both, and a later change ends both (a
change that names only the repeat, in words the first does not share, ends the repeat).
Same-day items are ordered by their place in the day. Only items that share a subject, a topic
word's stem or a name are compared (nothing else can relate; a correction also meets the lines
whose names begin with the same three letters as one of its own, for a name spelled another
way), and for each shared word only the
:data:`MAX_PEERS` most recent earlier items: a store of hundreds of near-identical lines stays
cheap, and what replaces a fact is rarely more than a few dozen similar lines after it. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dreamd.engine.facts.relations import relation
from dreamd.engine.facts.statement import Statement
from dreamd.engine.text.stemming import stem
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["MAX_PEERS", "Dated", "Ending", "Timeline", "plan_timeline"]

MAX_PEERS = 48  # earlier items compared per shared word: the most recent ones


class Dated(Value):
    """A statement, the day it was made and where (``ref``: the caller's name for it)."""

    __match_args__ = ("ref", "day", "statement", "order")
    __slots__ = __match_args__
    ref: Final[str]
    day: Final[str]
    statement: Final[Statement]
    order: Final[int]  # its place in the day (line, rank)

    def __init__(self, ref: str, day: str, statement: Statement, order: int = 0) -> None:
        self.ref, self.day, self.statement, self.order = ref, day, statement, order


class Ending(Value):
    """Why an item is no longer current: the item that replaced it, from which day."""

    __match_args__ = ("by", "day")
    __slots__ = __match_args__
    by: Final[str]
    day: Final[str]

    def __init__(self, by: str, day: str) -> None:
        self.by, self.day = by, day


class Timeline(Value):
    """What :func:`plan_timeline` found."""

    __match_args__ = ("ended", "repeats")
    __slots__ = __match_args__
    ended: Final[Mapping[str, Ending]]  # ref -> what replaced it
    repeats: Final[Mapping[str, str]]  # ref -> the earlier ref that states the same fact

    def __init__(self, ended: Mapping[str, Ending], repeats: Mapping[str, str]) -> None:
        self.ended, self.repeats = ended, repeats

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


def _keys(statement: Statement) -> set[str]:
    """What two related statements share at least one of: subject, a topic word (by its stem:
    "rehearsal" and "rehearses"), a name."""
    keys = {f"t:{stem(word)}" for word in statement.topic}
    keys.update(f"v:{value}" for value in statement.values if value.startswith(("name:", "id:")))
    if statement.subject and statement.subject != "we":
        keys.add(f"v:name:{statement.subject}")
        keys.add(f"t:{stem(statement.subject)}")  # "Lisbon is cancelled", "Half-term: Lisbon …"
    return keys


def _spellings(statement: Statement) -> set[str]:
    """A key each of its longer names shares with the same name spelled another way
    ("Kaldestad", "Kalvestad"): what a correction of a spelling is compared by."""
    names = {v[5:] for v in statement.values if v.startswith("name:")}
    if statement.subject and statement.subject != "we":
        names.add(statement.subject)
    return {f"s:{name[:3]}" for name in names if len(name) >= 5}


def plan_timeline(
    items: Sequence[Dated],
    *,
    fixed: frozenset[str] = frozenset(),
    owners: Mapping[str, str] | None = None,
) -> Timeline:
    """Which items replaced which, and which repeat which (see the module rules). Not compared:
    two items both in ``fixed`` (lines nobody may change, such as a person's), and two items
    ``owners`` gives the same owner (the sentences of one line)."""
    owner = owners or {}
    ordered = sorted(items, key=lambda item: (item.day, item.order, item.ref))
    ended: dict[str, Ending] = {}
    repeats: dict[str, str] = {}
    seen: dict[str, list[int]] = {}
    for index, later in enumerate(ordered):
        keys = _keys(later.statement)
        every = keys | _spellings(later.statement)
        # a repeat is compared only with a line that says a change: a plain line that states
        # it again already repeats its first, and most lines are plain (a long store's cost)
        changes = later.statement.change is not None or later.statement.polarity < 0
        asked = every if later.statement.change == "correction" else keys
        near = sorted({i for key in asked for i in seen.get(key, ())})
        for key in every:
            bucket = seen.setdefault(key, [])
            bucket.append(index)
            if len(bucket) > MAX_PEERS:
                del bucket[0]
        found: list[tuple[Dated, str]] = []
        for earlier in (ordered[i] for i in near):
            if earlier.ref == later.ref or (earlier.ref in repeats and not changes):
                continue
            if later.ref in fixed and earlier.ref in fixed:
                continue
            mine = owner.get(later.ref)
            if mine is not None and mine == owner.get(earlier.ref):
                continue
            said = relation(later.statement, earlier.statement)
            if said is not None:
                found.append((earlier, said))
        # what says one sentence of a line again confirms that line: it ends none of the others
        # ("Thursdays at 15:15 now" after "… on Thursdays at 15:15 from 22 May; the Monday 19
        # May one is the last")
        confirmed = {owner.get(e.ref, e.ref) for e, said in found if said == "same"}
        for earlier, said in found:
            if said == "same":
                # a repeat speaks through its first: what says it again repeats that one
                speaks = earlier.ref not in ended and earlier.ref not in repeats
                if speaks and later.ref not in repeats:
                    repeats[later.ref] = earlier.ref
            elif earlier.ref not in ended and owner.get(earlier.ref, earlier.ref) not in confirmed:
                ended[earlier.ref] = Ending(later.ref, later.day)
    for ref, first in repeats.items():  # a change that ended the first ends its repeats too
        if first in ended and ref not in ended:
            ended[ref] = ended[first]
    return Timeline(ended, repeats)
