"""REM phase: themes, possible lasting truths and their confidence (SPEC §5)."""

from __future__ import annotations

import math
from datetime import UTC
from pathlib import Path

import pytest

from dreamd.engine.phases.rem import plan_rem, themes_of, truth_confidence, truths_of
from dreamd.engine.snapshot import NoteStat, Snapshot
from dreamd.engine.state import PhaseSignal, Table
from tests.builders import NOW, entry, table


def test_theme_strength_and_threshold() -> None:
    """strength = min(1, 2 * count / entries); kept at >= 0.75; ignored tags never count."""
    rows = [
        entry(key=f"k{i}", concept_tags=tags)
        for i, tags in enumerate(
            [
                ("postgres", "user"),
                ("postgres", "queue"),
                ("postgres",),
                ("backup",),
                ("queue",),
                ("backup", "user"),
                ("user",),
                ("user",),
            ]
        )
    ]
    themes = themes_of(rows, min_strength=0.75, limit=10)
    assert [(t.tag, t.count, t.strength) for t in themes] == [("postgres", 3, 0.75)]


def test_truth_confidence_formula() -> None:
    """0.45 avg + 0.25 min(1, ln(1+recalls)/ln 7) + 0.20 min(1, days/3) + 0.10 min(1, tags/6)."""
    row = entry(
        recall_count=2,
        daily_count=2,
        total_score=3.0,
        recall_days=("2026-11-20", "2026-11-21"),
        concept_tags=("a", "b", "c"),
    )
    expected = 0.45 * 0.75 + 0.25 * math.log(3) / math.log(7) + 0.20 * (2 / 3) + 0.10 * 0.5
    assert truth_confidence(row) == pytest.approx(expected)
    assert expected == pytest.approx(0.6620, abs=1e-4)


def test_truths_are_capped_deduped_and_unpromoted() -> None:
    """At most 3; near-duplicates in one file merged; promoted-before-today rows skipped."""
    strong = {
        "recall_count": 6,
        "total_score": 5.4,
        "recall_days": ("2026-11-20", "2026-11-22", "2026-11-24"),
        "concept_tags": tuple("abcdef"),
    }
    rows = [
        entry(key="a", start=1, end=1, snippet="billing runs on postgres sixteen", **strong),
        entry(key="a2", start=2, end=2, snippet="Billing runs on Postgres sixteen.", **strong),
        entry(
            key="old",
            start=3,
            end=3,
            snippet="promoted long ago fact",
            promoted_at="2026-11-01T00:00:00.000Z",
            **strong,
        ),
        entry(key="b", start=4, end=4, snippet="second fact", **strong),
        entry(key="c", start=5, end=5, snippet="third fact", **strong),
        entry(key="d", start=6, end=6, snippet="fourth fact", **strong),
        entry(
            key="weak",
            start=7,
            end=7,
            snippet="weak fact",
            recall_count=0,
            daily_count=1,
            total_score=0.1,
        ),
    ]
    truths = truths_of(rows, today="2026-11-29", zone=UTC, limit=10)
    assert [t.entry.key for t in truths] == ["a2", "d", "b"]  # ties: by snippet


def test_rem_prefers_light_staged_keys_and_reinforces_truths_once_a_day() -> None:
    """Keys staged by light today are REM's input; truths get one REM hit per day."""
    common = {
        "recall_count": 4,
        "total_score": 3.6,
        "last_recalled_at": "2026-11-28T10:00:00.000Z",
        "recall_days": ("2026-11-26", "2026-11-28"),
        "concept_tags": ("billing", "postgres"),
    }
    rows = [
        entry(key="staged", start=1, end=1, **common),
        entry(
            key="other", start=2, end=2, snippet="Other fact about the release checklist.", **common
        ),
    ]
    signals = Table(
        {
            "staged": PhaseSignal(
                key="staged", light_hits=1, last_light_at="2026-11-29T11:00:00.000Z"
            )
        }
    )
    snap = Snapshot(
        root=Path("/ws"),
        notes={"memory/2026-11-20.md": NoteStat("memory/2026-11-20.md", "2026-11-20", 1.0, 1)},
    )
    result = plan_rem(
        snap,
        table(rows),
        signals,
        lookback_days=7,
        limit=10,
        min_pattern_strength=0.75,
        now=NOW,
        zone=UTC,
    )
    assert result.considered == 1
    assert [t.entry.key for t in result.truths] == ["staged"]
    assert result.signals.rows["staged"].rem_hits == 1
    assert result.signals.rows["staged"].last_rem_considered_at == "2026-11-29T12:00:00.000Z"
    again = plan_rem(
        snap,
        table(rows),
        result.signals,
        lookback_days=7,
        limit=10,
        min_pattern_strength=0.75,
        now=NOW.replace(hour=20),
        zone=UTC,
    )
    assert again.signals.rows == result.signals.rows
    assert again.newly_reflected == ()
