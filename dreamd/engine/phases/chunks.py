"""Daily-note chunks for light ingestion, and the text forms a line range can take.

A chunk is at most 4 consecutive lines and 280 characters, all list items or all paragraph
lines, never crossing a blank line, a heading or a skipped line. Skipped: lines under 8
characters, headings, HTML comments, and everything inside managed blocks (blanked first).
The snippet is ``"<heading>: "`` plus the lines without list markers, joined by ``"; "`` for
list items and ``" "`` for prose; the heading is the nearest one above when it is meaningful (a
bare date, weekday or time of day is not). A single line over 280 characters is a chunk of its
own. :func:`range_forms` rebuilds exactly these forms from live lines, which is how the deep
phase finds a snippet again after the note was edited.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dreamd.engine.text.blocks import blank_managed
from dreamd.engine.text.snippets import collapse, strip_list_marker

__all__ = [
    "MAX_CHUNK_CHARS",
    "MAX_CHUNK_LINES",
    "DailyChunk",
    "chunk_daily_note",
    "heading_before",
    "range_forms",
]

MAX_CHUNK_LINES = 4
MAX_CHUNK_CHARS = 280
MIN_LINE_CHARS = 8

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_WEEKDAYS = (
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri"
    "|sat|sun"
)
_GENERIC_HEADING = re.compile(
    r"^(?:(?:" + _WEEKDAYS + r"),?\s*)?"
    r"(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|today|yesterday|tonight|morning"
    r"|afternoon|evening|night|daily notes?|notes|log|daily log|journal|"
    + _WEEKDAYS
    + r"|(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)\s+\d{1,2}(?:,?\s+\d{4})?)?$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class DailyChunk:
    """A chunk of a daily note: 1-based inclusive lines and its snippet."""

    start_line: int
    end_line: int
    snippet: str


def _heading_text(line: str) -> str | None:
    found = _HEADING.match(line)
    return collapse(found.group(2)) if found else None


def _meaningful(heading: str) -> bool:
    return bool(heading) and _GENERIC_HEADING.match(heading.strip(" :")) is None


def heading_before(lines: Sequence[str], index: int) -> str | None:
    """The heading above 0-based line ``index`` when it is meaningful, else ``None``."""
    for probe in range(index - 1, -1, -1):
        text = _heading_text(lines[probe])
        if text is not None:
            return text if _meaningful(text) else None
    return None


def _join(lines: Sequence[str], *, as_list: bool) -> str:
    parts = [collapse(strip_list_marker(line) if as_list else line) for line in lines]
    return ("; " if as_list else " ").join(part for part in parts if part)


def range_forms(lines: Sequence[str], first: int, last: int) -> tuple[str, ...]:
    """Every form the 0-based inclusive range can take as a stored snippet, plainest first."""
    window = lines[first : last + 1]
    plain = collapse(" ".join(window))
    is_list = all(_LIST_ITEM.match(line) for line in window)
    bare = _join(window, as_list=is_list)
    forms = [plain, bare]
    heading = heading_before(lines, first)
    if heading:
        forms.append(f"{heading}: {bare}")
    return tuple(dict.fromkeys(form for form in forms if form))


def _skip(line: str) -> bool:
    stripped = line.strip()
    return (
        len(stripped) < MIN_LINE_CHARS
        or _HEADING.match(line) is not None
        or stripped.startswith(("<!--", "-->"))
    )


def chunk_daily_note(text: str) -> list[DailyChunk]:
    """Split a daily note into light-phase chunks (see the module rules)."""
    lines = blank_managed(text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
    chunks: list[DailyChunk] = []
    heading: str | None = None
    run: list[int] = []
    run_is_list = False

    def flush() -> None:
        if run:
            body = _join([lines[i] for i in run], as_list=run_is_list)
            snippet = f"{heading}: {body}" if heading else body
            chunks.append(DailyChunk(run[0] + 1, run[-1] + 1, snippet))
            run.clear()

    for index, line in enumerate(lines):
        title = _heading_text(line)
        if title is not None:
            flush()
            heading = title if _meaningful(title) else None
            continue
        if _skip(line):
            flush()
            continue
        is_list = _LIST_ITEM.match(line) is not None
        candidate = [*run, index]
        body = _join([lines[i] for i in candidate], as_list=is_list)
        prefix = len(heading) + 2 if heading else 0
        if run and (
            is_list != run_is_list
            or len(candidate) > MAX_CHUNK_LINES
            or prefix + len(body) > MAX_CHUNK_CHARS
        ):
            flush()
        run.append(index)
        run_is_list = is_list
    flush()
    return [chunk for chunk in chunks if chunk.snippet]
