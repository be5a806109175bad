"""Managed Markdown blocks and the HTML-comment markers dreaming writes.

A managed block is a heading line, a start marker, a body and an end marker::

    ## Deep Sleep
    <!-- dreamd:dreaming:deep:start -->
    - Ranked 2 candidate(s) for durable promotion.
    <!-- dreamd:dreaming:deep:end -->

Rules: markers written by OpenClaw (``openclaw:dreaming:*``) are recognised wherever dreamd's own
are, so a workspace OpenClaw dreamed in before is handled the same way. A block's heading is the
heading line just above its start marker, or its own heading (``# Dream Diary``…) above it with
only blank lines between, as OpenClaw writes it. Replacing a block rewrites it in place, with
dreamd's markers or the ``brand`` asked for (:func:`choose_brand`), and removes later duplicates
of it; a
missing block is appended after one blank line, except the diary, which is kept first in the
file. Diary text is never dropped: a later diary block's entries that the new body lacks are
kept at its end (one entry is the text between ``---`` lines; two are the same entry when their
text matches once whitespace is collapsed, or when they are backfill entries of the same day and
note). Text inside any managed block is blanked (line numbers kept) before anything is ingested.
Pure string functions only.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "BLOCK_HEADINGS",
    "BRANDS",
    "LINEAGE_MARKER",
    "PROMOTION_MARKER",
    "Block",
    "blank_managed",
    "choose_brand",
    "diary_segments",
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

BRANDS = ("dreamd", "openclaw")
_MARKER = re.compile(r"^\s*<!--\s*(dreamd|openclaw):dreaming:([a-z][a-z-]*):(start|end)\s*-->\s*$")
_BACKFILL = re.compile(
    r"<!--\s*(?:dreamd|openclaw):dreaming:backfill-entry\s+day=(\S+)\s+source=(.*?)\s*-->"
)
_SEPARATOR = re.compile(r"^---\s*$")
_HEADING = re.compile(r"^(#{1,6})\s")
PROMOTION_MARKER = re.compile(r"<!--\s*(?:dreamd|openclaw)-memory-promotion:(.+?)\s*-->")
LINEAGE_MARKER = re.compile(r"<!--\s*(?:dreamd|openclaw)-memory-lineage:(.+?)\s*-->")


_OPENCLAW_MARK = re.compile(r"<!--\s*openclaw(?::dreaming:|-memory-promotion:)")


def choose_brand(setting: str, *, openclaw: bool, texts: tuple[str, ...] = ()) -> str:
    """Whose marker spelling dreamd writes: ``setting`` when it is ``dreamd`` or ``openclaw``;
    for ``auto``, OpenClaw's when OpenClaw dreamed in the workspace (``openclaw``) or any of
    ``texts`` (MEMORY.md, DREAMS.md) carries its markers, so OpenClaw in turn recognises
    dreamd's promotions and blocks; else dreamd's."""
    if setting in BRANDS:
        return setting
    if openclaw or any(_OPENCLAW_MARK.search(text) for text in texts):
        return "openclaw"
    return "dreamd"


def start_marker(name: str, brand: str = "dreamd") -> str:
    """``<!-- dreamd:dreaming:<name>:start -->`` (``brand`` ``openclaw``: OpenClaw's spelling)."""
    return f"<!-- {brand}:dreaming:{name}:start -->"


def end_marker(name: str, brand: str = "dreamd") -> str:
    """``<!-- dreamd:dreaming:<name>:end -->`` (``brand`` ``openclaw``: OpenClaw's spelling)."""
    return f"<!-- {brand}:dreaming:{name}:end -->"


class Block(NamedTuple):
    """One managed block, as 0-based inclusive line numbers."""

    name: str
    first: int  # the heading line when it directly precedes the start marker, else the marker
    start: int  # the start marker
    end: int  # the end marker, or the last line before the next same-or-higher heading / EOF
    closed: bool  # False when the end marker is missing
    brand: str = "dreamd"  # whose spelling its start marker has


def _heading_level(line: str) -> int:
    found = _HEADING.match(line)
    return len(found.group(1)) if found else 0


def _block_end(lines: list[str], start: int, name: str, level: int) -> tuple[int, bool]:
    """The end marker of the block starting at ``start``; without one, the line before the
    next heading of the same or higher level (or the next start marker), else the last line."""
    for probe in range(start + 1, len(lines)):
        marker = _MARKER.match(lines[probe])
        if marker and marker.group(2) == name:
            if marker.group(3) == "end":
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
        if not found or found.group(3) != "start":
            index += 1
            continue
        name = found.group(2)
        floor = blocks[-1].end + 1 if blocks else 0  # a heading the previous block took is its
        first = _heading_above(lines, index, name, floor)
        end, closed = _block_end(lines, index, name, _heading_level(lines[first]) or 7)
        blocks.append(Block(name, first, index, end, closed, found.group(1)))
        index = end + 1
    return blocks


def _heading_above(lines: list[str], index: int, name: str, floor: int) -> int:
    """The block's first line: the heading right above its marker, or its own heading above
    only blank lines; else the marker itself."""
    if index - 1 >= floor and _heading_level(lines[index - 1]):
        return index - 1
    own = BLOCK_HEADINGS.get(name)
    probe = index - 1
    while probe >= floor and not lines[probe].strip():
        probe -= 1
    if own is not None and probe >= floor and probe < index - 1 and lines[probe].strip() == own:
        return probe
    return index


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


def diary_segments(body: str) -> list[str]:
    """The entries of a diary body, each with its ``---`` line, in order (text before the
    first ``---`` is an entry too when it is not blank)."""
    parts: list[list[str]] = [[]]
    for line in body.split("\n"):
        if _SEPARATOR.match(line):
            parts.append([])
        parts[-1].append(line)
    return ["\n".join(part).strip("\n") for part in parts if "\n".join(part).strip(" \n-")]


def _identity(entry: str) -> str:
    backfill = _BACKFILL.search(entry)
    if backfill:
        source = backfill.group(2).replace("\\", "/").rsplit("/", 1)[-1]
        return f"backfill {backfill.group(1)} {source}"
    return " ".join(entry.split())


def _kept_entries(lines: list[str], body: str, others: list[Block]) -> str:
    """``body`` with every entry of the ``others`` diary blocks it lacks appended."""
    seen = {_identity(entry) for entry in diary_segments(body)}
    extra: list[str] = []
    for block in others:
        last = block.end if not block.closed else block.end - 1
        for entry in diary_segments("\n".join(lines[block.start + 1 : last + 1])):
            if _identity(entry) not in seen:
                seen.add(_identity(entry))
                extra.append(entry)
    if not extra:
        return body
    kept = body.rstrip("\n")
    joined = "\n\n".join(extra)
    return (f"{kept}\n\n{joined}" if kept.strip() else f"\n{joined}") + "\n"


def replace_block(
    text: str, name: str, body: str, *, heading: str | None = None, brand: str | None = None
) -> str:
    """``text`` with the ``name`` block's body set to ``body`` (see the module rules)."""
    title = heading if heading is not None else BLOCK_HEADINGS[name]
    lines = text.split("\n")
    mine = [block for block in find_blocks(lines) if block.name == name]
    spelling = brand or "dreamd"
    if name == "diary" and len(mine) > 1:
        body = _kept_entries(lines, body, mine[1:])
    fresh = [title, start_marker(name, spelling), *body.split("\n"), end_marker(name, spelling)]
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
