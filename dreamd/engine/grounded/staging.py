"""Grounded rows in the recall store: staging a backfill's claims, and taking them out again.

What is staged (``rem-backfill --stage-short-term``): every *Possible Lasting Update* of a note
(score 0.92, 2 grounded signals) and every other ``likely_durable`` candidate of it (score 0.82,
1 signal), recorded with ``signal="grounded"`` from an ``owner`` in an ``interactive`` session,
keyed with the claim hash, with the note's date as the recall day.

How evidence accumulates: notes that state the *same claim* (same text once lowercased, stripped of
punctuation and collapsed) share their evidence. The claim's rows point at the latest day stating
it (the current wording, re-hydrated from there at promotion): one row per place a note of that day
states it (``Alex is my partner.`` on lines 2 and 5 gives two rows; so do a dated note and a
slugged note of the same day, as OpenClaw keeps every line and every note of a coalesced claim),
each with all of the claim's evidence. Each distinct note **day** adds one piece of evidence,
recorded under the query ``__dreaming_grounded_backfill__:<day>``: the strongest form the claim
took that day (a lasting update beats a candidate); a second note, or a second line, on the same
day adds nothing. So a claim stated once has at most 2 signals and 1 distinct question and can
never pass the deep gates (signals >= 3, distinct questions >= 3), while a durable claim written on
3 different days has 3 distinct questions and 3-6 signals, and passes when its score does. Reworded
claims count separately: the rule errs on the side of not promoting.

Staging first clears earlier grounded-only rows (as rollback does; ``cleared`` counts them, as
OpenClaw's ``replacedShortTermEntries`` does), so staging the same notes twice gives the same
store. A claim that some row had promoted before (same text) is staged as
promoted too, so re-running a backfill that moves a claim to a newer note never promotes it
twice. It never evicts a row: claims beyond the store's 512 rows are left
out (the most corroborated claims first) and counted. The store's previous ``updatedAt`` is kept
in the top-level field ``dreamdGroundedBackfill`` so that rollback can restore the store byte for
byte when nothing else touched it since.

Rollback (``--rollback-short-term``) removes exactly the grounded-only rows (``groundedCount >
0``, ``recallCount == 0``, ``dailyCount == 0``) and the phase-signal rows of those keys; rows with
organic recalls or daily signals stay as they are. Pure: tables in, tables out.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

import msgspec

from dreamd.clock import format_instant, parse_day
from dreamd.engine.grounded.preview import GroundedNote
from dreamd.engine.hits import Hit
from dreamd.engine.state import PhaseSignal, RecallEntry, Table
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.text.snippets import cap, claim_hash, collapse
from dreamd.engine.traces import MAX_STORE_ENTRIES, base_key, record_hits
from dreamd.layout import is_short_term_path

__all__ = [
    "BACKFILL_META",
    "GROUNDED_QUERY_PREFIX",
    "Claim",
    "Evidence",
    "Staging",
    "claims_of",
    "is_grounded_only",
    "rollback_grounded",
    "stage_grounded",
]

GROUNDED_QUERY_PREFIX = "__dreaming_grounded_backfill__:"
LASTING_SCORE, LASTING_SIGNALS = 0.92, 2
CANDIDATE_SCORE, CANDIDATE_SIGNALS = 0.82, 1
BACKFILL_META = "dreamdGroundedBackfill"
_PUNCTUATION = re.compile(r"[^\w\s]")


@dataclass(frozen=True, slots=True)
class Evidence:
    """One note's statement of a claim."""

    path: str
    start_line: int
    end_line: int
    text: str
    day: str
    lasting: bool


@dataclass(frozen=True)
class Claim:
    """A claim and its evidence: the latest statement of it, and one piece per note day."""

    canonical: Evidence
    evidence: tuple[Evidence, ...]

    @property
    def key(self) -> str:
        """The recall-store key its row gets."""
        top = self.canonical
        return f"{base_key(top.path, top.start_line, top.end_line)}:{claim_hash(cap(top.text))}"

    @property
    def weight(self) -> int:
        """Grounded signals its evidence adds up to."""
        return sum(LASTING_SIGNALS if e.lasting else CANDIDATE_SIGNALS for e in self.evidence)


@dataclass(frozen=True)
class Staging:
    """A staging plan: the new tables and what happened to each claim."""

    store: Table[RecallEntry]
    signals: Table[PhaseSignal]
    staged: tuple[str, ...]  # keys that received evidence
    replaced: tuple[str, ...]  # earlier grounded-only rows removed and not staged again
    over_budget: int  # claims left out by the 512-row cap
    refused: int  # claims outside short-term paths, or trace noise
    changed: bool  # the store differs from the one staging started from
    cleared: tuple[str, ...] = ()  # every earlier grounded-only row, cleared before staging


def _identity(text: str) -> str:
    normal = unicodedata.normalize("NFKC", text).lower()
    return collapse(_PUNCTUATION.sub(" ", normal))


def _evidence(notes: Sequence[GroundedNote]) -> list[Evidence]:
    found = []
    for note in notes:
        for c in note.candidates:
            if c.lean == "likely_durable":
                found.append(
                    Evidence(note.path, c.start_line, c.end_line, c.text, note.day, c.lasting)
                )
    return found


def _evidence_order(item: Evidence) -> tuple[str, bool, bool, str, int]:
    """Day, then lasting updates first, then the date-only note before slugged ones."""
    slugged = PurePosixPath(item.path).name != f"{item.day}.md"
    return (item.day, not item.lasting, slugged, item.path, item.start_line)


def claims_of(notes: Sequence[GroundedNote]) -> list[Claim]:
    """The notes' stageable statements grouped into claims (see the module rules)."""
    groups: dict[str, list[Evidence]] = {}
    for item in _evidence(notes):
        groups.setdefault(_identity(item.text), []).append(item)
    claims = []
    for items in groups.values():
        latest = max(e.day for e in items)
        sites = sorted(
            {(e.path, e.start_line, e.end_line): e for e in items if e.day == latest}.values(),
            key=lambda e: (e.path, e.start_line),
        )
        per_day: dict[str, Evidence] = {}
        for item in sorted(items, key=_evidence_order):
            per_day.setdefault(item.day, item)
        claims += [Claim(site, tuple(per_day.values())) for site in sites]
    return claims


def is_grounded_only(entry: RecallEntry) -> bool:
    """A row only grounded replay ever touched."""
    return entry.grounded_count > 0 and entry.recall_count == 0 and entry.daily_count == 0


def _priority(claim: Claim) -> tuple[int, int, int, str]:
    """Most note days first, then most signals, then the most recent, then by key."""
    days = [parse_day(e.day) for e in claim.evidence]
    latest = max((day.toordinal() for day in days if day is not None), default=0)
    return (-len(claim.evidence), -claim.weight, -latest, claim.key)


def _without_signals(signals: Table[PhaseSignal], keys: set[str]) -> Table[PhaseSignal]:
    if not keys & signals.rows.keys():
        return signals
    rows = {key: row for key, row in signals.rows.items() if key not in keys}
    return signals.with_rows(rows, updated_at=signals.updated_at)


def _meta(store: Table[RecallEntry], stamp: str) -> dict[str, Any]:
    earlier = store.top.get(BACKFILL_META)
    previous = earlier.get("previousUpdatedAt") if isinstance(earlier, Mapping) else None
    if not isinstance(earlier, Mapping):
        previous = store.updated_at
    return {**store.top, BACKFILL_META: {"stagedAt": stamp, "previousUpdatedAt": previous}}


def _keep_promoted(
    table: Table[RecallEntry], keys: set[str], before: Table[RecallEntry]
) -> Table[RecallEntry]:
    """Staged rows whose claim some row had promoted before stay promoted."""
    promoted = {
        _identity(row.snippet): row.promoted_at for row in before.rows.values() if row.promoted_at
    }
    rows = dict(table.rows)
    for key in keys:
        row = rows[key]
        earlier = promoted.get(_identity(row.snippet))
        if earlier and not row.promoted_at:
            rows[key] = msgspec.structs.replace(row, promoted_at=earlier)
    return table.with_rows(rows, updated_at=table.updated_at)


def stage_grounded(
    store: Table[RecallEntry],
    signals: Table[PhaseSignal],
    notes: Sequence[GroundedNote],
    *,
    now: datetime,
) -> Staging:
    """Stage the notes' durable claims as grounded rows (see the module rules)."""
    kept = {key: row for key, row in store.rows.items() if not is_grounded_only(row)}
    earlier = {key for key in store.rows if key not in kept}
    table = store.with_rows(kept, updated_at=store.updated_at)
    stageable, refused = [], 0
    for claim in claims_of(notes):
        text = claim.canonical.text
        if is_short_term_path(claim.canonical.path) and not is_contaminated(cap(text)):
            stageable.append(claim)
        else:
            refused += 1
    room = max(0, MAX_STORE_ENTRIES - len(kept))
    batches: dict[tuple[str, bool], list[Hit]] = {}
    over_budget = 0
    for claim in sorted(stageable, key=_priority):
        if claim.key not in kept:
            if room == 0:
                over_budget += 1
                continue
            room -= 1
        top = claim.canonical
        for item in claim.evidence:
            score = LASTING_SCORE if item.lasting else CANDIDATE_SCORE
            hit = Hit(top.path, top.start_line, top.end_line, top.text, score)
            batches.setdefault((item.day, item.lasting), []).append(hit)
    staged: set[str] = set()
    for (day, lasting), hits in sorted(
        batches.items(), key=lambda item: (item[0][0], not item[0][1])
    ):
        table, outcome = record_hits(
            table,
            hits,
            query=GROUNDED_QUERY_PREFIX + day,
            now=now,
            day=day,
            signal="grounded",
            origin="owner",
            session_kind="interactive",
            dedupe_per_day=True,
            grounded_signals=LASTING_SIGNALS if lasting else CANDIDATE_SIGNALS,
        )
        staged.update(outcome.recorded)
    table = _keep_promoted(table, staged, store)
    replaced = tuple(sorted(earlier - table.rows.keys()))
    keys, cleared = tuple(sorted(staged)), tuple(sorted(earlier))
    if table.rows == store.rows:
        return Staging(store, signals, keys, (), over_budget, refused, False, cleared)
    stamp = format_instant(now)
    table = dataclasses.replace(table, updated_at=stamp, top=_meta(store, stamp))
    new_signals = _without_signals(signals, set(replaced))
    return Staging(table, new_signals, keys, replaced, over_budget, refused, True, cleared)


def rollback_grounded(
    store: Table[RecallEntry], signals: Table[PhaseSignal], *, now: datetime
) -> tuple[Table[RecallEntry], Table[PhaseSignal], tuple[str, ...]]:
    """Remove grounded-only rows and their phase signals; returns the removed keys."""
    kept = {key: row for key, row in store.rows.items() if not is_grounded_only(row)}
    removed = tuple(key for key in store.rows if key not in kept)
    meta = store.top.get(BACKFILL_META)
    if not removed and meta is None:
        return store, signals, ()
    updated = store.updated_at
    if isinstance(meta, Mapping) and meta.get("stagedAt") == store.updated_at:
        previous = meta.get("previousUpdatedAt")
        updated = previous if isinstance(previous, str) else None
    elif removed:
        updated = format_instant(now)
    top = {key: value for key, value in store.top.items() if key != BACKFILL_META}
    table = dataclasses.replace(store.with_rows(kept, updated_at=updated), top=top)
    return table, _without_signals(signals, set(removed)), removed
