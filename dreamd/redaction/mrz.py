"""Machine-readable zones of passports and identity cards (ICAO 9303), as a scan or an OCR
pass writes them into a note.

A zone is two lines of 44 characters (a passport, TD3), two of 36 (TD2) or three of 30 (an
identity card, TD1), of capitals, digits and ``<`` only. A zone is found by its check digits
(weights 7, 3, 1; a letter counts 10 to 35, ``<`` nothing): the document number's and the
date of birth's must hold, so a row of ``<`` or a line of capitals is never one; a
passport's number line counts alone too. The whole zone is masked, the holder's name line
with it: it carries the document number, the birth date, the nationality and the name.
Pure; standard library only (no library in use checks an MRZ).
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding

__all__ = ["find_machine_zones"]

_WEIGHTS = (7, 3, 1)


@cache
def _line() -> re.Pattern[str]:
    return re.compile(r"(?m)^[ \t]*([A-Z0-9<]{30}|[A-Z0-9<]{36}|[A-Z0-9<]{44})[ \t]*$")


def _value(char: str) -> int:
    if char.isdigit():
        return int(char)
    return 0 if char == "<" else ord(char) - 55


def _holds(field: str, check: str) -> bool:
    """The check digit of ``field`` is ``check`` (an empty field holds nothing)."""
    total = sum(_value(c) * _WEIGHTS[i % 3] for i, c in enumerate(field))
    return bool(field.strip("<")) and check.isdigit() and total % 10 == int(check)


def _next_to(lines: list[re.Match[str]], first: int, second: int) -> bool:
    """Lines ``first`` and ``second`` follow one another and are as wide."""
    a, b = lines[first], lines[second]
    return b.start() == a.end() + 1 and len(a.group(1)) == len(b.group(1))


def _zone(lines: list[re.Match[str]], index: int) -> tuple[int, int] | None:
    """The zone (first line, last line) that line ``index`` holds the number of, if the
    number's and the birth date's checks hold: the second line of a passport (TD3, TD2,
    with the name line before it when it is there), the first of an id card (TD1)."""
    line = lines[index].group(1)
    if len(line) in (44, 36):
        if not (_holds(line[0:9], line[9]) and line[13:19].isdigit()):
            return None
        if not _holds(line[13:19], line[19]):
            return None
        named = index > 0 and _next_to(lines, index - 1, index)
        return (index - 1 if named else index), index
    if index + 1 >= len(lines) or not _next_to(lines, index, index + 1):
        return None
    dates = lines[index + 1].group(1)
    if not (_holds(line[5:14], line[14]) and _holds(dates[0:6], dates[6])):
        return None
    named = index + 2 < len(lines) and _next_to(lines, index + 1, index + 2)
    return index, index + (2 if named else 1)


def find_machine_zones(text: str) -> list[Finding]:
    """Every machine-readable zone of ``text`` whose check digits hold."""
    if "<<" not in text:
        return []
    lines = list(_line().finditer(text))
    found: list[Finding] = []
    index = 0
    while index < len(lines):
        zone = _zone(lines, index)
        if zone is None:
            index += 1
            continue
        first, last = zone
        found.append(Finding("document-number", lines[first].start(1), lines[last].end(1)))
        index = last + 1
    return found
