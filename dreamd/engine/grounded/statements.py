"""Statements: the units a daily note is read in by the grounded preview.

A list item is one statement (its marker and task box dropped); consecutive prose lines form one
statement of at most 4 lines and 280 characters. Skipped: headings (they only lend their cues to
the statements under them), lines under 8 characters, HTML comments, tables, block quotes,
fenced code, front matter, managed blocks, dreaming's own output and trace noise
(:mod:`dreamd.engine.text.contamination`), and every line that holds a secret or personal data
(:mod:`dreamd.redaction`, read on the whole note first, so no line of a key block or of a token
split over two lines is ever a statement). A statement's text is exactly a form
:func:`dreamd.engine.phases.chunks.range_forms` gives for its lines (a list item without its
marker, prose lines joined by spaces), so the deep phase can re-hydrate it.

A statement of several sentences (:mod:`dreamd.engine.text.sentences`) whose sentences lean
differently (a lasting claim beside a transient one: ``Alex is my partner. We met today at the
hotel.``) is read as its sentences instead: each is an *atomic* statement on the same lines,
with its own cues, its text the sentence after the heading above it when that heading is
meaningful (``People Update: Alex is my partner.``), again a form ``range_forms`` gives, so the
lasting claim is staged and re-hydrated without the transient one. Its topics are its
first 8 distinct words of 4+ letters that are not stop words (a cheap cousin of concept tags: a
year of notes is read in well under a second). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dreamd.engine.grounded.cues import Cues, read_cues
from dreamd.engine.phases.chunks import atomic_form, heading_before
from dreamd.engine.text.blocks import blank_managed
from dreamd.engine.text.concepts import STOP_WORDS
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.text.sentences import sentences
from dreamd.engine.text.snippets import collapse, strip_list_marker
from dreamd.redaction import blank_secret_lines

__all__ = ["Statement", "statements_of", "topics_of"]

MAX_PROSE_LINES = 4
MAX_PROSE_CHARS = 280
MIN_LINE_CHARS = 8

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_TASK_BOX = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\[([ xX])\]\s+")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_SKIPPED_STARTS = ("<!--", "-->", "|", ">")
_TOPIC_WORD = re.compile(r"[^\W\d_]{4,}|[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
MAX_TOPICS = 8


def topics_of(text: str) -> tuple[str, ...]:
    """The first 8 distinct topic words: 4+ letters (2+ CJK ideographs), not stop words."""
    words = (match.group(0).lower() for match in _TOPIC_WORD.finditer(text))
    return tuple(dict.fromkeys(w for w in words if w not in STOP_WORDS))[:MAX_TOPICS]


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a note: 1-based inclusive lines, its text and what it cues."""

    start_line: int
    end_line: int
    text: str
    cues: Cues
    open_task: bool = False
    done_task: bool = False
    topics: tuple[str, ...] = ()


def _front_matter_end(lines: Sequence[str]) -> int:
    """Index of the first line after a leading ``---`` front matter block (0 without one)."""
    if not lines or lines[0].strip() != "---":
        return 0
    for index in range(1, min(len(lines), 60)):
        if lines[index].strip() in ("---", "..."):
            return index + 1
    return 0


def _atoms(
    lines: Sequence[str], first: int, last: int, text: str, heading: str | None, open_task: bool
) -> list[Statement] | None:
    """The atomic statements of a statement whose sentences lean differently, else ``None``."""
    parts = sentences(text)
    if len(parts) < 2:
        return None
    readings = [read_cues(part, heading, open_task=open_task) for part in parts]
    if len({cues.lean for cues in readings}) < 2:
        return None
    context = heading_before(lines, first)
    atoms = []
    for part, cues in zip(parts, readings, strict=True):
        atom = atomic_form(context, part)
        if not is_contaminated(part):
            atoms.append(
                Statement(first + 1, last + 1, atom, cues, open_task, False, topics_of(part))
            )
    return atoms


def _statements(
    lines: Sequence[str], first: int, last: int, heading: str | None
) -> list[Statement]:
    window = lines[first : last + 1]
    task = _TASK_BOX.match(window[0])
    if _LIST_ITEM.match(window[0]):
        text = collapse(strip_list_marker(window[0]))
    else:
        text = collapse(" ".join(window))
    if not text or is_contaminated(text):
        return []
    open_task = task is not None and task.group(1) == " "
    atoms = _atoms(lines, first, last, text, heading, open_task)
    if atoms is not None:
        return atoms
    cues = read_cues(text, heading, open_task=open_task)
    done = task is not None and not open_task
    return [Statement(first + 1, last + 1, text, cues, open_task, done, topics_of(text))]


def statements_of(text: str) -> list[Statement]:
    """Every statement of a note, in order (see the module rules)."""
    normal = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = blank_managed(blank_secret_lines(normal)).split("\n")
    found: list[Statement] = []
    heading: str | None = None
    run: list[int] = []
    in_fence = False

    def flush() -> None:
        if run:
            found.extend(_statements(lines, run[0], run[-1], heading))
            run.clear()

    for index in range(_front_matter_end(lines), len(lines)):
        line = lines[index]
        stripped = line.strip()
        if _FENCE.match(line):
            flush()
            in_fence = not in_fence
            continue
        title = None if in_fence else _HEADING.match(line)
        if title is not None:
            flush()
            heading = collapse(title.group(1))
            continue
        if in_fence or len(stripped) < MIN_LINE_CHARS or stripped.startswith(_SKIPPED_STARTS):
            flush()
            continue
        if _LIST_ITEM.match(line):
            flush()
            run.append(index)
            flush()
            continue
        joined = collapse(" ".join(lines[i] for i in [*run, index]))
        if run and (len(run) >= MAX_PROSE_LINES or len(joined) > MAX_PROSE_CHARS):
            flush()
        run.append(index)
    flush()
    return found
