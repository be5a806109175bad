"""Validity: from when a bank fact holds, until when, and who or what an entity is now.

Rules:

- Each fact that is not an opinion (opinions follow their confidence instead) is read with the
  facts model (:func:`~dreamd.engine.facts.statement.read_statement`, its first entity as the
  subject) and dated by its note's day; :func:`~dreamd.engine.facts.timeline.plan_timeline`
  tells which later fact replaced it. A fact holds *from* its note's day; a replaced one holds
  *until* the day of the fact that replaced it, and is *superseded*.
- :func:`who_line` says who or what an entity is, in a few words, from its newest current fact
  that says so: "is our accountant", "works at …", a sentence that opens with the entity's
  name and defines it ("The Castle is the home server in the attic"), a Retain world fact that
  opens with the role
  ("our accountant since 2024", "locum vet through VetStaff Ireland") or with what the entity
  does ("chairs Tich Maber", "runs the lending library") when it is about the
  entity first (``@Library: the atlases are by Ottilie's desk`` is no line for Ottilie's
  page). A current fact that
  corrects the surname ("surname is Whelan") gives the name the line opens with.

Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from dreamd.engine.bank.facts import Fact
from dreamd.engine.facts.lasting import lasting
from dreamd.engine.facts.statement import read_statement
from dreamd.engine.facts.timeline import Dated, plan_timeline

__all__ = ["Validity", "display_name", "plan_validity", "who_line"]

MAX_WHO = 80
_ROLE_AFTER = re.compile(
    r"\b(?:is|was|works\s+as|acts\s+as|as)\s+((?:my|our|his|her|their|the|a|an)\s+"
    r"[^.;:,—()]{2,70})",
    re.IGNORECASE,
)
_WORKS = re.compile(r"\b((?:works|lives)\s+(?:at|for|in)\s+[^.;:,—()]{2,60})", re.IGNORECASE)
_ROLE_FIRST = re.compile(r"^((?:my|our|his|her|their|the|a|an)\s+[^.;:,—()]{2,70})", re.I)
# A role said by what the entity does, first: "chairs Tich Maber", "runs the lending library".
_DOES_FIRST = re.compile(
    r"^((?:runs|chairs|owns|manages|leads|heads|teaches|coaches|trains|coordinates|directs|"
    r"organi[sz]es|founded|represents|captains|conducts|supervises|treats)\s+[^.;:,—()]{2,60})",
    re.IGNORECASE,
)
_NOUN_FIRST = re.compile(r"^([a-z][\w-]*(?:\s+[\w-]+){0,5}?)\s*(?:[,.;—(]|$)")
_SURNAME = re.compile(r"\b(?i:surname)\s+(?i:is)\s+([A-ZÀ-Þ][\w'’-]+)")


@dataclass(frozen=True, slots=True)
class Validity:
    """When a fact holds: ``since`` its note's day, ``until`` the day a later fact replaced it
    (``by``), or None while it is current."""

    since: str | None
    until: str | None = None
    by: str | None = None

    @property
    def current(self) -> bool:
        """True while nothing replaced it."""
        return self.until is None


def _names(fact: Fact) -> frozenset[str]:
    return frozenset(w.casefold() for e in fact.entities for w in e.replace("-", " ").split())


def plan_validity(facts: Iterable[Fact]) -> dict[str, Validity]:
    """Each fact's validity by id (see the module rules)."""
    dated = []
    found: dict[str, Validity] = {}
    for fact in facts:
        found[fact.id] = Validity(fact.day)
        if fact.kind == "opinion" or not fact.day:
            continue
        statement = read_statement(fact.text, known=_names(fact))
        if fact.entities:
            subject = fact.entities[0].replace("-", " ").split()[0].casefold()
            statement = statement.replace(subject=subject)
        dated.append(Dated(fact.id, fact.day, statement, fact.line))
    timeline = plan_timeline(dated)
    for ref, ending in timeline.ended.items():
        found[ref] = Validity(found[ref].since, ending.day, ending.by)
    return found


def _clip(text: str) -> str:
    text = " ".join(text.split()).rstrip(" -–—")
    return text if len(text) <= MAX_WHO else text[: MAX_WHO - 1].rstrip() + "…"


def _strip_name(text: str, title: str) -> str:
    """``text`` without the entity's name (and a colon) where it opens it."""
    for name in (title, title.split()[0]):
        if text.casefold().startswith(name.casefold()):
            return text[len(name) :].lstrip(" :'’s").strip()
    return text


def _key(name: str) -> str:
    """A name as names are compared here: pages' ``entity_key`` is not importable from here
    (the pages import this module), so spaces and hyphens are one and case is folded."""
    return " ".join(name.replace("-", " ").casefold().split())


def _identity(text: str) -> bool:
    verdict = lasting(text)
    return verdict.durable and verdict.kind == "identity"


def _role(fact: Fact, title: str) -> str | None:
    text = fact.text
    if fact.origin == "memory":
        return _told_by_the_person(text, title)
    found = _ROLE_AFTER.search(text) or _WORKS.search(text)
    if found is not None:
        defines = _strip_name(text, title) != text and found.start() < 40
        if defines or _identity(text):
            return _clip(found.group(1))
    if fact.origin != "retain" or fact.kind not in ("world", "observation"):
        return None
    if fact.entities and _key(fact.entities[0]) != _key(title):
        return None  # "@Library: the atlases are by Ottilie's desk" says what the library is
    body = _strip_name(text, title)
    first = _ROLE_FIRST.match(body)
    if first is not None and lasting(f"{title} is {first.group(1)}").kind != "schedule":
        return _clip(first.group(1))  # not "the library opens Thursdays 15:00-18:00"
    does = _DOES_FIRST.match(body)
    if does is not None:
        return _clip(does.group(1))
    noun = _NOUN_FIRST.match(body)
    if noun is not None and lasting(f"{title} is a {noun.group(1)}").kind == "identity":
        return _clip(noun.group(1))  # "locum vet through VetStaff Ireland, covering …"
    return None


def _told_by_the_person(text: str, title: str) -> str | None:
    """Who someone is as the person's own ``MEMORY.md`` line says it: "I'm Orsolya Kertész" is
    the person; "my partner Gergő Lakatos (he's a forester)" is "partner, a forester"."""
    names = "|".join(re.escape(n) for n in dict.fromkeys((title, title.split()[0])))
    if re.search(rf"\bI(?:'m|’m|\s+am)\s+(?:{names})\b", text):
        return "the person this memory belongs to"
    relation = re.search(
        rf"\b(?:[Mm]y|[Oo]ur)\s+((?:[a-z-]+\s+){{0,2}}?[a-z-]+),?\s+(?:{names})\b", text
    )
    aside = re.search(
        rf"(?:{names})(?:\s+\w+)?\s*\((?:he|she|they)(?:'s|’s|\s+is|\s+are)\s+([^()]{{1,40}})\)",
        text,
    )
    relation = relation or re.search(
        rf"(?:{names})\s+is\s+(?:my|our)\s+((?:[a-z-]+\s+){{0,2}}?[a-z-]+)\b(?=[.,;:]|$)", text
    )
    said = [part.group(1) for part in (relation, aside) if part is not None]
    return _clip(", ".join(said)) if said else None


def display_name(title: str, facts: Sequence[Fact], validity: Mapping[str, Validity]) -> str:
    """The entity's name as its current facts give it: a corrected surname replaces the old."""
    for fact in reversed(facts):
        if not validity.get(fact.id, Validity(None)).current:
            continue
        found = _SURNAME.search(fact.text)
        if found is not None:
            return f"{title.split()[0]} {found.group(1)}"
    return title


def who_line(title: str, facts: Sequence[Fact], validity: Mapping[str, Validity]) -> str | None:
    """Who or what the entity is now, in a few words, or None when no current fact says: the
    person's own ``MEMORY.md`` line first, then the latest current fact that says it."""
    own = [f for f in facts if f.origin == "memory"]
    for fact in [*own, *reversed(facts)]:
        if fact.kind == "opinion" or not validity.get(fact.id, Validity(None)).current:
            continue
        role = _role(fact, title)
        if role:
            return role
    return None
