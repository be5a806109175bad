"""Property tests for the parsers without one elsewhere: never crash, round-trip where it applies.

Already covered elsewhere (not repeated here): config text (test_config), chat ``parse``
(test_chat), ``replace_block``/``read_block`` (test_blocks), ``parse_retain`` (test_retain),
state-file decoding (test_state), statements (test_grounded), chunking and dates (test_chunks,
test_recall_chunking, test_recall_analysis).
"""

from __future__ import annotations

import contextlib
import json
import string
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dreamd.chat.router import COMMANDS, POLICY, Actor, command_key, parse
from dreamd.clock import resolve_timezone
from dreamd.config import ConfigError, load_config, parse_config
from dreamd.engine.phases.consolidate import RejectedPlan, parse_operations
from dreamd.engine.phases.diary import add_entry, diary_entries, render_entry
from dreamd.engine.phases.narrative import clean_entry
from dreamd.engine.phases.promotion import (
    PromotionEntry,
    append_promotions,
    promoted_keys,
)
from dreamd.engine.phases.promotion import render_entry as render_promotion
from dreamd.engine.state import RECALL_STORE
from dreamd.engine.text.blocks import (
    blank_managed,
    end_marker,
    find_blocks,
    managed_spans,
    start_marker,
)
from dreamd.engine.transcripts import Record, parse_records, session_kind, spoken
from dreamd.errors import DreamdError
from dreamd.host.schedule import missed_fire, next_fire
from dreamd.model.client import ModelReplyError, _text_of
from dreamd.recall.retain import KINDS, parse_fact
from dreamd.workspace.reader import read_text
from tests import strategies

FAST = settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BLOCK_NAMES = ["light", "rem", "deep", "diary", "x"]
block_line = st.one_of(
    strategies.line,
    st.sampled_from(BLOCK_NAMES).map(start_marker),
    st.sampled_from(BLOCK_NAMES).map(end_marker),
    st.sampled_from(["# Top", "## Light Sleep", "### Deep", "```", "<!-- dreamd:dreaming:deep"]),
)
blocky_text = st.lists(block_line, max_size=30).map("\n".join)
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_value = st.recursive(
    json_scalar,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["text", "type", "content", "message", "role", "choices", "x"])
            | st.text(max_size=6),
            inner,
            max_size=4,
        )
    ),
    max_leaves=10,
)


# --- Markdown notes -------------------------------------------------------------------------


@SLOW
@given(st.binary(max_size=600) | strategies.note.map(lambda s: s.encode("utf-8", "surrogatepass")))
def test_any_note_bytes_read_as_text_without_nul(data: bytes) -> None:
    """Any bytes in a daily note read back as text; NUL is gone when asked; validity is told."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        (root / "memory").mkdir()
        (root / "memory" / "2026-11-20.md").write_bytes(data)
        note = read_text(root, "memory/2026-11-20.md", strip_nul=True)
    assert "\x00" not in note.text
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert not note.valid_utf8
    else:
        assert note.valid_utf8
        assert note.text == data.decode("utf-8").replace("\x00", "")


# --- Managed blocks --------------------------------------------------------------------------


@FAST
@given(blocky_text | st.text(max_size=300))
def test_found_blocks_are_ordered_disjoint_and_inside(text: str) -> None:
    """Blocks are in file order, never overlap, and lie inside the text."""
    lines = text.split("\n")
    previous = -1
    for block in find_blocks(lines):
        assert previous < block.first <= block.start <= block.end < len(lines)
        previous = block.end
    for first, last in managed_spans(text):
        assert 0 <= first <= last < len(lines)


@FAST
@given(blocky_text | st.text(max_size=300))
def test_blanking_keeps_the_line_count_and_is_idempotent(text: str) -> None:
    """Blanking managed blocks keeps every line number and leaves no marker behind."""
    blanked = blank_managed(text)
    assert blanked.count("\n") == text.count("\n")
    assert blank_managed(blanked) == blanked
    assert managed_spans(blanked) == []


# --- Promotion markers ------------------------------------------------------------------------

key_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1
).filter(lambda k: "-->" not in k and ">" not in k[-1:])
entry_text = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=80)


def _entry(key: str, text: str, score: float, tags: list[str]) -> PromotionEntry:
    return PromotionEntry(key, text, score, 3, 4, 0.5, "memory/2026-11-20.md", 4, 5, tuple(tags))


@FAST
@given(key_text, entry_text, st.floats(0, 1), st.lists(st.text(max_size=20), max_size=4))
def test_promotion_marker_round_trips_its_key(
    key: str, text: str, score: float, tags: list[str]
) -> None:
    """The key in a rendered marker is read back; the entry line never opens a marker."""
    marker, line = render_promotion(_entry(key, text, score, tags))
    assert promoted_keys(marker) == {key}
    assert promoted_keys(line) == frozenset()
    assert "\n" not in marker


@SLOW
@example(existing="\x0c", entries=[("0", "0")], max_chars=130, max_loss=0.0)  # a form feed alone
@example(existing="  \n", entries=[("0", "0")], max_chars=130, max_loss=0.0)
@given(
    st.one_of(strategies.note, blocky_text, st.text(max_size=200)),
    st.lists(
        st.tuples(key_text, entry_text.filter(str.strip)), max_size=4, unique_by=lambda e: e[0]
    ),
    st.integers(0, 3000),
    st.floats(0, 1),
)
def test_appending_promotions_keeps_human_lines_and_writes_each_marker_once(
    existing: str, entries: list[tuple[str, str]], max_chars: int, max_loss: float
) -> None:
    """Appended entries carry their marker once; no human line outside generated sections is lost."""
    result = append_promotions(
        existing,
        [_entry(k, t, 0.8, []) for k, t in entries],
        day="2026-11-20",
        max_chars=max_chars,
        max_loss=max_loss,
    )
    assert set(result.appended) | set(result.deferred) == {k for k, _ in entries}
    for key in result.appended:
        assert promoted_keys(result.text) >= {key}
        assert result.text.count(f"dreamd-memory-promotion:{key} -->") == 1
    if not result.compacted_days:
        assert result.text.startswith(existing.rstrip("\r\n"))


# --- Retain lines ----------------------------------------------------------------------------


@FAST
@given(
    st.sampled_from(sorted(KINDS)),
    st.text(alphabet=string.ascii_letters + string.digits + " .,'", min_size=1, max_size=60),
    st.one_of(st.none(), st.floats(0, 1).map(lambda c: round(c, 2))),
)
def test_retain_fact_round_trips(kind: str, text: str, confidence: float | None) -> None:
    """A rendered Retain bullet parses back to its kind, text and confidence."""
    if not text.strip():
        return
    head = f"{kind}(c={confidence})" if confidence is not None and kind == "O" else kind
    fact = parse_fact(f"- {head}: {text}", number=3, day="2026-11-20")
    assert fact is not None
    assert (fact.kind, fact.text, fact.line) == (KINDS[kind], text.strip(), 3)
    assert fact.confidence == (confidence if kind == "O" else None)


# --- Session transcripts --------------------------------------------------------------------


@FAST
@given(st.binary(max_size=500), st.integers(0, 10_000), st.integers(1, 50))
def test_transcript_bytes_never_crash_and_positions_are_sane(
    data: bytes, start: int, first_line: int
) -> None:
    """Any bytes give records at increasing lines, each ending on a newline inside the data."""
    records = parse_records(data, start=start, first_line=first_line)
    lines = [r.line for r in records]
    assert lines == sorted(set(lines))
    for record in records:
        assert first_line <= record.line
        assert data[record.end - start - 1 : record.end - start] == b"\n"
    list(spoken(records))
    session_kind(records, None)


@SLOW
@given(
    st.lists(st.one_of(st.dictionaries(st.text(max_size=6), json_value, max_size=4), json_value)),
    st.booleans(),
)
def test_transcript_objects_round_trip_and_partial_tail_waits(
    values: list[Any], cut_tail: bool
) -> None:
    """Every complete JSON-object line is read back as written; a line without newline waits."""
    body = b"".join(json.dumps(v).encode() + b"\n" for v in values)
    tail = b'{"type": "message"' if cut_tail else b""
    records = parse_records(body + tail)
    assert [r.data for r in records] == [v for v in values if isinstance(v, dict)]
    assert all(r.end <= len(body) for r in records)


@SLOW
@given(st.lists(json_value, max_size=6), st.one_of(st.none(), st.text(max_size=10)))
def test_spoken_and_kind_accept_records_of_any_shape(values: list[Any], kind: str | None) -> None:
    """Messages of any shape are read or ignored; roles are only user and assistant."""
    records = [
        Record(i + 1, 10 * (i + 1), {"type": "message", "message": v}) for i, v in enumerate(values)
    ]
    records += [Record(99, 999, {"type": "session", "sessionKind": v}) for v in values[:1]]
    for message in spoken(records):
        assert message.role in ("user", "assistant")
        assert isinstance(message.text, str)
    assert isinstance(session_kind(records, kind), str)


# --- Config ----------------------------------------------------------------------------------


@SLOW
@given(st.binary(max_size=200))
def test_config_file_of_any_bytes_is_a_config_or_a_config_error(data: bytes) -> None:
    """A config file holding any bytes (invalid UTF-8 included) loads or fails naming itself."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "dreamd.toml"
        path.write_bytes(data)
        message = str(path)
        try:
            load_config(path)
        except ConfigError as exc:
            message = str(exc)
    assert message.startswith(str(path))


# --- Chat commands ---------------------------------------------------------------------------

word = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1
)


@FAST
@given(st.sampled_from(sorted(COMMANDS)), st.lists(word, max_size=6), st.sampled_from(["", "  "]))
def test_chat_command_words_round_trip(name: str, args: list[str], pad: str) -> None:
    """``/name a b c`` parses back to the same name and words; its key is in the policy."""
    text = pad + " ".join([f"/{name.upper()}", *args]) + pad
    invocation = parse(text, actor=Actor("1"), platform="t")
    assert invocation is not None
    assert (invocation.command, invocation.args) == (name, tuple(args))
    assert command_key(invocation) in POLICY


# --- Cron and timezone strings --------------------------------------------------------------

cron_field = st.one_of(
    st.sampled_from(["*", "*/5", "0", "3", "1-5", "MON", "JAN", "L", "?", "#", "60", "-1", ","]),
    st.text(alphabet="0123456789*/-,LW#?", min_size=1, max_size=5),
)
cron_text = st.one_of(
    st.lists(cron_field, min_size=0, max_size=7).map(" ".join), st.text(max_size=30)
)


@FAST
@given(cron_text)
def test_cron_strings_are_rejected_cleanly_or_schedule(expression: str) -> None:
    """A cron string is a ConfigError, or it yields fires strictly later than the anchor."""
    text = f'[dreaming]\nfrequency = {json.dumps(expression)}\ntimezone = "UTC"\n'
    try:
        parse_config(text, source="fuzz.toml")
    except ConfigError as exc:
        error = str(exc)
        assert error.startswith("fuzz.toml")
        return
    after = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    fire = next_fire(expression, UTC, after)
    assert fire > after
    missed = missed_fire(expression, UTC, after - timedelta(days=1), after)
    assert missed is None or after - timedelta(days=1) < missed <= after


zone_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "Europe",
            "America/",
            "../etc/passwd",
            "/etc/localtime",
            "Europe/Berlin\x00",
            "UTC+2",
            "Etc/GMT+99",
            "zone.tab",
            "tzdata.zi",
            "Europe//Berlin",
            "utc",
            " Europe/Berlin",
        ]
    ),
)


@FAST
@given(zone_text)
def test_timezone_strings_are_a_zone_or_a_config_error(name: str) -> None:
    """Any timezone name resolves to a zone or raises ConfigError naming the key."""
    try:
        zone = resolve_timezone(name)
    except ConfigError as exc:
        error = str(exc)
        assert error.startswith("dreaming.timezone")
        return
    assert datetime(2026, 11, 20, tzinfo=UTC).astimezone(zone).utcoffset() is not None


# --- Model replies ---------------------------------------------------------------------------


@FAST
@given(st.dictionaries(st.sampled_from(["choices", "usage", "model", "x"]), json_value, max_size=3))
def test_chat_completion_answers_of_any_shape(reply: dict[str, Any]) -> None:
    """A server answer of any shape gives non-empty text or a ModelReplyError."""
    try:
        text = _text_of(reply)
    except ModelReplyError:
        return
    assert isinstance(text, str) and text.strip()


@FAST
@given(st.lists(json_value, max_size=4))
def test_content_parts_of_any_shape(parts: list[Any]) -> None:
    """A content list with parts of any shape is joined or refused, never a TypeError."""
    reply = {"choices": [{"message": {"role": "assistant", "content": parts}}]}
    try:
        text = _text_of(reply)
    except ModelReplyError:
        return
    assert isinstance(text, str)


operation = st.fixed_dictionaries(
    {},
    optional={
        "candidateKey": st.sampled_from(["k1", "k2", "zz"]) | json_value,
        "action": st.sampled_from(["kept", "merged", "superseded", "dropped", "x"]) | json_value,
        "priorEntries": st.lists(st.text(max_size=10), max_size=2) | json_value,
    },
)
plan_reply = st.one_of(
    st.text(max_size=200),
    json_value.map(json.dumps),
    st.lists(operation | json_value, max_size=3).map(lambda ops: json.dumps({"operations": ops})),
    st.lists(operation, max_size=3).map(lambda ops: "```json\n" + json.dumps({"operations": ops})),
)


@FAST
@given(plan_reply, st.lists(st.sampled_from(["k1", "k2"]), unique=True))
def test_consolidation_replies_are_a_plan_or_a_reason(reply: str, keys: list[str]) -> None:
    """Any reply is a list of known operations, one per candidate, or a refusal with a reason."""
    result = parse_operations(reply, keys)
    if isinstance(result, RejectedPlan):
        assert result.reason
        return
    assert sorted(op.key for op in result) == sorted(keys)


@FAST
@given(st.text(max_size=2000) | strategies.note)
def test_diary_replies_are_clean_or_refused(reply: str) -> None:
    """A diary reply is refused or cleaned into one line of 20..300 words, no markup left."""
    entry = clean_entry(reply)
    if entry is not None:
        assert 20 <= len(entry.split()) <= 300
        assert "\n" not in entry and "<!--" not in entry and "`" not in entry


@FAST
@given(
    st.one_of(blocky_text, strategies.note, st.text(max_size=200)),
    st.text(alphabet=string.ascii_letters + " .,", min_size=1, max_size=80).filter(str.strip),
)
def test_diary_entry_round_trips(dreams: str, text: str) -> None:
    """An entry added to any DREAMS.md text is the diary's last entry afterwards."""
    entry = render_entry("November 20, 2026", text)
    after = add_entry(dreams, entry)
    assert diary_entries(after)[-1] == entry.removeprefix("---").strip()
    assert len(diary_entries(add_entry(after, entry))) == len(diary_entries(after)) + 1


def test_every_parser_error_is_a_dreamd_error() -> None:
    """The errors the properties above accept are all part of the DreamdError tree."""
    assert issubclass(ConfigError, DreamdError)
    assert issubclass(ModelReplyError, DreamdError)


@SLOW
@given(st.integers(1, 20_000), st.sampled_from(["[", '{"a":', '{"operations":[']))
def test_deeply_nested_json_is_refused_cleanly(depth: int, opener: str) -> None:
    """JSON nested past the decoder's depth limit is a broken line, a refused plan or a corrupt
    state file, never a RecursionError."""
    text = opener * depth
    assert parse_records(text.encode() + b"\n") == []
    assert isinstance(parse_operations(text, ["k1"]), RejectedPlan)
    with contextlib.suppress(msgspec.DecodeError):
        RECALL_STORE.decode(text.encode())
    closed = "[" * depth + "]" * depth
    assert parse_records(closed.encode() + b"\n") == []
    assert isinstance(parse_operations(closed, ["k1"]), RejectedPlan)
    with contextlib.suppress(msgspec.DecodeError):
        RECALL_STORE.decode(closed.encode())
