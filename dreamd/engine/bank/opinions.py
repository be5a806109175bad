"""Opinions: beliefs whose confidence follows the evidence, by small steps.

An opinion is founded by the earliest opinion fact no earlier opinion matches (ordered by day,
note, line). Its statement is that fact's text, its starting confidence the fact's own
``O(c=…)`` (:data:`DEFAULT_CONFIDENCE` when it gives none), its entities the fact's.

**Matching.** A later fact of any kind is evidence for an opinion when their entities overlap
(or neither has any) and their statements say the same thing: the share of shared content
words (lowercased; negations, like/dislike words and the entities' names set aside) over the
shorter statement's is at least :data:`MATCH`. The evidence *supports* when it has the same
stance, else it *contradicts*; a fact's stance is negative when it negates (``not``, ``never``,
``no longer``, ``dislikes``...) and flips again when its own confidence is below 0.5.

**The confidence rule** (:func:`evolve`), day by day in date order, from the starting confidence:

- a day with more supporting than contradicting facts moves ``c`` up one step:
  ``c + UP · (1 − c)`` (UP = 0.1);
- a day with more contradicting than supporting facts moves it down one step:
  ``c − DOWN · c`` (DOWN = 0.15);
- a day with as many of each, or none, leaves it.

So ``c`` stays in [0, 1]; more support never lowers it and more contradiction never raises it;
the order of one day's facts does not matter; and one day moves it by at most 0.15, so a large
move needs evidence on several distinct days (from 0.95, three days of contradiction reach
0.58). ``updated`` is the latest day of the founding fact and its evidence. Pure.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dreamd.engine.bank.facts import Fact
from dreamd.engine.text.tokens import token_set

__all__ = [
    "DEFAULT_CONFIDENCE",
    "DOWN",
    "MATCH",
    "UP",
    "Evidence",
    "Opinion",
    "evolve",
    "plan_opinions",
    "same_statement",
    "stance",
]

UP = 0.1
DOWN = 0.15
DEFAULT_CONFIDENCE = 0.6
MATCH = 0.5
_NEGATIONS = frozenset(
    "not no never nobody nothing cannot dont doesnt didnt isnt wasnt wont stopped longer"
    " dislikes dislike hates hate avoids avoid nunca ya jamais pas nicht kein keine nie".split()
)
_LIKES = frozenset("prefers prefer likes like loves love enjoys enjoy wants want".split())
_FILLER = frozenset(
    "a an the to of and or in on for is are be it that this with at by as than over now still"
    " anymore currently really very much".split()
)
_APOSTROPHE = re.compile(r"(\w)['’](t)\b")


@dataclass(frozen=True, slots=True)
class Evidence:
    """One fact's bearing on an opinion: on ``day``, supporting or not."""

    fact: str
    day: str
    supports: bool


def evolve(start: float, evidence: Iterable[Evidence]) -> float:
    """The confidence after ``evidence``, from ``start`` (the rule in the module header)."""
    days: dict[str, list[int]] = {}
    for item in evidence:
        counts = days.setdefault(item.day, [0, 0])
        counts[0 if item.supports else 1] += 1
    c = min(1.0, max(0.0, start))
    for day in sorted(days):
        up, down = days[day]
        if up > down:
            c = c + UP * (1.0 - c)
        elif down > up:
            c = c - DOWN * c
    return round(min(1.0, max(0.0, c)), 4)


def _words(text: str, entities: Sequence[str] = ()) -> tuple[frozenset[str], bool]:
    """Content words (the entities' names aside), and whether the text negates."""
    tokens = token_set(_APOSTROPHE.sub(r"\1\2", text))
    negated = not tokens.isdisjoint(_NEGATIONS)
    names = token_set(" ".join(entities).replace("-", " "))
    return frozenset(tokens - _NEGATIONS - _LIKES - _FILLER - names), negated


def stance(fact: Fact) -> bool:
    """True when ``fact`` states its statement (False: it denies it, see the module rules)."""
    _, negated = _words(fact.text)
    positive = not negated
    if fact.confidence is not None and fact.confidence < 0.5:
        positive = not positive
    return positive


def same_statement(left: Fact, right: Fact) -> bool:
    """Do two facts say the same thing, whatever their stance?"""
    a, _ = _words(left.text, left.entities)
    b, _ = _words(right.text, right.entities)
    if not a or not b:
        return False
    return len(a & b) / min(len(a), len(b)) >= MATCH


@dataclass(frozen=True)
class Opinion:
    """One opinion with its confidence and evidence (fact ids, the founding fact first)."""

    id: str
    statement: str
    entities: tuple[str, ...]
    confidence: float
    start: float
    updated: str | None
    founder: Fact
    supporting: tuple[Fact, ...]
    contradicting: tuple[Fact, ...]

    def as_json(self) -> dict[str, object]:
        """The opinion as ``memory reflect --json`` prints it."""
        return {
            "id": self.id,
            "statement": self.statement,
            "entities": list(self.entities),
            "confidence": self.confidence,
            "updated": self.updated,
            "supporting": [fact.id for fact in self.supporting],
            "contradicting": [fact.id for fact in self.contradicting],
        }


def _order(fact: Fact) -> tuple[str, str, int, str]:
    return (fact.day or "", fact.path, fact.line, fact.id)


def plan_opinions(facts: Iterable[Fact]) -> tuple[Opinion, ...]:
    """Every opinion ``facts`` found, with its evidence and confidence (see the module rules)."""
    founded: list[tuple[Fact, list[Fact], list[Fact]]] = []
    seeds: list[tuple[frozenset[str], frozenset[str], bool]] = []  # entities, words, stance
    by_entity: dict[str, list[int]] = {}  # entity key -> founded opinions about it
    for fact in sorted(facts, key=_order):
        keys = frozenset("-".join(e.lower().split()) for e in fact.entities)
        words, _ = _words(fact.text, fact.entities)
        if not words:
            continue
        near = {i for key in keys for i in by_entity.get(key, ())} if keys else None
        home = None
        for index in sorted(near) if near is not None else range(len(founded)):
            their_keys, their_words, _ = seeds[index]
            if (keys and their_keys) or keys == their_keys:
                shared = len(words & their_words) / min(len(words), len(their_words))
                if shared >= MATCH:
                    home = index
                    break
        if home is not None:
            entry = founded[home]
            (entry[1] if stance(fact) == seeds[home][2] else entry[2]).append(fact)
        elif fact.kind == "opinion":
            founded.append((fact, [], []))
            seeds.append((keys, words, stance(fact)))
            for key in keys or {""}:
                by_entity.setdefault(key, []).append(len(founded) - 1)
    opinions = []
    for founder, support, against in founded:
        start = founder.confidence if founder.confidence is not None else DEFAULT_CONFIDENCE
        evidence = [Evidence(f.id, f.day or "", True) for f in support]
        evidence += [Evidence(f.id, f.day or "", False) for f in against]
        days = [f.day for f in (founder, *support, *against) if f.day]
        digest = hashlib.sha1(founder.id.encode(), usedforsecurity=False).hexdigest()[:10]
        opinions.append(
            Opinion(
                id=f"o-{digest}",
                statement=founder.text,
                entities=founder.entities,
                confidence=evolve(start, evidence),
                start=start,
                updated=max(days) if days else None,
                founder=founder,
                supporting=(founder, *support),
                contradicting=tuple(against),
            )
        )
    return tuple(opinions)
