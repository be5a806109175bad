"""Explaining a ranking: one entry's components, boost and gate verdicts, as JSON documents.

Shared by ``dreamd memory promote``/``promote-explain`` and the control API, so every surface
prints the same shape (OpenClaw's ``promote --json`` / ``promote-explain --json`` fields, plus
``phaseBoost``, ``rejection`` and per-gate results). Pure: a snapshot and a time in, data out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from dreamd.engine.phases.deep import GATES, Thresholds, rank, rejection
from dreamd.engine.phases.scoring import Scored
from dreamd.engine.snapshot import Snapshot
from dreamd.errors import SelectorError

__all__ = ["candidate_json", "explain", "select"]


def candidate_json(scored: Scored) -> dict[str, Any]:
    """One scored entry as ``promote``/``promote-explain`` print it."""
    entry = scored.entry
    signals = scored.signals
    return {
        "key": entry.key,
        "path": entry.path,
        "startLine": entry.start_line,
        "endLine": entry.end_line,
        "source": entry.source,
        "snippet": entry.snippet,
        "recallCount": entry.recall_count,
        "dailyCount": entry.daily_count,
        "groundedCount": entry.grounded_count,
        "signalCount": signals,
        "avgScore": entry.total_score / signals if signals else 0.0,
        "maxScore": entry.max_score,
        "uniqueQueries": scored.unique_queries,
        "firstRecalledAt": entry.first_recalled_at,
        "lastRecalledAt": entry.last_recalled_at,
        "ageDays": scored.age_days,
        "score": min(1.0, scored.score),
        "recallDays": list(entry.recall_days),
        "conceptTags": list(entry.concept_tags),
        "components": scored.components.as_dict(),
        "phaseBoost": scored.phase_boost,
        "promotedAt": entry.promoted_at,
        "provenance": {
            "originClass": entry.provenance.origin_class if entry.provenance else "agent",
            "sessionKind": entry.provenance.session_kind if entry.provenance else "interactive",
        },
    }


def select(candidates: Iterable[Scored], selector: str) -> Scored:
    """The entry whose key is ``selector``, else the first whose key, path or snippet has it."""
    wanted = selector.lower()
    ordered = list(candidates)
    tests: list[Callable[[Scored], bool]] = [
        lambda s: s.entry.key == selector,
        lambda s: wanted in s.entry.key.lower(),
        lambda s: wanted in s.entry.path.lower(),
        lambda s: wanted in s.entry.snippet.lower(),
    ]
    for test in tests:
        for scored in ordered:
            if test(scored):
                return scored
    raise SelectorError(f'No promotion candidate matched "{selector}".')


def explain(
    snapshot: Snapshot,
    thresholds: Thresholds,
    selector: str,
    *,
    now: datetime,
    include_promoted: bool = False,
) -> tuple[Scored, dict[str, Any]]:
    """The entry ``selector`` picks (ranked with every gate open) and its explain document."""
    rows, signals = snapshot.store.rows, snapshot.signals.rows
    everything = Thresholds(0, 0, 0, -1, 10**9, thresholds.half_life_days)
    loose = rank(rows, signals, everything, now=now, include_promoted=include_promoted)
    scored = select(loose.candidates, selector)
    verdict = rejection(scored, thresholds, include_promoted=include_promoted)
    strict = rank(rows, signals, thresholds, now=now, include_promoted=include_promoted)
    if verdict is None and all(s.entry.key != scored.entry.key for s in strict.candidates):
        verdict = "selection limit"
    failed_at = GATES.index(verdict) if verdict in GATES else len(GATES)
    passes = {
        "score": scored.score >= thresholds.min_score,
        "recallCount": scored.signals >= thresholds.min_recall_count,
        "uniqueQueries": scored.unique_queries >= thresholds.min_unique_queries,
        "maxAge": thresholds.max_age_days < 0 or scored.age_days <= thresholds.max_age_days,
    }
    document = {
        "workspaceDir": str(snapshot.root),
        "thresholds": thresholds.as_json(),
        "candidate": candidate_json(scored),
        "passes": passes,
        "rejection": verdict,
        "gates": [{"gate": gate, "passed": index < failed_at} for index, gate in enumerate(GATES)],
    }
    return scored, document
