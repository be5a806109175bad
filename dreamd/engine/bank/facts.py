"""Facts: the typed, entity-tagged statements a note holds, each with a stable id and a source.

Rules:

- A ``## Retain`` bullet (:mod:`dreamd.engine.bank.retain`) is a fact as written: its kind
  (world, experience, opinion, observation), ``@entities`` and confidence come from the bullet.
- A note without a Retain section still yields facts, deterministically: its durable claims.
  Each list item or line of prose (outside code, comments, tables, quotes and managed blocks)
  is read with the grounded preview's cues (:mod:`dreamd.engine.grounded.cues`, the heading
  above it lending its own); a line that leans ``likely_durable`` with a durable cue of its
  own, or a durable weight of 3, is a claim (a durable heading alone does not make a fact; an
  open task, dreaming's own output, a guest's logged message (:mod:`dreamd.engine.intake`) and
  anything like a credential never do). Their kind is
  ``opinion`` when a preference cue matched, ``experience`` when told in the first person
  (``I``, ``we``, ``my``...), else ``world``; their entities are their ``@mentions``.
- A fact's id is ``f-`` and 10 hex digits of the sha1 of its note, kind, entities and
  whitespace-collapsed, lowercased text: it survives lines moving inside the note and changes
  when the fact does. Two equal facts of one note are one fact (the first line cites it).
- The text is redacted (:func:`dreamd.redaction.redact`) and capped at 400 characters; a
  statement that looks like a credential is never a fact.
- Never a fact: text inside an HTML comment (hidden from the reader, the usual wrapping of an
  injected order), a lead-in line that ends with ":" ("… walked me through the home server so I
  can help with it:"), an order for the agent
  (:func:`~dreamd.engine.text.instructions.is_instruction`).
- In a note with a Retain section, a plain line that is a view ("I can't stand the man",
  read as a note without one reads its claims) is an opinion fact too: a view told only in
  prose can be reversed later.
- A plain line that takes back a view ("she had Hanne wrong", "I take back every word about
  the solar": :mod:`dreamd.engine.bank.retractions`) is an opinion fact of origin
  ``retraction``, in a note with a Retain section too.
- Only daily notes under ``memory/`` yield facts; session transcripts never do.

Pure; never raises on any input.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from dreamd.engine.bank.kinds import FACT_KINDS, infer_kind
from dreamd.engine.bank.retain import mentions, parse_retain
from dreamd.engine.bank.retractions import retracts
from dreamd.engine.grounded.cues import CATEGORIES, Cues, is_sensitive, read_cues
from dreamd.engine.intake import is_guest_line
from dreamd.engine.text.blocks import blank_managed
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.text.instructions import is_instruction
from dreamd.engine.text.snippets import collapse
from dreamd.layout import SESSION_CORPUS_DIR, daily_note_day
from dreamd.redaction import redact

__all__ = [
    "FACT_KINDS",
    "FACT_RULES",
    "MAX_FACT_CHARS",
    "Fact",
    "extract_facts",
    "fact_id",
    "infer_kind",
    "is_fact_source",
    "make_fact",
]

MAX_FACT_CHARS = 400
# Raised whenever these rules change what a note yields: the bank's ledger keeps a note's facts
# with its digest and this number, so a note read under older rules is read again.
FACT_RULES = 3
MIN_LINE_CHARS = 8
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(\[[ xX]\]\s+)?")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_SKIPPED = ("<!--", "-->", "|", ">")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


def _hide_comments(text: str) -> str:
    """``text`` with HTML comments blanked (their line breaks kept, so lines keep numbers)."""
    return _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def _refused(text: str) -> bool:
    """A lead-in ("… walked me through the home server:") or an order for the agent."""
    return text.rstrip().endswith(":") or is_instruction(text)


# A reflection over years of notes asks each fact's day many times (sorting, spans, listings):
# one regular-expression pass per note path, not per question.
_note_day = functools.lru_cache(maxsize=65_536)(daily_note_day)


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact: ``origin`` is ``retain`` (a Retain bullet), ``claim`` (a durable-claim
    statement), ``retraction`` (a plain line taking back a view), ``memory`` (a person's own
    line of ``MEMORY.md``) or ``model`` (proposed by a model and checked)."""

    id: str
    kind: str
    text: str
    entities: tuple[str, ...]
    confidence: float | None
    path: str
    line: int
    origin: str = "retain"

    @property
    def day(self) -> str | None:
        """The note's day."""
        return _note_day(self.path)

    @property
    def source(self) -> str:
        """``memory/2026-11-27.md#L12``."""
        return f"{self.path}#L{self.line}"


def fact_id(path: str, kind: str, text: str, entities: tuple[str, ...] = ()) -> str:
    """The stable id of a fact (see the module rules)."""
    named = " ".join(sorted(e.lower() for e in entities))
    key = f"{path}\n{kind}\n{named}\n{collapse(text).lower()}"
    return "f-" + hashlib.sha1(key.encode("utf-8"), usedforsecurity=False).hexdigest()[:10]


def make_fact(
    path: str,
    kind: str,
    text: str,
    entities: tuple[str, ...],
    c: float | None,
    line: int,
    origin: str,
) -> Fact | None:
    """A fact with its id and its text collapsed and redacted; None for text that looks like a
    credential (only text redaction changed is checked: the rest holds none) or is empty."""
    flat = collapse(text)
    clean = redact(flat)
    if not clean or (clean != flat and is_sensitive(flat)):
        return None
    if len(clean) > MAX_FACT_CHARS:
        clean = clean[: MAX_FACT_CHARS - 1].rstrip() + "…"
    return Fact(fact_id(path, kind, clean, entities), kind, clean, entities, c, path, line, origin)


def _lines(text: str) -> Iterator[tuple[int, str, str | None]]:
    """(line, text, heading above) of each list item or line of prose outside code, comments,
    tables, quotes and managed blocks: no open task, no guest's logged message."""
    heading: str | None = None
    fence = False
    for number, line in enumerate(blank_managed(text).split("\n"), start=1):
        if _FENCE.match(line):
            fence = not fence
            continue
        title = None if fence else _HEADING.match(line)
        if title is not None:
            heading = collapse(title.group(1))
            continue
        stripped = line.strip()
        if fence or len(stripped) < MIN_LINE_CHARS or stripped.startswith(_SKIPPED):
            continue
        if is_guest_line(stripped):
            continue  # a guest's logged message is not the person's fact
        item = _ITEM.match(line)
        if item is not None and item.group(1) is not None and "[ ]" in item.group(1):
            continue  # an open task is not a fact yet
        yield number, collapse(line[item.end() :] if item is not None else line), heading


def _claim_cues(body: str, heading: str | None) -> Cues | None:
    """The cues that make a line a durable claim, under the heading that lends it cues, or
    None when it is none."""
    cues = read_cues(body, heading)
    own = any(CATEGORIES[name][0] == "durable" for name in cues.categories)
    if cues.lean != "likely_durable" or not (own or cues.durable >= 3):
        return None
    return None if is_contaminated(body) or _refused(body) else cues


def _retraction(body: str) -> bool:
    """A plain line that takes back a view (:mod:`~dreamd.engine.bank.retractions`)."""
    return retracts(body) and not is_contaminated(body) and not _refused(body)


def is_fact_source(path: str) -> bool:
    """True for a daily note under ``memory/`` (never a session transcript)."""
    return (
        daily_note_day(path) is not None
        and path.startswith("memory/")
        and not path.startswith(f"{SESSION_CORPUS_DIR}/")
    )


def extract_facts(path: str, text: str) -> tuple[Fact, ...]:
    """The facts of the note at ``path`` with content ``text`` (see the module rules)."""
    if not is_fact_source(path):
        return ()
    found: list[Fact | None] = []
    text = _hide_comments(text)
    retained = parse_retain(text, day=daily_note_day(path))
    if retained:
        for item in retained:
            if _refused(item.text):
                continue
            found.append(
                make_fact(
                    path, item.kind, item.text, item.entities, item.confidence, item.line, "retain"
                )
            )
    # one pass over the lines: a note without a Retain section gives its claims; any note a
    # retraction on a line no fact was read from (an opinion fact of origin retraction)
    taken = {item.line for item in retained}
    retractions: list[Fact | None] = []
    for number, body, heading in _lines(text):
        cues = None if number in taken else _claim_cues(body, heading)
        kind = infer_kind(body, cues.categories) if cues is not None else None
        if retained and kind != "opinion":
            cues = None  # beside a Retain section, a plain line is read for a view only
        if cues is not None and kind is not None:
            claim = make_fact(path, kind, body, mentions(body), None, number, "claim")
            found.append(claim)
            if claim is not None:
                continue
        if number not in taken and _retraction(body):
            fact = make_fact(path, "opinion", body, mentions(body), None, number, "retraction")
            retractions.append(fact)
    found.extend(retractions)
    facts: dict[str, Fact] = {}
    for fact in found:
        if fact is not None:
            facts.setdefault(fact.id, fact)
    return tuple(facts.values())
