"""Deep phase: rank recall entries through the gates, re-hydrate, and plan MEMORY.md appends.

Gates, in order; the first one an entry fails is its rejection category:

1. ``short-term path``   a daily note or session-corpus file (never MEMORY.md or reports)
2. ``origin``            not from an ``untrusted`` or ``system`` origin (sticky taint)
3. ``contamination``     not dreaming output, a promotion marker or trace noise
4. ``already promoted``  (unless ``include_promoted``)
5. ``signal threshold``  ``recallCount + dailyCount + groundedCount >= min_recall_count``
6. ``query threshold``   distinct interactive queries ``>= min_unique_queries``
7. ``age threshold``     days since the last recall ``<= max_age_days``
8. ``score threshold``   ``score >= min_score``

Survivors are sorted by score, recall count, path, and cut to ``limit`` (the rest:
``selection limit``). Applying adds ``source rehydration`` (text not found in the live note),
``unsafe path`` and ``memory budget`` (deferred). Entries with no signals at all are skipped.
With a ``zone`` (the sweep), rows promoted earlier on the current dreaming day count as
promoted today, not as rejections, and use up the day's ``limit``: a repeated sweep reports the
same day and promotes nothing more. Without one (``memory promote``), ``limit`` is per run.
Scores are :func:`~dreamd.engine.phases.scoring.score_entry`'s: OpenClaw's, unless the opt-in
``salience_boost`` is set (a bounded boost for high-salience snippets). Pure: no I/O, time
passed in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo

from dreamd.clock import day_of, parse_instant
from dreamd.engine.phases.scoring import Scored, score_entry
from dreamd.engine.state import PhaseSignal, RecallEntry
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.traces import TAINTED_ORIGINS
from dreamd.layout import is_short_term_path

__all__ = ["GATES", "Ranking", "Thresholds", "Verdict", "rank", "rejection"]

GATES = (
    "short-term path",
    "origin",
    "contamination",
    "already promoted",
    "signal threshold",
    "query threshold",
    "age threshold",
    "score threshold",
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The gate settings in force for one ranking."""

    min_score: float = 0.75
    min_recall_count: int = 3
    min_unique_queries: int = 3
    max_age_days: float = 30.0
    limit: int = 10
    half_life_days: float = 14.0
    salience_boost: float = 0.0  # opt-in; see dreamd.engine.phases.scoring

    def as_json(self) -> dict[str, float | int]:
        """The thresholds as the JSON outputs name them."""
        return {
            "minScore": self.min_score,
            "minRecallCount": self.min_recall_count,
            "minUniqueQueries": self.min_unique_queries,
            "maxAgeDays": self.max_age_days,
            "limit": self.limit,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """An entry's score and the first gate it failed (``None``: it passed them all)."""

    scored: Scored
    rejection: str | None
    promoted_today: bool = False


@dataclass(frozen=True)
class Ranking:
    """Every scored entry with its verdict, the selected candidates, and rejection counts.

    ``passed`` holds every entry that passed the gates, in rank order, before the cut to the
    day's ``room``: the gates applied after ranking (:mod:`dreamd.engine.phases.screen`) take
    the next in line when they refuse one.
    """

    verdicts: tuple[Verdict, ...]
    candidates: tuple[Scored, ...]
    rejected: Mapping[str, int]
    promoted_today: int
    passed: tuple[Scored, ...] = ()
    room: int = 0


def rejection(
    scored: Scored, thresholds: Thresholds, *, include_promoted: bool = False
) -> str | None:
    """The first gate ``scored`` fails, or ``None``."""
    entry = scored.entry
    origin = entry.provenance.origin_class if entry.provenance else "agent"
    checks = (
        is_short_term_path(entry.path),
        origin not in TAINTED_ORIGINS,
        not is_contaminated(entry.snippet),
        include_promoted or not entry.promoted_at,
        scored.signals >= thresholds.min_recall_count,
        scored.unique_queries >= thresholds.min_unique_queries,
        thresholds.max_age_days < 0 or scored.age_days <= thresholds.max_age_days,
        scored.score >= thresholds.min_score,
    )
    for gate, passed in zip(GATES, checks, strict=True):
        if not passed:
            return gate
    return None


def _sort_key(scored: Scored) -> tuple[float, int, str, int, str]:
    entry = scored.entry
    return (-scored.score, -entry.recall_count, entry.path, entry.start_line, entry.key)


def _promoted_on(entry: RecallEntry, today: str | None, zone: tzinfo | None) -> bool:
    if not entry.promoted_at or today is None or zone is None:
        return False
    moment = parse_instant(entry.promoted_at)
    return moment is not None and day_of(moment, zone) == today


def rank(
    entries: Mapping[str, RecallEntry],
    signals: Mapping[str, PhaseSignal],
    thresholds: Thresholds,
    *,
    now: datetime,
    include_promoted: bool = False,
    zone: tzinfo | None = None,
) -> Ranking:
    """Score every entry, apply the gates, sort and cut to the limit."""
    today = day_of(now, zone) if zone is not None else None
    verdicts: list[Verdict] = []
    passed: list[Scored] = []
    rejected: Counter[str] = Counter()
    promoted_today = 0
    for key, entry in entries.items():
        scored = score_entry(
            entry,
            signals.get(key),
            now=now,
            half_life_days=thresholds.half_life_days,
            salience=thresholds.salience_boost,
        )
        if scored is None:
            continue
        reason = rejection(scored, thresholds, include_promoted=include_promoted)
        today_row = reason == "already promoted" and _promoted_on(entry, today, zone)
        verdicts.append(Verdict(scored, reason, today_row))
        if today_row:
            promoted_today += 1
        elif reason is None:
            passed.append(scored)
        else:
            rejected[reason] += 1
    passed.sort(key=_sort_key)
    limit = max(0, thresholds.limit - promoted_today)
    if len(passed) > limit:
        rejected["selection limit"] += len(passed) - limit
    return Ranking(
        tuple(verdicts),
        tuple(passed[:limit]),
        dict(rejected),
        promoted_today,
        tuple(passed),
        limit,
    )
