"""``memory/archive.md``: where entries that leave MEMORY.md go, readable and restorable.

The archive is append-only: each night that moves entries out adds one section at the end, and
nothing written before is ever changed. An entry keeps its line byte for byte, under a marker
naming its promotion key, with one indented line saying why it left::

    ## Archived 2026-11-20

    <!-- dreamd-memory-archived:memory:memory/2026-11-02.md:5:5 -->
    - Mia's swimming lesson is on Tuesdays at 17:00. (2026-11-02.md#L5)
      - Replaced on 2026-11-20 by: Mia's swimming moved to Thursdays.

A restore (``dreamd memory restore``) appends ``## Restored <day>`` with a
``<!-- dreamd-memory-restored:KEY -->`` marker per entry it put back, so the file still tells
the whole story; :func:`archived_entries` answers with the entries whose latest word is
"archived". Pure string functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dreamd.engine.phases.promotion import Leaving
from dreamd.engine.text.snippets import collapse

__all__ = ["ARCHIVE_HEADER", "Archived", "append_archive", "archived_entries", "mark_restored"]

ARCHIVE_HEADER = (
    "# Memory Archive\n\n"
    "Entries that left MEMORY.md: replaced by a newer fact, over once their day had passed, or "
    "moved out to keep MEMORY.md within its size budget. "
    "Nothing here is loaded at the start of a session; "
    "`dreamd memory restore <words of the entry>` puts one back.\n"
)
_ARCHIVED = re.compile(r"^<!--\s*dreamd-memory-archived:(.+?)\s*-->\s*$")
_RESTORED = re.compile(r"^<!--\s*dreamd-memory-restored:(.+?)\s*-->\s*$")
_SECTION = re.compile(r"^## (?:Archived|Restored) (\d{4}-\d{2}-\d{2})\s*$")
MAX_REASON_CHARS = 160


@dataclass(frozen=True, slots=True)
class Archived:
    """An entry in the archive: its key, its line as it stood in MEMORY.md, why and when."""

    key: str
    line: str
    why: str
    day: str


def _why(leaving: Leaving, day: str, budget: int) -> str:
    if leaving.reason == "superseded":
        by = collapse(leaving.by_text or leaving.by or "a newer entry")
        if len(by) > MAX_REASON_CHARS:
            by = by[: MAX_REASON_CHARS - 3].rstrip() + "..."
        return f"Replaced on {day} by: {by}"
    if leaving.reason == "past":
        return f"Moved out on {day}: {leaving.by_text or 'its day has passed'}."
    return f"Moved out on {day} to keep MEMORY.md within its {budget:,}-character budget."


def append_archive(existing: str, leaving: Sequence[Leaving], *, day: str, budget: int) -> str:
    """``existing`` with one more section for ``leaving`` (unchanged when nothing leaves)."""
    if not leaving:
        return existing
    text = existing if existing.strip() else ARCHIVE_HEADER
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = ["", f"## Archived {day}"]
    for item in leaving:
        lines += [
            "",
            f"<!-- dreamd-memory-archived:{item.key} -->",
            item.line,
            f"  - {_why(item, day, budget)}",
        ]
    glue = "" if text.endswith(("\n", "\r")) else newline
    return text + glue + newline.join(lines) + newline


def mark_restored(existing: str, keys: Sequence[str], *, day: str) -> str:
    """``existing`` with a ``## Restored <day>`` section naming ``keys``."""
    newline = "\r\n" if "\r\n" in existing else "\n"
    lines = ["", f"## Restored {day}", ""]
    lines += [f"<!-- dreamd-memory-restored:{key} -->" for key in keys]
    glue = "" if existing.endswith(("\n", "\r")) else newline
    return existing + glue + newline.join(lines) + newline


def archived_entries(text: str) -> list[Archived]:
    """The entries the archive holds and that were not restored since, oldest first."""
    latest: dict[str, Archived | None] = {}
    lines = text.splitlines()
    day = ""
    for index, line in enumerate(lines):
        section = _SECTION.match(line)
        if section:
            day = section.group(1)
            continue
        restored = _RESTORED.match(line)
        if restored:
            latest[restored.group(1)] = None
            continue
        archived = _ARCHIVED.match(line)
        if archived and index + 1 < len(lines) and lines[index + 1].startswith("- "):
            why = lines[index + 2].strip().removeprefix("- ") if index + 2 < len(lines) else ""
            key = archived.group(1)
            latest.pop(key, None)
            latest[key] = Archived(key, lines[index + 1], why, day)
    return [item for item in latest.values() if item is not None]
