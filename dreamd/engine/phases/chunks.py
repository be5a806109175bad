"""Daily-note chunks for light ingestion, and the text forms a line range can take.

The rules are OpenClaw 2026.9's, so both tools make the same entries (and, through
:func:`daily_claim_key`, the same keys) from the same note:

* **A list item is one chunk**: the item (marker dropped) plus its continuation lines (indented
  text up to the next item, blank line, heading or comment), prefixed by its ancestor items,
  each joined with ``" > "``, and by the active heading (``"<heading>: "``). An item that ends
  with ``:`` and only introduces nested items is context for them, not a chunk of its own. A
  nested item after a blank line still has its parent as ancestor.
* **Prose** runs of at most 4 lines are one chunk, joined by ``" "`` and prefixed by the
  heading; a run stops at a blank line, a heading, a comment, a list item or a line under 8
  characters, and before it would pass 280 characters.
* A snippet is cut to 280 UTF-16 units (a long line is cut, not split) and must keep at least 8.
* The active heading is the nearest meaningful one above: a bare date, weekday, day of the
  month or time of day is not, and leaves the heading above it active.
* Managed blocks are blanked first, so their lines never become chunks.

:func:`range_forms` rebuilds these forms (and the grouped forms earlier releases stored) from
live lines, which is how the deep phase finds a snippet again after the note was edited.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dreamd.engine.text.blocks import blank_managed
from dreamd.engine.text.sentences import sentences
from dreamd.engine.text.snippets import collapse, openclaw_claim_hash, strip_list_marker

__all__ = [
    "MAX_CHUNK_CHARS",
    "MAX_CHUNK_LINES",
    "DailyChunk",
    "atomic_form",
    "chunk_daily_note",
    "chunk_forms",
    "daily_claim_key",
    "heading_before",
    "range_forms",
]

MAX_CHUNK_LINES = 4
MAX_CHUNK_CHARS = 280
MIN_LINE_CHARS = 8

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_OC_HEADING = re.compile(r"^#{1,6}\s+(.+)$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_OC_LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+\.)\s+(.+)$")
_OC_MARKERS = (re.compile(r"^\d+\.\s+"), re.compile(r"^[-*+]\s+"))
_NOTE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:-[^/]+)?\.md$", re.IGNORECASE)
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
_MONTHS = (
    "jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept"
    "|september|oct|october|nov|november|dec|december"
)
_DAY_HEADING = re.compile(
    r"^(?:(?:" + _WEEKDAYS + r"|tuesday|wednesday|thursday)(?:,\s+)?)?"
    r"(?:(?:" + _MONTHS + r")\s+\d{1,2}(?:st|nd|rd|th)?(?:,\s*\d{4})?"
    r"|\d{1,2}[/-]\d{1,2}(?:[/-]\d{2,4})?|\d{4}[/-]\d{2}[/-]\d{2})$",
    re.IGNORECASE,
)
_TIME_OF_DAY = frozenset({"today", "yesterday", "tomorrow", "morning", "afternoon", "evening"})


@dataclass(frozen=True, slots=True)
class DailyChunk:
    """A chunk of a daily note: 1-based inclusive lines and its snippet."""

    start_line: int
    end_line: int
    snippet: str

    @property
    def key(self) -> str:
        """The recall key OpenClaw 2026.9 gives this chunk (:func:`daily_claim_key`)."""
        return daily_claim_key(self.snippet)


def daily_claim_key(snippet: str) -> str:
    """``memory:claim:<hash>``: the key of a daily-ingested snippet, wherever it was read."""
    return f"memory:claim:{openclaw_claim_hash(snippet)}"


def _units(char: str) -> int:
    return 2 if ord(char) > 0xFFFF else 1


def _u16len(text: str) -> int:
    return sum(_units(char) for char in text)


def _cut(text: str, limit: int = MAX_CHUNK_CHARS) -> str:
    """The first ``limit`` UTF-16 units of ``text``, never half a character."""
    if len(text) <= limit // 2 or _u16len(text) <= limit:
        return text
    used = 0
    for index, char in enumerate(text):
        used += _units(char)
        if used > limit:
            return text[:index]
    return text


def _spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _drop_marker(line: str) -> str:
    for marker in _OC_MARKERS:
        line = marker.sub("", line, count=1)
    return line.strip()


def _generic(heading: str) -> bool:
    text = " ".join(heading.split())
    return (
        not text
        or text.lower() in _TIME_OF_DAY
        or text.lower() == "night"
        or _DAY_HEADING.match(text) is not None
    )


def _active_heading(line: str) -> str | None:
    found = _OC_HEADING.match(line.strip())
    if not found:
        return None
    heading = _drop_marker(found.group(1))
    if not heading or _NOTE_NAME.match(heading) or _generic(heading):
        return None
    return _spaces(_cut(heading))


def _snippet(heading: str | None, parts: Sequence[str]) -> str:
    body = " ".join(parts).strip()
    return _spaces(_cut(f"{heading}: {body}" if heading else body)).strip()


@dataclass
class _Ancestor:
    indent: int
    text: str


def _list_item(
    lines: Sequence[str], index: int, heading: str | None, ancestors: list[_Ancestor]
) -> tuple[DailyChunk | None, int]:
    """The chunk of the item at ``index`` (or ``None``) and the index to continue after."""
    found = _OC_LIST_ITEM.match(lines[index])
    assert found is not None
    indent = len(found.group(1))
    text = _spaces(_cut(_drop_marker(lines[index].strip())))
    while ancestors and ancestors[-1].indent >= indent:
        ancestors.pop()
    continuation: list[str] = []
    end = index
    nested = False
    resume: int | None = None
    for cursor in range(index + 1, len(lines)):
        following = lines[cursor].strip()
        if not following:
            probe = cursor + 1
            while probe < len(lines) and not lines[probe].strip():
                probe += 1
            loose = _OC_LIST_ITEM.match(lines[probe]) if probe < len(lines) else None
            if loose and len(loose.group(1)) > indent:
                nested, resume = True, probe
            break
        if following.startswith(("#", "<!--")):
            break
        child = _OC_LIST_ITEM.match(lines[cursor])
        if child:
            nested = len(child.group(1)) > indent
            break
        continuation.append(_spaces(following))
        end = cursor
    body = " ".join([text, *continuation])
    joined = " > ".join([*(a.text for a in ancestors), body]).replace(": > ", ": ")
    snippet = _snippet(heading, [joined])
    introduces = nested and not continuation and text.endswith(":")
    chunk = None
    if not introduces and _u16len(snippet) >= MIN_LINE_CHARS:
        chunk = DailyChunk(index + 1, end + 1, snippet)
    ancestors.append(_Ancestor(indent, body))
    return chunk, (end + 1 if resume is None else resume)


def _lines(text: str) -> list[str]:
    return blank_managed(text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")


def _chunks(lines: Sequence[str]) -> list[DailyChunk]:
    chunks: list[DailyChunk] = []
    heading: str | None = None
    run: list[int] = []
    parts: list[str] = []
    ancestors: list[_Ancestor] = []

    def flush() -> None:
        if parts:
            snippet = _snippet(heading, parts)
            if _u16len(snippet) >= MIN_LINE_CHARS:
                chunks.append(DailyChunk(run[0] + 1, run[-1] + 1, snippet))
        run.clear()
        parts.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        title = _active_heading(line)
        stripped = line.strip()
        if title:
            flush()
            heading, ancestors = title, []
        elif not stripped or stripped.startswith("<!--"):
            flush()
            ancestors = []
        elif _OC_LIST_ITEM.match(line):
            flush()
            if not _drop_marker(stripped):
                ancestors = []
            else:
                chunk, index = _list_item(lines, index, heading, ancestors)
                if chunk is not None:
                    chunks.append(chunk)
                continue
        else:
            ancestors = []
            text = _drop_marker(stripped)
            if stripped.startswith("#") or _u16len(text) < MIN_LINE_CHARS:
                flush()
            else:
                text = _spaces(_cut(text))
                if parts and (
                    len(parts) >= MAX_CHUNK_LINES
                    or _u16len(_snippet(heading, [*parts, text])) > MAX_CHUNK_CHARS
                ):
                    flush()
                run.append(index)
                parts.append(text)
        index += 1
    flush()
    return chunks


def chunk_daily_note(text: str) -> list[DailyChunk]:
    """Split a daily note into light-phase chunks (see the module rules)."""
    return _chunks(_lines(text))


def chunk_forms(lines: Sequence[str]) -> dict[tuple[int, int], str]:
    """The chunk snippet of each 0-based inclusive range of ``lines`` that is a chunk."""
    return {(c.start_line - 1, c.end_line - 1): c.snippet for c in _chunks(lines)}


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


def atomic_form(heading: str | None, sentence: str) -> str:
    """One sentence of a line as its own claim: ``heading: sentence`` under a meaningful
    heading (:func:`heading_before`), else the sentence."""
    return f"{heading}: {sentence}" if heading else sentence


def range_forms(
    lines: Sequence[str],
    first: int,
    last: int,
    chunks: Mapping[tuple[int, int], str] | None = None,
) -> tuple[str, ...]:
    """Every form the 0-based inclusive range can take as a stored snippet, plainest first.

    ``chunks`` is :func:`chunk_forms` of ``lines`` (computed when not given): the range's chunk
    snippet, when it is a chunk, is one of its forms; so are the grouped forms (items joined by
    ``"; "``, the heading above as prefix) that snippets stored by earlier releases have, and,
    when the range holds several sentences, each sentence as an atomic claim
    (:func:`atomic_form`), as grounded replay stages one.
    """
    window = lines[first : last + 1]
    plain = collapse(" ".join(window))
    is_list = all(_LIST_ITEM.match(line) for line in window)
    bare = _join(window, as_list=is_list)
    forms = [plain, bare]
    heading = heading_before(lines, first)
    if heading:
        forms.append(f"{heading}: {bare}")
    chunked = (chunk_forms(lines) if chunks is None else chunks).get((first, last))
    if chunked:
        forms.append(chunked)
    parts = sentences(bare) if any(mark in bare for mark in ".!?。！？") else []
    if len(parts) > 1:
        forms += [atomic_form(heading, part) for part in parts]
    return tuple(dict.fromkeys(form for form in forms if form))
