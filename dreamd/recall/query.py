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
- The question's *shape*: ``entity`` ("tell me about Alice", "who is Peter", "háblame de X",
  and what someone does for a living: "what does Valeria do (for a living)?", "what is Ana's
  job?", "where does Mariel work?": the ``subject`` is who is asked about, and only its words
  are terms), ``opinion``
  ("what does Peter prefer?", "Peter's preferences": the subject is who holds it), ``time``
  ("what happened / what was true ...", or a window of days and nothing else to look for; the
  scaffolding words ``happen``, ``true``... are then not terms), else ``general``.

Pure: ``today`` is passed in. Any text is a query; one with no terms finds nothing.
"""

from __future__ import annotations

import itertools
import re
from datetime import date

from dreamd.patterns import LazyPattern
from dreamd.recall.analysis import fold, query_grams, words
from dreamd.recall.dates import DayWindow, find_window
from dreamd.recall.retain import mentions
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["MAX_TERMS", "Query", "Term", "parse_query", "question_shape"]

MAX_TERMS = 32
_TEMPORAL = LazyPattern(
    r"^\W*(?:when|since when|how long|how many (?:days|weeks|months|years)|what (?:year|month|"
    r"day|date|time)|which (?:year|month|day|date)|wann|seit wann|cuando|desde cuando|quand"
    r"|depuis quand|いつ|什么时候|何时|언제)",
)


_ENTITY = LazyPattern(
    r"^\W*(?:(?:can you |please )?tell me (?:more )?about|what do (?:you|we|i) know about"
    r"|who(?: is|'s|’s| was)|info(?:rmation)? (?:on|about)|h[aá]blame (?:de|sobre)"
    r"|qui[eé]n es|parle-moi de|qui est|erz[aä]hl mir von|wer ist)\s+(?P<subject>.+)$",
    re.IGNORECASE,
)
# What someone does for a living is who they are: an entity question about them.
_WORK = LazyPattern(
    r"^\W*(?:what (?:does|did) (?P<a>.+?) do(?: for (?:a )?(?:living|work|a job|money))?"
    r"|what (?:is|was) (?P<b>.+?)['’]s? (?:job|work|occupation|profession|line of work)"
    r"|where (?:does|did) (?P<c>.+?) work)\s*[?.!]*$",
    re.IGNORECASE,
)
_OPINION = LazyPattern(
    r"^\W*(?:what (?:does|do|did) (?P<a>.+?) (?:prefer|like|love|want|think of|dislike|hate"
    r"|enjoy)\b|(?:does|do|did) (?P<b>.+?) (?:prefer|like|want|enjoy|dislike|hate)\b"
    r"|how does (?P<c>.+?) feel about\b|what are (?P<d>.+?)['’]s (?:preferences|opinions|views)"
    r"|(?P<e>[^\s]+(?: [^\s]+)?)['’]s (?:preferences|opinions|views)\b"
    r"|qu[eé] prefiere (?P<f>.+?)(?:\?|$))",
    re.IGNORECASE,
)
_TIME = LazyPattern(
    r"^\W*(?:what (?:happened|was true|were we doing|went on|did (?:we|i) do|is new|was new)"
    r"|what's new|anything new|qu[eé] pas[oó]|was ist passiert)\b",
    re.IGNORECASE,
)
# A word each alternative of the pattern holds: a question without any cannot match, and the
# pattern is neither tried nor compiled (compiling the three costs a per-turn process ~2 ms).
_CUES = {
    "opinion": (
        "prefer", "prefier", "like", "love", "want", "think of", "hate", "enjoy", "feel about",
        "opinion", "views",
    ),
    "entity": ("about", "who", "info", "blame", "qui", "parle", "erz", "wer ist"),
    "work": (" do", "job", "work", "occupation", "profession"),
    "time": ("what", "anything", "pas"),
}  # fmt: skip
_TRAILING = LazyPattern(r"[\s?!.,;:]+$")
_SCAFFOLD = frozenset({"happen", "true", "new", "pas", "passiert", "anyth"})


class Term(Value):
    """One query term: the word to ask FTS5 for, and the stem the index stores."""

    __match_args__ = ("word", "stem")
    __slots__ = __match_args__
    word: Final[str]
    stem: Final[str]

    def __init__(self, word: str, stem: str) -> None:
        self.word = word
        self.stem = stem


class Query(Value):
    """A parsed query (see the module rules)."""

    __match_args__ = ("terms", "entities", "window", "temporal", "shape", "subject")
    __slots__ = __match_args__
    terms: Final[tuple[Term, ...]]
    entities: Final[tuple[str, ...]]
    window: Final[DayWindow | None]
    temporal: Final[bool]
    shape: Final[str]
    subject: Final[str | None]  # who or what an entity or opinion question is about

    def __init__(
        self,
        terms: tuple[Term, ...],
        entities: tuple[str, ...] = (),
        window: DayWindow | None = None,
        temporal: bool = False,
        shape: str = "general",
        subject: str | None = None,
    ) -> None:
        self.terms = terms
        self.entities = entities
        self.window = window
        self.temporal = temporal
        self.shape = shape
        self.subject = subject

    @property
    def stems(self) -> tuple[str, ...]:
        """The terms' stems, in order."""
        return tuple(term.stem for term in self.terms)

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Adjacent stems of the question, for phrase and proximity matching."""
        stems = self.stems
        return tuple(itertools.pairwise(stems))


def _subject(found: re.Match[str]) -> str | None:
    named = next((value for value in found.groupdict().values() if value), None)
    if named is None:
        return None
    subject = _TRAILING.sub("", named.strip()).strip().lstrip("@")
    return subject or None


def _cued(folded: str, shape: str) -> bool:
    return any(cue in folded for cue in _CUES[shape])


def question_shape(text: str) -> tuple[str, str | None]:
    """The shape of a question and its subject (see the module rules), window aside."""
    flat = " ".join(text.split())
    # Case-folded as the patterns' IGNORECASE compares: dotless and dotted I are i there too.
    folded = flat.casefold().replace("ı", "i").replace("\u0307", "")
    for shape, pattern in (("opinion", _OPINION), ("entity", _ENTITY), ("work", _WORK)):
        found = pattern.match(flat) if _cued(folded, shape) else None
        if found is not None:
            subject = _subject(found)
            if subject:
                return ("entity" if shape == "work" else shape), subject
    if _cued(folded, "time") and _TIME.match(flat):
        return "time", None
    return "general", None


def parse_query(text: str, *, today: date) -> Query:
    """The :class:`Query` that ``text`` asks (see the module rules)."""
    window, rest = find_window(text, today)
    shape, subject = question_shape(rest)
    if shape == "entity" and subject:
        rest = subject
    terms: dict[str, Term] = {}
    for word in words(rest):
        for asked, stem in query_grams(word):
            if stem not in terms:
                terms[stem] = Term(asked, stem)
        if len(terms) >= MAX_TERMS:
            break
    if shape == "time" or (window is not None and terms and set(terms) <= _SCAFFOLD):
        shape = "time"
        terms = {stem: term for stem, term in terms.items() if stem not in _SCAFFOLD}
    entities = tuple(name.lower() for name in mentions(text))
    if subject and shape in ("entity", "opinion"):
        key = "-".join(subject.lower().split())
        entities = (*entities, key) if key not in entities else entities
    temporal = _TEMPORAL.match(fold(text)) is not None
    return Query(tuple(terms.values())[:MAX_TERMS], entities, window, temporal, shape, subject)
