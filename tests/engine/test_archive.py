"""The archive: every entry that leaves MEMORY.md is kept there, readable and restorable."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.phases.archive import append_archive, archived_entries
from dreamd.engine.phases.promotion import (
    Leaving,
    PromotionEntry,
    compose_memory,
    generated_entries,
    promoted_keys,
)
from dreamd.engine.phases.restore import plan_restore
from dreamd.engine.snapshot import Snapshot, TextFile
from dreamd.errors import DreamdError, SelectorError
from tests.builders import NOW, table

HUMAN = "# Long-Term Memory\n\n- A line the person wrote.\n"


def _entry(key: str, text: str, replaces: tuple[str, ...] = ()) -> PromotionEntry:
    return PromotionEntry(
        key=key,
        text=text,
        score=0.8,
        signals=4,
        recalls=4,
        average=0.8,
        path="memory/2026-11-20.md",
        start_line=4,
        end_line=4,
        tags=(),
        replaces=replaces,
    )


nights = st.lists(
    st.tuples(
        st.lists(st.integers(0, 40), min_size=1, max_size=4, unique=True),  # tonight's facts
        st.integers(0, 40),  # a key tonight's first fact replaces, if written before
        st.integers(300, 1500),  # the budget
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(nights)
def test_an_entry_is_always_in_memory_or_the_archive(
    plan: list[tuple[list[int], int, int]],
) -> None:
    """Over any run of nights (replacements, budgets too small), every entry ever written is
    in MEMORY.md or in the archive, never nowhere, and a person's line never leaves."""
    memory, archive, written = HUMAN, "", set()
    for day, (facts, replaced, budget) in enumerate(plan, start=1):
        keys = [f"k{n}-{day}" for n in facts]
        old = f"k{replaced}" if any(k.startswith(f"k{replaced}-") for k in written) else None
        retire = {}
        if old is not None:
            retire = {next(k for k in sorted(written) if k.startswith(f"{old}-")): keys[0]}
        entries = [_entry(key, f"Fact {key} is about something that lasts.") for key in keys]
        result = compose_memory(
            memory,
            entries,
            day=f"2026-11-{day:02d}",
            max_chars=budget,
            max_loss=0.5,
            retire=retire,
        )
        archive = append_archive(archive, result.leaving, day=f"2026-11-{day:02d}", budget=budget)
        memory = result.text
        written |= set(result.appended)
        assert memory.startswith(HUMAN)
    kept = promoted_keys(memory) | {item.key for item in archived_entries(archive)}
    assert written <= kept


def _snapshot(memory: str, archive: str) -> Snapshot:
    return Snapshot(
        root=Path("/ws"),
        memory=TextFile("MEMORY.md", memory, "m"),
        archive=TextFile("memory/archive.md", archive, "a" if archive else None),
        store=table([]),
    )


def test_archive_and_restore_round_trip() -> None:
    """An entry moved out for the budget comes back byte for byte, the archive says so, and a
    second restore is refused."""
    old = _entry("k-old", "Old fact that lasts.")
    first = compose_memory(HUMAN, [old], day="2026-11-01", max_chars=10_000, max_loss=0.5)
    line = generated_entries(first.text.splitlines())[0].text
    new = _entry("k-new", "A newer fact that lasts just as well.")
    second = compose_memory(
        first.text,
        [new],
        day="2026-11-02",
        max_chars=len(first.text) + 20,
        max_loss=1.0,
        keep_order=("k-old",),
    )
    assert [(item.key, item.reason) for item in second.leaving] == [("k-old", "budget")]
    archive = append_archive("", second.leaving, day="2026-11-02", budget=len(first.text) + 20)
    assert [item.line for item in archived_entries(archive)] == [line]
    plan = plan_restore(
        _snapshot(second.text, archive), "old fact", now=NOW, day="2026-11-03", max_chars=10_000
    )
    assert line in plan.memory_text.splitlines()
    restored_archive = plan.plan.writes[1].text
    assert archived_entries(restored_archive) == []
    with pytest.raises(SelectorError, match="No archived entry"):
        plan_restore(
            _snapshot(plan.memory_text, restored_archive),
            "old fact",
            now=NOW,
            day="2026-11-04",
            max_chars=10_000,
        )


def test_a_restore_that_would_pass_the_budget_is_refused() -> None:
    """Restoring never takes MEMORY.md past its budget: the error says what to do."""
    left = Leaving("k1", "- A fact that left. (2026-11-01.md#L3)", "budget")
    archive = append_archive("", [left], day="2026-11-02", budget=100)
    with pytest.raises(DreamdError, match="past its 60-character budget"):
        plan_restore(_snapshot(HUMAN, archive), "k1", now=NOW, day="2026-11-03", max_chars=60)
