"""Health of a workspace's dreaming, judged from its recent sweep history. Pure.

A workspace is unhealthy when its last sweep failed, when its diary came out degraded, or when
``idle_sweeps`` sweeps in a row ranked candidates but promoted none (something keeps stopping
them: a source that no longer matches, a full MEMORY.md budget). ``ranked`` counts only
candidates that could still be promoted: not those already in MEMORY.md (promoted earlier that
day, or reconciled under their marker) and not those refused after ranking (duplicates,
instructions, filler, secrets), so a quiet workspace after a good promotion is healthy.
Problems are reported in status; a problem that was not there after the previous sweep is also
an *event*, which the daemon hands to chat adapters so owners hear about it once, not on every
sweep.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["HISTORY_KEPT", "HealthEvent", "new_events", "problems", "sweep_record"]

HISTORY_KEPT = 30  # the Dreams page charts the last 30 sweeps


@dataclass(frozen=True)
class HealthEvent:
    """A problem that just appeared in one workspace."""

    kind: str  # "failed", "idle" or "degraded"
    workspace: str
    message: str
    at: str


def sweep_record(at: str, outcome: Mapping[str, Any]) -> dict[str, Any]:
    """What the history keeps of one sweep outcome (``Outcome.as_json()``); ``changed`` counts
    the files it wrote (0: a sweep that changed nothing, still a sweep)."""
    deep = outcome.get("deep") or {}
    diary = outcome.get("diary") or {}
    return {
        "at": at,
        "status": outcome.get("status", "error"),
        "ranked": deep.get("ranked", 0),
        "promoted": deep.get("promoted", 0),
        "rejected": dict(deep.get("rejected") or {}),
        "diary": diary.get("entry"),
        "error": outcome.get("error"),
        "durationMs": outcome.get("durationMs"),
        "changed": len(outcome.get("changedFiles") or ()),
    }


def problems(history: Sequence[Mapping[str, Any]], *, idle_sweeps: int) -> dict[str, str]:
    """Current problems by kind, from a workspace's history (oldest first)."""
    found: dict[str, str] = {}
    if not history:
        return found
    last = history[-1]
    if last.get("status") != "ok":
        found["failed"] = f"last sweep failed: {last.get('error') or last.get('status')}"
    if last.get("diary") == "degraded":
        found["degraded"] = "the diary entry fell back to a fixed text: the model failed"
    recent = history[-idle_sweeps:]
    if len(recent) == idle_sweeps and all(
        item.get("status") == "ok" and item.get("ranked", 0) > 0 and item.get("promoted", 0) == 0
        for item in recent
    ):
        found["idle"] = (
            f"{idle_sweeps} sweeps in a row ranked candidates but promoted none; "
            "see `dreamd memory promote-explain`"
        )
    return found


def new_events(
    workspace: str,
    before: Sequence[Mapping[str, Any]],
    after: Sequence[Mapping[str, Any]],
    *,
    idle_sweeps: int,
    at: str,
) -> list[HealthEvent]:
    """Problems present after the newest sweep that were not present before it."""
    old = problems(before, idle_sweeps=idle_sweeps)
    new = problems(after, idle_sweeps=idle_sweeps)
    return [
        HealthEvent(kind, workspace, message, at)
        for kind, message in sorted(new.items())
        if kind not in old
    ]
