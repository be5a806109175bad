"""What the Dreams page shows of one workspace's candidates: the candidates that pass, today's
promotions with their source, and the near misses (the best candidates each gate refused).

Pure: a snapshot in, a document out. Ranking is a sweep's own (:func:`rank_screened`, in the
dreaming zone, with MEMORY.md's text, so duplicates and refused instructions show as the sweep
would refuse them). The daemon's backend calls it in a worker thread.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, tzinfo
from typing import Any

from dreamd.clock import day_of, parse_instant
from dreamd.engine.explain import candidate_json
from dreamd.engine.phases.deep import Thresholds, Verdict
from dreamd.engine.phases.screen import rank_screened
from dreamd.engine.snapshot import Snapshot

__all__ = ["NEAR_MISSES_PER_GATE", "NEAR_MISSES_SHOWN", "candidates_document"]

NEAR_MISSES_PER_GATE = 3
"""At most this many near misses per gate (the best scored first)."""
NEAR_MISSES_SHOWN = 12
"""At most this many near misses in all."""


def _source(path: str, start: int, end: int) -> str:
    return f"{path}:{start}-{end}"


def _near_misses(verdicts: tuple[Verdict, ...], details: dict[str, str]) -> list[dict[str, Any]]:
    by_gate: dict[str, list[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        if verdict.rejection is not None and not verdict.promoted_today:
            by_gate[verdict.rejection].append(verdict)
    chosen = [
        verdict
        for gate in by_gate.values()
        for verdict in sorted(gate, key=lambda v: -v.scored.score)[:NEAR_MISSES_PER_GATE]
    ]
    chosen.sort(key=lambda v: -v.scored.score)
    return [
        {
            "gate": verdict.rejection,
            "detail": details.get(verdict.scored.entry.key),
            "source": _source(entry.path, entry.start_line, entry.end_line),
            **candidate_json(verdict.scored),
        }
        for verdict in chosen[:NEAR_MISSES_SHOWN]
        for entry in (verdict.scored.entry,)
    ]


def candidates_document(
    snapshot: Snapshot, thresholds: Thresholds, *, now: datetime, zone: tzinfo
) -> dict[str, Any]:
    """``{"workspaceDir", "thresholds", "candidates", "rejected", "promotions", "nearMisses"}``."""
    screened = rank_screened(
        snapshot.store,
        snapshot.signals.rows,
        thresholds,
        memory_text=snapshot.memory.text,
        now=now,
        zone=zone,
    )
    ranking = screened.ranking
    today = day_of(now, zone)
    promotions = [
        {
            "key": row.key,
            "path": row.path,
            "startLine": row.start_line,
            "endLine": row.end_line,
            "snippet": row.snippet,
            "promotedAt": row.promoted_at,
            "source": _source(row.path, row.start_line, row.end_line),
        }
        for row in snapshot.store.rows.values()
        if row.promoted_at
        and not row.forgotten_at
        and not row.duplicate_of
        and (moment := parse_instant(row.promoted_at)) is not None
        and day_of(moment, zone) == today
    ]
    promotions.sort(key=lambda item: (str(item["promotedAt"]), item["key"]))
    return {
        "workspaceDir": str(snapshot.root),
        "thresholds": thresholds.as_json(),
        "candidates": [candidate_json(s) for s in ranking.candidates],
        "rejected": dict(sorted(ranking.rejected.items())),
        "promotions": promotions,
        "nearMisses": _near_misses(ranking.verdicts, dict(screened.details)),
    }
