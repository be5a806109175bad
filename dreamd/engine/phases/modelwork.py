"""The model's part of a sweep, as data: what to ask for, and how the answers change the plan.

``plan_sweep`` always produces a complete plan that needs no model (append-only promotions, the
fixed fallback diary entry). It also records :class:`ModelRequests`: the diary input (when the
sweep found something new) and the consolidation input (when it promotes). Candidates are
eligible for consolidation only with an ``owner``/``agent`` origin and, for session-corpus
rows, an interactive session; the others stay on the append-only path. :func:`finish` turns the
model's answers (or their failure) into the final plan: the diary text or the fallback, the
consolidated MEMORY.md or the append-only one, and the consolidation history. Pure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dreamd.engine.phases.consolidate import Candidate, Consolidated, RejectedPlan
from dreamd.engine.phases.diary import FALLBACK_ENTRY
from dreamd.engine.phases.dreams import compose_dreams, history_accepted, history_skipped
from dreamd.engine.phases.promotion import PromotionEntry, append_promotions
from dreamd.engine.plan import FileWrite, ModelRequests, SweepPlan
from dreamd.engine.state import RecallEntry
from dreamd.layout import SESSION_CORPUS_DIR

__all__ = [
    "DiaryAnswer",
    "eligible",
    "finish",
    "split_candidates",
]


def eligible(row: RecallEntry) -> bool:
    """May this row's text reach a model prompt?"""
    provenance = row.provenance
    origin = provenance.origin_class if provenance else "agent"
    kind = provenance.session_kind if provenance else "interactive"
    if origin not in ("owner", "agent"):
        return False
    return not row.path.startswith(f"{SESSION_CORPUS_DIR}/") or kind == "interactive"


@dataclass(frozen=True)
class DiaryAnswer:
    """The diary's outcome: model text, or the fallback and why."""

    text: str | None
    outcome: str  # "model", "degraded" or "fallback"
    reason: str | None = None


def finish(
    plan: SweepPlan,
    requests: ModelRequests,
    *,
    diary: DiaryAnswer,
    consolidation: Consolidated | RejectedPlan | None,
    usage: Mapping[str, Any],
) -> SweepPlan:
    """The final plan once the model answered (or did not)."""
    writes = list(plan.writes)
    history: list[str] = []
    summary = dict(plan.summary)
    stamp = requests.dreams.stamp
    work = requests.consolidation
    if work is not None and isinstance(consolidation, Consolidated):
        text = consolidation.text
        if work.append_only:
            text = append_promotions(
                text,
                work.append_only,
                day=work.day,
                max_chars=work.max_chars,
                max_loss=work.max_loss,
            ).text
        writes = [_replace_text(w, text) if w.kind == "memory" else w for w in writes]
        history = history_accepted(
            stamp, consolidation.counts, consolidation.added_lines, consolidation.removed_lines
        )
        summary["consolidation"] = {"outcome": "accepted", **consolidation.counts}
    elif work is not None and isinstance(consolidation, RejectedPlan):
        history = history_skipped(stamp, consolidation.reason)
        summary["consolidation"] = {"outcome": "skipped", "reason": consolidation.reason}
    entry = None
    if requests.diary is not None:
        entry = diary.text if diary.text else FALLBACK_ENTRY
        summary["diary"] = {"written": True, "entry": diary.outcome, "reason": diary.reason}
    dreams = compose_dreams(requests.dreams, entry, history)
    writes = [_replace_text(w, dreams) if w.kind == "dreams" else w for w in writes]
    summary["model"] = dict(usage)
    return dataclasses.replace(plan, writes=tuple(writes), summary=summary)


def _replace_text(write: FileWrite, text: str) -> FileWrite:
    return dataclasses.replace(write, text=text)


def split_candidates(
    entries: Sequence[PromotionEntry],
    rows: Mapping[str, RecallEntry],
    supersedes: Mapping[str, str],
) -> tuple[tuple[Candidate, ...], tuple[PromotionEntry, ...]]:
    """(candidates a model may see, entries that stay append-only)."""
    allowed, kept = [], []
    for entry in entries:
        row = rows.get(entry.key)
        if row is not None and eligible(row):
            allowed.append(Candidate(entry, supersedes.get(entry.key)))
        else:
            kept.append(entry)
    return tuple(allowed), tuple(kept)
