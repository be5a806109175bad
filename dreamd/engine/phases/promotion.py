"""MEMORY.md: rendering promoted entries, appending them, and keeping the file within budget.

Append-only: existing text is kept byte for byte (its line endings too); a new section
``## Promoted From Short-Term Memory (<day>)`` goes at the end, an empty file first getting
``# Long-Term Memory``. Each entry is a marker line and an entry line::

    <!-- dreamd-memory-promotion:memory:memory/2026-11-12.md:8:8 -->
    - Text. [score=0.813 signals=7 recalls=7 avg=0.613 source=memory/2026-11-12.md:8-8] \
      <!-- trigger: a, b, c --> <!-- importance: 8 -->      (one line in the file)

Budget: the file stays within ``max_chars``. Whole generated sections (nothing in them but
marker/entry pairs) are dropped, oldest date first, never more than ``max_loss`` of the file's
prior entries and never any human text; candidates that still do not fit are deferred, lowest
ranked first. The entry line never carries a secret: its text passes the one redaction
(:mod:`dreamd.redaction`) and a trigger that could be a fragment of one is left out, whatever the
row in the store says. Pure string functions.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from dreamd.engine.text.blocks import PROMOTION_MARKER
from dreamd.engine.text.snippets import collapse
from dreamd.redaction import is_secret_tag, redact

__all__ = [
    "AppendResult",
    "PromotionEntry",
    "append_promotions",
    "count_entries",
    "importance",
    "promoted_keys",
    "promoted_on",
    "render_entry",
    "triggers",
]

MAX_TRIGGERS = 3
MEMORY_HEADER = "# Long-Term Memory"
SECTION_TITLE = "## Promoted From Short-Term Memory ({day})"
_SECTION = re.compile(r"^## Promoted From Short-Term Memory \((\d{4}-\d{2}-\d{2})\)\s*$")
_MARKER_LINE = re.compile(r"^\s*<!--\s*(?:dreamd|openclaw)-memory-promotion:.+?-->\s*$")
_TOP_HEADING = re.compile(r"^#{1,2}\s")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True, slots=True)
class PromotionEntry:
    """One candidate ready to write."""

    key: str
    text: str  # already cut to the snippet budget
    score: float
    signals: int
    recalls: int
    average: float
    path: str
    start_line: int
    end_line: int
    tags: tuple[str, ...]


@dataclass(frozen=True)
class AppendResult:
    """The new MEMORY.md text and what happened to each candidate."""

    text: str
    appended: tuple[str, ...]
    deferred: tuple[str, ...]
    compacted_days: tuple[str, ...]


IMPORTANCE_FLOOR = 3  # OpenClaw's: a written entry is never less important than 3


def importance(score: float) -> int:
    """``round(10 * score)`` clamped to 3..10 (halves round up), as OpenClaw writes it; an
    existing entry's annotation is read as it is (1..10)."""
    return min(10, max(IMPORTANCE_FLOOR, math.floor(10 * score + 0.5)))


def triggers(tags: Sequence[str]) -> tuple[str, ...]:
    """The first three concept tags that cannot be a fragment of a secret, in any case
    (:func:`dreamd.redaction.is_secret_tag`), made safe for an HTML comment."""
    cleaned = []
    for tag in tags:
        text = tag.replace("<!--", " ").replace("-->", " ")
        text = collapse(re.sub(r"[,;\n]", " ", text))[:64]
        if text and not is_secret_tag(text):
            cleaned.append(text)
        if len(cleaned) == MAX_TRIGGERS:
            break
    return tuple(cleaned)


def _safe(text: str) -> str:
    return text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")


def render_entry(entry: PromotionEntry, brand: str = "dreamd") -> tuple[str, str]:
    """The marker line and the entry line of one promotion (``brand``: whose marker spelling)."""
    meta = (
        f"[score={entry.score:.3f} signals={entry.signals} recalls={entry.recalls} "
        f"avg={entry.average:.3f} source={entry.path}:{entry.start_line}-{entry.end_line}]"
    )
    line = f"- {_safe(collapse(redact(entry.text)))} {meta}"
    trigger = triggers(entry.tags)
    if trigger:
        line += f" <!-- trigger: {', '.join(trigger)} -->"
    line += f" <!-- importance: {importance(entry.score)} -->"
    return f"<!-- {brand}-memory-promotion:{entry.key} -->", line


def promoted_keys(text: str) -> frozenset[str]:
    """Keys of every promotion marker in ``text`` (dreamd's and OpenClaw's)."""
    return frozenset(match.group(1) for match in PROMOTION_MARKER.finditer(text))


def _is_entry_line(line: str) -> bool:
    stripped = line.strip()
    return (
        bool(stripped) and not stripped.startswith(("#", "<!--", "-->")) and not _FENCE.match(line)
    )


def count_entries(text: str) -> int:
    """Entry lines: non-empty lines that are not headings, comments or fences."""
    return sum(1 for line in text.splitlines() if _is_entry_line(line))


@dataclass(frozen=True, slots=True)
class _Section:
    day: str
    begin: int  # index into keepends lines, including one blank line before the heading
    end: int  # exclusive
    entries: int


def _generated_sections(lines: list[str]) -> list[_Section]:
    sections: list[_Section] = []
    index = 0
    while index < len(lines):
        found = _SECTION.match(lines[index].rstrip("\r\n"))
        if not found:
            index += 1
            continue
        stop = index + 1
        while stop < len(lines) and not _TOP_HEADING.match(lines[stop]):
            stop += 1
        body = [line.rstrip("\r\n") for line in lines[index + 1 : stop]]
        if _only_generated(body):
            begin = index - 1 if index > 0 and not lines[index - 1].strip() else index
            entries = sum(1 for line in body if _is_entry_line(line))
            sections.append(_Section(found.group(1), begin, stop, entries))
        index = stop
    return sections


def _only_generated(body: list[str]) -> bool:
    expect_entry = False
    for line in body:
        if not line.strip():
            continue
        if expect_entry:
            if not line.startswith("- "):
                return False
            expect_entry = False
        elif _MARKER_LINE.match(line):
            expect_entry = True
        else:
            return False
    return not expect_entry


def promoted_on(text: str, day: str) -> int:
    """Promotion markers in the ``day`` sections of ``text`` (for the per-day limit)."""
    count = 0
    inside = False
    for line in text.splitlines():
        found = _SECTION.match(line)
        if found:
            inside = found.group(1) == day
        elif _TOP_HEADING.match(line):
            inside = False
        elif inside and _MARKER_LINE.match(line):
            count += 1
    return count


def _section_text(
    entries: Sequence[PromotionEntry], day: str, newline: str, brand: str = "dreamd"
) -> str:
    lines = [SECTION_TITLE.format(day=day), ""]
    for entry in entries:
        lines.extend(render_entry(entry, brand))
    return newline.join(lines) + newline


def _join(existing: str, section: str, newline: str) -> str:
    if not existing.strip():
        return MEMORY_HEADER + newline + newline + section
    glue = "" if existing.endswith(("\n", "\r")) else newline
    return existing + glue + newline + section


def append_promotions(
    existing: str,
    entries: Sequence[PromotionEntry],
    *,
    day: str,
    max_chars: int,
    max_loss: float,
    brand: str = "dreamd",
) -> AppendResult:
    """Append ``entries`` (already ranked) to ``existing`` within the budget."""
    if not entries:
        return AppendResult(existing, (), (), ())
    newline = "\r\n" if "\r\n" in existing else "\n"
    lines = existing.splitlines(keepends=True)
    prior = count_entries(existing)
    allowed_loss = math.floor(max_loss * prior + 1e-9)
    dropped: list[_Section] = []
    candidates = list(entries)
    removable = sorted(_generated_sections(lines), key=lambda section: (section.day, section.begin))
    while candidates:
        kept = [
            line for i, line in enumerate(lines) if not any(s.begin <= i < s.end for s in dropped)
        ]
        text = _join("".join(kept), _section_text(candidates, day, newline, brand), newline)
        if len(text) <= max_chars:
            days = tuple(section.day for section in dropped)
            appended = tuple(entry.key for entry in candidates)
            deferred = tuple(entry.key for entry in entries[len(candidates) :])
            return AppendResult(text, appended, deferred, days)
        lost = sum(section.entries for section in dropped)
        if removable and lost + removable[0].entries <= allowed_loss:
            dropped.append(removable.pop(0))
            continue
        candidates.pop()
    return AppendResult(existing, (), tuple(entry.key for entry in entries), ())
