"""The entries of ``.learnings/LEARNINGS.md``, ``ERRORS.md`` and ``FEATURE_REQUESTS.md``.

Rules: each ``##`` heading starts an entry (the self-improving-agent layout: ``## [ERR-
20260301-001] category`` then fields such as ``**Logged**: 2026-03-01T10:00:00Z`` and a
``### Summary``). An entry's day is the first ``YYYY-MM-DD`` (or ``YYYYMMDD`` in its id) it
holds; its text is the line under ``### Summary``, else its first line that is not a field or
a heading. Its kind: ``error`` in ``ERRORS.md``, ``request`` in ``FEATURE_REQUESTS.md``,
otherwise the salience kind of its text (a ``correction`` category counts as a correction). An
entry without a day or a text is left out.

Also kept, for the pattern library: the entry's id (``ERR-20260301-001``) and category (the
heading's words after the id), the ids it names as related (``See Also``), its other prose
(``Details``, ``Error``, ``Context``: what it is about) and the fix it records: the text under
``### Fix that worked`` or ``### Resolution``, a ``Resolution:``, ``Fix that worked:``, ``From
now on:`` or ``Agreed rule:`` line, else ``### Suggested Fix`` or ``### Suggested Action``
(unless it says there is none left). Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from dreamd.engine.text.salience import kind_of

__all__ = ["Learning", "read_learnings"]

_DAY = re.compile(r"\b(\d{4})-?(\d{2})-?(\d{2})(?:\b|T)")
_FIELD = re.compile(r"^\s*(?:[-*]\s*)?\*\*[^*]+\*\*\s*:")
_ID = re.compile(r"\b[A-Z]{2,5}-\d{8}-\d{3}\b")
_HEAD = re.compile(r"^##\s+(?:\[([^\]]*)\]\s*)?(.*)$")
_SUB = re.compile(r"^###\s+(.+?)\s*$")
_WORKED = ("fix that worked", "resolution", "fix", "solution")
_SUGGESTED = ("suggested fix", "suggested action")
_WORKED_LINE = re.compile(
    r"^\s*(?:[-*]\s*)?(?:\*\*)?(?:the\s+)?(?:fix that worked|resolution|from now on|agreed rule|"
    r"rule)(?:\*\*)?\s*:\s*(.+)$",
    re.IGNORECASE,
)
_PROSE = ("details", "error", "context")


@dataclass(frozen=True, slots=True)
class Learning:
    """One entry: where it is, its day, kind and text (with what the pattern library reads)."""

    path: str
    line: int
    day: str
    kind: str
    text: str
    ident: str = ""
    category: str = ""
    refs: tuple[str, ...] = ()
    detail: str = ""
    fix: str = ""


def _subsections(lines: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines[1:]:
        sub = _SUB.match(line)
        if sub:
            current = found.setdefault(sub.group(1).strip().lower(), [])
        elif current is not None and line.strip() and line.strip() != "---":
            current.append(line.strip().lstrip("-* ").strip())
    return found


def _usable(text: str) -> bool:
    return bool(text) and not text.lower().startswith(("none", "n/a", "nothing"))


def _fix(parts: dict[str, list[str]], lines: list[str]) -> str:
    for name in _WORKED:
        body = " ".join(parts.get(name, ()))
        if _usable(body):
            return body
    for line in lines:
        found = _WORKED_LINE.match(line)
        if found and _usable(found.group(1).strip()):
            return found.group(1).strip()
    for name in _SUGGESTED:
        body = " ".join(parts.get(name, ()))
        if _usable(body):
            return body
    return ""


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
    head = _HEAD.match(heading)
    ident = (head.group(1) or "") if head else ""
    category = (head.group(2) if head else "").strip()
    own = _ID.search(ident)
    body = "\n".join(lines[1:])
    refs = tuple(dict.fromkeys(i for i in _ID.findall(body) if own is None or i != own.group(0)))
    parts = _subsections(lines)
    detail = " ".join(" ".join(parts.get(name, ())) for name in _PROSE).strip()
    return Learning(
        path,
        line,
        day,
        kind,
        text,
        ident=own.group(0) if own else "",
        category=category,
        refs=refs,
        detail=detail,
        fix=_fix(parts, lines[1:]),
    )


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
