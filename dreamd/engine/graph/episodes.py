"""Episodes: the units the cone's base is made of, read from one Markdown file.

Rules: a daily note (or a session-corpus file) is cut at its headings: each ``#``-``###``
heading starts an episode that runs to the next one; lines before the first heading are an
episode of their own when they hold text. A topic file or a pattern is one episode. An episode's
id is ``ep:<path>#L<first line>``; its title is its heading (or the file's name); its lines are
the non-blank lines that are not headings, with their 1-based numbers; text inside an HTML
comment is no line (it is hidden from the person reading the note). Pure.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import NamedTuple

from dreamd.layout import PATTERNS_DIR, TOPICS_DIR, daily_note_day

__all__ = ["Episode", "episode_id", "episodes_of", "source_kind"]

_HEADING = re.compile(r"^(#{1,3})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


class Episode(NamedTuple):
    """One section of a note (or a whole topic file or pattern)."""

    id: str
    path: str
    start_line: int
    end_line: int
    title: str
    day: str | None
    kind: str  # "daily", "topic" or "pattern"
    lines: tuple[tuple[int, str], ...]


def episode_id(path: str, line: int) -> str:
    """The node id of the episode of ``path`` that starts on ``line``."""
    return f"ep:{path}#L{line}"


def source_kind(path: str) -> str | None:
    """``daily``, ``topic`` or ``pattern`` for a file the graph reads; ``None`` otherwise."""
    if path.startswith(f"{TOPICS_DIR}/") and path.endswith(".md"):
        return "topic"
    if path.startswith(f"{PATTERNS_DIR}/") and path.endswith(".md"):
        return "pattern"
    return "daily" if daily_note_day(path) else None


def episodes_of(path: str, text: str) -> tuple[Episode, ...]:
    """The episodes of one file (see the module rules)."""
    kind = source_kind(path) or "daily"
    day = daily_note_day(path)
    name = PurePosixPath(path).stem
    # A comment is hidden from the reader (and the usual wrapping of an injected order).
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    lines = text.split("\n")
    if kind != "daily":
        body = tuple((n, line) for n, line in enumerate(lines, 1) if line.strip())
        title = next((m.group(2) for _, line in body if (m := _HEADING.match(line))), name)
        content = tuple((n, line) for n, line in body if not _HEADING.match(line))
        end = max(len(lines), 1)
        return (Episode(episode_id(path, 1), path, 1, end, title, day, kind, content),)
    found: list[Episode] = []
    start, title = 1, name
    held: list[tuple[int, str]] = []
    fenced = False

    def close(end: int) -> None:
        if held or title != name:
            found.append(
                Episode(episode_id(path, start), path, start, end, title, day, kind, tuple(held))
            )

    for number, line in enumerate(lines, 1):
        if _FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading:
            close(number - 1)
            start, title, held = number, heading.group(2), []
        elif line.strip():
            held.append((number, line))
    close(max(len(lines), start))
    return tuple(episode for episode in found if episode.lines)
