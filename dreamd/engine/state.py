"""Versioned machine state in ``memory/.dreams/``: the recall store, phase signals, checkpoints.

Each file is ``{"version": N, "updatedAt": ..., "<rows>": {key: row}}``. Rows are msgspec Structs
in the camelCase shape OpenClaw writes, so an OpenClaw ``short-term-recall.json`` reads as is.
Rules:

* Unknown fields survive: per-row and top-level fields this version does not know are kept in
  :attr:`Table.extras` / :attr:`Table.top` and written back unchanged.
* A row that cannot be read (wrong types, no path, bad line numbers, a source other than
  ``memory``) is dropped from the table and reported in ``issues``; the caller keeps a copy of
  the original file, so nothing is lost. Contaminated rows are kept: the gates reject them by
  category, so reports can count them.
* Decoding and encoding are pure; reading, setting aside and writing live in ``statefiles``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from dreamd.engine.origins import ORIGIN_CLASSES, SESSION_KINDS
from dreamd.layout import normalize_relpath

__all__ = [
    "DAILY_CHECKPOINTS",
    "FORGOTTEN",
    "NOTE_WARNINGS",
    "PHASE_SIGNALS",
    "RECALL_STORE",
    "SESSION_CHECKPOINTS",
    "SESSION_SEEN",
    "DailyCheckpoint",
    "PhaseSignal",
    "Provenance",
    "RecallEntry",
    "SeenMessages",
    "SessionCheckpoint",
    "Table",
    "TableFormat",
]


class Provenance(msgspec.Struct, kw_only=True, frozen=True, rename="camel"):
    """Where a recall came from; unknown origins read as ``untrusted``, kinds as ``unknown``.

    ``origin_rule`` is dreamd's own: which rule of
    :func:`dreamd.engine.transcripts.turn_origin` gave a transcript line its origin.
    """

    origin_class: str = "agent"
    session_kind: str = "interactive"
    observed_at: int | float | str | None = None
    supersedes_key: str | None = None
    origin_rule: str | None = None

    def __post_init__(self) -> None:
        if self.origin_class not in ORIGIN_CLASSES:
            msgspec.structs.force_setattr(self, "origin_class", "untrusted")
        if self.session_kind not in SESSION_KINDS:
            msgspec.structs.force_setattr(self, "session_kind", "unknown")


class RecallEntry(msgspec.Struct, kw_only=True, frozen=True, rename="camel"):
    """One short-term memory row: a snippet of a daily note and the signals it collected."""

    key: str
    path: str
    start_line: int
    end_line: int
    snippet: str
    source: str = "memory"
    recall_count: int = 0
    daily_count: int = 0
    grounded_count: int = 0
    total_score: float = 0.0
    max_score: float = 0.0
    first_recalled_at: str | None = None
    last_recalled_at: str | None = None
    query_hashes: tuple[str, ...] = ()
    recall_days: tuple[str, ...] = ()
    concept_tags: tuple[str, ...] = ()
    claim_hash: str | None = None
    promoted_at: str | None = None
    user_query_hashes: tuple[str, ...] | None = None
    project_key: str | None = None
    provenance: Provenance | None = None
    # dreamd's own: the MEMORY.md entry this row repeats (its marker key, or ``MEMORY.md#<claim
    # hash>`` for a person's line), and when its entry was forgotten on request (never again).
    duplicate_of: str | None = None
    forgotten_at: str | None = None
    # dreamd's own: when its entry left MEMORY.md for the budget (memory/archive.md holds it);
    # it may be promoted again once recalled after that
    archived_at: str | None = None

    @property
    def signal_count(self) -> int:
        """Every signal the row collected: recalls, daily ingestion and grounded replay."""
        return self.recall_count + self.daily_count + self.grounded_count


class PhaseSignal(msgspec.Struct, kw_only=True, frozen=True, rename="camel"):
    """Light/REM reinforcement of one recall key (hits capped at 9999)."""

    key: str
    light_hits: int = 0
    rem_hits: int = 0
    last_light_at: str | None = None
    last_rem_at: str | None = None
    last_rem_considered_at: str | None = None


class DailyCheckpoint(msgspec.Struct, kw_only=True, frozen=True, rename="camel"):
    """What daily ingestion last saw of one note, and on which dreaming day."""

    mtime_ms: float
    size: int
    last_dreaming_day_ingested: str | None = None


class SessionCheckpoint(
    msgspec.Struct, kw_only=True, frozen=True, rename="camel", omit_defaults=True
):
    """How far one transcript file was read: its stat, the byte offset read up to, the line
    count there, a hash of the bytes just before the offset (to notice a rewritten file) and
    the session kind found; ``shared`` once the session showed itself a group's (sticky).

    dreamd's own: ``backlog_since`` is the first day of the lookback when a cap left messages
    unread (they stay eligible, however many sweeps the file takes to drain), and ``guest``
    says the last user turn read was untrusted (the agent's next reply answers a guest).
    """

    mtime_ms: float
    size: int
    offset: int
    line_count: int
    anchor: str
    kind: str
    shared: bool = False
    backlog_since: str | None = None
    guest: bool = False


class SeenMessages(msgspec.Struct, kw_only=True, frozen=True, rename="camel"):
    """Hashes of messages already ingested from one logical session (newest kept)."""

    hashes: tuple[str, ...] = ()


RowT = TypeVar("RowT", bound=msgspec.Struct)
_RAW_OBJECT = dict[str, msgspec.Raw]  # a JSON object whose values are parsed later, one by one


@dataclass(frozen=True)
class Table(Generic[RowT]):
    """A state file in memory: rows by key plus whatever this version does not understand."""

    rows: Mapping[str, RowT]
    updated_at: str | None = None
    version: int = 1
    extras: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    top: Mapping[str, Any] = field(default_factory=dict)

    def with_rows(self, rows: Mapping[str, RowT], *, updated_at: str | None) -> Table[RowT]:
        """A copy with new rows; extras of rows that are gone are dropped."""
        extras = {key: value for key, value in self.extras.items() if key in rows}
        return Table(rows, updated_at, self.version, extras, self.top)


@dataclass(frozen=True)
class TableFormat(Generic[RowT]):
    """How one state file is laid out: its row type, rows field and current version."""

    name: str
    row_type: type[RowT]
    rows_field: str
    version: int = 1

    def empty(self) -> Table[RowT]:
        """A table with no rows."""
        return Table({}, None, self.version)

    def decode(self, data: bytes) -> tuple[Table[RowT], list[str]]:
        """Parse a file; raises ``msgspec.DecodeError`` when it is not a JSON object at all.

        Rows are parsed one at a time from their raw JSON (the file is checked whole first), so
        a store of tens of thousands of rows never holds a parsed copy of every row beside the
        rows themselves: peak memory is the file's bytes plus the rows kept.
        """
        try:
            raw = msgspec.json.decode(data, type=_RAW_OBJECT)
            top_level = {
                key: msgspec.json.decode(value)
                for key, value in raw.items()
                if key != self.rows_field
            }
        except RecursionError as exc:
            raise msgspec.DecodeError(f"{self.name}: JSON nested too deeply") from exc
        except msgspec.ValidationError as exc:  # valid JSON, but not an object
            raise msgspec.DecodeError(f"{self.name}: expected a JSON object") from exc
        version = top_level.get("version", 1)
        if not isinstance(version, int) or version > self.version:
            raise msgspec.DecodeError(f"{self.name}: unsupported version {version!r}")
        rows_raw = raw.get(self.rows_field)
        rows_json: dict[str, msgspec.Raw] = {}
        if rows_raw is not None:
            try:
                rows_json = msgspec.json.decode(rows_raw, type=_RAW_OBJECT)
            except msgspec.ValidationError:
                if msgspec.json.decode(rows_raw):  # null, false, 0, "" or [] read as no rows
                    raise msgspec.DecodeError(
                        f"{self.name}: {self.rows_field!r} is not an object"
                    ) from None
        del raw
        known = set(self.row_type.__struct_encode_fields__)
        rows: dict[str, RowT] = {}
        extras: dict[str, dict[str, Any]] = {}
        issues: list[str] = []
        for key, raw_value in rows_json.items():
            try:
                value = msgspec.json.decode(raw_value)
            except RecursionError as exc:
                raise msgspec.DecodeError(f"{self.name}: JSON nested too deeply") from exc
            row = self._decode_row(str(key), value, issues)
            if row is None:
                continue
            rows[str(key)] = row
            unknown = {k: v for k, v in value.items() if k not in known}
            if unknown:
                extras[str(key)] = unknown
        top = {
            k: v for k, v in top_level.items() if k not in {"version", "updatedAt", self.rows_field}
        }
        updated = top_level.get("updatedAt")
        table = Table(
            rows, updated if isinstance(updated, str) else None, self.version, extras, top
        )
        return table, issues

    def _decode_row(self, key: str, value: object, issues: list[str]) -> RowT | None:
        if not isinstance(value, dict):
            issues.append(f"{self.name}: row {key!r} is not an object; dropped")
            return None
        payload = dict(value)
        if "key" in self.row_type.__struct_encode_fields__:
            payload["key"] = key
        try:
            row = msgspec.convert(payload, self.row_type, strict=False)
        except msgspec.ValidationError as exc:
            issues.append(f"{self.name}: row {key!r} is invalid ({exc}); dropped")
            return None
        problem = _row_problem(row)
        if problem:
            issues.append(f"{self.name}: row {key!r} {problem}; dropped")
            return None
        return row

    def encode(self, table: Table[RowT]) -> bytes:
        """Serialise ``table`` (indented JSON, unknown fields merged back)."""
        rows: dict[str, Any] = {}
        for key, row in table.rows.items():
            data = _without_nulls(msgspec.to_builtins(row))
            for extra_key, extra_value in table.extras.get(key, {}).items():
                data.setdefault(extra_key, extra_value)
            rows[key] = data
        document: dict[str, Any] = {"version": self.version}
        if table.updated_at:
            document["updatedAt"] = table.updated_at
        document.update(table.top)
        document[self.rows_field] = rows
        return msgspec.json.format(msgspec.json.encode(document), indent=2) + b"\n"


def _without_nulls(value: Any) -> Any:
    """Optional fields that are unset are left out, as OpenClaw writes them."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    return value


def _row_problem(row: msgspec.Struct) -> str | None:
    if not isinstance(row, RecallEntry):
        return None
    if not row.path or normalize_relpath(row.path) != row.path:
        return "has no usable path"
    if row.start_line < 1 or row.end_line < row.start_line:
        return "has invalid line numbers"
    if row.source != "memory":
        return f"has source {row.source!r}, not 'memory'"
    return None


RECALL_STORE = TableFormat("short-term-recall.json", RecallEntry, "entries")
FORGOTTEN = "dreamdForgotten"
"""Top-level field of the recall store: ``[{"key", "text", "at"}]``, the entries forgotten on
request, kept even after their rows leave the store, so the same claim is never promoted again."""
NOTE_WARNINGS = "dreamdNoteWarnings"
"""Top-level field of the recall store: the notes the last sweep skipped or read with a
fallback, so ``status`` keeps showing them until they are fixed."""
PHASE_SIGNALS = TableFormat("phase-signals.json", PhaseSignal, "entries")
DAILY_CHECKPOINTS = TableFormat("daily-ingestion.json", DailyCheckpoint, "files")
SESSION_CHECKPOINTS = TableFormat("session-ingestion.json", SessionCheckpoint, "files")
SESSION_SEEN = TableFormat("session-seen.json", SeenMessages, "scopes")
