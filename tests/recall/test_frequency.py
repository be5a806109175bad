"""How many chunks hold a term: exact when few do, a close estimate when many do, also for a
word used only for a while."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dreamd.recall import candidates
from dreamd.recall.candidates import read_frequency
from dreamd.recall.index import RecallIndex
from tests.builders import write

DAYS = 120


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[RecallIndex]:
    """Four months of notes: "kiln" on every line, "glaze" on every line of a month in the
    middle, "slip" on two lines of each day of one week, "raku" once."""
    monkeypatch.setattr(candidates, "EXACT_FREQUENCY", 25)
    root = tmp_path / "ws"
    for day in range(DAYS):
        lines = [f"- Fired the kiln to cone {n} today, batch {day}-{n}." for n in range(3)]
        if 40 <= day < 70:
            lines = [line + " The new glaze held." for line in lines]
        if 90 <= day < 97:
            lines[:2] = [line + " Mixed more slip." for line in lines[:2]]
        if day == 100:
            lines.append("- Tried raku outside for the first time.")
        month, dom = divmod(day, 28)
        write(root, f"memory/2026-{month + 1:02d}-{dom + 1:02d}.md", "\n".join(lines) + "\n")
    with RecallIndex.open(root) as opened:
        opened.update(walk=True)
        yield opened


def exact(index: RecallIndex, stem: str) -> int:
    found = index.read(
        lambda conn: conn.execute("SELECT doc FROM chunks_vocab WHERE term = ?", (stem,))
    ).fetchone()
    return int(found[0]) if found else 0


def test_a_term_few_chunks_hold_is_counted_exactly(index: RecallIndex) -> None:
    found = index.read(lambda conn: read_frequency(conn, ["raku", "slip", "absent"]))
    assert found == {"raku": 1, "slip": 14, "absent": 0}


@pytest.mark.parametrize("stem", ["kiln", "glaze", "fire", "batch"])
def test_a_common_term_is_estimated_closely(index: RecallIndex, stem: str) -> None:
    """Within 10 %, for a word on every line and for one used only in one month."""
    estimate = index.read(lambda conn: read_frequency(conn, [stem]))[stem]
    assert exact(index, stem) > candidates.EXACT_FREQUENCY
    assert abs(estimate - exact(index, stem)) <= exact(index, stem) / 10
