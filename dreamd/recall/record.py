"""Recording a search's hits as recall traces on disk (the shell around ``traces``).

Under the workspace lock: read the store, record, write it back atomically, and append
``memory.recall.recorded`` / ``memory.recall.skipped`` events. Events carry the query's hash,
never its text, so nothing a person typed into a search is stored in the clear. A *context* hit
(a line holding no query term, shown for its neighbours) is not a recall and is not recorded.

Rows leaving the store — stale ones, and those the 512-row cap evicts — are appended to the
long-term layer first (:mod:`dreamd.recall.longterm`), then the store is saved without them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from pathlib import Path

from dreamd.clock import day_of, format_instant
from dreamd.engine.hits import Hit
from dreamd.engine.retirement import plan_retirement
from dreamd.engine.state import RECALL_STORE
from dreamd.engine.text.snippets import query_hash
from dreamd.engine.traces import RecordOutcome, record_hits
from dreamd.store.events import append_events
from dreamd.store.lock import workspace_lock
from dreamd.store.longterm import append_longterm
from dreamd.store.statefiles import load_table
from dreamd.store.writer import save_table

__all__ = ["record_search"]


def record_search(
    root: Path,
    query: str,
    hits: Sequence[Hit],
    *,
    now: datetime,
    zone: tzinfo,
    origin: str = "agent",
    session_kind: str = "interactive",
    lock_timeout: float = 10.0,
    redacted: bool = False,
) -> RecordOutcome:
    """Record ``hits`` for ``query`` in the workspace at ``root`` (``redacted``: they were read
    from an index redacted under the rules in force; see :func:`record_hits`)."""
    hits = [hit for hit in hits if not hit.context]
    with workspace_lock(root, timeout=lock_timeout):
        store, _ = load_table(root, RECALL_STORE)
        updated, outcome = record_hits(
            store,
            hits,
            query=query,
            now=now,
            day=day_of(now, zone),
            origin=origin,
            session_kind=session_kind,
            redacted=redacted,
        )
        kept, retired = plan_retirement(
            updated.rows,
            now=now,
            extras={**store.extras, **updated.extras},  # evicted rows' extras are only in store
            evicted=outcome.evicted,
        )
        append_longterm(root, retired)
        if outcome.recorded or retired:
            save_table(root, RECALL_STORE, updated.with_rows(kept, updated_at=updated.updated_at))
        stamp = format_instant(now)
        recorded = [hit for hit in hits if not any(hit is s for s, _ in outcome.skipped)]
        events = []
        if recorded:
            events.append(
                {
                    "type": "memory.recall.recorded",
                    "timestamp": stamp,
                    "queryHash": query_hash(query),
                    "origin": origin,
                    "sessionKind": session_kind,
                    "resultCount": len(recorded),
                    "results": [
                        {
                            "path": h.path,
                            "startLine": h.start_line,
                            "endLine": h.end_line,
                            "score": h.score,
                        }
                        for h in recorded
                    ],
                }
            )
        events += [
            {
                "type": "memory.recall.skipped",
                "timestamp": stamp,
                "path": hit.path,
                "reason": reason,
            }
            for hit, reason in outcome.skipped
        ]
        append_events(root, events)
    return outcome
