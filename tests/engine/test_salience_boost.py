"""The opt-in ``[dreaming.deep] salience_boost``: bounded, for high-salience text only, and
nothing at all when off (the score stays OpenClaw's)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.config import ConfigError, parse_config
from dreamd.engine.phases.cycle import thresholds_of
from dreamd.engine.phases.deep import Thresholds, rank
from dreamd.engine.phases.scoring import MAX_SALIENCE_BOOST, score_entry
from dreamd.engine.state import PhaseSignal
from dreamd.engine.text.salience import HIGH, kind_of
from tests.builders import NOW, entry

SNIPPETS = (
    "- The staging database moved to Postgres 16 on the new host.",
    "- Actually the deploy runs on Thursdays, not Fridays.",
    "- We decided to keep the old billing API for a year.",
    "- The nightly export failed with a timeout again.",
    "- Turns out the cache was never warmed after restarts.",
    "- Shipped the new onboarding flow.",
    "- Lunch was soup.",
)

rows = st.builds(
    lambda snippet, recalls, total, queries, age: entry(
        snippet=snippet,
        recall_count=recalls,
        total_score=total * recalls,
        user_query_hashes=tuple(f"q{i}" for i in range(queries)),
        last_recalled_at=f"2026-11-{29 - age:02d}T12:00:00.000Z",
        recall_days=tuple(f"2026-11-{29 - d:02d}" for d in range(0, age + 1, 3)),
        concept_tags=("staging", "host")[: queries % 3],
    ),
    st.sampled_from(SNIPPETS) | st.text(max_size=80),
    st.integers(1, 12),
    st.floats(0.0, 1.0),
    st.integers(0, 6),
    st.integers(0, 20),
)
signals = st.none() | st.builds(
    lambda hits: PhaseSignal(
        key="k", light_hits=hits, rem_hits=hits, last_light_at="2026-11-28T12:00:00.000Z"
    ),
    st.integers(0, 20),
)


@given(rows, signals, st.floats(-1.0, 5.0, allow_nan=False))
def test_the_boost_is_bounded_and_only_for_high_salience(row, signal, boost) -> None:  # type: ignore[no-untyped-def]
    """The score rises by at most MAX_SALIENCE_BOOST, only for a high kind, never falls."""
    plain = score_entry(row, signal, now=NOW, half_life_days=14)
    boosted = score_entry(row, signal, now=NOW, half_life_days=14, salience=boost)
    assert plain is not None and boosted is not None
    extra = boosted.score - plain.score
    assert 0.0 <= boosted.salience_boost <= MAX_SALIENCE_BOOST
    assert extra == pytest.approx(boosted.salience_boost, abs=1e-12)
    if kind_of(row.snippet) not in HIGH or boost <= 0:
        assert boosted == plain
    else:
        assert boosted.salience_boost == min(boost, MAX_SALIENCE_BOOST)
    assert boosted.components == plain.components


@given(rows, signals)
def test_off_is_exactly_openclaws_score(row, signal) -> None:  # type: ignore[no-untyped-def]
    """With the boost at 0 (the default) the score is the same float as without the setting."""
    default = score_entry(row, signal, now=NOW, half_life_days=14)
    off = score_entry(row, signal, now=NOW, half_life_days=14, salience=0.0)
    assert default == off
    assert default is not None and default.salience_boost == 0.0
    assert default.score == default.components.weighted() + default.phase_boost


def test_a_boosted_correction_can_pass_the_score_gate() -> None:
    """A correction just under min_score (0.75) passes with the boost on; an event does not."""
    fields = {
        "recall_count": 4,
        "total_score": 3.5,
        "user_query_hashes": ("a", "b", "c"),
        "last_recalled_at": "2026-11-22T12:00:00.000Z",
        "recall_days": ("2026-11-20", "2026-11-22", "2026-11-27"),
        "concept_tags": ("staging", "postgres", "host"),
    }
    event = entry(path="memory/2026-11-20.md", **fields)
    correction = entry(
        path="memory/2026-11-21.md", snippet="- Actually the staging host is db-03.", **fields
    )
    rows = {e.key: e for e in (event, correction)}
    off = rank(rows, {}, Thresholds(), now=NOW)
    on = rank(rows, {}, Thresholds(salience_boost=0.05), now=NOW)
    assert [s.entry.key for s in off.candidates] == []
    assert [s.entry.key for s in on.candidates] == [correction.key]
    assert on.candidates[0].score == pytest.approx(0.732194 + 0.05, abs=1e-6)


def test_the_setting_is_read_and_bounded() -> None:
    """``[dreaming.deep] salience_boost`` reaches the thresholds; above 0.1 is refused."""
    config = parse_config("[dreaming.deep]\nsalience_boost = 0.05\n", source="t.toml")
    assert thresholds_of(config.dreaming).salience_boost == 0.05
    assert thresholds_of(parse_config("", source="t.toml").dreaming).salience_boost == 0.0
    with pytest.raises(ConfigError):
        parse_config("[dreaming.deep]\nsalience_boost = 0.2\n", source="t.toml")
