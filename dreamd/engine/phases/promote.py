"""Turn ranked candidates into a MEMORY.md change and store updates (the deep phase's apply).

For each candidate, in rank order: a key that already has a promotion marker in MEMORY.md (ours
or OpenClaw's, in any of the key forms :class:`~dreamd.engine.text.memory_entries.PromotedKeys`
knows: base key, claim-hash suffix, ``memory:claim:`` key) is *reconciled*: marked promoted, not
written again. ``day_limit`` counts what the day's sections already hold, so a second run on
the same day never takes the day past the limit. Otherwise its text is
re-hydrated from the live note (``source rehydration`` when it is gone) and appended within the
budget (``memory budget`` when it does not fit). Rows that were written or reconciled get
``promotedAt``; written rows also take the live range and text. Every note a promotion was
re-hydrated from is listed with its digest so the writer can refuse a stale plan. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath

from msgspec.structs import replace

from dreamd.clock import format_instant
from dreamd.engine.phases.promotion import (
    PromotionEntry,
    append_promotions,
    promoted_keys,
    promoted_on,
)
from dreamd.engine.phases.rehydrate import rehydrate
from dreamd.engine.phases.scoring import Scored
from dreamd.engine.snapshot import TextFile
from dreamd.engine.state import RecallEntry
from dreamd.engine.text.memory_entries import promoted_identities
from dreamd.engine.text.snippets import openclaw_claim_hash, promotion_text

__all__ = ["PromotionPlan", "plan_promotions"]


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


def _source_file(entry: RecallEntry, texts: Mapping[str, TextFile]) -> TextFile | None:
    found = texts.get(entry.path)
    if found is None and "/" not in entry.path:
        found = texts.get(f"memory/{PurePosixPath(entry.path).name}")
    return found if found is not None and found.exists else None


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
) -> PromotionPlan:
    """Plan the MEMORY.md append for ``candidates`` (see the module rules)."""
    stamp = format_instant(now)
    existing = promoted_identities(promoted_keys(memory.text))
    room = None if day_limit is None else max(0, day_limit - promoted_on(memory.text, day))
    rejected: Counter[str] = Counter()
    rows: dict[str, RecallEntry] = {}
    reconciled: list[str] = []
    ready: list[tuple[Scored, PromotionEntry, RecallEntry]] = []
    sources: dict[str, str] = {}
    notes: list[str] = []
    for scored in candidates:
        entry = scored.entry
        claims = tuple(c for c in (entry.claim_hash, openclaw_claim_hash(entry.snippet)) if c)
        if existing.covers(entry.key, claims):
            rows[entry.key] = replace(entry, promoted_at=stamp)
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
        live = replace(
            entry,
            path=source.path,
            start_line=found.start_line,
            end_line=found.end_line,
            snippet=found.snippet,
            promoted_at=stamp,
        )
        text = promotion_text(found.snippet, max_snippet_chars)
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
        )
        ready.append((scored, promotion, live))
    if ready and not memory.valid_utf8:
        rejected["memory unreadable"] += len(ready)
        notes.append("MEMORY.md is not valid UTF-8; promotions were not written")
        ready = []
    result = append_promotions(
        memory.text,
        [promotion for _, promotion, _ in ready],
        day=day,
        max_chars=max_chars,
        max_loss=max_loss,
        brand=brand,
    )
    appended = set(result.appended)
    applied = []
    entries = []
    for scored, promotion, live in ready:
        if promotion.key in appended:
            rows[promotion.key] = live
            applied.append(scored)
            entries.append(promotion)
        else:
            rejected["memory budget"] += 1
    return PromotionPlan(
        memory_text=result.text if applied else None,
        applied=tuple(applied),
        reconciled=tuple(reconciled),
        rows=rows,
        rejected=dict(rejected),
        sources=sources if applied else {},
        compacted_days=result.compacted_days,
        notes=tuple(notes),
        entries=tuple(entries),
    )
