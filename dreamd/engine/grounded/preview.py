"""The grounded REM preview: a deterministic, explainable reading of one whole daily note.

Used by ``memory rem-harness --grounded`` and ``memory rem-backfill``. Per note it gives:

* ``What Happened``: up to 4 facts, each with its ``[path:line]`` reference. Facts are the most
  salient statements (most cue weight of either kind, a done task, 4+ topic words), shown in
  note order; questions and open tasks are not facts.
* ``Reflections``: up to 4 templated observations, in this order of priority: decisions,
  preferences, ownership, relationships, configuration details, a topic running through 3+
  statements, open questions, a mostly situational note, open tasks. Each names its evidence.
* ``Candidates``: up to 8 statements as ``- [lean] text [ref]``, durable first, then unclear,
  then situational; within a lean the most durable-sounding first (the lean and weights are
  documented in :mod:`dreamd.engine.grounded.cues`).
* ``Possible Lasting Updates``: up to 3 likely-durable candidates with durable weight >= 3, no
  situational cue in the statement itself (a situational heading does not veto) and no open
  task: a decision, a preference, an ownership, or a configuration with specifics or under a
  durable heading.

Statements come from :mod:`dreamd.engine.grounded.statements`; their text is exactly the form
the deep phase re-hydrates from the live note, so a staged claim can be found again. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dreamd.engine.grounded.cues import CATEGORIES, Lean
from dreamd.engine.grounded.statements import Statement, statements_of

__all__ = [
    "Candidate",
    "GroundedNote",
    "Item",
    "line_ref",
    "note_json",
    "plan_grounded",
    "section_lines",
]

MAX_FACTS = 4
MAX_REFLECTIONS = 4
MAX_CANDIDATES = 8
MAX_LASTING = 3
LASTING_MIN_DURABLE = 3
DISPLAY_CHARS = 280
THEME_MIN_STATEMENTS = 3
_LEAN_ORDER: dict[str, int] = {"likely_durable": 0, "unclear": 1, "likely_situational": 2}


@dataclass(frozen=True, slots=True)
class Item:
    """A fact or reflection and the references that ground it."""

    text: str
    refs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A statement offered for lasting memory, with its lean."""

    lean: Lean
    text: str
    start_line: int
    end_line: int
    strength: int
    categories: tuple[str, ...]
    lasting: bool


@dataclass(frozen=True)
class GroundedNote:
    """The grounded preview of one daily note."""

    path: str
    day: str
    statements: int
    facts: tuple[Item, ...]
    reflections: tuple[Item, ...]
    candidates: tuple[Candidate, ...]
    lasting: tuple[Candidate, ...]

    def ref(self, start_line: int, end_line: int) -> str:
        """``path:line`` or ``path:start-end``."""
        return line_ref(self.path, start_line, end_line)


def line_ref(path: str, start_line: int, end_line: int) -> str:
    """``path:line`` or ``path:start-end``."""
    span = f"{start_line}" if start_line == end_line else f"{start_line}-{end_line}"
    return f"{path}:{span}"


def _display(text: str) -> str:
    return text if len(text) <= DISPLAY_CHARS else text[: DISPLAY_CHARS - 1].rstrip() + "…"


def _facts(statements: Sequence[Statement]) -> list[Statement]:
    eligible = [s for s in statements if not s.cues.hedged and not s.open_task]

    def salience(s: Statement) -> int:
        return s.cues.durable + s.cues.situational + s.done_task + (len(s.topics) >= 4)

    chosen = sorted(eligible, key=lambda s: (-salience(s), s.start_line))[:MAX_FACTS]
    return sorted(chosen, key=lambda s: s.start_line)


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many.format(n=count)


def _reflection_texts(statements: Sequence[Statement]) -> list[tuple[str, list[Statement]]]:
    """Every observation that holds for the note, in priority order, with its evidence."""

    def with_cue(name: str) -> list[Statement]:
        return [s for s in statements if name in s.cues.categories and not s.cues.hedged]

    found: list[tuple[str, list[Statement]]] = []
    templates = (
        (
            "decision",
            "A decision was recorded; later work may follow it.",
            "{n} decisions were recorded; later work may follow them.",
        ),
        (
            "preference",
            "A preference was stated explicitly.",
            "{n} preferences were stated explicitly.",
        ),
        (
            "ownership",
            "Who owns what was made explicit.",
            "Ownership was made explicit in {n} statements.",
        ),
        (
            "relationship",
            "Who someone is to the person was stated; that outlasts the day.",
            "{n} relationships were stated; they outlast the day.",
        ),
        (
            "configuration",
            "A configuration detail was noted; such details stay true until changed.",
            "{n} configuration details were noted; such details stay true until changed.",
        ),
    )
    for name, one, many in templates:
        evidence = with_cue(name)
        if evidence:
            found.append((_plural(len(evidence), one, many), evidence))
    counts = Counter(tag for s in statements for tag in s.topics)
    if counts:
        tag, count = min(counts.items(), key=lambda item: (-item[1], item[0]))
        if count >= THEME_MIN_STATEMENTS:
            evidence = [s for s in statements if tag in s.topics]
            found.append((f"`{tag}` ran through {count} statements.", evidence))
    hedged = [s for s in statements if s.cues.hedged]
    if hedged:
        text = _plural(
            len(hedged),
            "A question or tentative idea stayed open.",
            "{n} questions or tentative ideas stayed open.",
        )
        found.append((text, hedged))
    situational = [s for s in statements if s.cues.lean == "likely_situational"]
    if len(statements) >= 3 and 2 * len(situational) > len(statements):
        text = (
            f"Most of the note ({len(situational)} of {len(statements)} statements) is "
            "situational; little of it should outlast the day."
        )
        found.append((text, situational))
    tasks = [s for s in statements if s.open_task]
    if tasks:
        text = _plural(
            len(tasks),
            "An open task was listed; it matters for the day, not for long-term memory.",
            "{n} open tasks were listed; they matter for the day, not for long-term memory.",
        )
        found.append((text, tasks))
    return found


def _candidate(s: Statement, lasting: bool) -> Candidate:
    return Candidate(
        s.cues.lean, s.text, s.start_line, s.end_line, s.cues.strength, s.cues.categories, lasting
    )


def _is_lasting(s: Statement) -> bool:
    cues = s.cues
    return (
        cues.lean == "likely_durable"
        and cues.durable >= LASTING_MIN_DURABLE
        and not any(CATEGORIES[name][0] == "situational" for name in cues.categories)
        and not s.open_task
    )


def plan_grounded(path: str, day: str, text: str) -> GroundedNote:
    """The grounded preview of the note ``path`` (dated ``day``) holding ``text``."""
    statements = statements_of(text)

    def ref(s: Statement) -> str:
        return line_ref(path, s.start_line, s.end_line)

    facts = tuple(Item(_display(s.text), (ref(s),)) for s in _facts(statements))
    reflections = tuple(
        Item(text, tuple(ref(s) for s in evidence[:3]))
        for text, evidence in _reflection_texts(statements)[:MAX_REFLECTIONS]
    )
    lasting_statements = sorted(
        (s for s in statements if _is_lasting(s)), key=lambda s: (-s.cues.strength, s.start_line)
    )[:MAX_LASTING]
    lasting_lines = {s.start_line for s in lasting_statements}
    ordered = sorted(
        statements,
        key=lambda s: (_LEAN_ORDER[s.cues.lean], -s.cues.strength, s.start_line),
    )[:MAX_CANDIDATES]
    candidates = tuple(_candidate(s, s.start_line in lasting_lines) for s in ordered)
    lasting = tuple(_candidate(s, True) for s in lasting_statements)
    return GroundedNote(path, day, len(statements), facts, reflections, candidates, lasting)


def _refs(refs: Sequence[str]) -> str:
    return f" [{', '.join(refs)}]" if refs else ""


def section_lines(note: GroundedNote, *, headings: bool = True) -> list[str]:
    """The four sections as Markdown lines; ``headings=False`` gives plain labels (diary)."""
    mark = "## " if headings else ""
    lines = [f"{mark}What Happened"]
    lines += [f"{i}. {f.text}{_refs(f.refs)}" for i, f in enumerate(note.facts, 1)] or [
        "- Nothing notable was written down."
    ]
    lines += ["", f"{mark}Reflections"]
    lines += [f"{i}. {r.text}{_refs(r.refs)}" for i, r in enumerate(note.reflections, 1)] or [
        "- Nothing in this note stood out."
    ]
    lines += ["", f"{mark}Candidates"]
    lines += [
        f"- [{c.lean}] {_display(c.text)}{_refs([note.ref(c.start_line, c.end_line)])}"
        for c in note.candidates
    ] or ["- No candidates."]
    lines += ["", f"{mark}Possible Lasting Updates"]
    lines += [
        f"- {_display(c.text)}{_refs([note.ref(c.start_line, c.end_line)])}" for c in note.lasting
    ] or ["- No lasting updates surfaced."]
    return lines


def note_json(note: GroundedNote) -> dict[str, Any]:
    """The preview of one note as ``--json`` prints it."""

    def item(entry: Item) -> dict[str, Any]:
        return {"text": entry.text, "refs": list(entry.refs)}

    def candidate(c: Candidate) -> dict[str, Any]:
        return {
            "lean": c.lean,
            "text": c.text,
            "refs": [note.ref(c.start_line, c.end_line)],
            "strength": c.strength,
            "cues": list(c.categories),
            "lasting": c.lasting,
        }

    return {
        "path": note.path,
        "day": note.day,
        "statements": note.statements,
        "whatHappened": [item(f) for f in note.facts],
        "reflections": [item(r) for r in note.reflections],
        "candidates": [candidate(c) for c in note.candidates],
        "lastingUpdates": [candidate(c) for c in note.lasting],
        "bodyLines": section_lines(note),
    }
