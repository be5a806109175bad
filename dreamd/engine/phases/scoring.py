"""The deep phase's score: six weighted signals plus a light/REM phase boost (SPEC §6.1).

| signal        | weight | value (each clamped to [0, 1])                                    |
|---------------|--------|-------------------------------------------------------------------|
| relevance     | 0.30   | totalScore / signals                                              |
| frequency     | 0.24   | ln(1 + signals) / ln 11                                           |
| diversity     | 0.15   | distinct interactive queries / 5                                  |
| recency       | 0.15   | exp(-ln2 / halfLife * ageDays), age from lastRecalledAt           |
| consolidation | 0.10   | max(C(recall days), groundedCount / 3)                            |
| conceptual    | 0.06   | concept tags / 6                                                  |

``C`` is 0 for no day, 0.2 for one, else 0.55*min(1, ln n / ln 5) + 0.45*min(1, span / 7).
Phase boost: 0.06 * light + 0.09 * rem, each min(1, ln(1+hits)/ln 7) decayed with a 14-day half
life since the last hit. The score is the plain sum; the gate compares it unclamped.

Salience boost (``[dreaming.deep] salience_boost``, opt-in, default 0): a snippet whose salience
kind is high (a correction, decision, error, insight or completion:
:data:`~dreamd.engine.text.salience.HIGH`) adds ``salience_boost``, at most
:data:`MAX_SALIENCE_BOOST` (0.1, a tenth of the score's range; the config refuses more and the
score clamps to it). At 0 nothing is added and the score is OpenClaw's, float for float.
Pure arithmetic: no I/O, time passed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from dreamd.clock import DAY_SECONDS, age_days, days_between, parse_instant
from dreamd.engine.state import PhaseSignal, RecallEntry
from dreamd.engine.text.salience import HIGH, kind_of
from dreamd.engine.traces import user_query_hashes

__all__ = [
    "MAX_SALIENCE_BOOST",
    "WEIGHTS",
    "Components",
    "Scored",
    "consolidation",
    "phase_boost",
    "salience_boost",
    "score_entry",
]

WEIGHTS: dict[str, float] = {
    "relevance": 0.30,
    "frequency": 0.24,
    "diversity": 0.15,
    "recency": 0.15,
    "consolidation": 0.10,
    "conceptual": 0.06,
}
LIGHT_BOOST = 0.06
REM_BOOST = 0.09
PHASE_HALF_LIFE_DAYS = 14.0
MAX_SALIENCE_BOOST = 0.1
_LN2 = math.log(2)


def _clamp(value: float) -> float:
    if math.isnan(value):
        return 0.0
    return min(1.0, max(0.0, value))


@dataclass(frozen=True, slots=True)
class Components:
    """The six signal values, each in [0, 1]."""

    relevance: float
    frequency: float
    diversity: float
    recency: float
    consolidation: float
    conceptual: float

    def weighted(self) -> float:
        """``Σ weight * value``."""
        return sum(WEIGHTS[name] * float(getattr(self, name)) for name in WEIGHTS)

    def as_dict(self) -> dict[str, float]:
        """The components by name, in the documented order."""
        return {name: getattr(self, name) for name in WEIGHTS}


@dataclass(frozen=True, slots=True)
class Scored:
    """An entry with its components, boost and score."""

    entry: RecallEntry
    components: Components
    phase_boost: float
    score: float  # unclamped sum: what the gate compares
    signals: int
    unique_queries: int
    age_days: float
    salience_boost: float = 0.0  # included in ``score``; 0 unless ``salience_boost`` is on


def recency(age: float, half_life_days: float) -> float:
    """``exp(-ln2 / halfLife * age)``; an unknown or negative age counts as fresh."""
    if not math.isfinite(age) or age < 0:
        return 1.0
    return _clamp(math.exp(-_LN2 / half_life_days * age))


def consolidation(recall_days: tuple[str, ...], grounded_count: int) -> float:
    """Spaced repetition: more distinct days over a wider span consolidate more."""
    days = sorted(set(recall_days))
    if not days:
        spaced = 0.0
    elif len(days) == 1:
        spaced = 0.2
    else:
        count_part = _clamp(math.log(len(days)) / math.log(5))
        span_part = _clamp(days_between(days[0], days[-1]) / 7)
        spaced = _clamp(0.55 * count_part + 0.45 * span_part)
    return max(spaced, _clamp(grounded_count / 3))


def _phase_strength(hits: int, last: str | None, now: datetime) -> float:
    if hits <= 0:
        return 0.0
    strength = _clamp(math.log1p(hits) / math.log(7))
    moment = parse_instant(last) if last else None
    if moment is None:
        return 0.0
    since = max(0.0, (now - moment).total_seconds() / DAY_SECONDS)
    return strength * math.exp(-_LN2 / PHASE_HALF_LIFE_DAYS * since)


def phase_boost(signal: PhaseSignal | None, now: datetime) -> float:
    """Light and REM reinforcement: at most 0.06 + 0.09."""
    if signal is None:
        return 0.0
    light = _phase_strength(signal.light_hits, signal.last_light_at, now)
    rem = _phase_strength(signal.rem_hits, signal.last_rem_at, now)
    return _clamp(LIGHT_BOOST * light + REM_BOOST * rem)


def salience_boost(snippet: str, boost: float) -> float:
    """``boost`` (clamped to [0, :data:`MAX_SALIENCE_BOOST`]) for a high-salience snippet."""
    if not boost > 0 or kind_of(snippet) not in HIGH:
        return 0.0
    return min(boost, MAX_SALIENCE_BOOST)


def score_entry(
    entry: RecallEntry,
    signal: PhaseSignal | None,
    *,
    now: datetime,
    half_life_days: float,
    salience: float = 0.0,
) -> Scored | None:
    """Score one entry; ``None`` when it has no signals at all. ``salience`` is the configured
    ``salience_boost`` (0: off, the score is OpenClaw's)."""
    signals = entry.signal_count
    if signals <= 0:
        return None
    age = age_days(now, entry.last_recalled_at)
    unique = len(set(user_query_hashes(entry)))
    components = Components(
        relevance=_clamp(entry.total_score / signals),
        frequency=_clamp(math.log1p(signals) / math.log(11)),
        diversity=_clamp(unique / 5),
        recency=recency(age, half_life_days),
        consolidation=consolidation(entry.recall_days, entry.grounded_count),
        conceptual=_clamp(len(entry.concept_tags) / 6),
    )
    boost = phase_boost(signal, now)
    score = components.weighted() + boost
    extra = salience_boost(entry.snippet, salience) if salience else 0.0
    if extra:  # only then: off, the sum is exactly OpenClaw's
        score += extra
    return Scored(entry, components, boost, score, signals, unique, age, extra)
