"""``rem-harness`` over historical notes: replay them in a clean temporary workspace.

Rules:

* The live workspace is only read (a read-only snapshot, no lock, nothing set aside): the
  harness writes nothing there, ever.
* With ``seed`` (``--path``: historical import) the replay runs, as OpenClaw's does, in a **clean**
  temporary workspace: the historical notes (a note outside the memory folder goes to
  ``memory/<its path under --path>``), ``MEMORY.md`` and ``DREAMS.md`` (what was promoted and
  told already), and empty state: no live recall rows, phase signals or checkpoints, so a live
  store that is full at 512 rows hides nothing. Without ``seed`` (``--grounded`` alone) the copy
  also holds every short-term note and the live state tables. The copy is scratch space, not a
  workspace: notes are written plainly (no fsync), state tables with the writer's encoder, and
  the folder is removed when the preview is done, also on error.
* With ``stage``, the grounded claims of the notes are staged in the copy (notes from outside the
  workspace under their name in the copy, so their claims count too), and, apart, in the live
  store exactly as ``rem-backfill --stage-short-term`` would stage them: that count (with the
  claims a full store leaves out) is the one the harness reports as staged, so it equals what
  the backfill then stages. With ``seed``, up to 6 chunks of each note, newest first, are
  recorded as daily signals of the note's own day, never evicting a row. Then light and REM run
  as a sweep would and deep ranks the result, so the preview shows the REM reflections,
  candidate truths and deep candidates that would follow. REM previews every live entry of its
  lookback, as OpenClaw's harness does, not only the keys light staged; deep ranks what the
  sweep's own REM (light-staged keys first) would leave, under the configured gates.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path

from dreamd.config import DreamingConfig
from dreamd.engine.grounded.preview import GroundedNote, plan_grounded
from dreamd.engine.grounded.staging import Staging, stage_grounded
from dreamd.engine.hits import Hit
from dreamd.engine.phases.chunks import chunk_daily_note
from dreamd.engine.phases.cycle import plan_light_rem, preview_rem, thresholds_of
from dreamd.engine.phases.deep import Ranking
from dreamd.engine.phases.light import DAILY_SCORE, LightResult
from dreamd.engine.phases.rem import RemResult
from dreamd.engine.phases.screen import rank_screened
from dreamd.engine.state import (
    DAILY_CHECKPOINTS,
    PHASE_SIGNALS,
    RECALL_STORE,
    DailyCheckpoint,
    PhaseSignal,
    RecallEntry,
    Table,
)
from dreamd.engine.traces import DAILY_QUERY_PREFIX, MAX_STORE_ENTRIES, record_hits
from dreamd.layout import MEMORY_FILE, note_sort_key
from dreamd.runs.backfill import SourceNote
from dreamd.store.writer import save_table
from dreamd.workspace.reader import read_snapshot, read_text

__all__ = ["SEED_CHUNKS_PER_NOTE", "HarnessRun", "preview_in_copy"]

SEED_CHUNKS_PER_NOTE = 6


@dataclass(frozen=True)
class HarnessRun:
    """What the phases made of the copy."""

    light: LightResult
    rem: RemResult
    ranking: Ranking
    imported_files: int
    imported_signals: int
    staging: Staging | None  # in the copy
    live_staging: Staging | None = None  # what rem-backfill --stage-short-term would stage


def _seed(
    store: Table[RecallEntry], notes: Sequence[SourceNote], now: datetime
) -> tuple[Table[RecallEntry], int, int]:
    """Historical import: daily signals per note, newest first, within the store's free rows."""
    files = signals = 0
    for note in sorted(notes, key=lambda n: note_sort_key(n.copy_path)):
        room = MAX_STORE_ENTRIES - len(store.rows)
        if room <= 0:
            break
        chunks = chunk_daily_note(note.text)[: min(SEED_CHUNKS_PER_NOTE, room)]
        hits = [
            Hit(note.copy_path, c.start_line, c.end_line, c.snippet, DAILY_SCORE) for c in chunks
        ]
        store, outcome = record_hits(
            store,
            hits,
            query=DAILY_QUERY_PREFIX + note.day,
            now=now,
            day=note.day,
            signal="daily",
            dedupe_per_day=True,
            claim_keys=True,
        )
        files += bool(outcome.recorded)
        signals += len(outcome.recorded)
    return store, files, signals


def _fill_copy(
    copy: Path,
    texts: dict[str, str],
    store: Table[RecallEntry],
    signals: Table[PhaseSignal],
    daily: Table[DailyCheckpoint],
) -> None:
    """Write the scratch copy: plain writes for files, the state tables through the writer."""
    for path, text in sorted(texts.items()):
        target = copy / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    save_table(copy, RECALL_STORE, store)
    save_table(copy, PHASE_SIGNALS, signals)
    save_table(copy, DAILY_CHECKPOINTS, daily)


def preview_in_copy(
    root: Path,
    notes: Sequence[SourceNote],
    grounded: Sequence[GroundedNote],
    *,
    dreaming: DreamingConfig,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...] = ("main",),
    stage: bool,
    seed: bool,
    include_promoted: bool = False,
) -> HarnessRun:
    """Replay ``notes`` in a temporary copy of ``root`` and preview (see the module rules)."""
    live = read_snapshot(root, dreaming=dreaming, now=now, zone=zone, agents=agents, readonly=True)
    texts: dict[str, str] = {}
    for path, loaded in ((MEMORY_FILE, live.memory), (live.dreams.path, live.dreams)):
        if loaded.exists:
            texts[path] = loaded.text
    replayed = {note.copy_path: note.text for note in notes}
    if not seed:
        for path in sorted(live.notes.keys() - replayed.keys()):
            texts[path] = read_text(root, path, strip_nul=True).text
    texts.update(replayed)
    store, signals, daily = live.store, live.signals, live.daily
    if seed:
        store, signals, daily = (
            RECALL_STORE.empty(),
            PHASE_SIGNALS.empty(),
            DAILY_CHECKPOINTS.empty(),
        )
    staging = live_staging = None
    if stage:
        live_staging = stage_grounded(live.store, live.signals, grounded, now=now)
        renamed = [
            found
            if note.copy_path == note.label
            else plan_grounded(note.copy_path, note.day, note.text)
            for note, found in zip(notes, grounded, strict=True)
        ]
        staging = stage_grounded(store, signals, renamed, now=now)
        store, signals = staging.store, staging.signals
    files = count = 0
    if seed:
        store, files, count = _seed(store, notes, now)
    with tempfile.TemporaryDirectory(prefix="dreamd-harness-") as scratch:
        copy = Path(scratch) / "workspace"
        _fill_copy(copy, texts, store, signals, daily)
        snapshot = read_snapshot(
            copy, dreaming=dreaming, now=now, zone=zone, agents=agents, readonly=True
        )
        light, rem = plan_light_rem(snapshot, dreaming, now=now, zone=zone)
        ranking = rank_screened(
            light.store,
            rem.signals.rows,
            thresholds_of(dreaming),
            memory_text=snapshot.memory.text,
            now=now,
            include_promoted=include_promoted,
        ).ranking
        shown = preview_rem(snapshot, light, dreaming, now=now, zone=zone)
    return HarnessRun(light, shown, ranking, files, count, staging, live_staging)
