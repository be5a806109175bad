"""Turn ranked candidates into a MEMORY.md change and store updates (the deep phase's apply).

For each candidate, in rank order: a key that already has a promotion marker in MEMORY.md (ours
or OpenClaw's, in any of the key forms :class:`~dreamd.engine.text.memory_entries.PromotedKeys`
knows: base key, claim-hash suffix, ``memory:claim:`` key) is *reconciled*: marked promoted, not
written again; so is one whose entry would read word for word like an entry MEMORY.md holds
under another key (a line key and a claim key of one note line). ``day_limit`` counts what the
day's sections already hold, so a second run on the same day never takes the day past the limit.
Otherwise its text is re-hydrated from the live note (``source rehydration`` when it is gone) and
written as one readable fact
(:func:`dreamd.engine.facts.render.fact_text`).

**Changes.** A candidate that replaces entries of MEMORY.md (:mod:`dreamd.engine.facts`: a
newer statement of the same slot), or tells a generated entry's every fact and more (a fuller
account: it names nothing it replaces, the fact is the same), retires the generated ones:
they leave for the archive with "replaced by", the new entry carries their lineage marker and
says what it replaces, and the row's provenance names the first as ``supersedesKey``. A
generated entry of several clauses whose replacement changes only some ("captain Iker Sanz;
subs 30 EUR" beside the futsal night that moved) stays under its marker saying the others, and
its whole old line goes to the archive. A person's line is never moved: the new entry says it
updates it. A generated entry a later note denies or cancels ("no longer", an
opinion with ``c < 0.5``, "the trip is off") leaves the same way, with no entry in its place,
and so does one a newer current entry replaces (written on another night, or before the rule
relating the two was known), or one ended by a line that a newer current entry (or tonight's
candidate) replaced in turn: "40.5 cm body" ended by "changed to 41 cm", which "deposit paid;
41 cm viola" replaced before it was ever written. A generated entry whose one-off event is
over (every clause names a day before tonight's, :mod:`dreamd.engine.facts.events`: "Rental
check day on Fri 14 Nov") leaves as ``past``. One line ends at most :data:`MAX_REPLACED`
entries a night: one that would end more has misread what it changes, and ends none.

**Budget.** :func:`~dreamd.engine.phases.promotion.compose_memory` keeps the file within budget
by value: entries that state no lasting fact leave first, then the least used since their
promotion (recall days after it, its own row's and those of the rows backing it, plus what its
kind is worth: :data:`KIND_WORTH`, so a rule nobody searched for yet outlasts a detail recalled
once), older first among equals. Rows whose entry left for the budget lose ``promotedAt`` and
get ``archivedAt``, so they may earn their place again; rows of replaced entries stay promoted.

Rows that were written or reconciled get ``promotedAt``; written rows also take the live range
and text. Every note a promotion was re-hydrated from is listed with its digest so the writer
can refuse a stale plan. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from pathlib import PurePosixPath

from msgspec.structs import replace

from dreamd.clock import format_instant
from dreamd.engine.facts.events import expired, said_on
from dreamd.engine.facts.lasting import lasting
from dreamd.engine.facts.parts import ends_only, lasting_text, remaining_text, statements_of
from dreamd.engine.facts.relations import respelt, untouched
from dreamd.engine.facts.render import fact_text
from dreamd.engine.facts.statement import Statement
from dreamd.engine.phases.promotion import (
    PAST,
    GeneratedEntry,
    Leaving,
    PromotionEntry,
    compose_memory,
    generated_entries,
    promoted_keys,
    promoted_on,
)
from dreamd.engine.phases.rehydrate import rehydrate
from dreamd.engine.phases.scoring import Scored
from dreamd.engine.phases.supersession import (
    Currency,
    covers,
    entry_ref,
    plan_currency,
    replaces_any,
    row_day,
)
from dreamd.engine.snapshot import TextFile
from dreamd.engine.state import Provenance, RecallEntry
from dreamd.engine.text.memory_entries import claim_of, promoted_identities
from dreamd.engine.text.snippets import openclaw_claim_hash, promotion_text

__all__ = ["PromotionPlan", "plan_promotions", "recalled_since"]


@dataclass(frozen=True)
class PromotionPlan:
    """What applying the candidates would do."""

    memory_text: str | None  # None: MEMORY.md stays as it is
    applied: tuple[Scored, ...]
    reconciled: tuple[str, ...]
    rows: Mapping[str, RecallEntry]  # updated store rows by key
    rejected: Mapping[str, int]
    sources: Mapping[str, str]  # note path -> digest it was re-hydrated from
    compacted_days: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    entries: tuple[PromotionEntry, ...] = ()  # what was appended, as written
    leaving: tuple[Leaving, ...] = ()  # entries that leave MEMORY.md for the archive


def _source_file(entry: RecallEntry, texts: Mapping[str, TextFile]) -> TextFile | None:
    found = texts.get(entry.path)
    if found is None and "/" not in entry.path:
        found = texts.get(f"memory/{PurePosixPath(entry.path).name}")
    return found if found is not None and found.exists else None


def _recall_days(key: str, rows: Mapping[str, RecallEntry], after: str = "") -> int:
    """Days after ``after`` that ``key`` was recalled on, its own row's and its backers' (a
    duplicate backs the entry it repeats)."""
    days: set[str] = set()
    for other in rows.values():
        if other.key == key or other.duplicate_of == key:
            days.update(day for day in other.recall_days if day > after)
    return len(days)


def recalled_since(key: str, rows: Mapping[str, RecallEntry]) -> int:
    """Recall days after the promotion of ``key``: its own row's and its backers'."""
    row = rows.get(key)
    return _recall_days(key, rows, (row.promoted_at or "")[:10] if row is not None else "")


KIND_WORTH = {
    "identity": 3.0,
    "rule": 3.0,
    "preference": 2.0,
    "schedule": 2.0,
    "decision": 2.0,
    "procedure": 2.0,
    "fact": 1.5,
}
"""What a lasting fact of each kind is worth to keep (who someone is and the rules to follow
first); each day it was recalled on adds 1, a situational line is worth its recalls alone."""
LASTING_WORTH = 100.0
"""What stating a lasting fact adds first: however often a situational line was recalled, a
lasting fact is worth more (the budget lets the situational go first)."""


def worth(text: str, key: str, rows: Mapping[str, RecallEntry]) -> float:
    """What keeping the fact ``text`` (promoted or to be, under ``key``) is worth, for the
    budget: :data:`LASTING_WORTH` and its kind's :data:`KIND_WORTH` when it lasts, and the
    days it was recalled on."""
    verdict = lasting(fact_text(text))
    base = LASTING_WORTH + KIND_WORTH.get(verdict.kind, 0.0) if verdict.durable else 0.0
    return base + _recall_days(key, rows)


def _keep_order(
    generated: Sequence[GeneratedEntry],
    rows: Mapping[str, RecallEntry],
    worths: Mapping[str, float],
) -> list[str]:
    """MEMORY.md's ``generated`` entries from the first to leave for the budget to the last
    (see the rules), by their ``worths`` (:func:`_worths`)."""

    def value(index: int) -> tuple[bool, float, float, str, int]:
        entry = generated[index]
        verdict = lasting(fact_text(entry.text))
        # who someone is and a rule to follow count as three recalls since the promotion: an
        # entry promoted yesterday has had no time to be recalled, and is not worth less for it
        use = recalled_since(entry.key, rows) + KIND_WORTH.get(verdict.kind, 0.0)
        return (
            verdict.durable,  # what states no lasting fact goes first
            use if verdict.durable else 0.0,
            worths[entry.key],
            entry.day or "",
            index,
        )

    return [generated[i].key for i in sorted(range(len(generated)), key=value)]


def _worths(
    generated: Sequence[GeneratedEntry],
    entries: Sequence[PromotionEntry],
    rows: Mapping[str, RecallEntry],
) -> dict[str, float]:
    """:func:`worth` of MEMORY.md's ``generated`` entries and of tonight's candidates."""
    found = {g.key: worth(g.text, g.key, rows) for g in generated}
    found.update({e.key: worth(e.text, e.key, rows) for e in entries})
    return found


def _replaced(
    text: str, day: str, currency: Currency, retired: Mapping[str, str], key: str | None = None
) -> tuple[tuple[str, ...], str | None]:
    """(generated keys the fact replaces, what it replaces in words) among current entries:
    those it replaces itself, those it tells in full and more (no words: nothing changed), and
    (for the row ``key``) those a line it replaced had ended."""
    mine = tuple(statements_of(text))
    keys: list[str] = []
    said: str | None = None
    for entry in currency.entries:
        ref = entry_ref(entry)
        if ref in retired or currency.days.get(ref, "") > day:
            continue
        parts = currency.parts[ref]
        # a fuller account of a generated entry: every fact it states, and more ("days off
        # are Wednesday and Thursday; the other five she's on the hill" after "new roster,
        # off Wednesday and Thursday")
        changed = replaces_any(mine, parts) or (
            key is not None and entry.key is not None and _chain_end(currency, ref) == key
        )
        fuller = entry.key is not None and len(mine) > len(parts) and covers(mine, parts)
        if not (changed or fuller):
            continue
        if changed:  # a fuller account says the same: it names no change it makes
            said = said or fact_text(entry.text)
        if entry.key is not None:
            keys.append(entry.key)
    return tuple(keys), said


def _said(text: str) -> str:
    """An entry's words as a comparison sees them: no source, case or spacing."""
    return " ".join(claim_of(fact_text(text)).casefold().split())


def _held(currency: Currency, statement: Statement) -> bool:
    """Whether a current entry of MEMORY.md already states ``statement``."""
    return any(
        covers(currency.parts[entry_ref(e)], (statement,))
        for e in currency.entries
        if currency.ended(entry_ref(e)) is None
    )


def _denied(
    currency: Currency, rows: Mapping[str, RecallEntry]
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Generated entries a later note denies or cancels (no new value to write in their
    place), or whose name it spells right: key -> the row that ends them, what each such row
    says, and (for a name spelled right) the entry's words with the right spelling."""
    retired: dict[str, str] = {}
    said: dict[str, str] = {}
    respelled: dict[str, str] = {}
    for entry in currency.entries:
        ending = currency.ended(entry_ref(entry))
        if entry.key is None or ending is None or ending.by not in rows:
            continue
        ends = currency.parts.get(ending.by, ())
        spelling = {
            old: new
            for s in ends
            for part in currency.parts.get(entry.key, ())
            for old, new in respelt(s, part).items()
        }
        if spelling or any(ends_only(s) for s in ends):
            retired[entry.key] = ending.by
            said[ending.by] = fact_text(rows[ending.by].snippet)
        if spelling:
            respelled[entry.key] = _spelled(entry.text, spelling)
    _replaced_in_memory(currency, retired, said)
    believable = _believable(retired)
    return believable, said, {k: v for k, v in respelled.items() if k in believable}


def _apart(
    respelled: Mapping[str, str],
    standing: Set[str],
    ready: Sequence[tuple[Scored, PromotionEntry, RecallEntry]],
) -> dict[str, str]:
    """``respelled`` without the entries that, spelled right, would read word for word as an
    entry that stays (``standing``: their words) or one of tonight's (the line that spelled
    the name right all along, promoted the same night): those leave whole."""
    taken = set(standing) | {_said(promotion.text) for _, promotion, _ in ready}
    return {key: text for key, text in respelled.items() if _said(text) not in taken}


def _spelled(text: str, spelling: Mapping[str, str]) -> str:
    """``text`` with each misspelt name (folded) written the right way, capitalised."""
    for old, new in spelling.items():
        text = re.sub(rf"\b{re.escape(old)}\b", new[:1].upper() + new[1:], text, flags=re.I)
    return text


def _expired(currency: Currency, day: str, retired: dict[str, str], said: dict[str, str]) -> None:
    """Add to ``retired`` the generated entries whose one-off event ended before ``day``, each
    under a :data:`~dreamd.engine.phases.promotion.PAST` reference saying which day it was."""
    try:
        today = date.fromisoformat(day)
    except ValueError:
        return
    for entry in currency.entries:
        if entry.key is None or entry.key in retired:
            continue
        told = said_on(currency.days.get(entry_ref(entry), ""), today)
        gone = expired(fact_text(entry.text), told, today)
        if gone is not None:
            ref = f"{PAST}{gone.isoformat()}"
            retired[entry.key] = ref
            said[ref] = f"its day, {gone.isoformat()}, has passed"


MAX_REPLACED = 3
"""The most entries one line may replace in a night: a line that would end more (a signature
naming the business every entry names, say) has misread what it changes, so it ends none."""


def _believable(retired: Mapping[str, str]) -> dict[str, str]:
    """``retired`` without the retirements of a line that would end more than
    :data:`MAX_REPLACED` entries."""
    by = Counter(retired.values())
    return {key: ender for key, ender in retired.items() if by[ender] <= MAX_REPLACED}


def _replaced_in_memory(currency: Currency, retired: dict[str, str], said: dict[str, str]) -> None:
    """Add to ``retired`` the generated entries a newer current entry of MEMORY.md replaces:
    the new value is written already (promoted on another night, or before the rule that
    relates the two was known), so the old one leaves now."""
    current = [
        e for e in currency.entries if e.key is not None and currency.ended(entry_ref(e)) is None
    ]
    for entry in currency.entries:
        ref = entry_ref(entry)
        if entry.key is None or entry.key in retired or currency.ended(ref) is None:
            continue
        day = currency.days.get(ref, "")
        for newer in current:
            mine = entry_ref(newer)
            if newer.key is None or currency.days.get(mine, "") < day or mine == ref:
                continue
            if replaces_any(currency.parts[mine], currency.parts[ref]):
                retired[entry.key] = newer.key
                said[newer.key] = fact_text(newer.text)
                break
        else:
            last = _chain_end(currency, ref)
            newest = next((e for e in current if entry_ref(e) == last), None)
            if newest is not None and newest.key is not None:
                retired[entry.key] = newest.key  # ended by a line a current entry replaced
                said[newest.key] = fact_text(newest.text)


def _trims(
    currency: Currency, retired: Mapping[str, str], enders: Mapping[str, tuple[Statement, ...]]
) -> dict[str, str]:
    """For retired entries of several statements that their replacement changed only in part
    ("conductor Lars Mjelde; fee 1,900 kr" beside the rehearsal day a newer line moved): key ->
    what still holds of them. Nothing of what the timeline or the replacing line ends, or the
    replacing line says again, stays."""
    found: dict[str, str] = {}
    for entry in currency.entries:
        by = retired.get(entry.key or "")
        if entry.key is None or by is None or by.startswith(PAST):
            continue
        parts = currency.parts.get(entry.key, ())
        newer = enders.get(by) or currency.parts.get(by, ())
        standing = [
            holds and free
            for holds, free in zip(
                currency.standing(entry.key), untouched(newer, parts), strict=True
            )
        ]
        text = remaining_text(entry.text, standing)
        left = [part for part, holds in zip(parts, standing, strict=True) if holds]
        if text is not None and not all(currency.told_by_person(part) for part in left):
            found[entry.key] = text  # what the person's own lines already say is not kept
    return found


MAX_CHAIN = 8  # a fact changed more often than this in one store is read no further


def _chain_end(currency: Currency, ref: str) -> str | None:
    """The newest line of the chain of changes that ended ``ref`` ("40.5 cm" ended by "changed
    to 41 cm", itself ended by "deposit paid; 41 cm viola, delivery 30 April"), or ``None``
    when nothing ended it."""
    ending = currency.ended(ref)
    last = None
    seen = {ref}
    while ending is not None and ending.by not in seen and len(seen) <= MAX_CHAIN:
        last = ending.by
        seen.add(last)
        ending = currency.ended(last)
    return last


def plan_promotions(
    candidates: Sequence[Scored],
    *,
    memory: TextFile,
    texts: Mapping[str, TextFile],
    day: str,
    now: datetime,
    max_snippet_chars: int,
    max_chars: int,
    max_loss: float,
    day_limit: int | None = None,
    brand: str = "dreamd",
    rows: Mapping[str, RecallEntry] | None = None,
) -> PromotionPlan:
    """Plan the MEMORY.md change for ``candidates`` (see the module rules)."""
    rows = rows or {}
    stamp = format_instant(now)
    existing = promoted_identities(promoted_keys(memory.text))
    room = None if day_limit is None else max(0, day_limit - promoted_on(memory.text, day))
    currency = plan_currency(memory.text, rows)
    retired, ended_by, respelled = _denied(currency, rows)
    _expired(currency, day, retired, ended_by)
    rejected: Counter[str] = Counter()
    updated: dict[str, RecallEntry] = {}
    reconciled: list[str] = []
    ready: list[tuple[Scored, PromotionEntry, RecallEntry]] = []
    sources: dict[str, str] = {}
    notes: list[str] = []
    generated = generated_entries(memory.text.splitlines(keepends=True))
    written = {_said(g.text) for g in generated}
    standing = {_said(g.text) for g in generated if g.key not in retired}
    enders: dict[str, tuple[Statement, ...]] = {}  # tonight's candidates' statements by key
    for scored in candidates:
        entry = scored.entry
        claims = tuple(c for c in (entry.claim_hash, openclaw_claim_hash(entry.snippet)) if c)
        if existing.covers(entry.key, claims):
            updated[entry.key] = replace(entry, promoted_at=stamp)
            reconciled.append(entry.key)
            continue
        if "-->" in entry.key:
            rejected["unsafe path"] += 1
            continue
        if room is not None and len(ready) >= room:
            rejected["daily limit"] += 1
            continue
        source = _source_file(entry, texts)
        found = (
            rehydrate(source.text, entry.start_line, entry.end_line, entry.snippet)
            if source is not None
            else None
        )
        if source is None or found is None or not source.digest:
            rejected["source rehydration"] += 1
            continue
        sources[source.path] = source.digest
        text = promotion_text(
            lasting_text(found.snippet, known=partial(_held, currency)), max_snippet_chars
        )
        said_as = _said(text)
        if said_as in written:  # the same words under another key (a claim key, a line key)
            updated[entry.key] = replace(entry, promoted_at=stamp)
            reconciled.append(entry.key)
            continue
        written.add(said_as)
        keys, said = _replaced(text, row_day(entry), currency, retired, entry.key)
        if len(keys) > MAX_REPLACED:
            keys, said = (), None  # it has misread what it changes: both stay
        retired.update(dict.fromkeys(keys, entry.key))
        enders[entry.key] = tuple(statements_of(text))
        provenance = entry.provenance or Provenance()
        live = replace(
            entry,
            path=source.path,
            start_line=found.start_line,
            end_line=found.end_line,
            snippet=found.snippet,
            promoted_at=stamp,
            archived_at=None,
            provenance=replace(provenance, supersedes_key=keys[0]) if keys else entry.provenance,
        )
        average = entry.total_score / scored.signals if scored.signals else 0.0
        promotion = PromotionEntry(
            key=entry.key,
            text=text,
            score=min(1.0, scored.score),
            signals=scored.signals,
            recalls=entry.recall_count,
            average=average,
            path=source.path,
            start_line=found.start_line,
            end_line=found.end_line,
            tags=entry.concept_tags,
            replaces=keys,
            replaced_text=said,
        )
        ready.append((scored, promotion, live))
    if ready and not memory.valid_utf8:
        rejected["memory unreadable"] += len(ready)
        notes.append("MEMORY.md is not valid UTF-8; promotions were not written")
        ready, retired = [], {}
    worths = _worths(generated, [promotion for _, promotion, _ in ready], rows)
    result = compose_memory(
        memory.text,
        [promotion for _, promotion, _ in ready],
        day=day,
        max_chars=max_chars,
        max_loss=max_loss,
        retire=retired,
        keep_order=_keep_order(generated, rows, worths),
        brand=brand,
        said=ended_by,
        worth=worths,
        trim={**_trims(currency, retired, enders), **_apart(respelled, standing, ready)},
    )
    appended = set(result.appended)
    applied = []
    entries = []
    for scored, promotion, live in ready:
        if promotion.key in appended:
            updated[promotion.key] = live
            applied.append(scored)
            entries.append(promotion)
        else:
            rejected["memory budget"] += 1
    for leaving in result.leaving:
        row = rows.get(leaving.key)
        if row is not None and leaving.reason in ("budget", "past"):
            updated[leaving.key] = replace(row, promoted_at=None, archived_at=stamp)
    changed = bool(applied) or bool(result.leaving)
    return PromotionPlan(
        memory_text=result.text if changed else None,
        applied=tuple(applied),
        reconciled=tuple(reconciled),
        rows=updated,
        rejected=dict(rejected),
        sources=sources if applied else {},
        compacted_days=result.compacted_days,
        notes=tuple(notes),
        entries=tuple(entries),
        leaving=result.leaving,
    )
