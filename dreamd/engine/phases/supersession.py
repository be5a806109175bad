"""MEMORY.md's entries and the recall store's rows on one timeline: what a newer fact replaced.

Every entry of MEMORY.md (a person's line or a promotion) and every row of the recall store a
promotion could come from is read as a dated statement (:mod:`dreamd.engine.facts`):

* a row's day is its note's day (a daily note's or a transcript corpus file's date), else the
  day it was first recalled; its place in the day is its first line;
* a promoted entry's day is its source note's day (from its key), else the day of the section
  it stands in; a person's line has no day and counts as older than anything dated.

Rows from an ``untrusted`` or ``system`` origin, contaminated rows and forgotten rows take no
part (a guest cannot end a fact), nor rows that state no lasting fact
(:mod:`dreamd.engine.facts.lasting`). A person's lines are not compared with each other: they
are never moved, whatever they say. The result answers, for a row or an entry, whether something
later replaced it and what (:class:`Currency`). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dreamd.engine.facts.lasting import lasting
from dreamd.engine.facts.render import fact_text
from dreamd.engine.facts.statement import Statement, read_statement
from dreamd.engine.facts.timeline import Dated, Ending, Timeline, plan_timeline
from dreamd.engine.state import RecallEntry
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.text.memory_entries import MemoryEntry, memory_entries, split_key
from dreamd.engine.text.snippets import claim_hash
from dreamd.engine.traces import TAINTED_ORIGINS
from dreamd.layout import daily_note_day

__all__ = ["Currency", "entry_ref", "plan_currency", "row_day"]

HUMAN_PREFIX = "MEMORY.md#"


def entry_ref(entry: MemoryEntry) -> str:
    """A MEMORY.md entry's reference: its promotion key, or ``MEMORY.md#<claim hash>``."""
    return entry.key or f"{HUMAN_PREFIX}{claim_hash(entry.text)}"


def row_day(row: RecallEntry) -> str:
    """The day a row's statement was made (see the module rules)."""
    return daily_note_day(row.path) or (row.first_recalled_at or "")[:10]


def _key_day(key: str) -> str | None:
    base, _ = split_key(key)
    parts = base.split(":")
    return daily_note_day(parts[1]) if len(parts) >= 4 and parts[0] == "memory" else None


@dataclass(frozen=True)
class Currency:
    """The timeline of one MEMORY.md and store, and the statements it was built from."""

    timeline: Timeline
    statements: Mapping[str, Statement]  # ref -> its statement
    days: Mapping[str, str]  # ref -> its day ("" for a person's line)
    entries: tuple[MemoryEntry, ...]

    def ended(self, ref: str) -> Ending | None:
        """What replaced ``ref``, if anything did."""
        return self.timeline.ended.get(ref)


def _trusted(row: RecallEntry) -> bool:
    origin = row.provenance.origin_class if row.provenance else "agent"
    return (
        origin not in TAINTED_ORIGINS and not row.forgotten_at and not is_contaminated(row.snippet)
    )


def plan_currency(
    memory_text: str,
    rows: Mapping[str, RecallEntry],
    *,
    extra: Mapping[str, tuple[str, str]] | None = None,
) -> Currency:
    """The timeline of ``memory_text``'s entries and ``rows`` (``extra``: more statements as
    ref -> (day, text), e.g. the night's candidates in their promoted form)."""
    items: list[Dated] = []
    statements: dict[str, Statement] = {}
    days: dict[str, str] = {}
    entries = tuple(memory_entries(memory_text))
    sections = _section_days(memory_text)
    for entry in entries:
        ref = entry_ref(entry)
        day = ""
        if entry.key is not None:
            day = _key_day(entry.key) or sections.get(entry.line, "")
        statement = read_statement(fact_text(entry.text))
        items.append(Dated(ref, day, statement, entry.line))
        statements[ref], days[ref] = statement, day
    for key, row in rows.items():
        if not _trusted(row) or key in statements:
            continue
        statement = read_statement(fact_text(row.snippet))
        if not lasting(row.snippet, statement).durable:
            continue  # what only happened neither ends a fact nor is promoted
        day = row_day(row)
        items.append(Dated(key, day, statement, row.start_line))
        statements[key], days[key] = statement, day
    for ref, (day, text) in (extra or {}).items():
        if ref in statements:
            continue
        statement = read_statement(fact_text(text))
        items.append(Dated(ref, day, statement, 0))
        statements[ref], days[ref] = statement, day
    people = frozenset(ref for ref in statements if ref.startswith(HUMAN_PREFIX))
    return Currency(plan_timeline(items, fixed=people), statements, days, entries)


def _section_days(text: str) -> dict[int, str]:
    """Line number (1-based) -> the day of the generated section the line stands in."""
    found: dict[int, str] = {}
    day = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            day = line.rsplit("(", 1)[-1].rstrip(") \t") if line.rstrip().endswith(")") else ""
            if len(day) != 10:
                day = ""
        elif line.startswith("# "):
            day = ""
        found[number] = day
    return found
