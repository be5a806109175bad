"""An agent's own memory writes: a line or a Retain bullet for today's note, and the person's
lines of MEMORY.md replaced or inserted (seed 003's append / replace / insert tool calls).

Rules:

* Every new text is one line (whitespace collapsed) and redacted
  (:func:`dreamd.redaction.redact`) before it is placed; an empty one is refused.
* **Remember** appends to today's note (``memory/YYYY-MM-DD.md``; a new note starts with its
  ``# YYYY-MM-DD`` heading). A fact with a kind becomes a bullet of the note's ``## Retain``
  section (``- W @Peter: ...``, ``- O(c=0.8) ...``; :mod:`dreamd.engine.bank.retain` reads it
  back), added at the section's end or in a new section at the end of the note. A plain line
  becomes ``- <text>`` after the note's last line, or before its Retain section, so it never
  turns into a fact by accident.
* **MEMORY.md edits** touch only the person's lines: a line dreaming wrote (a promotion's
  marker, entry or section heading: :func:`~dreamd.engine.text.memory_entries.generated_lines`)
  or a line inside a managed block is refused, with the command that undoes a promotion
  instead. A replace names the line and the text it expects there (compare and swap: a line that
  changed since it was read is refused, nothing lost). An insert goes after a person's line
  outside dreaming's sections, or at the top (``after=0``); without a place, after the person's
  last line, so dreaming's sections stay together below it. Nothing else changes byte for byte.

Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dreamd.engine.bank.retain import KINDS
from dreamd.engine.text.blocks import managed_spans
from dreamd.engine.text.memory_entries import generated_lines
from dreamd.errors import ConflictError, DreamdError
from dreamd.redaction import redact

__all__ = [
    "FACT_LETTERS",
    "dreaming_lines",
    "one_line",
    "plan_insert",
    "plan_remember",
    "plan_replace",
]

FACT_LETTERS = {kind: letter for letter, kind in KINDS.items()}
MAX_LINE_CHARS = 2000
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)")
_RETAIN = re.compile(r"^ {0,3}#{1,6}[ \t]+Retain[ \t#]*$", re.IGNORECASE)
_ENTITY = re.compile(r"^[^\W\d_][\w.-]*$")
_DREAMING_SECTION = re.compile(
    r"^(?:#{2,3} (?:Promoted From Short-Term Memory|Consolidated Memory) \("
    r"|### (?:Project: .+|Global)\s*$|# Long-Term Memory\s*$)"
)


def one_line(text: str, *, what: str = "the text") -> str:
    """``text`` redacted, its whitespace collapsed to one line; refuses an empty or huge one."""
    line = " ".join(" ".join(redact(text).splitlines()).split())
    if not line:
        raise DreamdError(f"{what} is empty")
    if len(line) > MAX_LINE_CHARS:
        raise DreamdError(f"{what} is {len(line)} characters; at most {MAX_LINE_CHARS} fit a line")
    return line


def _level(line: str) -> int:
    found = _HEADING.match(line)
    return len(found.group(1)) if found else 0


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _joined(lines: Sequence[str], index: int, new: str) -> list[str]:
    """``lines`` with ``new`` (one line) inserted before 0-based ``index``."""
    head = list(lines[:index])
    if head and head[-1].splitlines() == [head[-1]]:
        head[-1] += "\n"  # the last line had no line ending
    return [*head, new + "\n", *lines[index:]]


def _retain_bullet(text: str, kind: str, entities: Sequence[str], confidence: float | None) -> str:
    letter = FACT_LETTERS.get(kind)
    if letter is None:
        raise DreamdError(f"kind must be one of {', '.join(sorted(FACT_LETTERS))}, got {kind!r}")
    if confidence is not None and (kind != "opinion" or not 0.0 <= confidence <= 1.0):
        raise DreamdError("a confidence (0 to 1) belongs to an opinion only")
    names = []
    for entity in entities:
        name = entity.strip().lstrip("@")
        if not _ENTITY.match(name):
            raise DreamdError(f"{entity!r} is not an entity name (letters first: Peter, warelay)")
        names.append(f"@{name}")
    head = letter + (f"(c={confidence:g})" if confidence is not None else "")
    mentions = f" {' '.join(names)}:" if names else ""
    return f"- {head}{mentions} {text}"


def plan_remember(
    current: str | None,
    day: str,
    text: str,
    *,
    kind: str | None = None,
    entities: Sequence[str] = (),
    confidence: float | None = None,
) -> tuple[str, str, int]:
    """Today's note with ``text`` remembered (see the module rules): (new text, the line, its
    1-based line number)."""
    body = one_line(text)
    if kind is None and (entities or confidence is not None):
        raise DreamdError("entities and a confidence need a kind: world, experience, opinion...")
    line = _retain_bullet(body, kind, entities, confidence) if kind else f"- {body}"
    lines = _lines(current or f"# {day}\n\n")
    retain = next((i for i, each in enumerate(lines) if _RETAIN.match(each)), None)
    if kind is not None and retain is None:
        start = "".join(lines)
        start += "" if start.endswith("\n") else "\n"
        start += "" if start.endswith("\n\n") else "\n"
        new = f"{start}## Retain\n{line}\n"
        return new, line, new.count("\n")
    at = len(lines)
    if retain is not None and kind is None:
        at = retain
    elif retain is not None:
        level = _level(lines[retain])
        following = range(retain + 1, len(lines))
        at = next((i for i in following if 0 < _level(lines[i]) <= level), len(lines))
    end = at
    while at > 0 and not lines[at - 1].strip():
        at -= 1  # after the last written line, before the blank lines that end a section
    if at < end and at > 0 and _level(lines[at - 1]):
        at += 1  # right under a heading, the blank line after it stays above
    placed = _joined(lines, at, line)
    if kind is None and retain is not None and _RETAIN.match(placed[at + 1]):
        placed.insert(at + 1, "\n")  # a blank line keeps the Retain heading apart
    return "".join(placed), line, at + 1


def dreaming_lines(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """1-based line numbers dreaming owns (promotion lines, managed blocks), and the lines inside
    dreaming's sections (a section runs from its heading to the next heading of its level)."""
    lines = text.splitlines()
    owned = {n for n in generated_lines(text) if lines[n - 1].strip()}
    for first, last in managed_spans(text):
        owned.update(range(first + 1, last + 2))
    inside: set[int] = set()
    level = 0
    for number, line in enumerate(lines, start=1):
        found = _level(line)
        if _DREAMING_SECTION.match(line):
            level = found
        elif found and level and found <= level:
            level = 0
        if level:
            inside.add(number)
    return frozenset(n for n in owned if n <= len(lines)), frozenset(inside)


def _refuse_dreaming(number: int) -> DreamdError:
    return DreamdError(
        f"MEMORY.md:{number} is dreaming's own (a promoted entry, its marker or a managed "
        "block); only the person's lines are edited here (dreamd memory forget takes a "
        "promotion out)"
    )


def plan_replace(text: str, line: int, expected: str, new: str) -> tuple[str, str]:
    """MEMORY.md with its line ``line`` (1-based), which must read ``expected``, replaced by
    ``new``: (new text, the line written)."""
    lines = _lines(text)
    if not 1 <= line <= len(lines):
        raise DreamdError(f"MEMORY.md has {len(lines)} line(s); there is no line {line}")
    owned, _ = dreaming_lines(text)
    if line in owned:
        raise _refuse_dreaming(line)
    old = lines[line - 1]
    content = old.rstrip("\r\n")
    if content != expected.rstrip("\r\n"):
        raise ConflictError(
            f"MEMORY.md:{line} no longer reads as expected (it changed since it was read); "
            "read it again and retry"
        )
    written = one_line(new, what="the new line")
    lines[line - 1] = written + old[len(content) :]
    return "".join(lines), written


def plan_insert(text: str, new: str, *, after: int | None = None) -> tuple[str, str, int]:
    """MEMORY.md with ``new`` inserted (see the module rules): (new text, the line written, its
    1-based line number)."""
    lines = _lines(text)
    owned, inside = dreaming_lines(text)
    if after is None:
        people = [
            n
            for n, each in enumerate(lines, start=1)
            if each.strip() and n not in owned and n not in inside
        ]
        after = people[-1] if people else 0
    elif not 0 <= after <= len(lines):
        raise DreamdError(f"MEMORY.md has {len(lines)} line(s); cannot insert after line {after}")
    elif after in owned or after in inside:
        raise DreamdError(
            f"MEMORY.md:{after} is inside dreaming's promotions; insert after one of your own "
            "lines, or leave the place out to add after your last one"
        )
    written = one_line(new, what="the new line")
    return "".join(_joined(lines, after, written)), written, after + 1
