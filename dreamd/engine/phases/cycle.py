"""One dreaming cycle for one workspace: light -> REM -> deep -> diary -> reflect, in memory.

``plan_sweep`` is the functional core of a sweep: it takes a :class:`Snapshot` and returns a
:class:`SweepPlan` without touching the disk or the clock. Placement of reports follows the
storage mode: ``separate`` (default) writes light/REM/deep reports under ``memory/dreaming/``;
``inline`` writes light/REM blocks into today's daily note; ``both`` does both. The deep summary
always goes into DREAMS.md's ``## Deep Sleep`` block, which names the day's *grounded-led*
promotions (rows whose grounded signals are the majority of their signals). Deep ranks, then
screens (:mod:`dreamd.engine.phases.screen`: forgotten, secret, instruction, filler, duplicate);
the summary's ``ranked`` counts only the candidates that could still be promoted (what health's
idle rule reads), ``screened`` names the keys the screen refused. A diary entry is
added only when this sweep found something new (freshly staged, freshly reflected or promoted),
so sweeping again with no new input plans no change at all. After deep, with
``[dreaming.reflect]`` on, the memory bank is reflected (:mod:`dreamd.engine.bank.reflect`):
its writes follow the others', so a workspace without facts or a bank plans what it did before.
Then, with ``[dreaming.graph]`` on, :func:`~dreamd.engine.dreamwork.plan.plan_dreamwork` plans
the graph, patterns, topic files and the dream report; with ``truth_files`` on,
:func:`~dreamd.engine.truth.plan.plan_truth` plans ``memory/user_state.md`` and
``memory/pending.md``; the diary entry is composed from the night's themes, promotions and
patterns (:func:`~dreamd.engine.phases.narrative.compose_entry`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from msgspec.structs import replace

from dreamd.clock import day_of, format_instant, long_date
from dreamd.config import DreamingConfig
from dreamd.engine.bank.reflect import BankPlan, plan_reflect
from dreamd.engine.dreamwork.plan import DreamworkPlan, Tonight, memory_changes, plan_dreamwork
from dreamd.engine.phases.archive import append_archive
from dreamd.engine.phases.deep import Ranking, Thresholds
from dreamd.engine.phases.diary import diary_entries
from dreamd.engine.phases.dreams import DreamsDraft, compose_dreams
from dreamd.engine.phases.light import LightResult, plan_light, prune_signals
from dreamd.engine.phases.modelwork import eligible, split_candidates
from dreamd.engine.phases.narrative import compose_entry
from dreamd.engine.phases.promote import PromotionPlan, plan_promotions
from dreamd.engine.phases.rem import RemResult, follow_moves, plan_rem
from dreamd.engine.phases.reports import deep_body, light_body, rem_body, report_document
from dreamd.engine.phases.screen import SCREEN_GATES, mark_duplicates, rank_screened
from dreamd.engine.phases.sessions import plan_sessions
from dreamd.engine.plan import (
    BankRequest,
    ConsolidationInput,
    DiaryInput,
    FileWrite,
    ModelRequests,
    SweepPlan,
)
from dreamd.engine.retirement import plan_retirement
from dreamd.engine.snapshot import NoteStat, Snapshot, TextFile
from dreamd.engine.state import NOTE_WARNINGS, RecallEntry, Table
from dreamd.engine.text.blocks import choose_brand, replace_block
from dreamd.engine.text.concepts import concept_tags
from dreamd.engine.text.snippets import content_hash
from dreamd.engine.traces import MAX_QUERY_HASHES, MAX_RECALL_DAYS, MAX_STORE_ENTRIES
from dreamd.engine.truth.plan import TruthPlan, plan_truth
from dreamd.layout import daily_note_day, is_short_term_path, report_path

__all__ = [
    "is_grounded_led",
    "plan_light_rem",
    "plan_promote",
    "plan_sweep",
    "repair_store",
    "thresholds_of",
]


MAX_NOTE_WARNINGS = 50


def thresholds_of(dreaming: DreamingConfig) -> Thresholds:
    """The deep gates configured in ``[dreaming.deep]``."""
    deep = dreaming.deep
    return Thresholds(
        min_score=deep.min_score,
        min_recall_count=deep.min_recall_count,
        min_unique_queries=deep.min_unique_queries,
        max_age_days=deep.max_age_days,
        limit=deep.limit,
        half_life_days=deep.recency_half_life_days,
        salience_boost=deep.salience_boost,
    )


def repair_store(store: Table[RecallEntry]) -> tuple[Table[RecallEntry], tuple[str, ...]]:
    """Fill missing concept tags and trim over-long hash/day lists; say what was repaired."""
    rows = dict(store.rows)
    tagged = trimmed = 0
    for key, entry in store.rows.items():
        fixed = entry
        if not entry.concept_tags:
            tags = concept_tags(entry.path, entry.snippet)
            if tags:
                fixed = replace(fixed, concept_tags=tags)
                tagged += 1
        if len(entry.query_hashes) > MAX_QUERY_HASHES or len(entry.recall_days) > MAX_RECALL_DAYS:
            fixed = replace(
                fixed,
                query_hashes=entry.query_hashes[-MAX_QUERY_HASHES:],
                recall_days=tuple(sorted(entry.recall_days))[-MAX_RECALL_DAYS:],
            )
            trimmed += 1
        rows[key] = fixed
    repairs = []
    if tagged:
        repairs.append(f"concept tags derived for {tagged} row(s)")
    if trimmed:
        repairs.append(f"query/day lists trimmed on {trimmed} row(s)")
    if not repairs:
        return store, ()
    return store.with_rows(rows, updated_at=store.updated_at), tuple(repairs)


@dataclass(frozen=True)
class _Context:
    snapshot: Snapshot
    dreaming: DreamingConfig
    now: datetime
    zone: tzinfo
    today: str

    def event(self, kind: str, **fields: Any) -> dict[str, Any]:
        return {"type": kind, "timestamp": format_instant(self.now), **fields}


def _phase_writes(ctx: _Context, phase: str, body: str) -> list[FileWrite]:
    mode = ctx.dreaming.storage
    writes: list[FileWrite] = []
    if mode in ("separate", "both") or phase == "deep":
        path = report_path(phase, ctx.today)
        current = ctx.snapshot.reports.get(path) or TextFile(path, "", None)
        lines = body.count("\n") + 1
        event = ctx.event(
            "memory.dream.completed",
            phase=phase,
            reportPath=path,
            lineCount=lines,
            storageMode=mode,
        )
        document = report_document(phase, body)
        writes.append(FileWrite(path, document, current.digest, "report", (event,)))
    return writes


def _inline_note(ctx: _Context, light: str, rem: str) -> list[FileWrite]:
    if ctx.dreaming.storage not in ("inline", "both"):
        return []
    path = f"memory/{ctx.today}.md"
    if path in ctx.snapshot.unreadable:
        return []  # too big or unreadable: skipped and named, never rewritten
    current = ctx.snapshot.texts.get(path) or TextFile(path, "", None)
    if ctx.dreaming.storage == "both" and not current.exists:
        return []  # the reports have it all: the agent's own note is not created for it
    if current.exists and not current.valid_utf8:
        return []  # rewriting it as UTF-8 would change every byte a person wrote in cp1252
    text = current.text if current.exists else f"# {ctx.today}\n"
    text = replace_block(text, "light", light)
    text = replace_block(text, "rem", rem)
    events = tuple(
        ctx.event("memory.dream.completed", phase=phase, inlinePath=path, storageMode="inline")
        for phase in ("light", "rem")
    )
    return [FileWrite(path, text, current.digest, "note", events)]


def _deep(
    ctx: _Context, light: LightResult, rem: RemResult
) -> tuple[Ranking, PromotionPlan, dict[str, RecallEntry]]:
    """Rank, screen, plan the MEMORY.md append; also the rows of the night's duplicates."""
    store = light.store
    screened = rank_screened(
        store,
        rem.signals.rows,
        thresholds_of(ctx.dreaming),
        memory_text=ctx.snapshot.memory.text,
        now=ctx.now,
        zone=ctx.zone,
    )
    deep = ctx.dreaming.deep
    texts = {**ctx.snapshot.texts}
    promotion = plan_promotions(
        screened.ranking.candidates,
        memory=ctx.snapshot.memory,
        texts=texts,
        day=ctx.today,
        now=ctx.now,
        max_snippet_chars=deep.max_promoted_snippet_tokens * 4,
        max_chars=deep.memory_file_max_chars,
        max_loss=deep.max_prior_entry_loss_fraction,
        day_limit=deep.limit,
        brand=brand_of(ctx.snapshot, ctx.dreaming),
        rows=store.rows,
    )
    marks = mark_duplicates(screened, store.rows, written=_written(promotion), now=ctx.now)
    return screened.ranking, promotion, marks


def brand_of(snapshot: Snapshot, dreaming: DreamingConfig) -> str:
    """Whose marker spelling this sweep writes (``dreaming.markers``; see ``choose_brand``)."""
    texts = (snapshot.memory.text, snapshot.dreams.text)
    return choose_brand(dreaming.markers, openclaw=snapshot.openclaw, texts=texts)


def _written(promotion: PromotionPlan) -> frozenset[str]:
    """Keys whose entry is in MEMORY.md once the plan is applied."""
    return frozenset(s.entry.key for s in promotion.applied) | frozenset(promotion.reconciled)


def is_grounded_led(entry: RecallEntry) -> bool:
    """True when grounded replay gave the row most of its signals."""
    return entry.grounded_count * 2 > entry.signal_count


def _grounded_led_today(ranking: Ranking, promotion: PromotionPlan) -> tuple[str, ...]:
    """Source ranges of the day's grounded-led promotions, earlier sweeps of the day included."""
    rows = [verdict.scored.entry for verdict in ranking.verdicts if verdict.promoted_today]
    rows += [promotion.rows[s.entry.key] for s in promotion.applied]
    rows += [promotion.rows[key] for key in promotion.reconciled]
    refs = {f"{r.path}:{r.start_line}-{r.end_line}" for r in rows if is_grounded_led(r)}
    return tuple(sorted(refs))


def _promotion_items(promotion: PromotionPlan) -> list[dict[str, Any]]:
    """The promotions written, as reports and events describe them."""
    items = []
    for scored in promotion.applied:
        row = promotion.rows[scored.entry.key]
        items.append(
            {
                "key": row.key,
                "path": row.path,
                "startLine": row.start_line,
                "endLine": row.end_line,
                "score": round(min(1.0, scored.score), 6),
                "snippet": row.snippet,
                "groundedLed": is_grounded_led(row),
            }
        )
    return items


def _memory_writes(
    promotion: PromotionPlan,
    snapshot: Snapshot,
    now: datetime,
    *,
    zone: tzinfo | None = None,
    budget: int = 10_000,
) -> tuple[FileWrite, ...]:
    """The MEMORY.md write of a promotion plan (none when nothing changes), after the archive
    write that takes what leaves it: a crash between the two leaves an entry in both, never in
    neither."""
    if promotion.memory_text is None:
        return ()
    writes: list[FileWrite] = []
    if promotion.leaving:
        archive = snapshot.archive
        text = append_archive(
            archive.text,
            promotion.leaving,
            day=day_of(now, UTC) if zone is None else day_of(now, zone),
            budget=budget,
        )
        archived: dict[str, Any] = {
            "type": "memory.archive.appended",
            "timestamp": format_instant(now),
            "archivePath": archive.path,
            "entries": [
                {"key": item.key, "reason": item.reason, "by": item.by}
                for item in promotion.leaving
            ],
        }
        writes.append(FileWrite(archive.path, text, archive.digest, "archive", (archived,)))
    event = {
        "type": "memory.promotion.applied",
        "timestamp": format_instant(now),
        "memoryPath": snapshot.memory.path,
        "applied": len(promotion.applied),
        "candidates": [
            {key: item[key] for key in ("key", "path", "startLine", "endLine", "score")}
            for item in _promotion_items(promotion)
        ],
    }
    writes.append(
        FileWrite(
            snapshot.memory.path, promotion.memory_text, snapshot.memory.digest, "memory", (event,)
        )
    )
    return tuple(writes)


def _night_keys(snapshot: Snapshot, promotion: PromotionPlan) -> frozenset[str]:
    """The night's promotions once this plan is applied: the events log's so far and this
    sweep's (the one count, :mod:`dreamd.engine.tally`)."""
    earlier = {item.key for item in snapshot.promoted_today}
    return frozenset(earlier | {scored.entry.key for scored in promotion.applied})


def _night_texts(snapshot: Snapshot, promotion: PromotionPlan) -> tuple[str, ...]:
    """What the night promoted, as the dream report lists it: earlier sweeps' entries (their
    store text, else their source), then this sweep's as written."""
    written = {entry.key for entry in promotion.entries}
    earlier = [
        row.snippet if (row := snapshot.store.rows.get(item.key)) is not None else item.source
        for item in snapshot.promoted_today
        if item.key not in written
    ]
    return (*earlier, *(entry.text for entry in promotion.entries))


def _summary_of(
    light: LightResult,
    rem: RemResult,
    ranking: Ranking,
    promotion: PromotionPlan,
    night: frozenset[str],
) -> dict[str, Any]:
    rejected = dict(ranking.rejected)
    for name, count in promotion.rejected.items():
        rejected[name] = rejected.get(name, 0) + count
    promotions = _promotion_items(promotion)
    grounded_led = _grounded_led_today(ranking, promotion)
    # could still be promoted: selected, and not already in MEMORY.md under its own marker
    promotable = len(ranking.candidates) - len(promotion.reconciled)
    return {
        "light": {
            "ingestedFiles": len(light.ingested_files),
            "ingestedChunks": light.ingested_chunks,
            "staged": len(light.staged),
            "newlyStaged": len(light.newly_staged),
        },
        "rem": {"considered": rem.considered, "themes": len(rem.themes), "truths": len(rem.truths)},
        "deep": {
            "ranked": promotable,
            "rankedToday": len(ranking.candidates)
            + len(night - {s.entry.key for s in ranking.candidates}),
            "promoted": len(promotion.applied),
            "promotedToday": len(night),
            "reconciled": len(promotion.reconciled),
            "rejected": dict(sorted(rejected.items())),
            "compactedSections": list(promotion.compacted_days),
            "promotions": promotions,
            "screened": {
                v.scored.entry.key: v.rejection
                for v in ranking.verdicts
                if v.rejection in SCREEN_GATES
            },
            "groundedLed": list(grounded_led),
        },
    }


def plan_light_rem(
    snapshot: Snapshot,
    dreaming: DreamingConfig,
    *,
    now: datetime,
    zone: tzinfo,
    store: Table[RecallEntry] | None = None,
    diary: Sequence[str] = (),
) -> tuple[LightResult, RemResult]:
    """The light phase, then REM over the store and signals light left."""
    light = plan_light(
        snapshot,
        store=store,
        lookback_days=dreaming.light.lookback_days,
        limit=dreaming.light.limit,
        dedupe_similarity=dreaming.light.dedupe_similarity,
        diary_entries=diary,
        now=now,
        zone=zone,
    )
    rem = plan_rem(
        snapshot,
        light.store,
        light.signals,
        lookback_days=dreaming.rem.lookback_days,
        limit=dreaming.rem.limit,
        min_pattern_strength=dreaming.rem.min_pattern_strength,
        now=now,
        zone=zone,
    )
    return light, rem


def preview_rem(
    snapshot: Snapshot, light: LightResult, dreaming: DreamingConfig, *, now: datetime, zone: tzinfo
) -> RemResult:
    """REM as ``rem-harness`` shows it: over every live entry of the lookback, not only the keys
    light staged (the sweep's own REM, with its phase hits, still feeds the deep preview)."""
    return plan_rem(
        snapshot,
        light.store,
        light.signals,
        lookback_days=dreaming.rem.lookback_days,
        limit=dreaming.rem.limit,
        min_pattern_strength=dreaming.rem.min_pattern_strength,
        now=now,
        zone=zone,
        prefer_staged=False,
    )


def plan_sweep(
    snapshot: Snapshot, dreaming: DreamingConfig, *, now: datetime, zone: tzinfo
) -> SweepPlan:
    """Plan one full sweep of ``snapshot`` (see the module rules)."""
    ctx = _Context(snapshot, dreaming, now, zone, day_of(now, zone))
    day_line = "*" + long_date(now, zone).rsplit(",", 1)[0] + ","  # "*November 29, 2026,"
    # what an earlier sweep of the same day wrote in the diary does not change this one's light
    diary = [e for e in diary_entries(snapshot.dreams.text) if not e.startswith(day_line)]
    store, repairs = repair_store(snapshot.store)
    sessions = plan_sessions(
        snapshot.transcripts,
        store=store,
        checkpoints=snapshot.session_checkpoints,
        seen=snapshot.session_seen,
        corpus=snapshot.texts,
        now=now,
        zone=zone,
        lookback_days=dreaming.light.lookback_days,
        owners=snapshot.owners,
        trusted_unmarked=snapshot.trusted_unmarked,
        gone=snapshot.transcripts_gone,
    )
    snapshot = _with_corpus(snapshot, sessions.corpus)
    ctx = _Context(snapshot, dreaming, now, zone, ctx.today)
    light, rem = plan_light_rem(
        snapshot, dreaming, store=sessions.store, diary=diary, now=now, zone=zone
    )
    ranking, promotion, duplicates = _deep(ctx, light, rem)
    summary = _summary_of(light, rem, ranking, promotion, _night_keys(snapshot, promotion))
    deep_summary = summary["deep"]
    light_text = light_body(light.staged)
    shown = follow_moves(rem, light.store.rows, {**duplicates, **promotion.rows})
    rem_text = rem_body(shown.themes, shown.truths)
    deep_text = deep_body(
        ranked=deep_summary["rankedToday"],
        promoted=deep_summary["promotedToday"],
        rejected=deep_summary["rejected"],
        compacted=promotion.compacted_days,
        repairs=repairs,
        grounded_led=deep_summary["groundedLed"],
    )
    writes = list(
        _memory_writes(
            promotion,
            snapshot,
            now,
            zone=zone,
            budget=dreaming.deep.memory_file_max_chars,
        )
    )
    writes += [
        FileWrite(path, text, _disk_digest(snapshot, path), "corpus")
        for path, text in sorted(sessions.corpus.items())
    ]
    writes += _phase_writes(ctx, "light", light_text) + _phase_writes(ctx, "rem", rem_text)
    writes += _inline_note(ctx, light_text, rem_text)
    writes += _phase_writes(ctx, "deep", deep_text)
    fresh = bool(light.newly_staged or rem.newly_reflected or promotion.applied)
    requests = _model_requests(ctx, light, rem, promotion, diary, deep_text, fresh=fresh)
    summary["repairs"] = list(repairs)
    summary["notes"] = list(promotion.notes)
    new_store = light.store.with_rows(
        {**light.store.rows, **duplicates, **promotion.rows},
        updated_at=format_instant(now) if promotion.rows or duplicates else light.store.updated_at,
    )
    new_store = _with_note_warnings(new_store, snapshot)
    evicted = [row for key, row in snapshot.store.rows.items() if key not in new_store.rows]
    kept, retired = plan_retirement(
        new_store.rows, now=now, extras=new_store.extras, evicted=evicted
    )
    if retired:
        new_store = new_store.with_rows(kept, updated_at=format_instant(now))
    summary["longTerm"] = {"retired": len(retired)}
    reflected = _reflect(ctx, writes)
    if reflected is not None:
        writes += reflected.writes
        summary["reflect"] = reflected.summary()
        requests = dataclasses.replace(requests, bank=_bank_request(ctx, reflected))
    ranked = int(summary["deep"]["rankedToday"])
    refused = {g: n for g, n in summary["deep"]["rejected"].items() if g in SCREEN_GATES}
    bank = [p.path for p in reflected.pages if p.changed] if reflected is not None else []
    changes = memory_changes(snapshot.memory.text, promotion.leaving)
    worked = _dreamwork(
        ctx,
        writes,
        promotion,
        new_store,
        len(retired),
        ranked,
        fresh=fresh,
        refused=refused,
        bank=bank,
        changes=changes,
    )
    if worked is not None:
        writes += worked.writes
        summary["graph"] = worked.summary()
        requests = dataclasses.replace(requests, dreamwork=worked.request)
    truth = _truth(ctx, writes, promotion, new_store)
    if truth is not None:
        writes += truth.writes
        summary["truth"] = truth.summary()
    entry = _diary_entry(requests, worked, changes)
    dreams = compose_dreams(requests.dreams, entry)
    writes.append(FileWrite(snapshot.dreams.path, dreams, snapshot.dreams.digest, "dreams"))
    summary["diary"] = {"written": entry is not None, "entry": "composed" if entry else None}
    return SweepPlan(
        writes=tuple(writes),
        sources=dict(promotion.sources),
        store=new_store,
        signals=prune_signals(rem.signals, new_store.rows),
        daily=light.daily,
        session_checkpoints=sessions.checkpoints,
        session_seen=sessions.seen,
        summary=summary,
        model=requests,
        retired=retired,
    )


def _dreamwork(
    ctx: _Context,
    writes: Sequence[FileWrite],
    promotion: PromotionPlan,
    store: Table[RecallEntry],
    retired: int,
    ranked: int,
    *,
    fresh: bool,
    refused: Mapping[str, int],
    bank: Sequence[str] = (),
    changes: Mapping[str, Any] | None = None,
) -> DreamworkPlan | None:
    """The graph, patterns, topic files and report (``[dreaming.graph]``); None when off.

    Notes this sweep writes (transcript lines, inline blocks) are read as they will be.
    """
    files = ctx.snapshot.dreamwork
    if files is None or not ctx.dreaming.graph.enabled:
        return None
    own = {
        w.path: TextFile(w.path, w.text, None)
        for w in writes
        if w.kind in ("note", "corpus") and is_short_term_path(w.path)
    }
    if own:
        files = dataclasses.replace(files, sources={**files.sources, **own})
    tonight = Tonight(
        day=ctx.today,
        stamp=format_instant(ctx.now),
        fresh=fresh,
        store_rows=len(store.rows),
        store_cap=MAX_STORE_ENTRIES,
        ranked=ranked,
        promoted=_night_texts(ctx.snapshot, promotion),
        retired=retired,
        refused=refused,
        bank=tuple(bank),
        **(changes or memory_changes(ctx.snapshot.memory.text, promotion.leaving)),
    )
    return plan_dreamwork(files, tonight)


def _truth(
    ctx: _Context, writes: Sequence[FileWrite], promotion: PromotionPlan, store: Table[RecallEntry]
) -> TruthPlan | None:
    """``memory/user_state.md`` and ``memory/pending.md`` (``truth_files``); None when off.

    They are planned from MEMORY.md and the notes as this sweep leaves them, and the store as
    it will be saved, so the next sweep over the same input finds nothing to change.
    """
    files = ctx.snapshot.truth
    if files is None or not ctx.dreaming.truth_files:
        return None
    notes = {path: loaded.text for path, loaded in ctx.snapshot.texts.items()}
    notes.update({w.path: w.text for w in writes if w.kind in ("note", "corpus")})
    memory = promotion.memory_text
    return plan_truth(
        files,
        memory_text=ctx.snapshot.memory.text if memory is None else memory,
        rows=store.rows,
        notes=notes,
        present=frozenset(ctx.snapshot.notes) | ctx.snapshot.unreadable,
    )


def _diary_entry(
    requests: ModelRequests, worked: DreamworkPlan | None, changes: Mapping[str, Any]
) -> str | None:
    """The night's diary entry without a model (None when the sweep found nothing new, or
    nothing worth telling)."""
    diary = requests.diary
    if diary is None:
        return None
    moving = [p for p in worked.patterns if p.change not in _STILL] if worked else []
    return compose_entry(
        promotions=diary.promotions,
        replaced=changes["replaced"],
        archived=changes["archived"],
        patterns=[(p.name, p.occurrences, p.fix) for p in moving],
        recent=diary.recent,
    )


_STILL = ("unchanged", "kept: edited by hand")


def _reflect(ctx: _Context, writes: Sequence[FileWrite]) -> BankPlan | None:
    """The memory bank after deep (``[dreaming.reflect]``); None when it is off or unread.

    A note this sweep writes too (inline blocks) is read as it will be, so the next sweep does
    not take dreamd's own block for a person's edit.
    """
    bank = ctx.snapshot.bank
    if bank is None or not ctx.dreaming.reflect.enabled:
        return None
    notes = dict(ctx.snapshot.notes)
    own = {}
    for write in writes:
        if write.kind == "note":
            data = write.text.encode("utf-8")
            own[write.path] = TextFile(write.path, write.text, content_hash(data))
            day = daily_note_day(write.path) or ""
            notes.setdefault(write.path, NoteStat(write.path, day, 0.0, len(data)))
    if own:
        bank = dataclasses.replace(bank, notes={**bank.notes, **own})
    return plan_reflect(bank, notes)


def _bank_request(ctx: _Context, reflected: BankPlan) -> BankRequest | None:
    """The notes a model could read facts from (those the claim rule just read)."""
    bank = ctx.snapshot.bank
    if bank is None or not reflected.claims:
        return None
    return BankRequest(bank, ctx.snapshot.notes, dict(reflected.claims))


def _model_requests(
    ctx: _Context,
    light: LightResult,
    rem: RemResult,
    promotion: PromotionPlan,
    diary: Sequence[str],
    deep_text: str,
    *,
    fresh: bool,
) -> ModelRequests:
    """What a model could do for this sweep (see :mod:`dreamd.engine.phases.modelwork`)."""
    snapshot, deep = ctx.snapshot, ctx.dreaming.deep
    draft = DreamsDraft(
        path=snapshot.dreams.path,
        base=snapshot.dreams.text,
        digest=snapshot.dreams.digest,
        deep_text=deep_text,
        date_line=long_date(ctx.now, ctx.zone),
        stamp=format_instant(ctx.now),
        brand=brand_of(snapshot, ctx.dreaming),
    )
    diary_input = None
    if fresh:
        rows = [*(i.entry for i in light.staged), *(t.entry for t in rem.truths)]
        diary_input = DiaryInput(
            fragments=tuple(r.snippet for r in rows if eligible(r))[:12],
            themes=tuple(f"{t.tag} (across {t.count} memories)" for t in rem.themes),
            promotions=tuple(e.text for e in promotion.entries),
            recent=tuple(diary[-3:]),
        )
    work = None
    if promotion.entries:
        supersedes = {
            key: row.provenance.supersedes_key
            for key, row in promotion.rows.items()
            if row.provenance is not None and row.provenance.supersedes_key
        }
        allowed, kept = split_candidates(promotion.entries, promotion.rows, supersedes)
        work = ConsolidationInput(
            memory=snapshot.memory.text,
            candidates=allowed,
            append_only=kept,
            day=ctx.today,
            max_chars=deep.memory_file_max_chars,
            max_loss=deep.max_prior_entry_loss_fraction,
        )
    return ModelRequests(draft, diary_input, work)


def _with_note_warnings(store: Table[RecallEntry], snapshot: Snapshot) -> Table[RecallEntry]:
    """The store carrying the notes this sweep skipped or read with a fallback (for status)."""
    warnings = list(snapshot.note_warnings[:MAX_NOTE_WARNINGS])
    if store.top.get(NOTE_WARNINGS) == (warnings or None):
        return store
    top = {key: value for key, value in store.top.items() if key != NOTE_WARNINGS}
    if warnings:
        top[NOTE_WARNINGS] = warnings
    return dataclasses.replace(store, top=top)


def _disk_digest(snapshot: Snapshot, path: str) -> str | None:
    """The digest of ``path`` as it is on disk (the plan's own corpus appends aside)."""
    loaded = snapshot.texts.get(path)
    return loaded.digest if loaded is not None else None


def _with_corpus(snapshot: Snapshot, corpus: Mapping[str, str]) -> Snapshot:
    """``snapshot`` as the light phase must see it once this sweep's corpus lines are added.

    The texts keep the digest of what is on disk, which the writer checks before appending.
    """
    if not corpus:
        return snapshot
    notes = dict(snapshot.notes)
    texts = dict(snapshot.texts)
    for path, text in corpus.items():
        day = daily_note_day(path) or ""
        old = texts.get(path)
        texts[path] = TextFile(path, text, old.digest if old is not None else None)
        notes.setdefault(path, NoteStat(path, day, 0.0, len(text.encode("utf-8"))))
    return dataclasses.replace(snapshot, notes=notes, texts=texts)


def plan_promote(
    snapshot: Snapshot,
    dreaming: DreamingConfig,
    thresholds: Thresholds,
    *,
    now: datetime,
    zone: tzinfo,
    include_promoted: bool = False,
) -> tuple[Ranking, PromotionPlan, SweepPlan]:
    """Deep only (``memory promote``): rank with ``thresholds`` and plan the MEMORY.md append."""
    screened = rank_screened(
        snapshot.store,
        snapshot.signals.rows,
        thresholds,
        memory_text=snapshot.memory.text,
        now=now,
        include_promoted=include_promoted,
    )
    ranking = screened.ranking
    deep = dreaming.deep
    promotion = plan_promotions(
        ranking.candidates,
        memory=snapshot.memory,
        texts=snapshot.texts,
        day=day_of(now, zone),
        now=now,
        max_snippet_chars=deep.max_promoted_snippet_tokens * 4,
        max_chars=deep.memory_file_max_chars,
        max_loss=deep.max_prior_entry_loss_fraction,
        day_limit=thresholds.limit,
        brand=brand_of(snapshot, dreaming),
        rows=snapshot.store.rows,
    )
    writes = _memory_writes(promotion, snapshot, now, zone=zone, budget=deep.memory_file_max_chars)
    marks = mark_duplicates(screened, snapshot.store.rows, written=_written(promotion), now=now)
    store = snapshot.store
    if promotion.rows or marks:
        rows = {**store.rows, **marks, **promotion.rows}
        store = store.with_rows(rows, updated_at=format_instant(now))
    plan = SweepPlan(writes=writes, sources=dict(promotion.sources), store=store)
    return ranking, promotion, plan
