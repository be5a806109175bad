"""The Dream Diary in DREAMS.md: reading recent entries and adding new ones.

The diary is a managed block (``# Dream Diary``) kept first in DREAMS.md. An entry is ``---``,
a blank line, ``*<long date>*``, a blank line and the text, inserted before the end marker.
Without a model (or when it fails) the entry is the fixed fallback text below: raw snippets never
appear in a fallback. The diary is for people; it is never a promotion source. Pure.
"""

from __future__ import annotations

import re

from dreamd.engine.text.blocks import read_block, replace_block

__all__ = ["FALLBACK_ENTRY", "add_entry", "diary_entries", "render_entry"]

FALLBACK_ENTRY = "A memory trace surfaced, but details were unavailable in this run."
_SEPARATOR = re.compile(r"^---\s*$", re.MULTILINE)


def diary_entries(dreams_text: str) -> list[str]:
    """The diary's entries, oldest first, each without its separator (every diary block's,
    each entry once: OpenClaw and dreamd may each have written one)."""
    text = dreams_text.replace("\r\n", "\n")
    first = read_block(text, "diary")
    if first is not None:
        text = replace_block(text, "diary", first)
    body = read_block(text, "diary")
    if not body:
        return []
    return [part.strip() for part in _SEPARATOR.split(body) if part.strip()]


def render_entry(date_line: str, text: str) -> str:
    """``---``, the italic date, the text."""
    return f"---\n\n*{date_line}*\n\n{text.strip()}\n"


def add_entry(dreams_text: str, entry: str, *, brand: str | None = None) -> str:
    """``dreams_text`` with ``entry`` appended at the end of the diary (created first if needed;
    ``brand`` as in :func:`~dreamd.engine.text.blocks.replace_block`)."""
    text = dreams_text.replace("\r\n", "\n")
    body = read_block(text, "diary")
    if body is not None:  # every diary block's entries first, then the new one
        text = replace_block(text, "diary", body)
        body = read_block(text, "diary")
    existing = (body or "").strip("\n")
    new_body = f"{existing}\n\n{entry.rstrip()}" if existing else f"\n{entry.rstrip()}"
    return replace_block(text, "diary", new_body + "\n", brand=brand)
