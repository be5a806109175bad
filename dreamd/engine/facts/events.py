"""When a line's one-off event happens: the day after which it is no longer news.

"Rental check day at the music school on Fri 14 Nov at 14:00" is worth knowing until the 14th;
after it, MEMORY.md has no reason to keep it. :func:`event_day` reads the last calendar day a
line names ("14 Nov", "12–14 December", "Nov 14th", "2031-11-14", "2031.11.14."), the year taken
from the line or else from the day it was said (the first such day no more than
:data:`LOOK_BACK_DAYS` before it). It answers ``None``, and the line never expires, when the
day is where something *starts* ("from 1 December", "since", "starting", "as of", "effective")
or a change took effect ("moved to room 108 on 18 March"), or the clause says who someone is
or how things are done ("Kai is the trainee motorman (joined 4 Feb)"),
when the line tells a standing arrangement or a yearly one ("every", "each", "weekly", "on
Thursdays", "a month", "birthday", "anniversary"), or when it names no day of a month.

:func:`expired` asks it of every clause of an entry (:func:`~dreamd.engine.facts.parts.
fact_parts`): an entry is over only when each of its clauses names a day that has passed, so
"Edit Veres: instrument coordinator; rental check day Fri 14 Nov" keeps the coordinator. Pure.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import lru_cache

from dreamd.engine.facts.lasting import lasting
from dreamd.engine.facts.parts import fact_parts
from dreamd.engine.facts.statement import read_statement
from dreamd.engine.facts.values import DAY_MONTH, MONTH_DAY, MONTHS
from dreamd.patterns import LazyPattern

__all__ = ["LOOK_BACK_DAYS", "event_day", "expired", "said_on"]

LOOK_BACK_DAYS = 60  # "14 Jan" said on 20 December is next year's; said on 2 February, this one's
_I = re.IGNORECASE
# What a line says of someone or of how things are done outlasts any day it names.
_OUTLASTS = frozenset({"identity", "rule", "preference", "procedure"})
_NUMERIC = LazyPattern(r"(?<![\d.])(\d{4})([-.])(\d{2})\2(\d{2})(?![\d-])")
# A day where something starts: the line tells what holds from then on.
_START = LazyPattern(
    r"\b(?:from|since|starting|starts|start|as\s+of|effective|w\.?e\.?f\.?|beginning|joined|"
    r"first\s+(?:trip|day|shift|week|lesson|session|class|run)|"
    r"ab|dès|depuis|desde|a\s+partir\s+de)\s+(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|"
    r"sun)[a-z]*\.?,?\s+)?(?:the\s+)?$",
    _I,
)
_STANDING = LazyPattern(
    r"\b(?:every|each|weekly|daily|nightly|monthly|yearly|annually|fortnightly|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days|a\s+(?:week|month|year)|per\s+(?:week|"
    r"month|year)|birthdays?|anniversar(?:y|ies)|name\s+day|born)\b",
    _I,
)


def said_on(day: str, default: date) -> date:
    """The day a line was said, from its ISO ``day`` (a note's, a section's), else ``default``
    (a line whose day is not known is taken as said today)."""
    try:
        return date.fromisoformat(day) if day else default
    except ValueError:
        return default


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _in_year(month: int, day: int, year: str | None, said_on: date) -> date | None:
    if year:
        return _day(int(year), month, day)
    found = _day(said_on.year, month, day)
    if found is not None and found < said_on - timedelta(days=LOOK_BACK_DAYS):
        found = _day(said_on.year + 1, month, day)
    return found


def _starts(text: str, at: int) -> bool:
    return _START.search(text[max(0, at - 40) : at]) is not None


@lru_cache(maxsize=4096)
def event_day(text: str, said_on: date) -> date | None:
    """The last day ``text`` names for a one-off event, or ``None`` (see the module rules)."""
    if _STANDING.search(text):
        return None
    days: list[date] = []
    for match in DAY_MONTH.finditer(text):
        if _starts(text, match.start()):
            return None
        month = int(MONTHS[match.group(3).casefold().rstrip(".")])
        found = _in_year(month, int(match.group(2)), match.group(4), said_on)
        days += [found] if found else []
    for match in MONTH_DAY.finditer(text):
        if _starts(text, match.start()):
            return None
        month = int(MONTHS[match.group(1).casefold().rstrip(".")])
        last = match.group(3) or match.group(2)
        found = _in_year(month, int(last), match.group(4), said_on)
        days += [found] if found else []
    for match in _NUMERIC.finditer(text):
        if _starts(text, match.start()):
            return None
        found = _day(int(match.group(1)), int(match.group(3)), int(match.group(4)))
        days += [found] if found else []
    return max(days) if days else None


def expired(text: str, said_on: date, today: date) -> date | None:
    """The day ``text``'s event happened when every clause of it names a day before ``today``
    (the latest of them), else ``None``."""
    clauses = fact_parts(text, clauses=True) or [text]
    latest: date | None = None
    for clause in clauses:
        read = read_statement(clause)
        if read.change is not None:
            return None  # "moved to room 108 on 18 March": the day a change took effect
        if lasting(clause, read).kind in _OUTLASTS:
            return None  # "Kai is the trainee motorman (joined 4 Feb)": who he is stays
        found = event_day(clause, said_on)
        if found is None or found >= today:
            return None
        latest = found if latest is None or found > latest else latest
    return latest
