"""Backfill entries in the Dream Diary: grounded, reversible, one per note day and source.

An entry is the grounded preview of one historical note, in the diary's entry shape::

    ---

    *January 5, 2026*

    <!-- dreamd:dreaming:backfill-entry day=2026-01-05 source=memory/2026-01-05.md -->

    What Happened
    1. ... [memory/2026-01-05.md:4]
    ...

Rules:

* An entry's text passes the one redaction (:mod:`dreamd.redaction`) before it is written.
* OpenClaw's ``openclaw:dreaming:backfill-entry`` marker is recognised like dreamd's own. The
  source is the note's workspace path (or its absolute path when it lies outside), with ``%``,
  spaces and ``>`` percent-encoded.
* An entry runs from its ``---`` line to the next ``---`` line or the end of the diary block;
  the blank lines at its end belong to it.
* Writing replaces an earlier backfill entry for the same day and source in place (later
  duplicates of it are dropped) and appends the others, oldest day first, at the end of the
  diary: the entry's lines, then one blank line (a blank line first when the line above is
  text, so ``---`` never underlines it). Writing the same notes again changes nothing.
* Removing drops exactly the backfill entries with their trailing blank lines, so removing what
  was appended restores the diary byte for byte; ordinary entries are never touched. Lines are
  edited in place (CRLF kept); only a DREAMS.md without a closed diary block is rewritten
  through :func:`dreamd.engine.text.blocks.replace_block`. Pure string functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote

from dreamd.clock import parse_day
from dreamd.engine.grounded.preview import GroundedNote, section_lines
from dreamd.engine.text.blocks import find_blocks, read_block, replace_block
from dreamd.redaction import redact

__all__ = [
    "BACKFILL_MARKER",
    "BackfillDiary",
    "backfill_keys",
    "backfill_marker",
    "entry_lines",
    "plan_backfill_diary",
    "remove_backfill_entries",
]

BACKFILL_MARKER = re.compile(r"<!--\s*(?:dreamd|openclaw):dreaming:backfill-entry\b(.*?)-->")
_ATTRIBUTE = re.compile(r"([A-Za-z]+)=(\S+)")
_SEPARATOR = re.compile(r"^---\s*$")


@dataclass(frozen=True)
class BackfillDiary:
    """DREAMS.md after a change to its backfill entries, and what changed."""

    text: str
    written: int = 0
    replaced: int = 0
    removed: int = 0


def backfill_marker(day: str, source: str) -> str:
    """``<!-- dreamd:dreaming:backfill-entry day=<day> source=<source> -->``."""
    encoded = quote(source, safe="/:._-~@+,=()")
    return f"<!-- dreamd:dreaming:backfill-entry day={day} source={encoded} -->"


def _date_line(day: str) -> str:
    parsed = parse_day(day)
    return f"{parsed:%B} {parsed.day}, {parsed.year}" if parsed else day


def entry_lines(note: GroundedNote) -> list[str]:
    """One backfill entry's lines, without the blank line that follows it; its text passes
    :func:`dreamd.redaction.redact` (a statement never holds a secret, and this keeps it so)."""
    head = ["---", "", f"*{_date_line(note.day)}*", "", backfill_marker(note.day, note.path), ""]
    return head + redact("\n".join(section_lines(note, headings=False))).split("\n")


def _key_of(lines: Sequence[str]) -> tuple[str, str] | None:
    for line in lines:
        found = BACKFILL_MARKER.search(line)
        if found:
            attributes = dict(_ATTRIBUTE.findall(found.group(1)))
            return attributes.get("day", ""), unquote(attributes.get("source", ""))
    return None


@dataclass(frozen=True, slots=True)
class _Segment:
    lines: list[str]  # the entry's lines up to its last text line
    trailing: list[str]  # the blank lines after it
    key: tuple[str, str] | None  # (day, source) of a backfill entry


def _segments(body: list[str]) -> tuple[list[str], list[_Segment]]:
    """The lines before the first entry, and each entry (see the module rules)."""
    starts = [i for i, line in enumerate(body) if _SEPARATOR.match(line)]
    prefix = body[: starts[0]] if starts else list(body)
    segments = []
    for n, first in enumerate(starts):
        stop = starts[n + 1] if n + 1 < len(starts) else len(body)
        last = stop - 1
        while last > first and not body[last].strip():
            last -= 1
        lines = body[first : last + 1]
        segments.append(_Segment(lines, body[last + 1 : stop], _key_of(lines)))
    return prefix, segments


def _diary_span(lines: list[str]) -> tuple[int, int] | None:
    """(start marker, end marker) of the first closed diary block."""
    for block in find_blocks(lines):
        if block.name == "diary" and block.closed:
            return block.start, block.end
    return None


def _join(prefix: list[str], segments: Sequence[_Segment]) -> list[str]:
    out = list(prefix)
    for segment in segments:
        out += segment.lines + segment.trailing
    return out


def _appended(body: list[str], entries: Sequence[list[str]]) -> list[str]:
    out = list(body)
    for entry in entries:
        if out and out[-1].strip():
            out.append("")
        out += [*entry, ""]
    return out


def plan_backfill_diary(text: str, notes: Sequence[GroundedNote]) -> BackfillDiary:
    """``text`` (DREAMS.md) with one backfill entry per note (see the module rules)."""
    cr = "\r" if "\r\n" in text else ""
    wanted = {
        (note.day, note.path): [line + cr for line in entry_lines(note)]
        for note in notes_sorted(notes)
    }
    lines = text.split("\n")
    span = _diary_span(lines)
    if span is None:
        plain = text.replace("\r\n", "\n")
        existing = read_block(plain, "diary")
        old = existing.split("\n") if existing and existing.strip() else []
        merged = _appended(old, [entry_lines(note) for note in notes_sorted(notes)])
        result = replace_block(plain, "diary", "\n".join(merged))
        return BackfillDiary(result, written=len(wanted))
    prefix, segments = _segments(lines[span[0] + 1 : span[1]])
    kept: list[_Segment] = []
    replaced = 0
    for segment in segments:
        key = segment.key
        if key is None or key not in wanted:
            kept.append(segment)
            continue
        replaced += 1
        if all(other.key != key for other in kept):
            kept.append(_Segment(wanted[key], segment.trailing, key))
    done = {segment.key for segment in kept}
    fresh = [entry for key, entry in wanted.items() if key not in done]
    body = _appended(_join(prefix, kept), fresh)
    result = "\n".join(lines[: span[0] + 1] + body + lines[span[1] :])
    return BackfillDiary(result, written=len(wanted), replaced=replaced)


def notes_sorted(notes: Sequence[GroundedNote]) -> list[GroundedNote]:
    """Notes in entry order: oldest day first, then by source."""
    return sorted(notes, key=lambda n: (n.day, n.path))


def remove_backfill_entries(text: str) -> BackfillDiary:
    """``text`` without any backfill entry (see the module rules)."""
    lines = text.split("\n")
    span = _diary_span(lines)
    if span is None:
        return BackfillDiary(text)
    prefix, segments = _segments(lines[span[0] + 1 : span[1]])
    kept = [segment for segment in segments if segment.key is None]
    if len(kept) == len(segments):
        return BackfillDiary(text)
    result = "\n".join(lines[: span[0] + 1] + _join(prefix, kept) + lines[span[1] :])
    return BackfillDiary(result, removed=len(segments) - len(kept))


def backfill_keys(text: str) -> list[tuple[str, str]]:
    """(day, source) of every backfill entry in the diary, in file order."""
    lines = text.split("\n")
    span = _diary_span(lines)
    if span is None:
        return []
    return [s.key for s in _segments(lines[span[0] + 1 : span[1]])[1] if s.key is not None]
