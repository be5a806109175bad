"""Light phase: ingest recent daily notes, select live recall entries, dedupe, stage.

Steps (SPEC §4): daily notes inside the lookback are chunked (every line that holds a secret or
personal data blanked first, on the whole note: :func:`dreamd.redaction.blank_secret_lines`) and
recorded as ``daily`` signals
(score 0.62, query ``__dreaming_daily__:<day>``, once per query per day); a note whose
checkpoint (mtime, size) is unchanged and that was already ingested on this dreaming day is
skipped, so an unchanged note is re-ingested once per dreaming day; the checkpoint of a note
no longer on disk is dropped. Then live entries recalled
inside the lookback are sorted (high salience first, then last recall, then recall count),
near-duplicates in the same file
merged (token Jaccard >= ``dedupe_similarity``), entries already told in the last 4 diary entries
moved to the back, and the first ``limit`` staged. Each staged key gets one light hit per
dreaming day. Light never writes MEMORY.md. Pure: snapshot in, result out.

Greetings and acknowledgements are staged nowhere (:func:`is_pleasantry`: "ok", "Thanks so
much, have a nice weekend!"): such a chunk is not recorded in the recall store, nor is one
carrying a hidden HTML comment (what nobody sees in the note is not memory), and a row an older
store holds is never staged, nor one shaped as an order to the agent
(:mod:`dreamd.engine.text.instructions`; :func:`is_unfit`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from msgspec.structs import replace

from dreamd.clock import day_of, format_instant, parse_day, parse_instant
from dreamd.engine.hits import Hit
from dreamd.engine.phases.chunks import chunk_daily_note
from dreamd.engine.snapshot import NoteStat, Snapshot
from dreamd.engine.state import DailyCheckpoint, PhaseSignal, RecallEntry, Table
from dreamd.engine.text.instructions import instruction_reason
from dreamd.engine.text.salience import is_noise, weight
from dreamd.engine.text.tokens import similarity
from dreamd.engine.traces import DAILY_QUERY_PREFIX, record_hits
from dreamd.layout import is_short_term_path, note_sort_key
from dreamd.redaction import blank_secret_lines

__all__ = [
    "DAILY_SCORE",
    "LightResult",
    "Staged",
    "in_lookback",
    "is_pleasantry",
    "is_unfit",
    "live_entries",
    "plan_light",
    "record_phase_hits",
]

DAILY_SCORE = 0.62
MAX_PHASE_HITS = 9999
DIARY_COVERAGE_SIMILARITY = 0.35


# Words of thanks, greeting and assent: a line made of these and stop words says nothing.
_PLEASANTRY = frozenset(
    """
    ok okay okey kk yes yeah yep yup no nope sure thanks thank thx ty cheers cool nice great good
    perfect awesome hi hello hey heya yo morning afternoon evening night bye goodbye cya lol haha
    hmm mhm right got it alright fine sounds gracias hola vale claro buenas adios merci salut
    bonjour oui non danke hallo tschüss ja nein gut super genau much so very you hope well have
    day weekend see later talk soon welcome appreciate appreciated lovely wonderful that this
    looks works for the a all noted understood will do happy help glad again there dear lot
    everyone folks guys team back too also just really i me we us our is was be been am are
    """.split()
)
_PLEASANT_WORD = re.compile(r"[^\W\d_]+")
_HIDDEN = re.compile(r"<!--(?!\s*(?:dreamd|openclaw)[:-])")


def is_pleasantry(text: str) -> bool:
    """A greeting or acknowledgement and nothing else (a heading prefix read apart)."""
    for part in {text, text.split(": ", 1)[-1]}:
        words = [w.lower() for w in _PLEASANT_WORD.findall(part)]
        if is_noise(part) or (len(part) <= 120 and words and all(w in _PLEASANTRY for w in words)):
            return True
    return False


def _unrecorded(snippet: str) -> bool:
    """Never recorded: a pleasantry, or a line carrying a hidden HTML comment (what nobody
    sees in the note is not memory; the chunker already skips a line that is only one)."""
    return is_pleasantry(snippet) or _HIDDEN.search(snippet) is not None


def is_unfit(snippet: str) -> bool:
    """Never staged: a pleasantry, an order to the agent, or a hidden HTML comment."""
    return (
        is_pleasantry(snippet)
        or instruction_reason(snippet) is not None
        or _HIDDEN.search(snippet) is not None
    )


@dataclass(frozen=True, slots=True)
class Staged:
    """A staged entry as the report shows it (counts merged over its near-duplicates)."""

    entry: RecallEntry
    recall_count: int
    total_score: float
    signals: int

    @property
    def confidence(self) -> float:
        """Average score per signal."""
        return self.total_score / self.signals if self.signals else 0.0


@dataclass(frozen=True)
class LightResult:
    """The light phase's new state and what it staged."""

    store: Table[RecallEntry]
    daily: Table[DailyCheckpoint]
    signals: Table[PhaseSignal]
    staged: tuple[Staged, ...]
    newly_staged: tuple[str, ...]
    ingested_files: tuple[str, ...]
    ingested_chunks: int


def _day_end(day: str, zone: tzinfo) -> datetime | None:
    parsed = parse_day(day)
    if parsed is None:
        return None
    start = datetime(parsed.year, parsed.month, parsed.day, tzinfo=zone)
    return start + timedelta(days=1) - timedelta(milliseconds=1)


def in_lookback(day: str, *, now: datetime, days: float, zone: tzinfo) -> bool:
    """True when ``day`` ends no earlier than ``now - days``."""
    end = _day_end(day, zone)
    return end is not None and end >= now - timedelta(days=days)


def live_entries(
    snapshot: Snapshot, store: Table[RecallEntry], *, now: datetime, days: float, zone: tzinfo
) -> list[RecallEntry]:
    """Short-term entries whose file still exists and that were recalled inside the lookback."""
    cutoff = now - timedelta(days=days)
    live = []
    for entry in store.rows.values():
        if not is_short_term_path(entry.path) or entry.path not in snapshot.notes:
            continue
        last = parse_instant(entry.last_recalled_at) if entry.last_recalled_at else None
        recent_day = any(in_lookback(d, now=now, days=days, zone=zone) for d in entry.recall_days)
        if recent_day or (last is not None and last >= cutoff):
            live.append(entry)
    return live


def _ingest_daily(
    snapshot: Snapshot,
    store: Table[RecallEntry],
    *,
    lookback_days: float,
    limit: int,
    now: datetime,
    zone: tzinfo,
) -> tuple[Table[RecallEntry], Table[DailyCheckpoint], tuple[str, ...], int]:
    today = day_of(now, zone)
    notes = sorted(
        (
            note
            for note in snapshot.notes.values()
            if note.path.startswith("memory/")
            and not note.path.startswith("memory/.dreams/")
            and in_lookback(note.day, now=now, days=lookback_days, zone=zone)
        ),
        key=lambda note: note_sort_key(note.path),
    )
    total_cap = max(20, 4 * limit)
    per_file = max(6, math.ceil(total_cap / len(notes))) if notes else 0
    checkpoints = _present(snapshot)
    dropped = len(checkpoints) != len(snapshot.daily.rows)
    ingested: list[str] = []
    chunk_count = 0
    for note in notes:
        if _unchanged(checkpoints.get(note.path), note, today):
            continue
        loaded = snapshot.texts.get(note.path)
        if loaded is None or chunk_count >= total_cap:
            continue
        # The whole note is read for secrets first: a key block's lines are blank before any
        # chunk could hold half of one.
        note_text = blank_secret_lines(loaded.text)
        chunks = [c for c in chunk_daily_note(note_text) if not _unrecorded(c.snippet)]
        chunks = chunks[: min(per_file, total_cap - chunk_count)]
        hits = [Hit(note.path, c.start_line, c.end_line, c.snippet, DAILY_SCORE) for c in chunks]
        store, _ = record_hits(
            store,
            hits,
            query=DAILY_QUERY_PREFIX + today,
            now=now,
            day=today,
            signal="daily",
            dedupe_per_day=True,
            claim_keys=True,
        )
        checkpoints[note.path] = DailyCheckpoint(
            mtime_ms=note.mtime_ms, size=note.size, last_dreaming_day_ingested=today
        )
        ingested.append(note.path)
        chunk_count += len(chunks)
    changed = bool(ingested) or dropped
    daily = snapshot.daily.with_rows(
        checkpoints, updated_at=format_instant(now) if changed else snapshot.daily.updated_at
    )
    return store, daily, tuple(ingested), chunk_count


def _present(snapshot: Snapshot) -> dict[str, DailyCheckpoint]:
    """The checkpoints of notes still on disk (one skipped for its size keeps its checkpoint)."""
    skipped = {reason.split(": ", 1)[0] for reason in snapshot.skipped}
    return {
        path: row
        for path, row in snapshot.daily.rows.items()
        if path in snapshot.notes or path in skipped
    }


def _unchanged(checkpoint: DailyCheckpoint | None, note: NoteStat, today: str) -> bool:
    return (
        checkpoint is not None
        and checkpoint.mtime_ms == note.mtime_ms
        and checkpoint.size == note.size
        and checkpoint.last_dreaming_day_ingested == today
    )


def _dedupe(entries: Sequence[RecallEntry], threshold: float) -> list[Staged]:
    kept: list[Staged] = []
    for entry in entries:
        for index, staged in enumerate(kept):
            same_file = staged.entry.path == entry.path
            if same_file and similarity(staged.entry.snippet, entry.snippet) >= threshold:
                kept[index] = Staged(
                    staged.entry,
                    max(staged.recall_count, entry.recall_count),
                    max(staged.total_score, entry.total_score),
                    max(staged.signals, entry.signal_count),
                )
                break
        else:
            kept.append(Staged(entry, entry.recall_count, entry.total_score, entry.signal_count))
    return kept


def _covered(staged: Staged, diary: Sequence[str]) -> bool:
    snippet = staged.entry.snippet
    return any(
        snippet in entry or similarity(snippet, entry) >= DIARY_COVERAGE_SIMILARITY
        for entry in diary
    )


def record_phase_hits(
    signals: Table[PhaseSignal],
    keys: Sequence[str],
    *,
    phase: str,
    now: datetime,
    zone: tzinfo,
) -> tuple[Table[PhaseSignal], tuple[str, ...]]:
    """One ``light``/``rem`` hit per key per dreaming day; returns the keys that got one."""
    rows = dict(signals.rows)
    stamp, today = format_instant(now), day_of(now, zone)
    fresh: list[str] = []
    for key in keys:
        row = rows.get(key) or PhaseSignal(key=key)
        last = row.last_light_at if phase == "light" else row.last_rem_at
        moment = parse_instant(last) if last else None
        if moment is not None and day_of(moment, zone) == today:
            continue
        if phase == "light":
            hits = min(MAX_PHASE_HITS, row.light_hits + 1)
            rows[key] = replace(row, light_hits=hits, last_light_at=stamp)
        else:
            hits = min(MAX_PHASE_HITS, row.rem_hits + 1)
            rows[key] = replace(row, rem_hits=hits, last_rem_at=stamp)
        fresh.append(key)
    updated = stamp if fresh else signals.updated_at
    return signals.with_rows(rows, updated_at=updated), tuple(fresh)


def _staging_key(entry: RecallEntry) -> tuple[float, float, int]:
    """High-salience entries (decisions, corrections, errors, insights) first, then the most
    recently recalled, then the most recalled."""
    moment = parse_instant(entry.last_recalled_at) if entry.last_recalled_at else None
    return (-weight(entry.snippet), -(moment.timestamp() if moment else 0.0), -entry.recall_count)


def plan_light(
    snapshot: Snapshot,
    *,
    lookback_days: float,
    limit: int,
    dedupe_similarity: float,
    diary_entries: Sequence[str],
    now: datetime,
    zone: tzinfo,
    store: Table[RecallEntry] | None = None,
) -> LightResult:
    """Run the light phase over ``snapshot`` (optionally starting from an updated ``store``)."""
    store = store if store is not None else snapshot.store
    if limit <= 0:
        return LightResult(store, snapshot.daily, snapshot.signals, (), (), (), 0)
    store, daily, ingested, chunk_count = _ingest_daily(
        snapshot, store, lookback_days=lookback_days, limit=limit, now=now, zone=zone
    )
    live = sorted(
        (
            entry
            for entry in live_entries(snapshot, store, now=now, days=lookback_days, zone=zone)
            if not is_unfit(entry.snippet)
        ),
        key=_staging_key,
    )
    staged = _dedupe(live, dedupe_similarity)
    recent_diary = list(diary_entries)[-4:]
    fresh = [item for item in staged if not _covered(item, recent_diary)]
    told = [item for item in staged if _covered(item, recent_diary)]
    chosen = (fresh + told)[:limit]
    signals, newly = record_phase_hits(
        snapshot.signals, [item.entry.key for item in chosen], phase="light", now=now, zone=zone
    )
    return LightResult(store, daily, signals, tuple(chosen), newly, ingested, chunk_count)


def prune_signals(
    signals: Table[PhaseSignal], entries: Mapping[str, RecallEntry]
) -> Table[PhaseSignal]:
    """Drop phase-signal rows whose key left the store or that hold no hits."""
    rows = {
        key: row
        for key, row in signals.rows.items()
        if key in entries and (row.light_hits or row.rem_hits)
    }
    if len(rows) == len(signals.rows):
        return signals
    return signals.with_rows(rows, updated_at=signals.updated_at)
