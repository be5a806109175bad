"""Recording a search's hits as recall traces on disk (the shell around ``traces``).

A search appends what it recorded to the pending file (:mod:`dreamd.store.pending`) under the
workspace lock, with ``memory.recall.recorded`` / ``memory.recall.skipped`` events, and the
recall store replays it when next read: the store is not rewritten on every turn. Events carry
the query's hash, never its text, so nothing a person typed into a search is stored in the
clear. A hit records the other lines that state its fact (``also``) too: each was found; what it
replaced (``was``) is not recalled. A *context* hit (a line holding no query term, shown for its
neighbours) is not a recall and is not recorded; a hit
:func:`~dreamd.engine.recordable.skip_reason` refuses is skipped.

Once the pending file passes :data:`~dreamd.store.pending.FOLD_BYTES` the recording process
replays it into the store and saves that, under the same lock: rows leaving the store (stale
ones, and those over the 512-row cap) are appended to the long-term layer first
(:mod:`dreamd.recall.longterm`), then the store is saved without them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from pathlib import Path

from dreamd.clock import day_of, format_instant
from dreamd.engine.hits import Hit
from dreamd.engine.recordable import skip_reason
from dreamd.engine.text.snippets import query_hash
from dreamd.store.events import append_events
from dreamd.store.lock import workspace_lock
from dreamd.store.pending import FOLD_BYTES, append_pending, encode_search
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["Recorded", "fold_pending", "record_search"]


class Recorded(Value):
    """What recording one search did: the hits recorded, and those skipped with the reason."""

    __match_args__ = ("recorded", "skipped")
    __slots__ = __match_args__
    recorded: Final[tuple[Hit, ...]]
    skipped: Final[tuple[tuple[Hit, str], ...]]

    def __init__(self, recorded: tuple[Hit, ...], skipped: tuple[tuple[Hit, str], ...]) -> None:
        self.recorded = recorded
        self.skipped = skipped


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
) -> Recorded:
    """Record ``hits`` for ``query`` in the workspace at ``root`` (``redacted``: they were read
    from an index redacted under the rules in force; see :func:`skip_reason`)."""
    recorded: list[Hit] = []
    skipped: list[tuple[Hit, str]] = []
    for hit in (line for found in hits for line in (found, *found.also)):
        if hit.context:
            continue
        reason = skip_reason(hit.path, hit.snippet, redacted=redacted)
        if reason is None:
            recorded.append(hit)
        else:
            skipped.append((hit, reason))
    stamp, digest = format_instant(now), query_hash(query)
    events = []
    if recorded:
        events.append(
            {
                "type": "memory.recall.recorded",
                "timestamp": stamp,
                "queryHash": digest,
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
        {"type": "memory.recall.skipped", "timestamp": stamp, "path": hit.path, "reason": reason}
        for hit, reason in skipped
    ]
    with workspace_lock(root, timeout=lock_timeout):
        size = 0
        if recorded:
            line = encode_search(
                recorded,
                timestamp=stamp,
                day=day_of(now, zone),
                query_digest=digest,
                origin=origin,
                session_kind=session_kind,
                redacted=redacted,
            )
            size = append_pending(root, line)
        append_events(root, events)
        if size > FOLD_BYTES:
            fold_pending(root, now=now)
    return Recorded(tuple(recorded), tuple(skipped))


def fold_pending(root: Path, *, now: datetime) -> None:
    """Replay the pending searches into the recall store and save it through the writer
    (caller holds the lock), stale rows and those over the cap retired to the long-term layer."""
    from dreamd.engine.plan import SweepPlan
    from dreamd.engine.retirement import plan_retirement
    from dreamd.store.writer import apply_plan
    from dreamd.workspace.statesources import load_state

    # the merged view (OpenClaw's renamed files and rows too), so a fold after OpenClaw took
    # the workspace over never saves a store of the pending searches alone
    store = load_state(root).store
    kept, retired = plan_retirement(store.rows, now=now, extras=store.extras)
    updated_at = format_instant(now) if retired else store.updated_at
    apply_plan(root, SweepPlan(store=store.with_rows(kept, updated_at=updated_at), retired=retired))
