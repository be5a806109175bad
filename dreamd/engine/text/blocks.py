"""Managed Markdown blocks and the HTML-comment markers dreaming writes.

A managed block is a heading line, a start marker, a body and an end marker::

    ## Deep Sleep
    <!-- dreamd:dreaming:deep:start -->
    - Ranked 2 candidate(s) for durable promotion.
    <!-- dreamd:dreaming:deep:end -->

Rules: markers written by OpenClaw (``openclaw:dreaming:*``) are recognised wherever dreamd's own
are, so a workspace OpenClaw dreamed in before is handled the same way. Replacing a block rewrites
it in place with dreamd's markers and removes later duplicates of it; a missing block is appended
after one blank line, except the diary, which is kept first in the file. Text inside any managed
block is blanked (line numbers kept) before anything is ingested. Pure string functions only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "BLOCK_HEADINGS",
    "LINEAGE_MARKER",
    "PROMOTION_MARKER",
    "Block",
    "blank_managed",
    "end_marker",
    "find_blocks",
    "managed_spans",
    "read_block",
    "replace_block",
    "start_marker",
]

BLOCK_HEADINGS: dict[str, str] = {
    "light": "## Light Sleep",
    "rem": "## REM Sleep",
    "deep": "## Deep Sleep",
    "diary": "# Dream Diary",
}

_MARKER = re.compile(
    r"^\s*<!--\s*(?:dreamd|openclaw):dreaming:([a-z][a-z-]*):(start|end)\s*-->\s*$"
)
_HEADING = re.compile(r"^(#{1,6})\s")
PROMOTION_MARKER = re.compile(r"<!--\s*(?:dreamd|openclaw)-memory-promotion:(.+?)\s*-->")
LINEAGE_MARKER = re.compile(r"<!--\s*(?:dreamd|openclaw)-memory-lineage:(.+?)\s*-->")


def start_marker(name: str) -> str:
    """``<!-- dreamd:dreaming:<name>:start -->``."""
    return f"<!-- dreamd:dreaming:{name}:start -->"


def end_marker(name: str) -> str:
    """``<!-- dreamd:dreaming:<name>:end -->``."""
    return f"<!-- dreamd:dreaming:{name}:end -->"


@dataclass(frozen=True, slots=True)
class Block:
    """One managed block, as 0-based inclusive line numbers."""

    name: str
    first: int  # the heading line when it directly precedes the start marker, else the marker
    start: int  # the start marker
    end: int  # the end marker, or the last line before the next same-or-higher heading / EOF
    closed: bool  # False when the end marker is missing


def _heading_level(line: str) -> int:
    found = _HEADING.match(line)
    return len(found.group(1)) if found else 0


def _block_end(lines: list[str], start: int, name: str, level: int) -> tuple[int, bool]:
    """The end marker of the block starting at ``start``; without one, the line before the
    next heading of the same or higher level (or the next start marker), else the last line."""
    for probe in range(start + 1, len(lines)):
        marker = _MARKER.match(lines[probe])
        if marker and marker.group(1) == name:
            if marker.group(2) == "end":
                return probe, True
            break
    for probe in range(start + 1, len(lines)):
        probe_level = _heading_level(lines[probe])
        if (probe_level and probe_level <= level) or _MARKER.match(lines[probe]):
            return probe - 1, False
    return len(lines) - 1, False


def find_blocks(lines: list[str]) -> list[Block]:
    """Every managed block in ``lines`` (any name, either spelling), in file order."""
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        found = _MARKER.match(lines[index])
        if not found or found.group(2) != "start":
            index += 1
            continue
        name = found.group(1)
        first = index
        if index > 0 and _heading_level(lines[index - 1]):
            first = index - 1
        end, closed = _block_end(lines, index, name, _heading_level(lines[first]) or 7)
        blocks.append(Block(name, first, index, end, closed))
        index = end + 1
    return blocks


def managed_spans(text: str) -> list[tuple[int, int]]:
    """0-based inclusive line spans covered by managed blocks (stray markers included)."""
    lines = text.split("\n")
    spans = [(block.first, block.end) for block in find_blocks(lines)]
    covered = {line for first, last in spans for line in range(first, last + 1)}
    spans += [(i, i) for i, line in enumerate(lines) if _MARKER.match(line) and i not in covered]
    return sorted(spans)


def blank_managed(text: str) -> str:
    """``text`` with every managed block's lines emptied; the line count is unchanged."""
    lines = text.split("\n")
    for first, last in managed_spans(text):
        for index in range(first, last + 1):
            lines[index] = ""
    return "\n".join(lines)


def read_block(text: str, name: str) -> str | None:
    """The body of the first ``name`` block, or ``None`` when there is none."""
    lines = text.split("\n")
    for block in find_blocks(lines):
        if block.name == name:
            last = block.end if not block.closed else block.end - 1
            return "\n".join(lines[block.start + 1 : last + 1])
    return None


def replace_block(text: str, name: str, body: str, *, heading: str | None = None) -> str:
    """``text`` with the ``name`` block's body set to ``body`` (see the module rules)."""
    title = heading if heading is not None else BLOCK_HEADINGS[name]
    fresh = [title, start_marker(name), *body.split("\n"), end_marker(name)]
    lines = text.split("\n")
    mine = [block for block in find_blocks(lines) if block.name == name]
    if not mine:
        return _insert_new(text, fresh, first=name == "diary")
    head, *duplicates = mine
    for block in reversed(duplicates):
        stop = block.end + 1
        # Also drop one blank separator line that preceded the duplicate.
        begin = (
            block.first - 1
            if block.first > 0 and not lines[block.first - 1].strip()
            else block.first
        )
        del lines[begin:stop]
    lines[head.first : head.end + 1] = fresh
    return "\n".join(lines)


def _insert_new(text: str, fresh: list[str], *, first: bool) -> str:
    block = "\n".join(fresh)
    if not text.strip():
        return block + "\n"
    if first:
        return block + "\n\n" + text.lstrip("\n")
    return text.rstrip("\n") + "\n\n" + block + "\n"
