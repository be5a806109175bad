"""State files: OpenClaw's shape reads as is; unknown fields survive; bad rows are reported."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.state import PHASE_SIGNALS, RECALL_STORE
from dreamd.store.statefiles import load_table

GOLDEN = (
    Path(__file__).parents[1] / "fixtures" / "openclaw-golden" / "workspace" / "memory" / ".dreams"
)


def test_openclaw_store_round_trips() -> None:
    """OpenClaw's store decodes cleanly; re-encoding keeps every value and only adds zero counts."""
    data = (GOLDEN / "short-term-recall.json").read_bytes()
    table, issues = RECALL_STORE.decode(data)
    assert issues == []
    assert len(table.rows) == 200
    original = json.loads(data)
    again = json.loads(RECALL_STORE.encode(table))
    assert again["updatedAt"] == original["updatedAt"]
    for key, row in original["entries"].items():
        written = again["entries"][key]
        assert {k: written[k] for k in row} == row
        assert {k: v for k, v in written.items() if k not in row} in ({}, {"groundedCount": 0})


def test_unknown_fields_are_kept() -> None:
    """Fields this version does not know, per row and top level, are written back."""
    raw = {
        "version": 1,
        "futureTop": {"a": 1},
        "entries": {
            "memory:memory/2026-01-01.md:1:1": {
                "path": "memory/2026-01-01.md",
                "startLine": 1,
                "endLine": 1,
                "source": "memory",
                "snippet": "A fact that is long enough.",
                "newField": [1, 2],
            }
        },
    }
    table, issues = RECALL_STORE.decode(json.dumps(raw).encode())
    out = json.loads(RECALL_STORE.encode(table))
    assert issues == []
    assert out["futureTop"] == {"a": 1}
    assert out["entries"]["memory:memory/2026-01-01.md:1:1"]["newField"] == [1, 2]


def test_invalid_rows_are_dropped_and_named() -> None:
    """Rows with bad lines, no path or a foreign source are reported and left out."""
    raw = {
        "version": 1,
        "entries": {
            "bad-lines": {"path": "memory/a.md", "startLine": 5, "endLine": 2, "snippet": "x"},
            "no-path": {"path": "", "startLine": 1, "endLine": 1, "snippet": "x"},
            "wrong-type": {"path": "memory/a.md", "startLine": "one", "endLine": 1, "snippet": "x"},
            "foreign": {
                "path": "memory/a.md",
                "startLine": 1,
                "endLine": 1,
                "snippet": "x",
                "source": "web",
            },
            "ok": {
                "path": "memory/a.md",
                "startLine": "2",
                "endLine": 2,
                "snippet": "fine text here",
            },
        },
    }
    table, issues = RECALL_STORE.decode(json.dumps(raw).encode())
    assert list(table.rows) == ["ok"]
    assert table.rows["ok"].start_line == 2
    assert len(issues) == 4


def test_newer_version_is_refused() -> None:
    """A file from a newer major format is not silently misread."""
    with pytest.raises(msgspec.DecodeError):
        PHASE_SIGNALS.decode(b'{"version": 99, "entries": {}}')


def test_corrupt_file_is_set_aside_and_rebuilt(tmp_path: Path) -> None:
    """Garbage in a state file is moved aside (kept) and an empty table is used."""
    state = tmp_path / "memory" / ".dreams"
    state.mkdir(parents=True)
    (state / "short-term-recall.json").write_bytes(b"{not json")
    table, warnings = load_table(tmp_path, RECALL_STORE)
    assert table.rows == {}
    assert len(warnings) == 1 and "moved to" in warnings[0]
    aside = list(state.glob("short-term-recall.json.corrupt-*"))
    assert [p.read_bytes() for p in aside] == [b"{not json"]
    assert not (state / "short-term-recall.json").exists()


def test_partly_bad_file_is_copied_aside(tmp_path: Path) -> None:
    """A file with some unreadable rows stays in place and an exact copy is kept aside."""
    state = tmp_path / "memory" / ".dreams"
    state.mkdir(parents=True)
    data = b'{"version": 1, "entries": {"x": {"path": "", "startLine": 1, "endLine": 1, "snippet": "s"}}}'
    (state / "short-term-recall.json").write_bytes(data)
    _, warnings = load_table(tmp_path, RECALL_STORE)
    assert any("original kept as" in w for w in warnings)
    assert [p.read_bytes() for p in state.glob("short-term-recall.json.corrupt-*")] == [data]


@given(st.binary(max_size=400))
def test_decoding_arbitrary_bytes_fails_cleanly(data: bytes) -> None:
    """Any bytes either decode to a table or raise DecodeError (then set aside), never crash."""
    try:
        table, issues = RECALL_STORE.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return
    assert isinstance(issues, list)
    assert all(row.start_line >= 1 for row in table.rows.values())


@given(
    st.dictionaries(
        st.text(max_size=8),
        st.one_of(
            st.none(), st.integers(), st.text(max_size=8), st.lists(st.integers(), max_size=3)
        ),
        max_size=6,
    )
)
def test_rows_of_any_shape_never_crash(row: dict[str, object]) -> None:
    """A row with arbitrary fields is either read or reported, never an exception."""
    document = {"version": 1, "entries": {"k": row}}
    table, issues = RECALL_STORE.decode(json.dumps(document).encode())
    assert len(table.rows) + len(issues) == 1


@pytest.mark.parametrize("empty", [b"null", b"false", b"0", b'""', b"[]", b"{}"])
def test_an_empty_rows_field_of_any_falsy_kind_is_no_rows(empty: bytes) -> None:
    """``"entries": null`` (or false, 0, "", []) reads as no rows, as an absent field does."""
    table, issues = RECALL_STORE.decode(
        b'{"version": 1, "x": [1, {"y": 2}], "entries": ' + empty + b"}"
    )
    assert (dict(table.rows), issues, dict(table.top)) == ({}, [], {"x": [1, {"y": 2}]})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[1, 2]", "expected a JSON object"),
        (b'{"entries": [1]}', "'entries' is not an object"),
        (b'{"entries": 7}', "'entries' is not an object"),
        (b'{"entries": {"k": ' + b"[" * 5000 + b"]" * 5000 + b"}}", "nested too deeply"),
    ],
)
def test_a_file_not_shaped_as_a_store_is_refused_whole(data: bytes, message: str) -> None:
    """Rows parsed one by one still refuse a file whose shape is wrong, with the same reason."""
    with pytest.raises(msgspec.DecodeError, match=message):
        RECALL_STORE.decode(data)


def test_rows_read_one_by_one_keep_their_order_fields_and_extras() -> None:
    """Every row, its unknown fields and the file's own fields come back as they were written."""
    rows = {
        f"memory/2026-01-0{n}.md:1:1": {
            "path": f"memory/2026-01-0{n}.md",
            "startLine": 1,
            "endLine": 1,
            "snippet": f"line {n}",
            "recallCount": n,
            **({"futureField": {"n": n}} if n % 2 else {}),
        }
        for n in (3, 1, 2)
    }
    document = {"version": 1, "updatedAt": "2026-01-04T00:00:00Z", "other": 5, "entries": rows}
    table, issues = RECALL_STORE.decode(json.dumps(document).encode())
    assert issues == []
    assert list(table.rows) == list(rows)
    assert [row.recall_count for row in table.rows.values()] == [3, 1, 2]
    assert dict(table.extras) == {
        "memory/2026-01-03.md:1:1": {"futureField": {"n": 3}},
        "memory/2026-01-01.md:1:1": {"futureField": {"n": 1}},
    }
    assert (table.updated_at, dict(table.top)) == ("2026-01-04T00:00:00Z", {"other": 5})
    assert json.loads(RECALL_STORE.encode(table))["entries"]["memory/2026-01-03.md:1:1"][
        "futureField"
    ] == {"n": 3}
