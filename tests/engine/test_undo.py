"""Undo plans: forgetting one promotion byte-exactly, reverting MEMORY.md without losing text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dreamd.engine.phases.undo import find_promotion, plan_forget, plan_revert
from dreamd.engine.snapshot import Snapshot, TextFile
from dreamd.engine.state import FORGOTTEN
from dreamd.errors import DreamdError, SelectorError
from tests.builders import NOW, entry, table

K1 = "memory:memory/2026-11-20.md:3:3"
K2 = "memory:memory/2026-11-21.md:5:5"
HEAD = "# Long-Term Memory\n\n- I prefer short answers.\n"
ONE = (
    "\n## Promoted From Short-Term Memory (2026-11-25)\n\n"
    f"<!-- dreamd-memory-promotion:{K1} -->\n"
    "- Billing runs on db-02. [score=0.812 signals=3 recalls=3 avg=0.900 "
    "source=memory/2026-11-20.md:3-3] <!-- importance: 8 -->\n"
)
TWO = (
    "\n## Promoted From Short-Term Memory (2026-11-26)\n\n"
    f"<!-- dreamd-memory-promotion:{K2} -->\n"
    "- Backups go to backup-02 at 02:00. [score=0.800 signals=3 recalls=3 avg=0.900 "
    "source=memory/2026-11-21.md:5-5] <!-- importance: 8 -->\n"
)
STAMP = "2026-11-29T12:00:00.000Z"


def _snapshot(memory: str, *rows: Any) -> Snapshot:
    return Snapshot(
        root=Path("/ws"),
        memory=TextFile("MEMORY.md", memory, "m"),
        dreams=TextFile("DREAMS.md", "", None),
        store=table(rows),
    )


def _row(key: str, snippet: str, **fields: Any) -> Any:
    path, start = key.split(":")[1], int(key.split(":")[2])
    return entry(path, start, start, snippet, key=key, **fields)


def test_forget_removes_exactly_the_entry_and_its_emptied_section() -> None:
    """Marker, entry and the section left empty go; every other byte stays."""
    rows = (
        _row(K1, "- Billing runs on db-02.", promoted_at=STAMP),
        _row("memory:memory/2026-11-22.md:2:2", "- billing runs on db-02", duplicate_of=K1),
    )
    forgot = plan_forget(_snapshot(HEAD + ONE + TWO, *rows), "billing", now=NOW, date_line="D")
    assert forgot.memory_text == HEAD + TWO
    assert plan_forget(_snapshot(HEAD + TWO + ONE), K1, now=NOW, date_line="D").memory_text == (
        HEAD + TWO
    )
    assert [row.key for row in forgot.sources] == [K1, "memory:memory/2026-11-22.md:2:2"]
    store = forgot.plan.store
    assert store is not None
    assert {k: (r.promoted_at, r.forgotten_at) for k, r in store.rows.items()} == {
        K1: (STAMP, STAMP),
        "memory:memory/2026-11-22.md:2:2": (None, STAMP),
    }
    assert store.top[FORGOTTEN] == [{"key": K1, "text": "Billing runs on db-02.", "at": STAMP}]
    dreams = forgot.plan.writes[1]
    assert (dreams.path, dreams.text.count("a promoted memory was forgotten")) == ("DREAMS.md", 1)


def test_forget_with_allow_repromote_unpromotes_the_sources() -> None:
    """The rows lose promotedAt instead of being marked forgotten; nothing is remembered."""
    row = _row(K1, "- Billing runs on db-02.", promoted_at=STAMP)
    forgot = plan_forget(
        _snapshot(HEAD + ONE, row), K1, now=NOW, date_line="D", allow_repromote=True
    )
    store = forgot.plan.store
    assert store is not None
    assert (store.rows[K1].promoted_at, store.rows[K1].forgotten_at, dict(store.top)) == (
        None,
        None,
        {},
    )


def test_forget_refuses_a_persons_line_an_ambiguous_selector_and_a_hand_edit() -> None:
    """Only promotions can be forgotten, one at a time, and a hand-edited one needs force."""
    with pytest.raises(SelectorError, match="only a line you wrote matches"):
        find_promotion(HEAD + ONE, "short answers")
    with pytest.raises(SelectorError, match="matches 2 promoted entries"):
        find_promotion(HEAD + ONE + TWO, "memory:memory/2026-11-2")
    edited = HEAD + ONE.replace(
        " [score=0.812 signals=3 recalls=3 avg=0.900 source=memory/2026-11-20.md:3-3]", ""
    )
    with pytest.raises(DreamdError, match="edited by hand"):
        plan_forget(_snapshot(edited), K1, now=NOW, date_line="D")
    forced = plan_forget(_snapshot(edited), K1, now=NOW, date_line="D", force=True)
    assert (forced.edited, forced.memory_text) == (True, HEAD)


def test_revert_refuses_to_lose_a_persons_line_unless_forced() -> None:
    """A line a person added after the backup would be lost: refused, then forced."""
    current = HEAD + "- Added by hand later.\n" + ONE
    with pytest.raises(DreamdError, match="would lose 1 line"):
        plan_revert(_snapshot(current), "b1", HEAD, now=NOW, date_line="D")
    forced = plan_revert(_snapshot(current), "b1", HEAD, now=NOW, date_line="D", force=True)
    assert (forced.lost, forced.removed, forced.memory_text) == (
        ("- Added by hand later.",),
        (K1,),
        HEAD,
    )


def test_revert_marks_what_it_takes_out_and_restores_what_it_puts_back() -> None:
    """Promotions taken out are forgotten; promotions put back are promoted again."""
    rows = (
        _row(K1, "- Billing runs on db-02.", promoted_at=STAMP),
        _row(K2, "- Backups go to backup-02 at 02:00.", promoted_at=STAMP, forgotten_at=STAMP),
    )
    reverted = plan_revert(_snapshot(HEAD + ONE, *rows), "b1", HEAD + TWO, now=NOW, date_line="D")
    store = reverted.plan.store
    assert store is not None
    assert (reverted.removed, reverted.restored, reverted.lost) == ((K1,), (K2,), ())
    assert {k: r.forgotten_at for k, r in store.rows.items()} == {K1: STAMP, K2: None}
    events = reverted.plan.writes[0].events
    assert [(e["type"], e["removed"], e["restored"]) for e in events] == [
        ("memory.reverted", [K1], [K2])
    ]


def test_revert_to_the_same_text_plans_nothing() -> None:
    """A backup equal to MEMORY.md gives an empty plan."""
    reverted = plan_revert(_snapshot(HEAD + ONE), "b1", HEAD + ONE, now=NOW, date_line="D")
    assert (reverted.plan.writes, reverted.plan.store) == ((), None)
