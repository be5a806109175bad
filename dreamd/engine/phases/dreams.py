"""DREAMS.md as one sweep leaves it: the diary entry, the Deep Sleep block, consolidation history.

The file is rebuilt from the text it had when the sweep read it: the diary entry (if any) goes
at the end of the ``# Dream Diary`` block (created empty when a night has no entry to add; a
second diary block, as OpenClaw adds one beside dreamd's, is merged into the first entry by
entry, never dropped), the ``## Deep Sleep`` block is replaced, and a consolidation attempt
appends one ``### <time>`` entry under ``## Memory Consolidation History`` (created at the end
of the file when missing): counts and highlights for an accepted rewrite — the removed entries
kept in full under ``Replaced``, so nothing is just gone — or the reason it was skipped and
``Fallback: append-only promotion.``. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dreamd.engine.phases.diary import add_entry, render_entry
from dreamd.engine.text.blocks import read_block, replace_block

__all__ = [
    "HISTORY_HEADING",
    "DreamsDraft",
    "compose_dreams",
    "history_accepted",
    "history_skipped",
]

HISTORY_HEADING = "## Memory Consolidation History"
MAX_HIGHLIGHTS = 8
HIGHLIGHT_CHARS = 180


@dataclass(frozen=True)
class DreamsDraft:
    """What a sweep needs to write DREAMS.md once the diary text is known."""

    path: str
    base: str
    digest: str | None
    deep_text: str
    date_line: str
    stamp: str
    brand: str | None = None  # marker spelling for the blocks (None: dreamd's)


def _cut(line: str) -> str:
    return line if len(line) <= HIGHLIGHT_CHARS else line[: HIGHLIGHT_CHARS - 1] + "…"


def history_accepted(
    stamp: str, counts: Mapping[str, int], added: Sequence[str], removed: Sequence[str]
) -> list[str]:
    """The history entry of an accepted rewrite."""
    lines = [
        f"### {stamp}",
        "",
        f"- Added: {counts.get('added', 0)}",
        f"- Merged: {counts.get('merged', 0)}",
        f"- Superseded: {counts.get('superseded', 0)}",
    ]
    highlights = [f"+ {_cut(line)}" for line in added] + [f"- {_cut(line)}" for line in removed]
    lines += highlights[:MAX_HIGHLIGHTS]
    if removed:
        lines += ["", "Replaced:", *(f"    {line}" for line in removed)]
    return lines


def history_skipped(stamp: str, reason: str) -> list[str]:
    """The history entry of a rewrite that was refused or could not be asked for."""
    return [
        f"### {stamp}",
        "",
        f"- Rewrite skipped: {reason.rstrip('.')}.",
        "- Fallback: append-only promotion.",
    ]


def compose_dreams(draft: DreamsDraft, entry: str | None, history: Sequence[str] = ()) -> str:
    """The new DREAMS.md text."""
    text = draft.base.replace("\r\n", "\n")
    if entry is not None:
        text = add_entry(text, render_entry(draft.date_line, entry), brand=draft.brand)
    else:  # no entry tonight: the diary block is still there, first, as a place for one
        text = replace_block(text, "diary", read_block(text, "diary") or "\n", brand=draft.brand)
    text = replace_block(text, "deep", draft.deep_text, brand=draft.brand)
    if history:
        if HISTORY_HEADING not in text:
            text = text.rstrip("\n") + f"\n\n{HISTORY_HEADING}\n"
        text = text.rstrip("\n") + "\n\n" + "\n".join(history) + "\n"
    return text
