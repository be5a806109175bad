"""The gates after ranking: what deserves MEMORY.md among the candidates that scored well.

Ranking (:mod:`dreamd.engine.phases.deep`) is OpenClaw's, scores and gates unchanged. Then each
passing entry, in rank order, goes through these gates until the day's room is filled; the
first one it fails is its rejection category, and the next entry in line takes its place:

1. ``forgotten``    its entry was forgotten on request (``memory forget``), or it repeats one
                    that was: never promoted again (``--allow-repromote`` lifts this)
2. ``secret``       its text holds a secret or personal data (:func:`dreamd.redaction.redact`
                    would change it): re-checked here for rows an older store or a person wrote
3. ``instruction``  it addresses the agent or the system as orders
                    (:mod:`dreamd.engine.text.instructions`)
4. ``filler``       only grounded replay backs it (no recall at all) and it does not read as
                    a durable claim (:mod:`dreamd.engine.text.durability`)
5. ``duplicate``    it states the same claim (:mod:`dreamd.engine.text.claims`) as an entry
                    already in MEMORY.md (dreamd's, OpenClaw's or a person's line) or as a
                    candidate kept before it tonight

An entry whose key already has a promotion marker passes untouched: it is reconciled, not
written. A duplicate is not written; it reinforces the entry it repeats: once that entry is in
MEMORY.md, the row gets ``promotedAt`` and ``duplicateOf`` naming it (:func:`mark_duplicates`),
so it is not weighed again and ``promote-explain`` can say which sources back the entry. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from msgspec.structs import replace

from dreamd.clock import format_instant
from dreamd.engine.phases.deep import Ranking, Thresholds, Verdict, rank
from dreamd.engine.phases.scoring import Scored
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

SCREEN_GATES = ("forgotten", "secret", "instruction", "filler", "duplicate")
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
    if redact(entry.snippet) != entry.snippet:
        return "secret", "holds a secret or personal data"
    shape = instruction_reason(entry.snippet)
    if shape is not None:
        return "instruction", shape
    if is_grounded_only(entry):
        filler = filler_reason(entry.snippet)
        if filler is not None:
            return "filler", filler
    return None


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


def screen(ranking: Ranking, *, memory_text: str, store: Table[RecallEntry]) -> Screened:
    """Apply the gates after ranking (see the module rules) and cut to the day's room."""
    marked = {item.key for item in memory_entries(memory_text) if item.key}
    claims = memory_index(memory_text)
    forgotten = forgotten_index(store)
    refused: dict[str, str] = {}
    duplicates: dict[str, str] = {}
    details: dict[str, str] = {}
    kept: list[Scored] = []
    for scored in ranking.passed:
        entry = scored.entry
        if len(kept) >= ranking.room:
            refused[entry.key] = "selection limit"
            continue
        if entry.key in marked:
            kept.append(scored)
            continue
        found = screen_reason(entry, forgotten)
        if found is None:
            repeated = claims.match(entry.snippet)
            if repeated is not None:
                found = ("duplicate", repeated)
                duplicates[entry.key] = repeated
        if found is not None:
            refused[entry.key], details[entry.key] = found
            continue
        kept.append(scored)
        claims.add(entry.key, entry.snippet)
    rejected: Counter[str] = Counter(
        {name: count for name, count in ranking.rejected.items() if name != "selection limit"}
    )
    rejected.update(refused.values())
    verdicts = tuple(
        Verdict(v.scored, refused[v.scored.entry.key], v.promoted_today)
        if v.rejection is None and v.scored.entry.key in refused
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
    return screen(ranking, memory_text=memory_text, store=store)
