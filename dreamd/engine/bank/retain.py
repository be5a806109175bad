"""Retain facts: the typed, entity-tagged bullets of a daily note's ``## Retain`` section (§15).

A fact is one list item under a heading named ``Retain``::

    ## Retain
    - W @Peter: Currently in Marrakech (Nov 27-Dec 1, 2025) for Andy's birthday.
    - B @warelay: I fixed the Baileys WS crash by wrapping handlers in try/catch.
    - O(c=0.95) @Peter: Prefers concise replies on WhatsApp.
    - S Most of the week went into the billing migration.

Rules:

- The type letter comes first: ``W`` world, ``B`` experience (biographical), ``O`` opinion,
  ``S`` observation (summary). Only an opinion carries a confidence, ``O(c=0.9)``, a number in
  [0, 1]; an opinion without one has ``confidence`` None. Anything else is not a fact.
- Entities are every ``@Name`` in the bullet, before or after the colon, in order, once each
  (compared case-insensitively, kept as first written; e-mail addresses are not entities). A
  leading mention whose capitalised words run on to the colon is one name:
  ``@Ana Lindqvist: our accountant`` is about "Ana Lindqvist".
- ``text`` is the fact itself: the bullet after its type and leading entity list (and colon).
- The section ends at the next heading of the same or a higher level. Managed blocks and fenced
  code are never facts. A fact's ``day`` is its note's day.

Pure; never raises on any input.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["KINDS", "RetainFact", "is_retain_heading", "mentions", "parse_fact", "parse_retain"]

KINDS = {"W": "world", "B": "experience", "O": "opinion", "S": "observation"}
MAX_ENTITIES = 8

_MENTION = LazyPattern(r"(?<![\w@.])@([^\W\d_][\w.-]*)")


# Compiled when a note is first parsed: reading a query's @mentions needs only _MENTION.
_FACT = LazyPattern(
    r"^[ \t]*[-*+][ \t]+(?P<type>[WBOS])"
    r"(?:[ \t]*\([ \t]*c[ \t]*=[ \t]*(?P<confidence>[0-9]*\.?[0-9]+)[ \t]*\))?"
    r"(?=[ \t:]|$)[ \t]*(?P<rest>.*)$"
)
_LEADING = LazyPattern(r"^(?:@[^\W\d_][\w.-]*[ \t,]*)+:?[ \t]*|^:[ \t]*")
# "@Ana Lindqvist: …": a leading mention whose capitalised words run on to the colon.
# "@Ó Dálaigh Stone & Lime:", "@Friends of the Marsh:": "&" and small joining words between;
# "@Clarke's Providers:", "@Clarke's:": a name's own "'s".
# "@Les Fromages d'Ici:", "@Caffè dell'Arte:": an elided particle before a capital is a name's.
_JOINS = r"(?:&|and|of|the|de|des|del|di|da|do|dos|du|la|le|les|na|van|von|der|den|y)"
_FULL_NAME = LazyPattern(
    rf"^@([^\W\d_][\w.-]*(?:['’]s\b)?(?:[ \t]+{_JOINS}(?=[ \t]))*"
    rf"(?:[ \t]+(?:[^\W\d_a-zß-ÿ]|(?:d|l|dell|dall|nell)['’][^\W\d_])[\w.'’-]*"
    rf"(?:[ \t]+{_JOINS}(?=[ \t]))*){{0,4}})[ \t]*:[ \t]*"
)
_HEADING = LazyPattern(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_FENCE = LazyPattern(r"^ {0,3}(`{3,}|~{3,})")


class RetainFact(Value):
    """One typed fact: ``kind`` is world, experience, opinion or observation."""

    __match_args__ = ("kind", "text", "entities", "confidence", "line", "day")
    __slots__ = __match_args__
    kind: Final[str]
    text: Final[str]
    entities: Final[tuple[str, ...]]
    confidence: Final[float | None]
    line: Final[int]
    day: Final[str | None]

    def __init__(
        self,
        kind: str,
        text: str,
        entities: tuple[str, ...],
        confidence: float | None,
        line: int,
        day: str | None,
    ) -> None:
        self.kind = kind
        self.text = text
        self.entities = entities
        self.confidence = confidence
        self.line = line
        self.day = day


def mentions(text: str) -> tuple[str, ...]:
    """The ``@Name`` entities of ``text``, in order, once each (case-insensitively)."""
    found: dict[str, str] = {}
    for match in _MENTION.finditer(text):
        name = match.group(1).rstrip(".-")
        if name and name.lower() not in found:
            found[name.lower()] = name
            if len(found) == MAX_ENTITIES:
                break
    return tuple(found.values())


def is_retain_heading(title: str) -> bool:
    """True for a heading titled ``Retain`` (any case, a trailing colon allowed)."""
    return title.strip().rstrip(":").strip().lower() == "retain"


def parse_fact(line: str, *, number: int = 0, day: str | None = None) -> RetainFact | None:
    """The fact a Retain bullet states, or None when ``line`` is not one."""
    found = _FACT.match(line)
    if found is None:
        return None
    kind = KINDS[found.group("type")]
    confidence = None
    if found.group("confidence") is not None:
        if kind != "opinion":
            return None
        value = float(found.group("confidence"))
        if not 0.0 <= value <= 1.0:
            return None
        confidence = value
    rest = found.group("rest").strip()
    full = _FULL_NAME.match(rest)
    if full is not None:
        name = " ".join(full.group(1).split())
        text = rest[full.end() :].strip()
        first = name.split()[0].casefold()
        others = tuple(m for m in mentions(text) if m.casefold() not in (first, name.casefold()))
        entities = (name, *others)[:MAX_ENTITIES]
    else:
        text = _LEADING.sub("", rest, count=1).strip()
        entities = mentions(rest)
    if not text:
        return None
    return RetainFact(kind, text, entities, confidence, number, day)


def parse_retain(text: str, *, day: str | None = None) -> list[RetainFact]:
    """Every fact in the ``Retain`` sections of a note (lines numbered from 1)."""
    from dreamd.engine.text.blocks import blank_managed  # reading a query needs none

    facts: list[RetainFact] = []
    level = 0  # the heading level of the open Retain section, 0 outside one
    fence: str | None = None
    fences, headings = _FENCE, _HEADING
    for number, line in enumerate(blank_managed(text).split("\n"), start=1):
        opened = fences.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        heading = headings.match(line)
        if heading:
            depth = len(heading.group(1))
            if is_retain_heading(heading.group(2) or ""):
                level = depth
            elif level and depth <= level:
                level = 0
            continue
        if level:
            fact = parse_fact(line, number=number, day=day)
            if fact is not None:
                facts.append(fact)
    return facts
