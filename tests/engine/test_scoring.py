"""The six signals, the phase boost and the score, against hand-computed values (SPEC §6.1)."""

from __future__ import annotations

import pytest

from dreamd.engine.phases.scoring import WEIGHTS, consolidation, phase_boost, recency, score_entry
from dreamd.engine.state import PhaseSignal
from tests.builders import NOW, entry


def test_weights_are_the_documented_ones() -> None:
    """The weights are exactly 0.30/0.24/0.15/0.15/0.10/0.06 and sum to 1."""
    assert WEIGHTS == {
        "relevance": 0.30,
        "frequency": 0.24,
        "diversity": 0.15,
        "recency": 0.15,
        "consolidation": 0.10,
        "conceptual": 0.06,
    }
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)


def test_components_of_a_typical_entry() -> None:
    """4 recalls + 1 daily, avg 0.7, 3 user queries, 7 days old, 3 days over a week, 3 tags."""
    row = entry(
        recall_count=4,
        daily_count=1,
        total_score=3.5,
        user_query_hashes=("a", "b", "c"),
        last_recalled_at="2026-11-22T12:00:00.000Z",
        recall_days=("2026-11-20", "2026-11-22", "2026-11-27"),
        concept_tags=("staging", "postgres", "host"),
    )
    scored = score_entry(row, None, now=NOW, half_life_days=14)
    assert scored is not None
    # ln 6 / ln 11 = 0.747222; 2^-0.5 = 0.707107; 0.55 * ln 3 / ln 5 + 0.45 = 0.825433
    assert scored.components.as_dict() == pytest.approx(
        {
            "relevance": 0.7,
            "frequency": 0.747222,
            "diversity": 0.6,
            "recency": 0.707107,
            "consolidation": 0.825433,
            "conceptual": 0.5,
        },
        abs=1e-6,
    )
    # 0.21 + 0.179333 + 0.09 + 0.106066 + 0.082543 + 0.03
    assert scored.score == pytest.approx(0.697942, abs=1e-6)
    assert (scored.signals, scored.unique_queries) == (5, 3)
    assert scored.age_days == pytest.approx(7.0)


def test_components_clamp_at_one() -> None:
    """Relevance, frequency, diversity and richness never exceed 1."""
    row = entry(
        recall_count=40,
        total_score=60.0,
        user_query_hashes=tuple("abcdefgh"),
        last_recalled_at="2026-11-29T12:00:00.000Z",
        concept_tags=tuple("abcdefgh"),
    )
    scored = score_entry(row, None, now=NOW, half_life_days=14)
    assert scored is not None
    values = scored.components.as_dict()
    assert [values[k] for k in ("relevance", "frequency", "diversity", "conceptual")] == [1.0] * 4
    assert values["recency"] == 1.0


def test_no_signals_is_not_scored() -> None:
    """An entry with zero signals is skipped entirely."""
    assert score_entry(entry(), None, now=NOW, half_life_days=14) is None


@pytest.mark.parametrize(
    ("days", "grounded", "expected"),
    [
        ((), 0, 0.0),
        (("2026-11-01",), 0, 0.2),
        (("2026-11-01", "2026-11-02"), 0, 0.55 * 0.430677 + 0.45 * (1 / 7)),
        (("2026-11-01", "2026-11-08"), 0, 0.55 * 0.430677 + 0.45),
        (("2026-11-01", "2026-11-03", "2026-11-05", "2026-11-07", "2026-11-20"), 0, 1.0),
        ((), 2, 2 / 3),
        (("2026-11-01",), 6, 1.0),
    ],
)
def test_consolidation(days: tuple[str, ...], grounded: int, expected: float) -> None:
    """0 days -> 0; 1 day -> 0.2; n days: 0.55 min(1, ln n / ln 5) + 0.45 min(1, span/7); grounded/3."""
    assert consolidation(days, grounded) == pytest.approx(expected, abs=1e-6)


def test_recency_half_life() -> None:
    """Recency halves every half-life; unknown age counts as fresh."""
    assert recency(0.0, 14) == 1.0
    assert recency(14.0, 14) == pytest.approx(0.5)
    assert recency(28.0, 14) == pytest.approx(0.25)
    assert recency(7.0, 7) == pytest.approx(0.5)
    assert recency(float("inf"), 14) == 1.0


def test_phase_boost_fresh_and_stale() -> None:
    """Boost = 0.06 light + 0.09 rem, each ln(1+hits)/ln 7 decayed by 14-day half life."""
    fresh = PhaseSignal(
        key="k",
        light_hits=6,
        rem_hits=6,
        last_light_at="2026-11-29T12:00:00.000Z",
        last_rem_at="2026-11-29T12:00:00.000Z",
    )
    assert phase_boost(fresh, NOW) == pytest.approx(0.15)
    stale = PhaseSignal(key="k", light_hits=1, last_light_at="2026-11-15T12:00:00.000Z")
    # 0.06 * (ln 2 / ln 7) * 0.5
    assert phase_boost(stale, NOW) == pytest.approx(0.06 * 0.356207 * 0.5, abs=1e-6)
    assert phase_boost(PhaseSignal(key="k", light_hits=3), NOW) == 0.0
    assert phase_boost(None, NOW) == 0.0


def test_boost_is_added_to_the_score() -> None:
    """The score is the weighted sum plus the phase boost (unclamped)."""
    row = entry(recall_count=1, total_score=1.0, last_recalled_at="2026-11-29T12:00:00.000Z")
    signal = PhaseSignal(key=row.key, rem_hits=6, last_rem_at="2026-11-29T12:00:00.000Z")
    plain = score_entry(row, None, now=NOW, half_life_days=14)
    boosted = score_entry(row, signal, now=NOW, half_life_days=14)
    assert plain is not None and boosted is not None
    assert boosted.score - plain.score == pytest.approx(0.09)
    assert boosted.phase_boost == pytest.approx(0.09)


def test_legacy_rows_ignore_synthetic_ingestion_queries() -> None:
    """Rows without userQueryHashes count their query hashes minus the ingestion queries."""
    from dreamd.engine.text.snippets import query_hash

    synthetic = query_hash("__dreaming_daily__:2026-11-20")
    row = entry(
        recall_count=2,
        daily_count=1,
        total_score=2.0,
        query_hashes=("u1", synthetic, "u2"),
        recall_days=("2026-11-20",),
        last_recalled_at="2026-11-28T12:00:00.000Z",
    )
    scored = score_entry(row, None, now=NOW, half_life_days=14)
    assert scored is not None
    assert scored.unique_queries == 2
