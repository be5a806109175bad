"""The gates after ranking: what deserves MEMORY.md among the candidates that scored well.

Ranking (:mod:`dreamd.engine.phases.deep`) is OpenClaw's, scores and gates unchanged. Then each
passing entry, in rank order, goes through these gates until the day's room is filled; the
first one it fails is its rejection category, and the next entry in line takes its place:

1. ``forgotten``    its entry was forgotten on request (``memory forget``), or it repeats one
                    that was: never promoted again (``--allow-repromote`` lifts this)
2. ``archived``     its entry left MEMORY.md for the budget and nothing recalled it since: it
                    comes back only once it is strong again (a recall after it left)
3. ``secret``       its text holds a secret or personal data (:func:`dreamd.redaction.redact`
                    would change it): re-checked here for rows an older store or a person wrote
4. ``instruction``  it addresses the agent or the system as orders
                    (:mod:`dreamd.engine.text.instructions`)
5. ``filler``       only grounded replay backs it (no recall at all) and it does not read as
                    a durable claim (:mod:`dreamd.engine.text.durability`)
6. ``situational``  it does not state a lasting fact: a lead-in, a greeting, a log or status
                    line, what happened that day, trivia (:mod:`dreamd.engine.facts.lasting`),
                    or a one-off event whose day has passed (:mod:`dreamd.engine.facts.events`)
7. ``duplicate``    it states the same fact as an entry already in MEMORY.md (dreamd's,
                    OpenClaw's or a person's line) or as a candidate kept before it tonight:
                    the same text (:mod:`dreamd.engine.text.claims`) or a paraphrase with the
                    same names and numbers (:func:`dreamd.engine.facts.relations.same_fact`),
                    or all it says is in one line a person wrote (``Currency.told_by_person``),
                    or a line of the same note that tells again of the same subject (a note's
                    prose and its Retain line: :func:`~dreamd.engine.facts.relations.retells`)
8. ``superseded``   a later note, transcript line or entry replaced what it says
                    (:mod:`dreamd.engine.phases.supersession`): a stale fact is never promoted

An entry whose key already has a promotion marker passes untouched: it is reconciled, not
written. A duplicate is not written; it reinforces the entry it repeats: once that entry is in
MEMORY.md, the row gets ``promotedAt`` and ``duplicateOf`` naming it (:func:`mark_duplicates`),
so it is not weighed again and ``promote-explain`` can say which sources back the entry.

**Updates.** A row that failed only the strength gates (signals, distinct queries, score) still
goes on, after the ranked candidates and within the day's room, when it *replaces* an entry in
MEMORY.md (a lasting, trusted statement of the same slot, newer than the entry): a change the
notes record must reach durable memory even when nobody searched for it, or MEMORY.md would go
on stating the old value as current. **Declared facts** come next the same way: a Retain world
fact (``- W @Jonas: Civil engineer at Aarhus Vand.`` in a ``## Retain`` section) is the agent
saying outright that a fact is worth keeping, so it needs no searches to be weighed; so is a
Retain observation that states a rule or a way of doing something (``- S Prices for private
customers always include the VAT.``: the fix of a mistake, said once). Such rows pass the same
gates. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Any

from msgspec.structs import replace

from dreamd.clock import format_instant
from dreamd.engine.facts.events import expired, said_on
from dreamd.engine.facts.parts import fact_parts, lasting_line, lasting_text
from dreamd.engine.facts.relations import retells
from dreamd.engine.facts.statement import Statement, read_statement
from dreamd.engine.phases.deep import Ranking, Thresholds, Verdict, rank
from dreamd.engine.phases.scoring import Scored
from dreamd.engine.phases.supersession import (
    Currency,
    covers,
    entry_ref,
    lasting_parts,
    plan_currency,
    replaces_any,
    row_day,
)
from dreamd.engine.state import FORGOTTEN, PhaseSignal, RecallEntry, Table
from dreamd.engine.text.claims import ClaimIndex
from dreamd.engine.text.durability import filler_reason
from dreamd.engine.text.instructions import instruction_reason
from dreamd.engine.text.memory_entries import memory_entries
from dreamd.engine.text.snippets import claim_hash
from dreamd.redaction import redact

__all__ = [
    "SCREEN_GATES",
    "Screened",
    "forgotten_index",
    "forgotten_list",
    "human_ref",
    "is_grounded_only",
    "mark_duplicates",
    "memory_index",
    "rank_screened",
    "screen",
    "screen_reason",
]

SCREEN_GATES = (
    "forgotten",
    "archived",
    "secret",
    "instruction",
    "filler",
    "situational",
    "duplicate",
    "superseded",
)
_TAUGHT = frozenset({"rule", "procedure"})  # what a Retain observation may declare
UPDATE_GATES = frozenset({"signal threshold", "query threshold", "score threshold"})
HUMAN_REF = "MEMORY.md#"


@dataclass(frozen=True)
class Screened:
    """A ranking after the screen, and why each refused entry was refused."""

    ranking: Ranking
    duplicates: Mapping[str, str]  # candidate key -> reference of the entry it repeats
    details: Mapping[str, str]  # candidate key -> what the gate saw ("override", "activity log")


def human_ref(text: str) -> str:
    """The reference a person's MEMORY.md line gets: ``MEMORY.md#<claim hash of its text>``."""
    return f"{HUMAN_REF}{claim_hash(text)}"


def is_grounded_only(entry: RecallEntry) -> bool:
    """Only grounded replay stands behind the row: no recall at all."""
    return entry.grounded_count > 0 and entry.recall_count == 0


def screen_reason(entry: RecallEntry, forgotten: ClaimIndex) -> tuple[str, str] | None:
    """The first text gate ``entry`` fails and what it saw, or ``None`` (duplicates aside)."""
    if entry.forgotten_at:
        return "forgotten", f"forgotten at {entry.forgotten_at}"
    earlier = forgotten.match(entry.snippet, skip=entry.key)
    if earlier is not None:
        return "forgotten", f"repeats the forgotten {earlier}"
    archived = _archived(entry)
    if archived is not None:
        return archived
    if redact(entry.snippet) != entry.snippet:
        return "secret", "holds a secret or personal data"
    shape = instruction_reason(entry.snippet)
    if shape is not None:
        return "instruction", shape
    if is_grounded_only(entry):
        filler = filler_reason(entry.snippet)
        if filler is not None:
            return "filler", filler
    verdict = lasting_line(entry.snippet, read_statement(entry.snippet))
    if not verdict.durable:
        return "situational", verdict.reason
    return None


def _past(entry: RecallEntry, today: date) -> tuple[str, str] | None:
    """A one-off event whose day has gone (:mod:`dreamd.engine.facts.events`)."""
    gone = expired(entry.snippet, said_on(row_day(entry), today), today)
    return None if gone is None else ("situational", f"past event ({gone.isoformat()})")


def _archived(entry: RecallEntry) -> tuple[str, str] | None:
    """Why an archived row waits: it left MEMORY.md and nothing recalled it since."""
    if not entry.archived_at:
        return None
    if entry.last_recalled_at and entry.last_recalled_at > entry.archived_at:
        return None
    return "archived", f"left MEMORY.md on {entry.archived_at[:10]}; not recalled since"


def memory_index(memory_text: str) -> ClaimIndex:
    """Every entry of MEMORY.md as a claim: under its marker key, or its :func:`human_ref`."""
    index = ClaimIndex()
    for item in memory_entries(memory_text):
        index.add(item.key or human_ref(item.text), item.text)
    return index


def forgotten_index(store: Table[RecallEntry]) -> ClaimIndex:
    """The claims of every entry forgotten on request: its rows, and the store's own list."""
    index = ClaimIndex()
    for key, row in store.rows.items():
        if row.forgotten_at:
            index.add(key, row.snippet)
    for item in forgotten_list(store):
        index.add(str(item["key"]), str(item["text"]))
    return index


def forgotten_list(store: Table[RecallEntry]) -> list[dict[str, Any]]:
    """The store's list of forgotten entries (``{"key", "text", "at"}``), well-formed ones only."""
    value = store.top.get(FORGOTTEN)
    if not isinstance(value, list):
        return []
    return [
        dict(item)
        for item in value
        if isinstance(item, Mapping)
        and isinstance(item.get("key"), str)
        and isinstance(item.get("text"), str)
    ]


def _newest_first(scored: Scored) -> tuple[str, str]:
    return row_day(scored.entry), scored.entry.key


def _note_of(ref: str) -> str | None:
    """The note a promotion key names (``memory:memory/2031-11-15.md:12:12``), if any."""
    parts = ref.split(":")
    return parts[1] if len(parts) >= 4 and parts[0] == "memory" else None


def _retold(known: Sequence[Statement], told: Sequence[Statement]) -> bool:
    """Every statement of ``told`` retells one of ``known`` (:func:`~dreamd.engine.facts.
    relations.retells`)."""
    return bool(told) and all(retells(t, known) for t in told)


class _Facts:
    """What the night's screen knows of facts: MEMORY.md's, the store's, and tonight's."""

    def __init__(self, currency: Currency) -> None:
        self.currency = currency
        self.entries = {entry_ref(e): e for e in currency.entries}
        self.kept: list[tuple[str, tuple[Statement, ...]]] = []

    def _parts(self, entry: RecallEntry) -> tuple[Statement, ...]:
        found = self.currency.parts.get(entry.key)
        return found if found is not None else lasting_parts(entry.snippet)

    def repeats(self, entry: RecallEntry) -> str | None:
        """The MEMORY.md entry or kept candidate whose facts ``entry`` only states again, or
        (for a line of the same note) tells again of the same subject: a note's prose and its
        Retain line are one fact."""
        told = self._parts(entry)
        found = self._repeated(entry, told)
        if found is not None:
            return found
        # what a line of prose would write may say less than its clauses read one by one: "Her
        # surname is Gendron. I had Gendreau …; her pay stub says Gendron." writes the surname
        # (a Retain line is one claim, read with its letter)
        if read_statement(entry.snippet).retain is not None or len(fact_parts(entry.snippet)) < 2:
            return None
        written = lasting_parts(lasting_text(entry.snippet))
        return self._repeated(entry, written) if written != told else None

    def _repeated(self, entry: RecallEntry, told: Sequence[Statement]) -> str | None:
        for ref in self.entries:
            if covers(self.currency.parts[ref], told):
                return ref
            if _note_of(ref) == entry.path and _retold(self.currency.parts[ref], told):
                return ref
        said = [self.currency.told_by_person(t) for t in told]
        if said and all(said):
            return said[0]
        for key, other in self.kept:
            if covers(other, told) or (_note_of(key) == entry.path and _retold(other, told)):
                return key
        return None

    def superseded(self, entry: RecallEntry) -> tuple[str, str] | None:
        """Why ``entry`` is stale: what later statement replaced it, and when."""
        ending = self.currency.ended(entry.key)
        if ending is None:
            return None
        by = self.currency.parts.get(ending.by)
        said = by[0].text if by else ending.by
        return "superseded", f"replaced on {ending.day or 'a later day'} by: {said[:120]}"

    def keep(self, entry: RecallEntry) -> None:
        """Remember a candidate kept tonight."""
        self.kept.append((entry.key, self._parts(entry)))

    def declares(self, entry: RecallEntry) -> bool:
        """Whether ``entry`` is a Retain world fact (``W @Entity: …``), or a Retain observation
        that states a rule or a procedure, still current."""
        if entry.promoted_at or entry.archived_at or entry.forgotten_at:
            return False
        if entry.key not in self.currency.parts or self.currency.ended(entry.key) is not None:
            return False
        read = read_statement(entry.snippet)
        if read.retain == "W":
            return True
        return read.retain == "S" and lasting_line(entry.snippet, read).kind in _TAUGHT

    def updates_memory(self, entry: RecallEntry) -> bool:
        """Whether ``entry`` replaces a current MEMORY.md entry (and is newer than it)."""
        if entry.promoted_at or entry.archived_at or entry.forgotten_at:
            return False
        mine = self.currency.parts.get(entry.key)
        if mine is None or self.currency.ended(entry.key) is not None:
            return False
        day = self.currency.days.get(entry.key, "")
        for ref in self.entries:
            ending = self.currency.ended(ref)
            if ending is not None and ending.by != entry.key:
                continue
            if self.currency.days.get(ref, "") <= day and replaces_any(
                mine, self.currency.parts[ref]
            ):
                return True
        return False


def screen(
    ranking: Ranking,
    *,
    memory_text: str,
    store: Table[RecallEntry],
    today: date | None = None,
) -> Screened:
    """Apply the gates after ranking (see the module rules) and cut to the day's room; with
    ``today``, a one-off event whose day has passed is situational too."""
    marked = {item.key for item in memory_entries(memory_text) if item.key}
    claims = memory_index(memory_text)
    forgotten = forgotten_index(store)
    currency = plan_currency(memory_text, store.rows)
    facts = _Facts(currency)
    refused: dict[str, str] = {}
    duplicates: dict[str, str] = {}
    details: dict[str, str] = {}
    kept: list[Scored] = []

    def consider(scored: Scored) -> None:
        entry = scored.entry
        found = screen_reason(entry, forgotten)
        if found is None and today is not None:
            found = _past(entry, today)
        if found is None:
            repeated = claims.match(entry.snippet) or facts.repeats(entry)
            if repeated is not None:
                found = ("duplicate", repeated)
                duplicates[entry.key] = repeated
        if found is None:
            found = facts.superseded(entry)
        if found is not None:
            refused[entry.key], details[entry.key] = found
            return
        kept.append(scored)
        claims.add(entry.key, entry.snippet)
        facts.keep(entry)

    for scored in ranking.passed:
        entry = scored.entry
        if len(kept) >= ranking.room:
            refused[entry.key] = "selection limit"
            continue
        if entry.key in marked:
            kept.append(scored)
            continue
        consider(scored)
    updates = [
        v.scored
        for v in ranking.verdicts
        if v.rejection in UPDATE_GATES and facts.updates_memory(v.scored.entry)
    ]
    declared = [
        v.scored
        for v in ranking.verdicts
        if v.rejection in UPDATE_GATES
        and v.scored not in updates
        and facts.declares(v.scored.entry)
    ]
    for label, extra in (("update", updates), ("declared", declared)):
        for scored in sorted(extra, key=_newest_first, reverse=True):
            if len(kept) >= ranking.room:
                break
            before = len(kept)
            consider(scored)
            if len(kept) > before:
                details[scored.entry.key] = label
    passed = {scored.entry.key for scored in ranking.passed}
    refused = {key: gate for key, gate in refused.items() if key in passed}
    rejected: Counter[str] = Counter(
        {name: count for name, count in ranking.rejected.items() if name != "selection limit"}
    )
    for scored in kept:  # an update taken tonight is no longer a strength rejection
        if scored.entry.key not in passed:
            verdict = next(v for v in ranking.verdicts if v.scored.entry.key == scored.entry.key)
            if verdict.rejection is not None:
                rejected[verdict.rejection] -= 1
    rejected = +rejected
    rejected.update(refused.values())
    taken = {scored.entry.key for scored in kept}
    verdicts = tuple(
        Verdict(v.scored, refused[v.scored.entry.key], v.promoted_today)
        if v.rejection is None and v.scored.entry.key in refused
        else Verdict(v.scored, None, v.promoted_today)
        if v.scored.entry.key in taken
        else v
        for v in ranking.verdicts
    )
    screened = Ranking(
        verdicts,
        tuple(kept),
        dict(rejected),
        ranking.promoted_today,
        ranking.passed,
        ranking.room,
    )
    return Screened(screened, duplicates, details)


def mark_duplicates(
    screened: Screened,
    rows: Mapping[str, RecallEntry],
    *,
    written: frozenset[str],
    now: datetime,
) -> dict[str, RecallEntry]:
    """Rows of tonight's duplicates, marked as backing the entry they repeat.

    A duplicate of an entry already in MEMORY.md is marked at once; one of a candidate kept
    tonight only when that candidate was written (or reconciled): if it was not, the duplicate
    stays as it is and is weighed again next time.
    """
    stamp = format_instant(now)
    marked: dict[str, RecallEntry] = {}
    for key, ref in screened.duplicates.items():
        row = rows.get(key)
        if row is None:
            continue
        tonight = ref in {s.entry.key for s in screened.ranking.passed}
        if tonight and ref not in written:
            continue
        marked[key] = replace(row, promoted_at=stamp, duplicate_of=ref)
    return marked


def rank_screened(
    store: Table[RecallEntry],
    signals: Mapping[str, PhaseSignal],
    thresholds: Thresholds,
    *,
    memory_text: str,
    now: datetime,
    include_promoted: bool = False,
    zone: tzinfo | None = None,
) -> Screened:
    """:func:`~dreamd.engine.phases.deep.rank`, then :func:`screen`: what a sweep would pick."""
    ranking = rank(
        store.rows, signals, thresholds, now=now, include_promoted=include_promoted, zone=zone
    )
    local = now.astimezone(zone) if zone is not None else now
    return screen(ranking, memory_text=memory_text, store=store, today=local.date())
