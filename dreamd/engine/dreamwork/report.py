"""The dream report: ``memory/dreams/YYYY-MM-DD.md``, its line in ``memory/dream-log.md``, and
the short version chat shows.

Rules: the report says in plain words what the night did, in :data:`SECTIONS` order: how
healthy memory is (the score and what it is made of, durable facts kept first), the night's
lessons and corrections (the notes' own lines and ``.learnings/`` entries), what keeps going
wrong (the patterns, and only they: one list, so no section can contradict another), what
changed in ``MEMORY.md`` and the memory bank (added, replaced and what replaced it, archived
to make room), tomorrow's follow-ups (open errors, requests, patterns without a fix), the
topic files written and the memory map. Every line comes from the night's material; a section
with nothing in it says so in words. No internal names (graph layers, component keys) and no
advice about dreamd's own numbers. The report is written only when the sweep changed
something, so a second sweep over its own output writes nothing. A line added to ``MEMORY.md``
that holds an order to the agent or a hidden comment is named, never repeated.
:func:`report_sections` reads a report back into ``{title: [lines]}``; :func:`short_report`
is the few lines chat shows (at most :data:`SHORT_CHARS` characters, ending with the command
for the rest). Pure; redacted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dreamd.engine.phases.light import is_unfit
from dreamd.redaction import redact

__all__ = [
    "CHANGES",
    "HEALTH",
    "LESSONS",
    "RECURRING",
    "SECTIONS",
    "SHORT_CHARS",
    "TOMORROW",
    "Night",
    "Recurring",
    "log_line",
    "render_report",
    "report_sections",
    "short_report",
]

HEALTH = "Health Insights"
LESSONS = "Lessons and Corrections"
RECURRING = "What Keeps Going Wrong"
CHANGES = "What Changed in Memory"
TOMORROW = "Tomorrow's Focus"
TOPICS = "Topic Files Written"
MAP = "Memory Map"
SECTIONS = (HEALTH, LESSONS, RECURRING, CHANGES, TOMORROW, TOPICS, MAP)
SHORT_CHARS = 800
MAX_LISTED = 5
_SECTION = re.compile(r"^##\s+(.+?)\s*$")
_SCORE = re.compile(r"(\d+)/100")


@dataclass(frozen=True, slots=True)
class Recurring:
    """A pattern as the report tells it."""

    name: str
    days: tuple[str, ...]
    fix: str
    change: str  # "created", "updated (+n examples)", "unchanged", "kept: edited by hand"
    times: int = 0


@dataclass(frozen=True)
class Night:
    """What one sweep found, as the report tells it."""

    day: str
    counts: Mapping[str, int]
    stats: Mapping[str, float]
    health: Mapping[str, Any]
    short_term: int
    retired: int
    promoted: Sequence[str]
    learned: Sequence[str]
    focus: Sequence[str]
    topics: Sequence[tuple[str, str]]
    updates: Mapping[str, int]
    recurring: Sequence[Recurring] = ()
    replaced: Sequence[tuple[str, str]] = ()  # (the old entry, what replaced it)
    archived: Sequence[str] = ()  # entries that left MEMORY.md to make room
    durable: int = 0  # lasting facts MEMORY.md held before the night
    lost: int = 0  # of them, archived without a replacement
    bank: Sequence[str] = ()  # bank pages the night changed
    ranked: int = 0
    days_since_note: int | None = None
    refused: Mapping[str, int] = field(default_factory=dict)  # screen gate -> candidates
    skipped: int = 0  # new greetings and acknowledgements attention left out
    interpretation: Sequence[str] = ()  # a model's reading of the health numbers


def _or(lines: Sequence[str], nothing: str) -> list[str]:
    return list(lines) or [f"- {nothing}"]


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _listed(items: Sequence[str], how: str) -> list[str]:
    lines = [f"- {how}: {item}" for item in items[:MAX_LISTED]]
    if len(items) > MAX_LISTED:
        lines.append(f"- … and {len(items) - MAX_LISTED} more {how.lower()}")
    return lines


def _health_lines(night: Night) -> list[str]:
    c = night.health["components"]
    lines = [f"- Health score: {night.health['score']}/100"]
    if night.lost:
        lines.append(
            f"- Durable facts lost: {night.lost} of {night.durable} left MEMORY.md without a "
            "replacement (archived to make room), so the score is cut by the same share"
        )
    elif night.durable:
        lines.append(f"- Durable facts kept: all {night.durable} in MEMORY.md")
    if night.days_since_note is None:
        lines.append("- Newest note: none found")
    else:
        ago = night.days_since_note
        lines.append(f"- Newest note: {'today' if ago <= 0 else f'{ago} day(s) old'}")
    lines.append(
        f"- Notes linked together: {_percent(c.get('connectivity', 0.0))}; notes a search by "
        f"name or topic reaches: {_percent(c.get('reachable', 0.0))}"
    )
    if night.ranked:
        lines.append(f"- Candidates promoted: {len(night.promoted)} of {night.ranked}")
    lines.append(f"- Recall store: {night.short_term} entries")
    refused = {gate: n for gate, n in sorted(night.refused.items()) if n}
    if refused:
        by_gate = ", ".join(f"{gate} {n}" for gate, n in refused.items())
        lines.append(f"- Refused as junk: {sum(refused.values())} candidate(s) ({by_gate})")
    if night.skipped:
        lines.append(f"- Greetings and acknowledgements left out: {night.skipped}")
    return lines + [f"- {line}" for line in night.interpretation]


def _recurring_line(item: Recurring) -> str:
    days, times = len(item.days), max(item.times, len(item.days))
    state = {"created": " (new tonight)"}.get(item.change, "")
    if item.change.startswith("updated"):
        state = " (seen again)"
    fix = f"; what worked: {item.fix}" if item.fix else "; no fix recorded yet"
    last = item.days[-1] if item.days else "?"
    return f"- {item.name}: went wrong {times} times over {days} days, last on {last}{state}{fix}"


def _shown(text: str) -> str:
    """An added line as the report repeats it: an order to the agent or a hidden comment is
    named, never repeated (the report is read by people and agents alike)."""
    if is_unfit(text):
        return "a line that holds an order to the agent or a hidden comment (see MEMORY.md)"
    return text


def _changes(night: Night) -> list[str]:
    lines = [f"- Promoted today: {len(night.promoted)}"] if night.promoted else []
    shown = [_shown(text) for text in night.promoted]
    lines += _listed(shown, "Added to MEMORY.md")
    lines += [f"- Replaced in MEMORY.md: {old} — now: {new}" for old, new in night.replaced]
    lines += _listed(list(night.archived), "Archived to memory/archive.md to make room")
    if night.bank:
        lines.append(f"- Memory bank pages updated: {', '.join(night.bank[:MAX_LISTED])}")
    return lines


def render_report(night: Night) -> str:
    """The report's Markdown (see the module rules)."""
    c, u = night.counts, night.updates
    body: dict[str, list[str]] = {
        HEALTH: _health_lines(night),
        LESSONS: _or([f"- {line}" for line in night.learned], "no new lesson or correction"),
        RECURRING: _or(
            [_recurring_line(item) for item in night.recurring],
            "no mistake has come back three times",
        ),
        CHANGES: _or(_changes(night), "MEMORY.md and the memory bank are as they were"),
        TOMORROW: _or([f"- {line}" for line in night.focus], "nothing to follow up"),
        TOPICS: _or([f"- {path}: {title}" for path, title in night.topics], "none"),
        MAP: [
            f"- {c.get('episodes', 0)} note sections and pages, {c.get('entities', 0)} names, "
            f"{c.get('edges', 0)} links",
            f"- Tonight: {u.get('episodes', 0)} new sections, {u.get('edges', 0)} new links, "
            f"{u.get('pruned', 0)} removed",
            f"- Recall store: {night.short_term} entries; {night.retired} moved to long-term "
            "memory tonight",
        ],
    }
    lines = [f"# Dream Report — {night.day}", ""]
    for title in SECTIONS:
        lines += [f"## {title}", *body[title], ""]
    return redact("\n".join(lines).rstrip("\n") + "\n")


def log_line(night: Night, *, stamp: str, path: str) -> str:
    """The report's line in ``memory/dream-log.md``."""
    return redact(
        f"- {stamp}: health {night.health['score']}/100; {len(night.promoted)} added, "
        f"{len(night.replaced)} replaced, {len(night.archived)} archived; "
        f"{len(night.recurring)} recurring mistake(s); {len(night.topics)} topic file(s); "
        f"[{night.day}]({path})"
    )


def report_sections(text: str) -> dict[str, list[str]]:
    """A report read back: each ``##`` title with its non-blank lines."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.split("\n"):
        heading = _SECTION.match(line)
        if heading:
            current = found.setdefault(heading.group(1), [])
        elif current is not None and line.strip():
            current.append(line)
    return found


def _cut(line: str, limit: int) -> str:
    line = line.removeprefix("- ")
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def short_report(text: str, *, more: str) -> str:
    """The report in a few lines for chat, at most :data:`SHORT_CHARS` characters, ending with
    ``more`` (the command that shows the rest)."""
    sections = report_sections(text)
    health = sections.get(HEALTH, [])
    score = next((_SCORE.search(line) for line in health if _SCORE.search(line)), None)
    lines = [f"Health {score.group(1)}/100" if score else "Health not scored"]
    lost = next((line for line in health if line.startswith("- Durable facts lost")), None)
    if lost is not None:
        lines[0] += " — " + _cut(lost, 90).split(" (", 1)[0]
    for title, label, count in (
        (LESSONS, "Lessons", 2),
        (RECURRING, "Keeps going wrong", 2),
        (CHANGES, "Memory", 3),
    ):
        found = [ln for ln in sections.get(title, []) if not ln.startswith("- no ")]
        found = [ln for ln in found if "as they were" not in ln]
        if found:
            lines.append(f"{label}:")
            lines += [f"• {_cut(line, 110)}" for line in found[:count]]
            if len(found) > count:
                lines.append(f"• … {len(found) - count} more")
    tail = f"More: {more}"
    while len("\n".join([*lines, tail])) > SHORT_CHARS and len(lines) > 1:
        lines.pop()
    return redact("\n".join([*lines, tail]))
