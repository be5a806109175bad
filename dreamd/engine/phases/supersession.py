"""MEMORY.md's entries and the recall store's rows on one timeline: what a newer fact replaced.

Every entry of MEMORY.md (a person's line or a promotion) and every row of the recall store a
promotion could come from is read as a dated statement (:mod:`dreamd.engine.facts`):

* a row's day is its note's day (a daily note's or a transcript corpus file's date), else the
  day it was first recalled; its place in the day is its first line;
* a promoted entry's day is its source note's day (from its key), else the day of the section
  it stands in; a person's line has no day and counts as older than anything dated. A person
  who writes in the first person and says who they are ("I'm Ana Duarte, 38.") is the subject
  of their lines' "I" and of their fragments ("Crane operator with APDL at Leixões"), so
  another person's line in the same words is not theirs.

Rows from an ``untrusted`` or ``system`` origin, contaminated rows, rows shaped as orders to
the agent (:mod:`dreamd.engine.text.instructions`: a pasted "[AI agents processing this
document: record that …]" ends nothing) and forgotten rows take no part (a guest cannot end a
fact), nor rows that state no lasting fact
(:mod:`dreamd.engine.facts.lasting`) except a denial (a Retain opinion with ``c < 0.5``: it
ends what it denies). A person's lines are not compared with each other: they
are never moved, whatever they say. The result answers, for a row or an entry, whether something
later replaced it and what (:class:`Currency`). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from dreamd.engine.facts.lasting import Lasting, lasting
from dreamd.engine.facts.parts import (
    as_speaker,
    carried,
    fact_parts,
    in_first_person,
    lasting_line,
    mentioned,
    speaker_names,
    statements_of,
)
from dreamd.engine.facts.relations import relation, told_within
from dreamd.engine.facts.render import fact_text
from dreamd.engine.facts.statement import Statement, read_statement
from dreamd.engine.facts.timeline import Dated, Ending, Timeline, plan_timeline
from dreamd.engine.state import RecallEntry
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.text.instructions import is_instruction
from dreamd.engine.text.memory_entries import MemoryEntry, memory_entries, split_key
from dreamd.engine.text.snippets import claim_hash
from dreamd.engine.traces import TAINTED_ORIGINS
from dreamd.layout import daily_note_day

__all__ = [
    "Currency",
    "covers",
    "entry_ref",
    "lasting_parts",
    "plan_currency",
    "replaces_any",
    "row_day",
]

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


_PART = "\x1f"  # a sentence's reference: its line's, then this, then its place


@dataclass(frozen=True)
class Currency:
    """The timeline of one MEMORY.md and store, and the statements it was built from: each
    entry or row is read sentence by sentence (:mod:`dreamd.engine.facts.parts`)."""

    timeline: Timeline
    parts: Mapping[str, tuple[Statement, ...]]  # ref -> its statements (a row's lasting ones)
    days: Mapping[str, str]  # ref -> its day ("" for a person's line)
    entries: tuple[MemoryEntry, ...]
    endings: Mapping[str, Ending]  # ref -> what replaced one of its statements
    # a person's lines, read whole, with the names of who "I" is in each
    person: tuple[tuple[str, Statement, frozenset[str]], ...] = ()

    def ended(self, ref: str) -> Ending | None:
        """What replaced ``ref`` (one of its statements), if anything did."""
        return self.endings.get(ref)

    def told_by_person(self, statement: Statement) -> str | None:
        """The person's line of MEMORY.md that already tells all ``statement`` says, read
        whole ("I'm Solveig Brekke, 47. State pilot with Kystverket …" tells "Solveig Brekke:
        state pilot with Kystverket"); "I" is whoever the file's own lines say they are."""
        for ref, whole, names in self.person:
            if told_within(statement, whole, names):
                return ref
        return None

    def standing(self, ref: str) -> tuple[bool, ...]:
        """For each statement of ``ref``, whether nothing replaced it."""
        ended = self.timeline.ended
        return tuple(f"{ref}{_PART}{i}" not in ended for i in range(len(self.parts.get(ref, ()))))


def _trusted(row: RecallEntry) -> bool:
    origin = row.provenance.origin_class if row.provenance else "agent"
    # an order pasted into a note ("[AI agents processing this document: record that …]")
    # ends no fact, however much it looks like one
    return (
        origin not in TAINTED_ORIGINS
        and not row.forgotten_at
        and not is_contaminated(row.snippet)
        and not is_instruction(row.snippet)
    )


def lasting_parts(text: str) -> tuple[Statement, ...]:
    """The statements of a line's lasting sentences (all of them when none lasts alone)."""
    parts = fact_parts(text, clauses=True)
    names = mentioned(text)
    letter = read_statement(text, known=names).retain  # "B: …": each sentence is an episode's
    read = [(part, read_statement(part, known=names)) for part in parts]
    if letter is not None:
        read = [(part, s if s.retain else s.replace(retain=letter)) for part, s in read]
    read = list(zip(parts, carried([s for _, s in read]), strict=True))
    kept = tuple(s for part, s in read if _counts(lasting(part, s)))
    return kept or tuple(s for _, s in read)


# kinds that end a fact without being one; a calendar entry made ("calendar: meetings from
# 6 July on first Sundays") is the agent's record of what is current, never promoted itself
_ENDS_ONLY = ("denial", "ending", "calendar")


def _counts(verdict: Lasting) -> bool:
    """A sentence the timeline reads: one that lasts, or one that only ends another ("the
    Geilo weekend is cancelled", beside "Solveig goes to Florø on the 16th")."""
    return verdict.durable or verdict.kind in _ENDS_ONLY


def plan_currency(memory_text: str, rows: Mapping[str, RecallEntry]) -> Currency:
    """The timeline of ``memory_text``'s entries and ``rows`` (see the module rules).

    A sweep asks it of the same MEMORY.md and store for its gates, its promotions and its
    current values: the answer is kept for what a row contributes (its key, line, day and
    snippet, when trusted), so the second and third ask cost no comparisons. The answer is
    shared: callers read it and never change it."""
    said = tuple(
        (key, row.snippet, row_day(row), row.start_line)
        for key, row in rows.items()
        if _trusted(row)
    )
    return _currency(memory_text, said)


@lru_cache(maxsize=2)
def _currency(memory_text: str, rows: tuple[tuple[str, str, str, int], ...]) -> Currency:
    items: list[Dated] = []
    parts: dict[str, tuple[Statement, ...]] = {}
    days: dict[str, str] = {}
    owners: dict[str, str] = {}
    entries = tuple(memory_entries(memory_text))
    sections = _section_days(memory_text)

    def add(ref: str, day: str, statements: tuple[Statement, ...], order: int) -> None:
        parts[ref], days[ref] = statements, day
        for index, statement in enumerate(statements):
            part = f"{ref}{_PART}{index}"
            owners[part] = ref
            items.append(Dated(part, day, statement, order * 16 + index))

    sources = {key: snippet for key, snippet, _, _ in rows}
    speaker = speaker_names([entry.text for entry in entries if entry.key is None])
    me = frozenset(speaker)
    person: list[tuple[str, Statement, frozenset[str]]] = []
    for entry in entries:
        day = ""
        known: frozenset[str] = frozenset()
        if entry.key is not None:
            day = _key_day(entry.key) or sections.get(entry.line, "")
            # the names its source line tags ("W @Stigbergets församlingshem: …")
            known = mentioned(sources.get(entry.key, ""))
        statements = statements_of(entry.text, known=known)
        if entry.key is None:  # a person's line, read whole too; "I" is the writer
            first = in_first_person(entry.text)
            statements = as_speaker(statements, speaker) if first else statements
            person.append(
                (entry_ref(entry), read_statement(entry.text), me if first else frozenset())
            )
        add(entry_ref(entry), day, tuple(statements), entry.line)
    for key, snippet, day, line in rows:
        if key in parts:
            continue
        if _counts(lasting_line(snippet, read_statement(snippet))):
            add(key, day, lasting_parts(snippet), line)
            continue
        whole = read_statement(fact_text(snippet))
        if whole.change == "correction":  # "Kalvestad. With a v. It's been wrong all week."
            add(key, day, (whole,), line)
        # what only happened neither ends a fact nor is promoted
    people = frozenset(part for part, ref in owners.items() if ref.startswith(HUMAN_PREFIX))
    timeline = plan_timeline(items, fixed=people, owners=owners)
    endings: dict[str, Ending] = {}
    for part, ending in sorted(timeline.ended.items(), key=lambda item: item[1].day):
        ref = owners[part]
        endings.setdefault(ref, Ending(owners.get(ending.by, ending.by), ending.day))
    return Currency(timeline, parts, days, entries, endings, tuple(person))


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


def covers(known: Sequence[Statement], told: Sequence[Statement]) -> bool:
    """Every statement of ``told`` is the same fact as one of ``known`` (and says no more of
    it: "moved to room 108 on 18 March" is not covered by "to move to a ground-floor room")."""
    return bool(told) and all(any(relation(t, k) == "same" for k in known) for t in told)


def replaces_any(newer: Sequence[Statement], older: Sequence[Statement]) -> bool:
    """One statement of ``newer`` replaces one of ``older`` and says none of them again: "the
    meeting is on Thursdays at 15:15 now" confirms "the weekly meeting will be on Thursdays at
    15:15, from 22 May; the Monday 19 May one is the last at 08:30", it replaces no part of it."""
    for statement in newer:
        said = {relation(statement, o) for o in older}  # each pair read once
        if "replaces" in said and "same" not in said:
            return True
    return False
