"""How commands print recall entries: one JSON shape shared by promote, explain and previews."""

from __future__ import annotations

from typing import Any

from dreamd.phases.scoring import Scored

__all__ = ["candidate_json"]


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
