"""Queries: what a free-text question asks for — terms, entities, a window of days, a "when".

Rules:

- Date phrases ("in May 2023", "last week"...) become a :class:`~dreamd.recall.dates.DayWindow`
  and are not searched as words (:mod:`dreamd.recall.dates`).
- The rest is analysed like note text (:mod:`dreamd.recall.analysis`): folded, stop words and
  one-letter words dropped, stemmed; CJK runs become character pairs. Each :class:`Term` keeps
  the word as typed (FTS5 stems it itself; stems are not idempotent) and the stem the index
  holds. At most :data:`MAX_TERMS` distinct stems, in order.
- ``@Name`` mentions are entities. A question opening with when / how long / what year (or
  wann, cuándo, quand) is *temporal*: it prefers snippets that say when something happened.
- ``pairs`` are adjacent terms of the question, for the phrase and proximity signal.

Pure: ``today`` is passed in. Any text is a query; one with no terms finds nothing.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import date

from dreamd.recall.analysis import fold, query_grams, words
from dreamd.recall.dates import DayWindow, find_window
from dreamd.recall.retain import mentions

__all__ = ["MAX_TERMS", "Query", "Term", "parse_query"]

MAX_TERMS = 32
_TEMPORAL = re.compile(
    r"^\W*(?:when|since when|how long|how many (?:days|weeks|months|years)|what (?:year|month|"
    r"day|date|time)|which (?:year|month|day|date)|wann|seit wann|cuando|desde cuando|quand"
    r"|depuis quand|いつ|什么时候|何时|언제)",
)


@dataclass(frozen=True, slots=True)
class Term:
    """One query term: the word to ask FTS5 for, and the stem the index stores."""

    word: str
    stem: str


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query (see the module rules)."""

    terms: tuple[Term, ...]
    entities: tuple[str, ...] = ()
    window: DayWindow | None = None
    temporal: bool = False

    @property
    def stems(self) -> tuple[str, ...]:
        """The terms' stems, in order."""
        return tuple(term.stem for term in self.terms)

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Adjacent stems of the question, for phrase and proximity matching."""
        stems = self.stems
        return tuple(itertools.pairwise(stems))


def parse_query(text: str, *, today: date) -> Query:
    """The :class:`Query` that ``text`` asks (see the module rules)."""
    window, rest = find_window(text, today)
    terms: dict[str, Term] = {}
    for word in words(rest):
        for asked, stem in query_grams(word):
            if stem not in terms:
                terms[stem] = Term(asked, stem)
        if len(terms) >= MAX_TERMS:
            break
    entities = tuple(name.lower() for name in mentions(text))
    temporal = _TEMPORAL.match(fold(text)) is not None
    return Query(tuple(terms.values())[:MAX_TERMS], entities, window, temporal)
