"""REM phase: themes and possible lasting truths over recent entries. Deterministic; no model.

Input (SPEC §5): live entries recalled inside the REM lookback, preferring keys the light phase
staged and REM has not yet considered (staged today counts as not yet considered, so a repeated
sweep sees the same input); otherwise all live entries. ``rem-harness`` previews REM over all
live entries, as OpenClaw's harness does: a fresher daily chunk that light staged in place of a
recalled entry of the same text must not hide that entry's stronger evidence from the preview.

* Theme: a concept tag (not assistant/user/system/subagent/the) carried by many entries that
  names a thing (:func:`~dreamd.engine.text.themes.is_theme`: no stop word of any language,
  everyday word, common verb, word for the notes' own machinery, agent or session id or hash);
  stored tags are re-normalised first (:func:`~dreamd.engine.text.themes.theme_tag`), so a
  migrated store's ``Note`` and ``note`` are one tag and neither is a theme;
  ``strength = min(1, 2 * count / entries)``, kept when ``>= min_pattern_strength``, best
  ``limit`` by strength, count, tag.
* Possible lasting truth: an entry not promoted before today, deduped (Jaccard >= 0.88, same
  file), ``confidence = 0.45 avg + 0.25 min(1, ln(1+recalls)/ln 7) + 0.20 min(1, days/3)
  + 0.10 min(1, tags/6)``, kept when ``>= 0.45``; at most 3.

Never reflected on: a greeting or acknowledgement, an order addressed to the agent (the
instruction gate deep's screen applies, :mod:`dreamd.engine.text.instructions`) or a line that
carries a hidden HTML comment (:func:`~dreamd.engine.phases.light.is_unfit`): an injected
order is never a possible lasting truth, nor the evidence of a theme.

Only truths get a REM hit (once per dreaming day); considered keys get ``lastRemConsideredAt``.
REM never writes MEMORY.md.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from msgspec.structs import replace

from dreamd.clock import day_of, format_instant, parse_instant
from dreamd.engine.phases.light import is_unfit, live_entries, record_phase_hits
from dreamd.engine.snapshot import Snapshot
from dreamd.engine.state import PhaseSignal, RecallEntry, Table
from dreamd.engine.text.themes import is_theme, theme_tag
from dreamd.engine.text.tokens import similarity

__all__ = ["RemResult", "Theme", "Truth", "follow_moves", "plan_rem", "truth_confidence"]

IGNORED_THEME_TAGS = frozenset({"assistant", "user", "system", "subagent", "the"})
TRUTH_DEDUPE_SIMILARITY = 0.88
MIN_TRUTH_CONFIDENCE = 0.45
MAX_TRUTHS = 3


@dataclass(frozen=True, slots=True)
class Theme:
    """A concept tag that kept surfacing."""

    tag: str
    count: int
    strength: float
    evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Truth:
    """An entry that may deserve to last."""

    entry: RecallEntry
    confidence: float


@dataclass(frozen=True)
class RemResult:
    """The REM phase's output and new phase signals."""

    signals: Table[PhaseSignal]
    considered: int
    themes: tuple[Theme, ...]
    truths: tuple[Truth, ...]
    newly_reflected: tuple[str, ...]


def _ref(entry: RecallEntry) -> str:
    return f"{entry.path}:{entry.start_line}-{entry.end_line}"


def follow_moves(
    rem: RemResult, before: Mapping[str, RecallEntry], moved: Mapping[str, RecallEntry]
) -> RemResult:
    """``rem`` with every entry the deep phase found at new lines (re-hydration) shown there.

    REM runs before deep; without this, the night's REM report would name a row's old lines
    and the next sweep, reading the corrected row, would rewrite the report with no new input.
    """
    refs = {
        _ref(before[key]): _ref(row)
        for key, row in moved.items()
        if key in before and _ref(before[key]) != _ref(row)
    }
    if not refs:
        return rem
    truths = tuple(
        dataclasses.replace(truth, entry=moved[truth.entry.key])
        if truth.entry.key in moved and _ref(truth.entry) in refs
        else truth
        for truth in rem.truths
    )
    themes = tuple(
        dataclasses.replace(theme, evidence=tuple(refs.get(ref, ref) for ref in theme.evidence))
        for theme in rem.themes
    )
    return dataclasses.replace(rem, themes=themes, truths=truths)


def _moment(stamp: str | None) -> float:
    parsed = parse_instant(stamp) if stamp else None
    return parsed.timestamp() if parsed else -math.inf


def _preferred(
    entries: Sequence[RecallEntry], signals: Table[PhaseSignal], now: datetime, zone: tzinfo
) -> list[RecallEntry]:
    today = day_of(now, zone)
    chosen = []
    for entry in entries:
        row = signals.rows.get(entry.key)
        if row is None or row.light_hits <= 0 or not row.last_light_at:
            continue
        light = _moment(row.last_light_at)
        rem = max(_moment(row.last_rem_at), _moment(row.last_rem_considered_at))
        staged_today = day_of(parse_instant(row.last_light_at) or now, zone) == today
        if light > rem or staged_today:
            chosen.append(entry)
    return chosen


def themes_of(
    entries: Sequence[RecallEntry],
    *,
    min_strength: float,
    limit: int,
    ids: Iterable[str] = (),
) -> list[Theme]:
    """Concept tags shared by enough of ``entries`` that name a thing (``ids``: agent ids)."""
    known = tuple(ids)
    counts: dict[str, list[str]] = {}
    for entry in entries:
        tags = (theme_tag(raw) for raw in entry.concept_tags)  # stored tags, re-normalised
        for tag in dict.fromkeys(tag for tag in tags if tag):
            if tag not in IGNORED_THEME_TAGS and is_theme(tag, ids=known):
                counts.setdefault(tag, []).append(_ref(entry))
    themes = [
        Theme(tag, len(refs), min(1.0, 2 * len(refs) / len(entries)), tuple(refs[:3]))
        for tag, refs in counts.items()
    ]
    kept = [theme for theme in themes if theme.strength >= min_strength]
    kept.sort(key=lambda theme: (-theme.strength, -theme.count, theme.tag))
    return kept[: max(0, limit)]


def truth_confidence(entry: RecallEntry) -> float:
    """The REM confidence of one entry (SPEC §5)."""
    signals = entry.signal_count
    average = entry.total_score / signals if signals else 0.0
    return (
        0.45 * average
        + 0.25 * min(1.0, math.log1p(entry.recall_count) / math.log(7))
        + 0.20 * min(1.0, len(entry.recall_days) / 3)
        + 0.10 * min(1.0, len(entry.concept_tags) / 6)
    )


def _promoted_before(entry: RecallEntry, today: str, zone: tzinfo) -> bool:
    moment = parse_instant(entry.promoted_at) if entry.promoted_at else None
    return moment is not None and day_of(moment, zone) < today


def truths_of(
    entries: Sequence[RecallEntry], *, today: str, zone: tzinfo, limit: int
) -> list[Truth]:
    """The strongest few unpromoted entries, near-duplicates merged."""
    scored = sorted(
        (Truth(entry, truth_confidence(entry)) for entry in entries),
        key=lambda truth: (-truth.confidence, truth.entry.snippet, truth.entry.key),
    )
    kept: list[Truth] = []
    for truth in scored:
        if _promoted_before(truth.entry, today, zone) or truth.confidence < MIN_TRUTH_CONFIDENCE:
            continue
        if any(
            other.entry.path == truth.entry.path
            and similarity(other.entry.snippet, truth.entry.snippet) >= TRUTH_DEDUPE_SIMILARITY
            for other in kept
        ):
            continue
        kept.append(truth)
    return kept[: max(1, min(MAX_TRUTHS, limit))]


def _mark_considered(
    signals: Table[PhaseSignal], keys: Sequence[str], now: datetime, zone: tzinfo
) -> Table[PhaseSignal]:
    rows = dict(signals.rows)
    stamp, today = format_instant(now), day_of(now, zone)
    changed = False
    for key in keys:
        row = rows.get(key)
        if row is None:
            continue
        last = parse_instant(row.last_rem_considered_at) if row.last_rem_considered_at else None
        if last is not None and day_of(last, zone) == today:
            continue
        rows[key] = replace(row, last_rem_considered_at=stamp)
        changed = True
    return signals.with_rows(rows, updated_at=stamp) if changed else signals


def plan_rem(
    snapshot: Snapshot,
    store: Table[RecallEntry],
    signals: Table[PhaseSignal],
    *,
    lookback_days: float,
    limit: int,
    min_pattern_strength: float,
    now: datetime,
    zone: tzinfo,
    prefer_staged: bool = True,
) -> RemResult:
    """Run the REM phase over the store as light left it (``prefer_staged=False``: over every
    live entry, as ``rem-harness`` previews it)."""
    if limit <= 0:
        return RemResult(signals, 0, (), (), ())
    live = live_entries(snapshot, store, now=now, days=lookback_days, zone=zone)
    live = [entry for entry in live if not is_unfit(entry.snippet)]
    live.sort(key=lambda entry: entry.key)
    preferred = _preferred(live, signals, now, zone) if prefer_staged else []
    entries = preferred or live
    if not entries:
        return RemResult(signals, 0, (), (), ())
    themes = themes_of(entries, min_strength=min_pattern_strength, limit=limit, ids=snapshot.agents)
    truths = truths_of(entries, today=day_of(now, zone), zone=zone, limit=limit)
    signals = _mark_considered(signals, [entry.key for entry in preferred], now, zone)
    signals, fresh = record_phase_hits(
        signals, [truth.entry.key for truth in truths], phase="rem", now=now, zone=zone
    )
    return RemResult(signals, len(entries), tuple(themes), tuple(truths), fresh)
