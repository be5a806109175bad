"""The person's current values: the body of ``memory/user_state.md``.

The facts that change are read off one timeline of MEMORY.md (as this sweep leaves it) and the
recall store's rows (:func:`dreamd.engine.phases.supersession.plan_currency`: trusted rows that
state a lasting fact, read sentence by sentence). A sentence is listed when it is current
(nothing later replaced it, and it repeats no earlier one) and dated, and either

* replaced an earlier sentence: its line says since when it is true and, compactly, what it
  replaced (the latest sentence it ended, with that one's day when it had one); a value that
  changed twice shows only its latest value, replacing the one before; or
* says outright that an earlier value ended ("no longer", "correction:", "reversed",
  "cancelled") or names what it replaces ("from Tuesday", "not Holm", "instead of Hetzner"),
  though the line it ends is not in memory. A bare move ("went to", "updated to") is not
  enough: it tells what happened as often as what changed.

A value is not bound to a moment: a sentence that opens with a clock time (a log entry) or
says "today", "this morning", "over the weekend", "next Saturday"... is not listed. A Retain
opinion held with ``c < 0.5`` ends what it denies but is no value to show. Lines are
newest first (at most :data:`MAX_STATE`), each ending with a key (``^s-`` and ten hex digits,
from the sentence's reference) so :func:`dreamd.engine.bank.block.merge` keeps a person's
edits. Every text is redacted. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from dreamd.engine.bank.block import Line
from dreamd.engine.facts.render import fact_text
from dreamd.engine.facts.statement import Statement
from dreamd.engine.phases.supersession import plan_currency
from dreamd.engine.state import RecallEntry
from dreamd.engine.text.digests import sha1_hex
from dreamd.patterns import LazyPattern
from dreamd.redaction import redact

__all__ = ["MAX_STATE", "MAX_WAS_CHARS", "Change", "plan_state", "state_lines"]

MAX_STATE = 60
MAX_WAS_CHARS = 90
_PART = "\x1f"  # as plan_currency names a sentence: its line's reference, this, its place
_ENDS = frozenset({"correction", "no-longer", "reversed", "cancelled"})
_MOMENT = LazyPattern(
    r"^\s*\d{1,2}[:.]\d{2}\b|\b(?:today|tonight|yesterday|last\s+night|"
    r"(?:this|in\s+the)\s+(?:morning|afternoon|evening)|over\s+the\s+weekend|"
    r"(?:this|next|last)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Change:
    """A current value: what is true, since when, and what it replaced (if in memory)."""

    key: str
    text: str
    day: str
    was: str | None = None
    was_day: str = ""


def _text(statement: Statement) -> str:
    if statement.heading:
        return fact_text(f"{statement.heading}: {statement.text}")
    return fact_text(statement.text)


def _denial(statement: Statement) -> bool:
    return statement.confidence is not None and statement.confidence < 0.5


def plan_state(memory_text: str, rows: Mapping[str, RecallEntry]) -> tuple[Change, ...]:
    """The current values of ``memory_text`` and ``rows`` (see the module rules)."""
    currency = plan_currency(memory_text, rows)
    timeline = currency.timeline
    statements: dict[str, tuple[Statement, str, int]] = {}
    for ref, parts in currency.parts.items():
        for index, statement in enumerate(parts):
            statements[f"{ref}{_PART}{index}"] = (statement, currency.days.get(ref, ""), index)
    ended_by: dict[str, list[str]] = {}
    for older, ending in timeline.ended.items():
        ended_by.setdefault(ending.by, []).append(older)
    changes: list[Change] = []
    for part, (statement, day, _) in statements.items():
        if not day or not timeline.current(part) or part in timeline.repeats:
            continue
        if _denial(statement) or statement.text.rstrip().endswith(("?", "？")):
            continue
        if _MOMENT.search(statement.text):
            continue
        ended = [o for o in ended_by.get(part, ()) if o in statements]
        if not ended and statement.change not in _ENDS and not statement.replaced:
            continue
        was: str | None = None
        was_day = ""
        if ended:
            latest = max(ended, key=lambda o: (statements[o][1], statements[o][2], o))
            was, was_day = _text(statements[latest][0]), statements[latest][1]
        key = "s-" + sha1_hex(part.encode())[:10]
        changes.append(Change(key, _text(statement), day, was, was_day))
    changes.sort(key=lambda c: (c.day, c.text), reverse=True)
    return tuple(changes[:MAX_STATE])


def _short(text: str) -> str:
    text = text.rstrip(".")
    return text if len(text) <= MAX_WAS_CHARS else text[: MAX_WAS_CHARS - 1].rstrip() + "…"


def state_lines(changes: tuple[Change, ...]) -> list[Line]:
    """The block's lines, one per current value (see the module rules)."""
    lines = []
    for change in changes:
        note = f"since {change.day}"
        if change.was is not None:
            was = f"was: {_short(change.was)}"
            note += f"; {was}, from {change.was_day}" if change.was_day else f"; {was}"
        text = redact(f"- {change.text} ({note})")
        lines.append(Line(change.key, f"{text} ^{change.key}"))
    return lines
