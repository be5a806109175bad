"""Index chunks: the line ranges of a workspace file that recall search can return.

Rules:

- Managed blocks are blanked first (line numbers kept), so their text is never indexed.
- A list item (a ``-``/``*``/``+``/``1.``/``1)`` line plus the following lines indented deeper
  than its marker) is one chunk; any other run of text lines is one paragraph chunk. A chunk is
  cut into pieces of at most :data:`MAX_CHUNK_LINES` lines and about :data:`MAX_CHUNK_CHARS`
  characters (a single longer line stays whole: a chunk is always whole lines).
- Blank lines, headings, thematic breaks (``---``) and HTML comment lines are never chunk text;
  they end the open chunk. A heading becomes the ``heading`` of the chunks under it.
- Inside a fenced code block every non-blank line, the fences included, is paragraph text and
  nothing is a heading, a list item or a comment.
- Session-corpus files (``.txt``) hold one message per line: one chunk per non-blank line.
- A file dreamd derived from the notes (a topic file, a pattern:
  :func:`dreamd.recall.sources.is_derived`) has no chunks: it is not evidence.
- ``MEMORY.md`` lines lose what dreaming wrote about them for itself (``[score=…]`` and HTML
  comments such as ``<!-- trigger: … -->``; the visible ``(2026-11-20.md#L4)`` source stays),
  so a hit shows and matches the fact alone. Its chunks carry the day of the note the entry
  cites (``(2026-11-20.md#L4)``, ``(chat 2026-11-20#L7)``, ``source=memory/2026-11-20.md:4-4``,
  ``Source: memory/2026-11-20.md#L4-L4``, or the promotion marker on the line above), else the
  day of the ``## Promoted From Short-Term Memory (<day>)`` section it stands in: a fact is as
  old as its evidence, so ``--since`` and "what is current" judge it by that day.
- Lines are numbered from 1, ranges are inclusive, ``text`` is the raw lines joined with
  ``"\\n"``. A hit shows :func:`chunk_snippet` of that text: the lines joined by spaces with
  whitespace collapsed. The deep phase re-finds a snippet in the live file by comparing it with
  the collapsed text of the same line range, so that form must not change.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from dreamd.engine.text.snippets import cap
from dreamd.layout import MEMORY_FILE, MEMORY_FILE_LOWER, daily_note_day
from dreamd.patterns import LazyPattern
from dreamd.recall.sources import is_derived
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["MAX_CHUNK_CHARS", "MAX_CHUNK_LINES", "IndexChunk", "chunk_for_index", "chunk_snippet"]

MAX_CHUNK_LINES = 4
MAX_CHUNK_CHARS = 600

_HEADING = LazyPattern(r"^ {0,3}#{1,6}(?:[ \t]+(.*?))?[ \t]*$")
_CLOSING_HASHES = LazyPattern(r"(?:^|[ \t]+)#+$")
_BREAK = LazyPattern(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}\s*$")
_BULLET = LazyPattern(r"^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_FENCE = LazyPattern(r"^ {0,3}(`{3,}|~{3,})")
_INDENT = LazyPattern(r"^[ \t]*")
_SCORE = LazyPattern(r"[ \t]*\[score=[^\]\n]*\]")
_COMMENT = LazyPattern(r"[ \t]*<!--.*?-->")
# Where an entry says it came from: a visible source, the old metadata, a consolidated entry's
# Source:, or its promotion marker's key.
_CITED = LazyPattern(
    r"\((?:chat )?(?:memory/)?(\d{4}-\d{2}-\d{2})[^()\s#]*#L\d"
    r"|\bsource=(?:[^\s\]]*/)?(\d{4}-\d{2}-\d{2})[^\s\]]*:\d"
    r"|\bSource:\s*(?:[^\s]*/)?(\d{4}-\d{2}-\d{2})[^\s]*#L\d"
    r"|-memory-promotion:memory:(?:[^\s:]*/)?(\d{4}-\d{2}-\d{2})[^\s:]*:\d"
)
_SECTION_DAY = LazyPattern(r"\((\d{4}-\d{2}-\d{2})\)\s*$")


class IndexChunk(Value):
    """One indexed line range: 1-based inclusive lines, raw text, heading context, note day."""

    __match_args__ = ("start_line", "end_line", "text", "heading", "day")
    __slots__ = __match_args__
    start_line: Final[int]
    end_line: Final[int]
    text: Final[str]
    heading: Final[str]
    day: Final[str | None]

    def __init__(
        self,
        start_line: int,
        end_line: int,
        text: str,
        heading: str,
        day: str | None,
    ) -> None:
        self.start_line = start_line
        self.end_line = end_line
        self.text = text
        self.heading = heading
        self.day = day


def chunk_snippet(text: str) -> str:
    """What a hit shows for a chunk: its lines joined, whitespace collapsed, at most 800 chars."""
    return cap(text)


def _indent_width(line: str) -> int:
    found = _INDENT.match(line)
    return len(found.group(0).expandtabs(4)) if found else 0


class _Chunker:
    """A line-at-a-time state machine; ``chunks`` holds the result after :meth:`feed`."""

    def __init__(self, lines: list[str], day: str | None) -> None:
        self.lines = lines
        self.day = day
        self.chunks: list[IndexChunk] = []
        self.heading = ""
        self.start = -1  # first 0-based line of the open chunk, -1 when none is open
        self.end = -1
        self.chars = 0
        self.item_indent: int | None = None  # marker indent while the open chunk is a list item
        self.fence: str | None = None  # the opening fence while inside a fenced code block
        self.in_comment = False

    def feed(self) -> None:
        for index, line in enumerate(self.lines):
            self._line(index, line)
        self._flush()

    def _line(self, index: int, line: str) -> None:
        if self.fence is not None:
            self._code_line(index, line, self.fence)
            return
        if self.in_comment:
            self.in_comment = "-->" not in line
            return
        stripped = line.lstrip()
        if not stripped:
            self._flush()
            return
        first = stripped[0]  # dispatch on it: most lines are list items or plain text
        if first == "<" and stripped.startswith("<!--"):
            stripped = stripped.rstrip()
            if "-->" not in stripped or stripped.endswith("-->"):
                self._flush()
                self.in_comment = "-->" not in stripped[4:]
                return
        elif first == "#" and (heading := _HEADING.match(line)):
            self._flush()
            title = _CLOSING_HASHES.sub("", (heading.group(1) or "").strip())
            self.heading = " ".join(title.split())
            return
        elif first in "-*_" and _BREAK.match(line):
            self._flush()
            return
        elif first in "`~" and (fence := _FENCE.match(line)):
            self._flush()
            self.fence = fence.group(1)
            self._push(index, line)
            return
        if (first in "-*+" or first.isdigit()) and (bullet := _BULLET.match(line)):
            self._flush()
            self.item_indent = len(bullet.group(1).expandtabs(4))
        elif self.item_indent is not None and _indent_width(line) <= self.item_indent:
            self._flush()  # not indented under the item: a new paragraph starts
        self._push(index, line)

    def _code_line(self, index: int, line: str, fence: str) -> None:
        if not line.strip():
            self._emit()  # a blank line splits the code block but does not close it
            return
        self._push(index, line)
        closing = _FENCE.match(line)
        if (
            closing
            and closing.group(1)[0] == fence[0]
            and len(closing.group(1)) >= len(fence)
            and not line[closing.end() :].strip()
        ):
            self._flush()

    def _push(self, index: int, line: str) -> None:
        too_long = self.end - self.start + 1 >= MAX_CHUNK_LINES
        if self.start >= 0 and (too_long or self.chars + len(line) > MAX_CHUNK_CHARS):
            self._emit()
        if self.start < 0:
            self.start = index
        self.end = index
        self.chars += len(line) + 1

    def _emit(self) -> None:
        """Close the open piece; a list item or code block stays open for the next piece."""
        if self.start < 0:
            return
        text = "\n".join(self.lines[self.start : self.end + 1])
        self.chunks.append(IndexChunk(self.start + 1, self.end + 1, text, self.heading, self.day))
        self.start = self.end = -1
        self.chars = 0

    def _flush(self) -> None:
        self._emit()
        self.item_indent = None
        self.fence = None


def chunk_for_index(path: str, text: str) -> list[IndexChunk]:
    """The chunks of the file at workspace-relative ``path`` with content ``text``."""
    from dreamd.engine.text.blocks import blank_managed  # reading a query needs none

    if is_derived(path):
        return []
    if ":dreaming:" in text:  # every managed-block marker contains it; most files have none
        text = blank_managed(text)
    lines = text.split("\n")
    day = daily_note_day(path)
    if path in (MEMORY_FILE, MEMORY_FILE_LOWER):
        return _memory_chunks(lines)
    if path.endswith(".txt"):
        return [
            IndexChunk(number, number, line, "", day)
            for number, line in enumerate(lines, start=1)
            if line.strip()
        ]
    chunker = _Chunker(lines, day)
    chunker.feed()
    return chunker.chunks


def _cited_day(text: str) -> str | None:
    found = _CITED.search(text)
    return next((day for day in found.groups() if day), None) if found else None


def _memory_chunks(lines: list[str]) -> list[IndexChunk]:
    """``MEMORY.md``'s chunks: entry text without dreaming's metadata, dated by what each cites
    (see the module rules)."""
    cited: dict[int, str] = {}  # 0-based line -> the day it (or the marker above it) cites
    clean = []
    for number, line in enumerate(lines):
        day = _cited_day(line) if "(" in line or "ource" in line or "promotion" in line else None
        if day is None and number and lines[number - 1].lstrip().startswith("<!--"):
            day = _cited_day(lines[number - 1])
        if day is not None:
            cited[number] = day
        if "[score=" in line or ("<!--" in line and "-->" in line):
            stripped = _COMMENT.sub("", _SCORE.sub("", line)).rstrip()
            # a line that was only a comment stays one, so it is still skipped as a comment
            line = stripped if stripped.strip() else line
        clean.append(line)
    chunker = _Chunker(clean, None)
    chunker.feed()
    dated = []
    for chunk in chunker.chunks:
        day = next(
            (cited[n] for n in range(chunk.start_line - 1, chunk.end_line) if n in cited), None
        )
        if day is None and chunk.heading and (section := _SECTION_DAY.search(chunk.heading)):
            day = section.group(1)
        dated.append(IndexChunk(chunk.start_line, chunk.end_line, chunk.text, chunk.heading, day))
    return dated
