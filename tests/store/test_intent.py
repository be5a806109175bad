"""Events held ahead of a plan's writes: the log tells each write that landed, once."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.engine.text.snippets import content_hash
from dreamd.errors import ConflictError
from dreamd.store.events import EVENTS_FILE, event_lines, read_events
from dreamd.store.intent import (
    INTENT_FILE,
    HeldWrite,
    Intent,
    decode_intent,
    encode_intent,
    lines_due,
)
from dreamd.store.writer import apply_plan, settle_events

LINE_TEXT = st.text(
    st.characters(
        blacklist_categories=("Cs",),
        blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    ),
    min_size=1,
    max_size=30,
)


def _event(n: int, path: str) -> dict[str, object]:
    return {
        "type": "memory.dream.completed",
        "timestamp": f"2026-12-01T03:00:0{n}Z",
        "reportPath": path,
    }


def _fenced_after(renames: int) -> Callable[[], None]:
    """A fence that lets ``renames`` checks pass, then refuses (the lock was lost)."""
    calls = [0]

    def fence() -> None:
        calls[0] += 1
        if calls[0] > renames:
            raise ConflictError("fenced off: another host holds the workspace")

    return fence


@given(
    st.lists(
        st.tuples(
            LINE_TEXT,
            st.text("0123456789abcdef", min_size=64, max_size=64),
            st.lists(LINE_TEXT, max_size=3),
        ),
        max_size=4,
    ),
    st.integers(0, 2**40),
)
def test_an_intent_reads_back_as_written(
    writes: list[tuple[str, str, list[str]]], size: int
) -> None:
    held = [
        HeldWrite(path, digest, "".join(f"{line}\n" for line in lines).encode("utf-8"))
        for path, digest, lines in writes
    ]
    assert decode_intent(encode_intent(held, size)) == Intent(tuple(held), size)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"{",
        b"[]",
        b'{"version": 2, "logSize": 0, "writes": []}',
        b'{"version": 1, "logSize": -1, "writes": []}',
        b'{"version": 1, "logSize": 0, "writes": [{"path": "a"}]}',
        b"\xff\xfe",
    ],
)
def test_an_intent_cut_short_or_foreign_is_not_read(data: bytes) -> None:
    assert decode_intent(data) is None


def test_only_landed_writes_are_told_and_never_twice() -> None:
    landed = HeldWrite("a.md", "new-a", b'{"n":1}\n{"n":2}\n')
    missed = HeldWrite("b.md", "new-b", b'{"n":3}\n')
    intent = Intent((landed, missed), 10)
    digests = {"a.md": "new-a", "b.md": "old-b"}
    assert lines_due(intent, digests.get, b"") == b'{"n":1}\n{"n":2}\n'
    assert lines_due(intent, digests.get, b'{"other":0}\n{"n":1}\n') == b'{"n":2}\n'


def test_a_writer_fenced_off_half_way_leaves_its_events_to_the_next(tmp_path: Path) -> None:
    """The first rename lands, the fence then refuses; the next writer tells that write's
    events (and not those of the write that never landed), once, and drops the intent."""
    (tmp_path / "memory" / ".dreams").mkdir(parents=True)
    first = FileWrite(
        "memory/dreaming/light/2026-12-01.md", "light\n", None, "report", (_event(1, "light"),)
    )
    second = FileWrite(
        "memory/dreaming/rem/2026-12-01.md", "rem\n", None, "report", (_event(2, "rem"),)
    )
    fence = _fenced_after(2)  # the intent's rename, then the first report's
    with pytest.raises(ConflictError):
        apply_plan(tmp_path, SweepPlan(writes=(first, second)), fence=fence)
    assert (tmp_path / first.path).exists() and not (tmp_path / second.path).exists()
    assert (tmp_path / INTENT_FILE).exists()
    assert list(read_events(tmp_path)) == []

    assert settle_events(tmp_path) == 1
    assert settle_events(tmp_path) == 0  # settled once
    assert [e["reportPath"] for e in read_events(tmp_path)] == ["light"]
    assert not (tmp_path / INTENT_FILE).exists()


def test_a_crash_after_the_append_does_not_tell_it_twice(tmp_path: Path) -> None:
    """The intent outlived its append (a crash before it was removed): settling adds nothing."""
    write = FileWrite(
        "memory/dreaming/deep/2026-12-01.md", "deep\n", None, "report", (_event(3, "deep"),)
    )
    apply_plan(tmp_path, SweepPlan(writes=(write,)))
    assert not (tmp_path / INTENT_FILE).exists()
    log = (tmp_path / EVENTS_FILE).read_bytes()
    held = HeldWrite(write.path, content_hash(b"deep\n"), event_lines(write.events))
    (tmp_path / INTENT_FILE).write_bytes(encode_intent([held], 0))
    apply_plan(tmp_path, SweepPlan())  # the next writer settles first
    assert (tmp_path / EVENTS_FILE).read_bytes() == log
    assert not (tmp_path / INTENT_FILE).exists()


def test_a_damaged_intent_is_dropped_and_the_apply_goes_on(tmp_path: Path) -> None:
    (tmp_path / "memory" / ".dreams").mkdir(parents=True)
    (tmp_path / INTENT_FILE).write_bytes(b'{"version": 1, "logSize": 0, "wri')
    write = FileWrite(
        "memory/dreaming/deep/2026-12-01.md", "deep\n", None, "report", (_event(4, "deep"),)
    )
    result = apply_plan(tmp_path, SweepPlan(writes=(write,)))
    assert result.events == 1
    assert [e["reportPath"] for e in read_events(tmp_path)] == ["deep"]
    assert not (tmp_path / INTENT_FILE).exists()


def test_an_intent_naming_a_path_outside_the_workspace_tells_nothing(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("x")
    root = tmp_path / "ws"
    (root / "memory" / ".dreams").mkdir(parents=True)
    held = HeldWrite("../outside.md", content_hash(b"x"), b'{"type":"forged"}\n')
    (root / INTENT_FILE).write_bytes(encode_intent([held], 0))
    assert settle_events(root) == 0
    assert not (root / EVENTS_FILE).exists() or b"forged" not in (root / EVENTS_FILE).read_bytes()
    assert json.loads(encode_intent([], 0))["writes"] == []
