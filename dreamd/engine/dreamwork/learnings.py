"""The entries of ``.learnings/LEARNINGS.md``, ``ERRORS.md`` and ``FEATURE_REQUESTS.md``.

Rules: each ``##`` heading starts an entry (the self-improving-agent layout: ``## [ERR-
20260301-001] category`` then fields such as ``**Logged**: 2026-03-01T10:00:00Z`` and a
``### Summary``). An entry's day is the first ``YYYY-MM-DD`` (or ``YYYYMMDD`` in its id) it
holds; its text is the line under ``### Summary``, else its first line that is not a field or
a heading. Its kind: ``error`` in ``ERRORS.md``, ``request`` in ``FEATURE_REQUESTS.md``,
otherwise the salience kind of its text (a ``correction`` category counts as a correction). An
entry without a day or a text is left out. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from dreamd.engine.text.salience import kind_of

__all__ = ["Learning", "read_learnings"]

_DAY = re.compile(r"\b(\d{4})-?(\d{2})-?(\d{2})(?:\b|T)")
_FIELD = re.compile(r"^\s*(?:[-*]\s*)?\*\*[^*]+\*\*\s*:")


@dataclass(frozen=True, slots=True)
class Learning:
    """One entry: where it is, its day, kind and text."""

    path: str
    line: int
    day: str
    kind: str
    text: str


def _entry(path: str, line: int, lines: list[str]) -> Learning | None:
    heading = lines[0]
    found = _DAY.search("\n".join(lines))
    if found is None:
        return None
    day = "-".join(found.groups())
    text = ""
    for index, body in enumerate(lines[1:], 1):
        if body.strip().lower().startswith("### summary"):
            text = next((b.strip() for b in lines[index + 1 :] if b.strip()), "")
            break
    if not text:
        text = next(
            (
                b.strip()
                for b in lines[1:]
                if b.strip() and not b.lstrip().startswith("#") and not _FIELD.match(b)
            ),
            "",
        )
    text = text.lstrip("-* ").strip()
    if not text:
        return None
    name = PurePosixPath(path).name
    if name == "ERRORS.md":
        kind = "error"
    elif name == "FEATURE_REQUESTS.md":
        kind = "request"
    else:
        kind = "correction" if "correction" in heading.lower() else kind_of(text)
    return Learning(path, line, day, kind, text)


def read_learnings(path: str, text: str) -> tuple[Learning, ...]:
    """The entries of one ``.learnings`` file (see the module rules)."""
    found: list[Learning] = []
    start, held = 0, list[str]()
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("## "):
            if held:
                entry = _entry(path, start, held)
                if entry is not None:
                    found.append(entry)
            start, held = number, [line]
        elif held:
            held.append(line)
    if held:
        entry = _entry(path, start, held)
        if entry is not None:
            found.append(entry)
    return tuple(found)
