"""Recall traces: how a surfaced snippet becomes (or reinforces) a row of the recall store.

Pure: :func:`record_hits` takes a store and returns a new one. Rules, in the order applied:

* Only short-term paths are recorded; others come back as ``skipped`` (``MEMORY.md`` hits
  among them). Contaminated snippets are skipped too, and so are snippets holding a secret or
  personal data, or a mask where one was (:mod:`dreamd.redaction`: a hit from the redacted
  index or session corpus): they never enter the store, reports, MEMORY.md or a model prompt.
  With ``redacted`` (the hits were cut from the recall index, redacted under the rules in
  force) only the mask check runs: the secret check would find nothing new.
* A hit lands on the claim-keyed row (``<key>:<claimHash>``) when one exists, else the base key.
  With ``claim_keys`` (daily-note ingestion, as OpenClaw 2026.9 does it) a ``daily`` hit is keyed
  by its text alone, ``memory:claim:<hash>`` (the first path and lines that said it are kept),
  unless a recalled or grounded row already holds the same claim; any other hit whose text has
  a ``memory:claim:`` row lands on that row.
* ``recall`` signals add ``recallCount``; ``daily`` signals ``dailyCount``; ``grounded``
  signals add ``n`` to ``groundedCount`` and ``score * n`` to ``totalScore``.
* With ``dedupe_per_day`` (ingestion), a query already recorded on the same day changes nothing.
* Only interactive recalls from an ``owner``/``agent`` origin add user query hashes (so do
  grounded signals, which an operator stages on purpose; ingestion never does); taint is
  sticky: a row once recorded from an ``untrusted``/``system`` origin keeps that origin. A
  session-corpus snippet holding a guest's line (``[agent/session#L3] Guest: …``: a turn that
  was not an owner's in a shared session) is ``untrusted`` whoever recalls it, and so is a
  live-intake log snippet holding a guest's message (:func:`dreamd.engine.intake.is_guest_line`).
* The store keeps at most 512 rows: the oldest ``lastRecalledAt`` goes first, then the fewest
  signals, then the lowest score. Evicted rows come back in ``RecordOutcome.evicted`` so the
  shell can move them to the long-term layer (:mod:`dreamd.recall.longterm`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from msgspec.structs import replace

from dreamd.clock import format_instant, parse_day
from dreamd.engine.hits import Hit
from dreamd.engine.intake import LOGS_DIR, is_guest_line
from dreamd.engine.recordable import PendingSearch, skip_reason
from dreamd.engine.state import Provenance, RecallEntry, Table
from dreamd.engine.text.concepts import concept_tags
from dreamd.engine.text.snippets import cap, claim_hash, openclaw_claim_hash, query_hash
from dreamd.layout import SESSION_CORPUS_DIR, daily_note_day, normalize_relpath

__all__ = [
    "MAX_QUERY_HASHES",
    "MAX_RECALL_DAYS",
    "MAX_STORE_ENTRIES",
    "RecordOutcome",
    "Signal",
    "base_key",
    "record_hits",
    "replay_pending",
    "synthetic_query_hashes",
    "trim_store",
    "user_query_hashes",
]

MAX_STORE_ENTRIES = 512
MAX_QUERY_HASHES = 32
MAX_RECALL_DAYS = 16
DAILY_QUERY_PREFIX = "__dreaming_daily__:"
SESSIONS_QUERY_PREFIX = "__dreaming_sessions__:"
TAINTED_ORIGINS = frozenset({"untrusted", "system"})
CLAIM_KEY_PREFIX = "memory:claim:"

Signal = Literal["recall", "daily", "grounded"]


@dataclass(frozen=True)
class RecordOutcome:
    """What one recording did: keys touched, hits skipped and why."""

    recorded: tuple[str, ...]
    unchanged: tuple[str, ...]
    skipped: tuple[tuple[Hit, str], ...]
    dropped: tuple[str, ...]  # rows evicted by the 512-row cap
    evicted: tuple[RecallEntry, ...] = ()  # those rows, for the long-term layer


def base_key(path: str, start_line: int, end_line: int) -> str:
    """``memory:<path>:<start>:<end>``."""
    return f"memory:{path}:{start_line}:{end_line}"


def synthetic_query_hashes(entry: RecallEntry) -> frozenset[str]:
    """Hashes of the ingestion queries that may have touched ``entry`` (recomputed, not stored)."""
    days = set(entry.recall_days)
    note_day = daily_note_day(entry.path)
    if note_day:
        days.add(note_day)
    return frozenset(
        query_hash(prefix + day)
        for day in days
        for prefix in (DAILY_QUERY_PREFIX, SESSIONS_QUERY_PREFIX)
    )


def user_query_hashes(entry: RecallEntry) -> tuple[str, ...]:
    """Distinct interactive query hashes; legacy rows fall back to non-synthetic query hashes."""
    if entry.user_query_hashes is not None:
        return entry.user_query_hashes
    synthetic = synthetic_query_hashes(entry)
    return tuple(h for h in entry.query_hashes if h not in synthetic)


def _merge_tail(values: Sequence[str], new: str, limit: int) -> tuple[str, ...]:
    merged = [value for value in values if value != new] + [new]
    return tuple(merged[-limit:])


def _merge_day(days: Sequence[str], day: str) -> tuple[str, ...]:
    merged = sorted({d for d in (*days, day) if parse_day(d) is not None})
    return tuple(merged[-MAX_RECALL_DAYS:])


def _provenance(
    existing: Provenance | None, origin: str, kind: str, now: datetime, rule: str | None
) -> Provenance:
    observed = int(now.timestamp() * 1000)
    if existing is not None and existing.origin_class in TAINTED_ORIGINS:
        return replace(existing, observed_at=observed)
    return Provenance(
        origin_class=origin, session_kind=kind, observed_at=observed, origin_rule=rule
    )


CORPUS_PREFIX = SESSION_CORPUS_DIR + "/"
LOGS_PREFIX = LOGS_DIR + "/"
_GUEST_LINE = re.compile(r"(?:^|\s)\[[^\]\s]*#L\d+\] (?:Guest|Assistant to guest): ")


def _origin_of(path: str, snippet: str, origin: str) -> str:
    """``untrusted`` for a corpus or log snippet holding a guest's line (or, in the corpus,
    the agent's reply to one), else ``origin``."""
    if path.startswith(CORPUS_PREFIX) and _GUEST_LINE.search(snippet):
        return "untrusted"
    if path.startswith(LOGS_PREFIX) and is_guest_line(snippet):
        return "untrusted"
    return origin


def _claim_keyed(
    rows: Mapping[str, RecallEntry], snippet: str, *, daily: bool
) -> tuple[str, str] | None:
    """The (key, claim hash) a claim-keyed hit lands on, or ``None`` to keep the usual key."""
    claim = openclaw_claim_hash(snippet)
    own = CLAIM_KEY_PREFIX + claim
    if not daily:
        return (own, claim) if own in rows else None
    hashes = {claim, claim_hash(snippet)}
    for row in rows.values():
        recalled = row.recall_count + row.grounded_count > 0
        if recalled and row.claim_hash in hashes and not row.key.startswith(CLAIM_KEY_PREFIX):
            return row.key, row.claim_hash or claim
    return own, claim


def _new_entry(key: str, hit: Hit, path: str) -> RecallEntry:
    return RecallEntry(
        key=key, path=path, start_line=hit.start_line, end_line=hit.end_line, snippet=""
    )


def record_hits(
    store: Table[RecallEntry],
    hits: Iterable[Hit],
    *,
    query: str,
    now: datetime,
    day: str,
    signal: Signal = "recall",
    origin: str = "agent",
    session_kind: str = "interactive",
    dedupe_per_day: bool = False,
    grounded_signals: int = 1,
    claim_keys: bool = False,
    redacted: bool = False,
    query_digest: str | None = None,
    limit: int | None = MAX_STORE_ENTRIES,
    origin_rule: str | None = None,
) -> tuple[Table[RecallEntry], RecordOutcome]:
    """Record ``hits`` of ``query`` (or of the query whose hash is ``query_digest``) on ``day``
    into ``store``; see the module rules. ``limit=None`` leaves the row cap to whoever saves."""
    rows: dict[str, RecallEntry] = dict(store.rows)
    qhash = query_digest or query_hash(query)
    stamp = format_instant(now)
    counts_queries = signal != "daily" and session_kind == "interactive"
    recorded: list[str] = []
    unchanged: list[str] = []
    skipped: list[tuple[Hit, str]] = []
    for hit in hits:
        reason = skip_reason(hit.path, hit.snippet, redacted=redacted)
        if reason is not None:
            skipped.append((hit, reason))
            continue
        path, snippet = normalize_relpath(hit.path), cap(hit.snippet)
        claim = claim_hash(snippet)
        key = base_key(path, hit.start_line, hit.end_line)
        if signal == "grounded" or f"{key}:{claim}" in rows:
            key = f"{key}:{claim}"
        if claim_keys or CLAIM_KEY_PREFIX + openclaw_claim_hash(snippet) in rows:
            key, claim = _claim_keyed(rows, snippet, daily=signal == "daily") or (key, claim)
        entry = rows.get(key) or _new_entry(key, hit, path)
        if dedupe_per_day and qhash in entry.query_hashes and day in entry.recall_days:
            unchanged.append(key)
            continue
        score = min(1.0, max(0.0, hit.score))
        weight = grounded_signals if signal == "grounded" else 1
        user_hashes = user_query_hashes(entry)
        hit_origin = _origin_of(path, hit.snippet, origin)
        if counts_queries and hit_origin not in TAINTED_ORIGINS:
            user_hashes = _merge_tail(user_hashes, qhash, MAX_QUERY_HASHES)
        rows[key] = replace(
            entry,
            snippet=snippet,
            recall_count=entry.recall_count + (signal == "recall"),
            daily_count=entry.daily_count + (signal == "daily"),
            grounded_count=entry.grounded_count + (weight if signal == "grounded" else 0),
            total_score=entry.total_score + score * weight,
            max_score=max(entry.max_score, score),
            first_recalled_at=entry.first_recalled_at or stamp,
            last_recalled_at=stamp,
            query_hashes=_merge_tail(entry.query_hashes, qhash, MAX_QUERY_HASHES),
            user_query_hashes=user_hashes,
            recall_days=_merge_day(entry.recall_days, day),
            concept_tags=concept_tags(path, snippet),
            claim_hash=claim,
            provenance=_provenance(
                entry.provenance,
                hit_origin,
                session_kind,
                now,
                origin_rule if hit_origin == origin else "guest-line",
            ),
        )
        recorded.append(key)
    kept, dropped = trim_store(rows) if limit is not None else (rows, ())
    table = store.with_rows(kept, updated_at=stamp if recorded else store.updated_at)
    evicted = tuple(rows[key] for key in dropped)
    outcome = RecordOutcome(tuple(recorded), tuple(unchanged), tuple(skipped), dropped, evicted)
    return table, outcome


def replay_pending(
    store: Table[RecallEntry], searches: Iterable[PendingSearch]
) -> Table[RecallEntry]:
    """``store`` with the searches recorded ahead of it applied in order, as each would have
    recorded itself; the row cap is left to whoever saves (it retires what is over)."""
    for each in searches:
        store, _ = record_hits(
            store,
            each.hits,
            query="",
            query_digest=each.query_digest,
            now=each.now,
            day=each.day,
            origin=each.origin,
            session_kind=each.session_kind,
            redacted=each.redacted,
            limit=None,
        )
    return store


def _keep_order(entry: RecallEntry) -> tuple[str, int, float, float, str, str]:
    return (
        entry.last_recalled_at or "",
        entry.signal_count,
        entry.total_score,
        entry.max_score,
        entry.promoted_at or "",
        entry.key,
    )


def trim_store(
    rows: Mapping[str, RecallEntry], limit: int = MAX_STORE_ENTRIES
) -> tuple[dict[str, RecallEntry], tuple[str, ...]]:
    """Keep the ``limit`` most recently recalled rows (ties: more signals, higher score)."""
    if len(rows) <= limit:
        return dict(rows), ()
    ranked = sorted(rows.values(), key=_keep_order, reverse=True)
    keep = {entry.key for entry in ranked[:limit]}
    kept = {key: entry for key, entry in rows.items() if key in keep}
    return kept, tuple(sorted(key for key in rows if key not in keep))
