"""The shell around one workspace's dreaming: lock, read, plan, apply, and say what happened.

Both the full sweep (light -> REM -> deep -> diary) and ``memory promote --apply`` (deep only)
run the same loop: take the workspace lock, read a snapshot, plan purely, apply through the
writer. When a person edits a file between reading and writing, the writer refuses and the
loop re-reads and re-plans (up to 3 times); if the workspace keeps changing, the run is skipped
and says so. A failure is returned as an outcome with ``error`` set, never swallowed. A
``fence`` from a fleet (:mod:`dreamd.fleet.fence`) goes to the writer unchanged.

A full sweep that changed the workspace then brings its recall index up to date (when it has
one: the first search builds it), so the next agent's search finds a fresh stamp and walks
nothing (:mod:`dreamd.recall.freshness`); an index that cannot be updated is a warning.
:func:`unchanged_outcome` answers, without a sweep, for a workspace whose fingerprint says a
sweep would change nothing: the daemon asks it of fifty workspaces in one job.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from dreamd.config import DreamingConfig, ModelConfig
from dreamd.engine.phases.cycle import plan_sweep
from dreamd.engine.plan import SweepPlan
from dreamd.engine.snapshot import Snapshot
from dreamd.errors import ConflictError, DreamdError
from dreamd.model.stage import run_model_stage
from dreamd.store.fingerprint import Memo, settings_key
from dreamd.store.lock import workspace_lock
from dreamd.store.writer import apply_plan
from dreamd.workspace.reader import read_snapshot

__all__ = ["MAX_ATTEMPTS", "Outcome", "run_planned", "sweep_workspace", "unchanged_outcome"]

MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class Outcome:
    """The result of one locked plan-and-apply run over one workspace."""

    workspace: str
    agents: tuple[str, ...]
    status: str  # "ok", "conflict" (kept changing; skipped), "stopped" (shutdown) or "error"
    summary: Mapping[str, Any] = field(default_factory=dict)
    changed: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    error: str | None = None
    duration_ms: float = 0.0

    def as_json(self) -> dict[str, Any]:
        """The outcome as ``sweep --json`` prints it."""
        return {
            "workspace": self.workspace,
            "agents": list(self.agents),
            "status": self.status,
            **self.summary,
            "changedFiles": list(self.changed),
            "warnings": list(self.warnings),
            "error": self.error,
            "durationMs": round(self.duration_ms, 1),
        }


Planner = Callable[[Snapshot], SweepPlan]


def run_planned(
    root: Path,
    planner: Planner,
    *,
    dreaming: DreamingConfig,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...] = ("main",),
    sessions: Sequence[tuple[str, Path]] = (),
    owners: frozenset[str] = frozenset(),
    trusted_unmarked: frozenset[str] = frozenset(),
    apply: bool = True,
    lock_timeout: float = 10.0,
    should_stop: Callable[[], bool] | None = None,
    memo: Memo | None = None,
    fence: Callable[[], object] | None = None,
) -> Outcome:
    """Lock ``root``, plan with ``planner`` over a fresh snapshot, apply (see the module rules).

    ``should_stop`` is asked before the work starts and again just before anything is written:
    a shutting-down daemon abandons a sweep cleanly instead of starting its writes. With a
    ``memo`` (:mod:`dreamd.store.fingerprint`), an unchanged workspace answers with the summary of
    the no-op sweep it had verified, and a sweep that writes nothing is remembered.
    """
    started = time.perf_counter()
    label = str(root)
    conflicts: list[str] = []
    stopping = should_stop or (lambda: False)
    try:
        if stopping():
            return Outcome(label, agents, "stopped", error="shutting down; not started")
        with workspace_lock(root, timeout=lock_timeout):
            known = memo.recall(root) if memo is not None and apply else None
            if known is not None:
                summary = {**known.summary, "unchanged": True}
                return _done(label, agents, summary, (), tuple(known.warnings), started)
            for _ in range(MAX_ATTEMPTS):
                read_started = time.time_ns()
                snapshot = read_snapshot(
                    root,
                    dreaming=dreaming,
                    now=now,
                    zone=zone,
                    agents=agents,
                    sessions=sessions,
                    owners=owners,
                    trusted_unmarked=trusted_unmarked,
                )
                plan = planner(snapshot)
                warnings = (*snapshot.warnings, *snapshot.skipped, *conflicts)
                if not apply:
                    return _done(label, agents, plan.summary, (), warnings, started)
                if stopping():
                    return Outcome(label, agents, "stopped", error="shutting down; nothing written")
                try:
                    result = apply_plan(snapshot.root, plan, fence=fence)
                except ConflictError as exc:
                    conflicts.append(f"re-planned: {exc}")
                    continue
                if memo is not None:
                    wrote = bool(result.changed or result.state_saved or result.events)
                    memo.remember(
                        snapshot.root,
                        wrote=wrote,
                        read_started_ns=read_started,
                        summary=plan.summary,
                        warnings=warnings,
                    )
                return _done(label, agents, plan.summary, result.changed, warnings, started)
    except DreamdError as exc:
        elapsed = (time.perf_counter() - started) * 1000
        return Outcome(label, agents, "error", error=str(exc), duration_ms=elapsed)
    except OSError as exc:  # e.g. a file the service user may not read: this workspace fails
        elapsed = (time.perf_counter() - started) * 1000
        error = f"cannot read or write {exc.filename or root}: {exc.strerror or exc}"
        return Outcome(label, agents, "error", error=error, duration_ms=elapsed)
    elapsed = (time.perf_counter() - started) * 1000
    message = f"files kept changing during {MAX_ATTEMPTS} attempts; skipped this run"
    return Outcome(label, agents, "conflict", {}, (), tuple(conflicts), message, elapsed)


def _done(
    label: str,
    agents: tuple[str, ...],
    summary: Mapping[str, Any],
    changed: tuple[str, ...],
    warnings: tuple[str, ...],
    started: float,
) -> Outcome:
    elapsed = (time.perf_counter() - started) * 1000
    return Outcome(label, agents, "ok", summary, changed, warnings, None, elapsed)


def sweep_workspace(
    root: Path,
    dreaming: DreamingConfig,
    *,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...] = ("main",),
    sessions: Sequence[tuple[str, Path]] = (),
    owners: frozenset[str] = frozenset(),
    trusted_unmarked: frozenset[str] = frozenset(),
    model: ModelConfig | None = None,
    lock_timeout: float = 10.0,
    should_stop: Callable[[], bool] | None = None,
    fence: Callable[[], object] | None = None,
) -> Outcome:
    """One full light -> REM -> deep -> diary sweep of ``root`` (and its agents' transcripts).

    With ``model`` configured, the diary entry and the consolidation of promotions are asked
    of it (:mod:`dreamd.model.stage`); without, or when it fails, the plan needs no model.
    """

    def planner(snapshot: Snapshot) -> SweepPlan:
        plan = plan_sweep(snapshot, dreaming, now=now, zone=zone)
        return run_model_stage(plan, model, root=root) if model is not None else plan

    memo = _sweep_memo(dreaming, model, now, zone, agents, sessions, owners, trusted_unmarked)
    outcome = run_planned(
        root,
        planner,
        dreaming=dreaming,
        now=now,
        zone=zone,
        agents=agents,
        sessions=sessions,
        owners=owners,
        trusted_unmarked=trusted_unmarked,
        lock_timeout=lock_timeout,
        should_stop=should_stop,
        fence=fence,
        memo=memo,
    )
    if outcome.status != "ok" or outcome.summary.get("unchanged"):
        return outcome
    return _refresh_index(root, outcome)


def _refresh_index(root: Path, outcome: Outcome) -> Outcome:
    """Bring the workspace's recall index (when it has one) up to date after a sweep: the
    notes and what the sweep wrote are indexed now, not by the next agent's search."""
    from dreamd.layout import INDEX_FILE
    from dreamd.recall.index import RecallIndex

    if not (root / INDEX_FILE).is_file():
        return outcome  # nobody searched here yet: the first search builds it
    try:
        with RecallIndex.open(root) as index:
            index.update(walk=True)
    except (DreamdError, OSError, sqlite3.Error) as exc:
        warning = f"recall index not updated: {exc}"
        return replace(outcome, warnings=(*outcome.warnings, warning))
    return outcome


def _sweep_memo(
    dreaming: DreamingConfig,
    model: ModelConfig | None,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...],
    sessions: Sequence[tuple[str, Path]],
    owners: frozenset[str],
    trusted_unmarked: frozenset[str] = frozenset(),
) -> Memo:
    key = settings_key(
        dreaming,
        model,
        now=now,
        zone=zone,
        agents=agents,
        sessions=sessions,
        owners=owners,
        trusted_unmarked=trusted_unmarked,
    )
    return Memo(key, now, zone, sessions)


def unchanged_outcome(
    root: Path,
    dreaming: DreamingConfig,
    *,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...] = ("main",),
    sessions: Sequence[tuple[str, Path]] = (),
    owners: frozenset[str] = frozenset(),
    trusted_unmarked: frozenset[str] = frozenset(),
    model: ModelConfig | None = None,
) -> Outcome | None:
    """The outcome :func:`sweep_workspace` would give ``root`` when its fingerprint matches
    (nothing changed since a sweep that wrote nothing), else ``None``.

    Cheap, so a scheduler can ask it of many workspaces in one job and sweep only the others.
    It takes the workspace lock without waiting: a workspace another process holds, or one that
    cannot be read, answers ``None`` (its full sweep waits, or says what is wrong).
    """
    started = time.perf_counter()
    memo = _sweep_memo(dreaming, model, now, zone, agents, sessions, owners, trusted_unmarked)
    try:
        with workspace_lock(root, timeout=0):
            known = memo.recall(root)
    except (DreamdError, OSError):
        return None
    if known is None:
        return None
    summary = {**known.summary, "unchanged": True}
    return _done(str(root), agents, summary, (), tuple(known.warnings), started)
