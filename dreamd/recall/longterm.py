"""The long-term layer (§15, seed 004): rows that leave the 512-row recall store, kept, queryable.

Rules:

- A row *retires* from the short-term store when its last recall is more than
  :data:`RETIRE_AFTER_DAYS` days old and it has fewer than :data:`RETIRE_BELOW_RECALLS` recalls
  (reason ``stale``); a row the 512-row cap evicts retires too (reason ``evicted``), so nothing
  leaves the store without landing here. A row whose last recall cannot be read stays.
- A retired row is stored as the store had it (every field, unknown ones included; redaction
  comes later), plus ``retiredAt`` and ``reason``, one JSON object per line. The file only grows;
  when a key retires twice, the later line wins; unreadable lines (a torn last line) are skipped
  and reported, never fatal.
- :func:`query_longterm` ranks retired rows for a query with the same analysis and scoring as
  search (stems, coverage, BM25; no neighbours). :func:`consolidation_query` turns the strongest
  entries of a day into the keywords the deep phase asks the layer with before it consolidates.

Pure: time is passed in; reading and appending the file is :mod:`dreamd.recall.longterm_file`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from dreamd.clock import age_days, format_instant
from dreamd.layout import daily_note_day, is_short_term_path
from dreamd.recall.analysis import stems, words
from dreamd.recall.candidates import Row
from dreamd.recall.hits import Hit
from dreamd.recall.query import parse_query
from dreamd.recall.ranking import rank_rows
from dreamd.recall.retain import mentions
from dreamd.recall.traces import MAX_STORE_ENTRIES, trim_store
from dreamd.state import RecallEntry

__all__ = [
    "RETIRE_AFTER_DAYS",
    "RETIRE_BELOW_RECALLS",
    "Retired",
    "consolidation_query",
    "decode_lines",
    "encode_lines",
    "plan_retirement",
    "query_longterm",
    "recall_for_consolidation",
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
    kept, dropped = trim_store(fresh, limit)
    retired += [Retired(fresh[key], stamp, "evicted", extras.get(key, {})) for key in dropped]
    return kept, tuple(retired)


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


def query_longterm(
    rows: Iterable[Retired],
    query: str,
    *,
    k: int,
    now: datetime,
    first_day: str | None = None,
    last_day: str | None = None,
    kinds: Iterable[str] | None = None,
    entity: str | None = None,
) -> list[Hit]:
    """The ``k`` retired rows that best match ``query``, as hits (scores in [0, 1]).

    Filters work as in search: days of dated notes, the file kind, an ``@entity`` tag.
    """
    parsed = parse_query(query, today=now.date())
    if not parsed.terms or k <= 0:
        return []
    allowed = frozenset(kinds) if kinds is not None else None
    wanted_entity = entity.lstrip("@").lower() if entity else None
    wanted = set(parsed.stems)
    documents = 0
    frequency = dict.fromkeys(wanted, 0)
    candidates: list[Row] = []
    for number, row in enumerate(rows):
        entry = row.entry
        documents += 1
        present = wanted.intersection(stems(entry.snippet))
        for stem in present:
            frequency[stem] += 1
        day = daily_note_day(entry.path)
        kind = "daily" if is_short_term_path(entry.path) else "note"
        tags = [name.lower() for name in mentions(entry.snippet)]
        if (
            present
            and (day is None or ((first_day or day) <= day <= (last_day or day)))
            and (allowed is None or kind in allowed)
            and (wanted_entity is None or wanted_entity in tags)
        ):
            # Ids two apart: retired rows are never each other's neighbours.
            candidates.append(
                Row(2 * number, entry.path, entry.start_line, entry.end_line, "", "",
                    entry.snippet, "", day, kind, None, " ".join(tags))
            )  # fmt: skip
    ranked = rank_rows(
        parsed,
        candidates,
        documents=max(documents, 1),
        frequency=frequency,
        names=frozenset(),
        today=now.date(),
        span=2 * k,
    )
    return [
        Hit(
            r.row.path, r.row.start_line, r.row.end_line, r.row.text, r.score, r.row.kind, r.row.day
        )
        for r in ranked[:k]
    ]


def consolidation_query(entries: Sequence[RecallEntry], *, strongest: int = 5) -> str:
    """Keywords of the strongest entries (by max score, then recalls): the deep phase's query.

    Each entry gives its concept tags (its snippet's words when it has none), strongest first,
    each keyword once.
    """
    ranked = sorted(entries, key=lambda e: (-e.max_score, -e.recall_count, e.key))[:strongest]
    keywords: dict[str, None] = {}
    for entry in ranked:
        for word in entry.concept_tags or tuple(words(entry.snippet)):
            keywords.setdefault(word.lower(), None)
    return " ".join(keywords)


def recall_for_consolidation(
    rows: Iterable[Retired],
    strongest: Sequence[RecallEntry],
    *,
    now: datetime,
    k: int = 5,
) -> list[Hit]:
    """The retired memories related to a day's strongest entries: the deep phase's context."""
    return query_longterm(rows, consolidation_query(strongest), k=k, now=now)
