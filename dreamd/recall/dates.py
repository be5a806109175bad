"""Dates in questions: "in May 2023", "on 13 October 2023", "last week" -> a window of days.

Rules:

- :func:`find_window` returns the window the query speaks of (first and last day, inclusive) and
  the query with the date phrases blanked out, so "May" and "2023" are not searched as words.
- Recognised, in English: ISO days (``2023-05-08``); a day with a month name and year in either
  order (``8 May 2023``, ``May 8th, 2023``); a month and year (``May 2023``); a bare month or year
  after ``in``/``during``/``since``/``of``... (``in June``: its latest occurrence up to ``now``;
  ``in 2023``); and relative phrases counted back from ``now``: today, yesterday, this/last
  week, weekend, month, year, ``last Friday``, ``N days|weeks|months|years ago``.
- A month and day without a year (``Nov 27``, ``27 November``) is its latest occurrence up to
  ``now``.
- "before X" widens the window two weeks back from X, "after X" two weeks forward, "around X"
  three days either side; "since X" runs from X to ``now``. When a query holds several dates,
  the window spans all of them.
- What the patterns miss is asked of ``dateparser`` (English, Spanish, French, German:
  "el 3 de marzo", "27/11/2025", "a fortnight ago"), anchored on ``now`` and only when the text
  holds a digit-date or a date word, so an ordinary question never pays for it.
- A phrase that is not a real date (``31 February 2023``) is left as words. Pure: ``now`` is given.
- :func:`day_bound` reads a ``--since``/``--until`` value: a day (``2025-11-01``) or a duration
  back from now (``30d``, ``12h``).
"""

from __future__ import annotations

import functools
import re
from datetime import date, datetime, timedelta

from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["DayWindow", "day_bound", "find_window"]

# English names, whatever the host's locale (questions in other languages go to dateparser).
_MONTH_NAMES = (
    "january february march april may june july august september october november december"
).split()
_MONTHS = {name: number for number, name in enumerate(_MONTH_NAMES, start=1)}
_MONTHS.update({name[:3]: number for name, number in tuple(_MONTHS.items())})
_MONTHS["sept"] = 9
_WEEKDAYS = {
    name: number
    for number, name in enumerate(
        "monday tuesday wednesday thursday friday saturday sunday".split()
    )
}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_LEAD = (
    r"(?P<lead>\b(?:before|after|since|until|on|in|during|of|from|by|early|late|mid|around"
    r"|about|circa|near)\s+)?"
)
_ABSOLUTE = frozenset({"iso", "dmy", "mdy", "my", "md", "dm", "m", "y", "library"})
_AROUND = frozenset({"around", "about", "circa", "near"})
_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}

_BARE_LEAD = r"(?P<lead>\b(?:in|during|since|of|early|late|mid|until)\s+)"
_SOURCES: tuple[tuple[str, str], ...] = tuple(
    (kind, lead + pattern)
    for kind, lead, pattern in (
        ("iso", _LEAD, r"\b(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})\b"),
        ("dmy", _LEAD, rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b"),
        ("mdy", _LEAD, rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b"),
        ("my", _LEAD, rf"\b{_MONTH},?\s+{_YEAR}\b"),
        ("md", _LEAD, rf"\b{_MONTH}\s+{_DAY}\b"),
        ("dm", _LEAD, rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?!\w)"),
        ("m", _BARE_LEAD, rf"{_MONTH}(?!\w)"),
        ("y", _BARE_LEAD, rf"{_YEAR}\b"),
        (
            "ago",
            _LEAD,
            r"\b(?P<count>\d+|a|an|one|two|three|four|five|six)\s+"
            r"(?P<unit>day|week|month|year)s?\s+ago\b",
        ),
        (
            "relative",
            _LEAD,
            r"\b(?P<which>this|last|past|previous)\s+"
            r"(?P<unit>week|weekend|month|year|" + "|".join(_WEEKDAYS) + r")\b",
        ),
        ("named", _LEAD, r"\b(?P<which>today|tonight|yesterday)\b"),
    )
)


_LANGUAGES = ("en", "es", "fr", "de")
_CUE_SOURCE = (
    r"(?:\b\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?\b|\bfortnight\b|\bday before yesterday\b"
    r"|\bhace\b|\bil y a\b|\bvor\s+\w+\s+(?:tagen|wochen|monaten)\b|\bayer\b|\banteayer\b"
    r"|\bhier\b|\bgestern\b|\bvorgestern\b|\b(?:enero|febrero|marzo|abril|mayo|junio|julio"
    r"|agosto|septiembre|octubre|noviembre|diciembre|janvier|f[ée]vrier|mars|avril|mai|juin"
    r"|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre|januar|februar|m[äa]rz|juni|juli"
    r"|oktober|dezember)\b)"
)


class DayWindow(Value):
    """Days ``first`` to ``last``, inclusive."""

    __match_args__ = ("first", "last")
    __slots__ = __match_args__
    first: Final[date]
    last: Final[date]

    def __init__(self, first: date, last: date) -> None:
        self.first = first
        self.last = last

    def holds(self, day: str | None) -> bool:
        """True when the ``YYYY-MM-DD`` day is inside the window."""
        return day is not None and self.first.isoformat() <= day <= self.last.isoformat()


def _month_span(year: int, month: int) -> tuple[date, date]:
    following = date(year + month // 12, month % 12 + 1, 1)
    return date(year, month, 1), following - timedelta(days=1)


def _span(kind: str, found: re.Match[str], now: date) -> tuple[date, date]:
    """The days one matched phrase means; ValueError when it is not a real date."""
    group = found.groupdict()
    if kind in {"iso", "dmy", "mdy"}:
        month = int(group["month"]) if kind == "iso" else _MONTHS[group["month"].lower()]
        day = date(int(group["year"]), month, int(group["day"]))
        return day, day
    if kind == "my":
        return _month_span(int(group["year"]), _MONTHS[group["month"].lower()])
    if kind in {"md", "dm"}:  # no year: its latest occurrence up to now
        month, number = _MONTHS[group["month"].lower()], int(group["day"])
        year = now.year if (month, number) <= (now.month, now.day) else now.year - 1
        day = date(year, month, number)
        return day, day
    if kind == "m":
        month = _MONTHS[group["month"].lower()]
        return _month_span(now.year if month <= now.month else now.year - 1, month)
    if kind == "y":
        return date(int(group["year"]), 1, 1), date(int(group["year"]), 12, 31)
    if kind == "ago":
        count = group["count"].lower()
        back = (int(count) if count.isdigit() else _NUMBERS[count]) * _UNITS[group["unit"]]
        day = now - timedelta(days=back)
        slack = timedelta(days=max(1, back // 7))
        return day - slack, min(now, day + slack)
    if kind == "named":
        day = now - timedelta(days=1 if group["which"].lower() == "yesterday" else 0)
        return day, day
    return _relative(group["which"].lower(), group["unit"].lower(), now)


def _relative(which: str, unit: str, now: date) -> tuple[date, date]:
    """``this``/``last``/``past``/``previous`` week, weekend, month, year or weekday."""
    if unit in _WEEKDAYS:
        back = (now.weekday() - _WEEKDAYS[unit]) % 7 or 7
        day = now - timedelta(days=back)
        return day, day
    if which == "past":  # a rolling span ending today
        return now - timedelta(days=7 if unit == "weekend" else _UNITS[unit]), now
    last = which != "this"
    if unit in {"week", "weekend"}:
        monday = now - timedelta(days=now.weekday() + (7 if last else 0))
        if unit == "weekend":
            return monday + timedelta(days=5), monday + timedelta(days=6)
        return monday, monday + timedelta(days=6)
    if unit == "month":
        if not last:
            return _month_span(now.year, now.month)
        if now.month == 1:
            return _month_span(now.year - 1, 12)
        return _month_span(now.year, now.month - 1)
    year = now.year - (1 if last else 0)
    return date(year, 1, 1), date(year, 12, 31)


_FOREIGN_MONTHS = (
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"
    " janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre"
    " décembre decembre januar februar märz marz juni juli oktober dezember"
)
_DATE_WORDS = frozenset(
    {*_MONTHS, *_WEEKDAYS, *_FOREIGN_MONTHS.split()}
    | {"today", "tonight", "yesterday", "week", "weekend", "month", "year", "ago", "fortnight"}
    | {"hace", "hier", "ayer", "anteayer", "gestern", "vorgestern", "vor"}
)
_ORDINALS = frozenset({"st", "nd", "rd", "th"})
_SPLIT = str.maketrans(dict.fromkeys(".,;:!?()[]{}'\"/", " "))


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The phrase patterns, compiled when a question first might hold a date."""
    return tuple((kind, re.compile(source, re.IGNORECASE)) for kind, source in _SOURCES)


@functools.cache
def _cues() -> re.Pattern[str]:
    return re.compile(_CUE_SOURCE, re.IGNORECASE)


def _maybe_dated(text: str) -> bool:
    """False when no pattern could match ``text``: no date word, no four-digit year, no
    ``27/11`` or ``27.11``, no ``8th`` (so "db-02" or "port 8080s" cost no pattern at all)."""
    lowered = text.lower()
    words = lowered.translate(_SPLIT).split()
    if not _DATE_WORDS.isdisjoint(words) or "il y a" in lowered:
        return True
    digits = "".join(char if char.isdigit() else " " for char in text).split()
    if any(len(run) == 4 for run in digits):
        return True
    if any(word[:-2].isdigit() and word[-2:] in _ORDINALS for word in words):
        return True
    return any(
        text[i] in "/." and text[i - 1].isdigit() and text[i + 1].isdigit()
        for i in range(1, len(text) - 1)
    )


def find_window(text: str, now: date) -> tuple[DayWindow | None, str]:
    """The day window ``text`` speaks of, and ``text`` with its date phrases blanked out.

    Relative phrases count back from the latest absolute date of the text when it has one
    ("last weekend before April 10"), else from ``now``.
    """
    if not _maybe_dated(text):
        return None, text
    spans: list[tuple[date, date]] = []
    chars = list(text)
    anchor = now
    for kind, pattern in _patterns():
        if kind not in _ABSOLUTE and spans:
            anchor = max(last for _, last in spans)
        for found in pattern.finditer("".join(chars)):
            try:
                span = _span(kind, found, anchor if kind not in _ABSOLUTE else now)
            except (ValueError, OverflowError):
                continue
            lead = (found.group("lead") or "").strip().lower()
            first, last = span
            if lead == "before":
                first = first - timedelta(days=14)
            elif lead == "after":
                last = last + timedelta(days=14)
            elif lead == "since":
                last = max(last, now)
            elif lead in _AROUND:
                first, last = first - timedelta(days=3), last + timedelta(days=3)
            spans.append((first, last))
            chars[found.start() : found.end()] = " " * (found.end() - found.start())
    if not spans and _cues().search(text):
        spans = _library_spans(chars, now)
    if not spans:
        return None, text
    window = DayWindow(min(first for first, _ in spans), max(last for _, last in spans))
    return window, "".join(chars)


def _library_spans(chars: list[str], now: date) -> list[tuple[date, date]]:
    """Dates the patterns above missed ("el 3 de marzo", "27/11/2025", "a fortnight ago"),
    found by ``dateparser`` (imported here: it is slow to import and rarely needed). Only a
    phrase holding a digit-date or a date word counts, so "we", "may" or "2023" alone is not
    taken from it."""
    from dateparser.search import search_dates

    text = "".join(chars)
    base = datetime(now.year, now.month, now.day, 12)
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past"}
    try:
        found = search_dates(text, languages=list(_LANGUAGES), settings=settings)
    except (ValueError, OverflowError, TypeError):
        return []
    spans = []
    for phrase, moment in found or ():
        if not _cues().search(phrase):
            continue
        at = text.find(phrase)
        if at >= 0:
            chars[at : at + len(phrase)] = " " * len(phrase)
        spans.append((moment.date(), moment.date()))
    return spans


def day_bound(value: str, now: datetime) -> str | None:
    """``YYYY-MM-DD`` for a day or a duration back from ``now``; None when it is neither."""
    from dreamd.clock import parse_day, parse_duration  # only for --since / --until

    day = parse_day(value.strip())
    if day is not None:
        return day.isoformat()
    seconds = parse_duration(value)
    if seconds is None:
        return None
    try:
        return (now - timedelta(seconds=seconds)).date().isoformat()
    except OverflowError:
        return date.min.isoformat()
