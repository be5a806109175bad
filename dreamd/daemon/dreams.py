"""What the Dreams page shows of one workspace's candidates: the candidates that pass, today's
promotions with their source (the one count, from the events log), and the near misses (the
best candidates each gate refused, never one that was promoted).

Pure: a snapshot in, a document out. Ranking is a sweep's own (:func:`rank_screened`, in the
dreaming zone, with MEMORY.md's text, so duplicates and refused instructions show as the sweep
would refuse them). The daemon's backend calls it in a worker thread.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, tzinfo
from typing import Any

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


def _near_misses(
    verdicts: tuple[Verdict, ...], details: dict[str, str], promoted: frozenset[str]
) -> list[dict[str, Any]]:
    """The best refused entries per gate, none of them promoted (today or before, under its
    own key or as a copy of a promoted entry)."""
    by_gate: dict[str, list[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        entry = verdict.scored.entry
        if verdict.rejection is None or verdict.promoted_today or entry.key in promoted:
            continue
        if entry.promoted_at or entry.duplicate_of or verdict.rejection == "already promoted":
            continue
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
    """``{"workspaceDir", "thresholds", "candidates", "rejected", "promotions", "nearMisses"}``.

    ``promotions`` are the night's, from the events log (:mod:`dreamd.engine.tally`).
    """
    screened = rank_screened(
        snapshot.store,
        snapshot.signals.rows,
        thresholds,
        memory_text=snapshot.memory.text,
        now=now,
        zone=zone,
    )
    ranking = screened.ranking
    promotions = []
    for item in snapshot.promoted_today:
        row = snapshot.store.rows.get(item.key)
        promotions.append(
            {
                "key": item.key,
                "path": item.path,
                "startLine": item.start_line,
                "endLine": item.end_line,
                "snippet": row.snippet if row is not None else None,
                "promotedAt": item.at,
                "source": item.source,
            }
        )
    promoted = frozenset(item.key for item in snapshot.promoted_today)
    return {
        "workspaceDir": str(snapshot.root),
        "thresholds": thresholds.as_json(),
        "candidates": [candidate_json(s) for s in ranking.candidates],
        "rejected": dict(sorted(ranking.rejected.items())),
        "promotions": promotions,
        "nearMisses": _near_misses(ranking.verdicts, dict(screened.details), promoted),
    }
