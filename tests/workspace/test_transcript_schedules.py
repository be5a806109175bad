"""Any schedule of appends, rotations and sweeps: every owner turn reaches the session corpus
once."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.workspace.transcript_turns import START, append, corpus_counts, sweep, text, workspace


@pytest.mark.slow
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    batches=st.lists(
        st.tuples(st.integers(0, 260), st.booleans(), st.integers(0, 30)),
        min_size=1,
        max_size=4,
    )
)
def test_any_schedule_of_appends_and_sweeps_ingests_each_turn_once(
    tmp_path_factory: Any, batches: list[tuple[int, bool, int]]
) -> None:
    """Whatever is appended between sweeps, and whenever the file is rotated, every turn
    reaches the corpus once after enough sweeps to drain the caps."""
    root, sessions = workspace(tmp_path_factory.mktemp("schedule"))
    path, written, now = sessions / "s.jsonl", 0, START + timedelta(hours=6)
    for count, rotate, hours in batches:
        append(path, "s", written, count, now - timedelta(hours=1))
        written += count
        if rotate and path.exists():
            path.rename(sessions / f"s.jsonl.reset.{written}")
        now += timedelta(hours=hours)
        sweep(root, sessions, now)
    for _ in range(written // 80 + 2):
        now += timedelta(hours=8)
        sweep(root, sessions, now)
    assert corpus_counts(root) == Counter({text("s", n): 1 for n in range(written)})
