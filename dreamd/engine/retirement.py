"""Retirement from the recall store (§15, seed 004): which rows leave it, and how they are kept.

Rules:

- A row *retires* from the short-term store when its last recall is more than
  :data:`RETIRE_AFTER_DAYS` days old and it has fewer than :data:`RETIRE_BELOW_RECALLS` recalls
  (reason ``stale``); a row the 512-row cap evicts retires too (reason ``evicted``), so nothing
  leaves the store without landing in the long-term layer. A row whose last recall cannot be
  read stays.
- A retired row is stored as the store had it (every field, unknown ones included; redaction
  comes later), plus ``retiredAt`` and ``reason``, one JSON object per line
  (:func:`encode_lines`, :func:`decode_lines`): when a key retires twice, the later line wins;
  unreadable lines (a torn last line) are skipped and reported, never fatal.

Pure: time is passed in. Querying the layer is :mod:`dreamd.recall.longterm`; reading and
appending its file, :mod:`dreamd.store.longterm`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from dreamd.clock import age_days, format_instant
from dreamd.engine.state import RecallEntry
from dreamd.engine.traces import MAX_STORE_ENTRIES, trim_store

__all__ = [
    "RETIRE_AFTER_DAYS",
    "RETIRE_BELOW_RECALLS",
    "Retired",
    "decode_lines",
    "encode_lines",
    "is_stale",
    "plan_retirement",
    "retire_over_cap",
]

RETIRE_AFTER_DAYS = 30.0
RETIRE_BELOW_RECALLS = 3


@dataclass(frozen=True, slots=True)
class Retired:
    """One row of the long-term layer: the store's row, when and why it left."""

    entry: RecallEntry
    retired_at: str
    reason: str
    extras: Mapping[str, Any] = field(default_factory=dict)


def is_stale(entry: RecallEntry, now: datetime) -> bool:
    """True when ``entry`` has aged out of the short-term store (see the module rules)."""
    if entry.recall_count >= RETIRE_BELOW_RECALLS or entry.last_recalled_at is None:
        return False
    age = age_days(now, entry.last_recalled_at)
    return RETIRE_AFTER_DAYS < age < float("inf")


def plan_retirement(
    rows: Mapping[str, RecallEntry],
    *,
    now: datetime,
    extras: Mapping[str, Mapping[str, Any]] | None = None,
    evicted: Iterable[RecallEntry] = (),
    limit: int = MAX_STORE_ENTRIES,
) -> tuple[dict[str, RecallEntry], tuple[Retired, ...]]:
    """The rows the store keeps, and those that retire: stale ones, then any over ``limit``.

    ``evicted`` are rows the cap already removed elsewhere (``RecordOutcome.evicted``).
    """
    stamp = format_instant(now)
    extras = extras or {}
    retired = [Retired(e, stamp, "evicted", extras.get(e.key, {})) for e in evicted]
    fresh = {key: entry for key, entry in rows.items() if not is_stale(entry, now)}
    retired += [
        Retired(entry, stamp, "stale", extras.get(key, {}))
        for key, entry in sorted(rows.items())
        if key not in fresh
    ]
    kept, over = retire_over_cap(fresh, stamp=stamp, extras=extras, limit=limit)
    return kept, (*retired, *over)


def retire_over_cap(
    rows: Mapping[str, RecallEntry],
    *,
    stamp: str,
    extras: Mapping[str, Mapping[str, Any]],
    limit: int = MAX_STORE_ENTRIES,
) -> tuple[dict[str, RecallEntry], tuple[Retired, ...]]:
    """The ``limit`` rows the store keeps (:func:`trim_store`), and the rest retired at ``stamp``
    (``evicted``)."""
    kept, dropped = trim_store(rows, limit)
    return kept, tuple(Retired(rows[key], stamp, "evicted", extras.get(key, {})) for key in dropped)


def encode_lines(rows: Iterable[Retired]) -> bytes:
    """JSON lines for ``rows``: the store's row (nulls left out) plus ``retiredAt``, ``reason``."""
    lines = []
    for row in rows:
        data = {k: v for k, v in msgspec.to_builtins(row.entry).items() if v is not None}
        for key, value in row.extras.items():
            data.setdefault(key, value)
        data["retiredAt"] = row.retired_at
        data["reason"] = row.reason
        lines.append(msgspec.json.encode(data) + b"\n")
    return b"".join(lines)


def decode_lines(data: bytes) -> tuple[dict[str, Retired], list[str]]:
    """The rows of a long-term file by key (the last line of a key wins) and what was skipped."""
    rows: dict[str, Retired] = {}
    issues: list[str] = []
    known = set(RecallEntry.__struct_encode_fields__)
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            raw = msgspec.json.decode(line)
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
            issues.append(f"line {number}: unreadable ({exc}); skipped")
            continue
        if not isinstance(raw, dict):
            issues.append(f"line {number}: not a JSON object; skipped")
            continue
        try:
            entry = msgspec.convert(
                {k: v for k, v in raw.items() if k in known}, RecallEntry, strict=False
            )
        except msgspec.ValidationError as exc:
            issues.append(f"line {number}: not a recall row ({exc}); skipped")
            continue
        if not entry.path or entry.start_line < 1 or entry.end_line < entry.start_line:
            issues.append(f"line {number}: no usable path or lines; skipped")
            continue
        extras = {k: v for k, v in raw.items() if k not in known and k not in _OWN}
        stamp, reason = raw.get("retiredAt"), raw.get("reason")
        rows[entry.key] = Retired(
            entry,
            stamp if isinstance(stamp, str) else "",
            reason if isinstance(reason, str) else "",
            extras,
        )
    return rows, issues


_OWN = frozenset({"retiredAt", "reason"})
