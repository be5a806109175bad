"""What the control API serves, answered from the running daemon's state.

Everything that reads workspace files runs in a worker thread. Documents have the same shapes
as the CLI's ``--json`` output (``status``, ``sweep``, ``promote-explain``), so the CLI can print
a daemon's answer exactly as it prints its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import deque
from pathlib import Path
from typing import Any, Protocol

import msgspec

from dreamd.chat.adapters import Adapters
from dreamd.clock import format_instant
from dreamd.control import BusyError
from dreamd.daemon.dreams import candidates_document
from dreamd.daemon.metrics import Metrics
from dreamd.daemon.scheduler import Scheduler
from dreamd.engine.explain import explain, verdict_lines
from dreamd.engine.phases.cycle import is_grounded_led, thresholds_of
from dreamd.engine.phases.diary import diary_entries
from dreamd.errors import DreamdError, FleetError, LockError
from dreamd.fleet.coordinator import Fleet
from dreamd.host.clock import Clock
from dreamd.host.health import HealthEvent
from dreamd.host.history import Histories
from dreamd.host.jobs import JobBudget
from dreamd.host.runtime import Runtime
from dreamd.host.state import EnabledState, effective_enabled, load_host_state
from dreamd.host.status import WorkspacesSummary, build_status, files_of
from dreamd.layout import DREAMS_FILE, DREAMS_FILE_LOWER
from dreamd.model.embeddings import semantic_recall, settings_of
from dreamd.recall.bundle import hybrid_search
from dreamd.recall.index import RecallIndex
from dreamd.recall.record import record_search
from dreamd.runs.backfill import run_rollback
from dreamd.runs.backfill_steps import backfill_action
from dreamd.runs.intake import owners_of, take_message
from dreamd.workspace.discovery import Workspace
from dreamd.workspace.reader import read_snapshot
from dreamd.workspace.statesources import load_state

__all__ = ["GROUNDED_SHOWN", "DaemonService", "DaemonState"]

GROUNDED_SHOWN = 50
"""At most this many grounded rows are listed (most grounded signals first)."""


class DaemonState(Protocol):
    """What the service reads of the running daemon (:class:`dreamd.daemon.main.Daemon` has it)."""

    runtime: Runtime
    clock: Clock
    budget: JobBudget
    scheduler: Scheduler
    adapters: Adapters
    metrics: Metrics
    events: deque[HealthEvent]
    histories: Histories
    last_outcomes: list[dict[str, Any]]
    started_at: str
    fleet: Fleet | None
    progress: dict[str, Any] | None
    reload_error: str | None

    def enabled(self) -> bool: ...

    async def set_enabled(self, enabled: bool | None) -> None: ...

    async def warm_counts(self) -> None: ...

    def workspace_summary(self) -> tuple[WorkspacesSummary, msgspec.Raw]: ...


class DaemonService:
    """The :class:`dreamd.control.Service` of a running daemon (a :class:`DaemonState`)."""

    def __init__(self, daemon: DaemonState) -> None:
        self.daemon = daemon

    def _workspace(self, wanted: str | None) -> Workspace:
        spaces = self.daemon.runtime.discovery.workspaces
        if not wanted:
            if len(spaces) == 1:
                return spaces[0]
            raise DreamdError("several workspaces; pass ?workspace=PATH or an agent id")
        for workspace in spaces:
            if wanted in (str(workspace.root), *workspace.agents):
                return workspace
        raise DreamdError(f"no workspace {wanted!r}")

    async def status(self) -> dict[str, Any]:
        """The status document, plus the daemon's own state."""
        daemon = self.daemon
        runtime = daemon.runtime
        summary, encoded = daemon.workspace_summary()
        rejected = daemon.reload_error
        openclaw = runtime.openclaw.path if runtime.openclaw else None
        enabled = effective_enabled(runtime.config.dreaming.enabled)
        if daemon.fleet is not None and daemon.fleet.shared_enabled is not None:
            enabled = EnabledState(daemon.fleet.shared_enabled, "fleet")
        document = build_status(
            runtime.config,
            runtime.discovery,
            enabled,
            summary=summary,
            schedule=load_host_state().get("schedule") or {},
            now=daemon.clock.now(),
            zone=runtime.zone,
            workspaces=encoded,
            files=files_of(runtime.config_path, openclaw),
            sweeping=daemon.progress,
            warnings=[f"config reload rejected at {rejected}; running with the previous one"]
            if rejected
            else (),
        )
        document["daemon"] = {
            "pid": os.getpid(),
            "startedAt": self.daemon.started_at,
            "scheduler": self.daemon.scheduler.statistics(),
            "jobs": self.daemon.budget.statistics(),
            "adapters": self.daemon.adapters.statistics(),
        }
        fleet = self.daemon.fleet
        if fleet is not None:
            shared = document["fleet"] = fleet.summary()
            if shared["state"] == "degraded" and document["status"] == "ok":
                document["status"] = "degraded"
        return document

    async def fleet(self) -> dict[str, Any]:
        """The ``fleet status`` document (hosts, and every workspace's last sweep)."""
        fleet = self.daemon.fleet
        if fleet is None:
            raise DreamdError("this host is not in a fleet: there is no [fleet] in its config")
        known = [str(ws.root) for ws in self.daemon.runtime.discovery.workspaces]
        return await fleet.document(known)

    async def workspaces(self) -> list[dict[str, Any]]:
        """Each workspace's counts (the status document's list)."""
        return self.daemon.workspace_summary()[0].entries

    async def explain(self, workspace: str | None, selector: str | None) -> dict[str, Any]:
        """One entry explained, or (no selector) the candidates passing every gate, today's
        promotions and the near misses (:mod:`dreamd.daemon.dreams`)."""
        runtime = self.daemon.runtime
        chosen = self._workspace(workspace)
        now = self.daemon.clock.now()
        thresholds = thresholds_of(runtime.config.dreaming)

        def work() -> dict[str, Any]:
            snapshot = read_snapshot(
                chosen.root,
                dreaming=runtime.config.dreaming,
                now=now,
                zone=runtime.zone,
                agents=chosen.agents,
                readonly=True,
            )
            if selector:
                document = explain(snapshot, thresholds, selector, now=now, zone=runtime.zone)[1]
                return {**document, "verdictLines": verdict_lines(document)}
            return candidates_document(snapshot, thresholds, now=now, zone=runtime.zone)

        return await asyncio.to_thread(work)

    async def diary(self, workspace: str | None, limit: int) -> dict[str, Any]:
        """The newest ``limit`` diary entries of a workspace."""
        chosen = self._workspace(workspace)

        def work() -> list[str]:
            for name in (DREAMS_FILE, DREAMS_FILE_LOWER):
                path = Path(chosen.root) / name
                if path.is_file() and not path.is_symlink():
                    return diary_entries(path.read_text(encoding="utf-8", errors="replace"))
            return []

        entries = await asyncio.to_thread(work)
        return {"workspace": str(chosen.root), "entries": entries[-limit:] if limit else []}

    async def history(self) -> dict[str, Any]:
        """Each workspace's sweep history (oldest first) and its last sweep's phase summary."""
        daemon = self.daemon
        last = {str(o.get("workspace")): o for o in daemon.last_outcomes}
        spaces = []
        for workspace in daemon.runtime.discovery.workspaces:
            path = str(workspace.root)
            outcome = last.get(path) or {}
            phases = {name: outcome[name] for name in ("light", "rem", "deep") if name in outcome}
            spaces.append(
                {
                    "path": path,
                    "agents": list(workspace.agents),
                    "history": daemon.histories.get(path),
                    "phases": phases or None,
                    "lastStatus": outcome.get("status"),
                }
            )
        return {"workspaces": spaces}

    async def grounded(self, workspace: str | None) -> dict[str, Any]:
        """The grounded lane: rows staged from historical replay, grounded-led ones marked."""
        chosen = self._workspace(workspace)

        def work() -> dict[str, Any]:
            state = load_state(chosen.root, readonly=True)  # the one merged view of the store
            store, warnings = state.store, list(state.warnings)
            rows = [row for row in store.rows.values() if row.grounded_count > 0]
            rows.sort(key=lambda row: (-row.grounded_count, row.path, row.start_line))
            return {
                "workspace": str(chosen.root),
                "total": len(rows),
                "entries": [
                    {
                        "key": row.key,
                        "path": row.path,
                        "startLine": row.start_line,
                        "endLine": row.end_line,
                        "snippet": row.snippet,
                        "groundedCount": row.grounded_count,
                        "signalCount": row.signal_count,
                        "groundedLed": is_grounded_led(row),
                        "promotedAt": row.promoted_at,
                    }
                    for row in rows[:GROUNDED_SHOWN]
                ],
                "warnings": warnings,
            }

        return await asyncio.to_thread(work)

    async def clear_grounded(self, workspace: str | None) -> dict[str, Any]:
        """Remove backfill entries and grounded-only rows, as ``rem-backfill --rollback`` does."""
        daemon = self.daemon
        chosen = self._workspace(workspace)
        runtime = daemon.runtime
        async with daemon.budget.slot("backfill", str(chosen.root)):
            try:
                result = await asyncio.to_thread(
                    run_rollback,
                    chosen.root,
                    dreaming=runtime.config.dreaming,
                    now=daemon.clock.now(),
                    zone=runtime.zone,
                    agents=chosen.agents,
                    short_term=True,
                )
            except LockError as exc:
                raise BusyError(f"{chosen.root} is busy (a sweep holds it); try again") from exc
        await daemon.warm_counts()
        return result

    async def backfill(
        self, workspace: str | None, action: str, path: str | None, *, stage: bool
    ) -> dict[str, Any]:
        """One step of the backfill flow (see :mod:`dreamd.runs.backfill_steps`)."""
        daemon = self.daemon
        chosen = self._workspace(workspace)
        runtime = daemon.runtime
        async with daemon.budget.slot("backfill", str(chosen.root)):
            try:
                result = await asyncio.to_thread(
                    backfill_action,
                    chosen.root,
                    action,
                    path,
                    stage=stage,
                    dreaming=runtime.config.dreaming,
                    now=daemon.clock.now(),
                    zone=runtime.zone,
                    agents=chosen.agents,
                )
            except LockError as exc:
                raise BusyError(f"{chosen.root} is busy (a sweep holds it); try again") from exc
        if action != "preview":
            await daemon.warm_counts()
        return result

    async def set_enabled(self, enabled: bool | None) -> dict[str, Any]:
        """Turn dreaming on or off for the host (``None``: clear the override); answers with
        the new status."""
        await self.daemon.set_enabled(enabled)
        return await self.status()

    async def sweep_now(self) -> dict[str, Any]:
        """Sweep every workspace now; 409 while another sweep runs."""
        daemon = self.daemon
        fleet = daemon.fleet
        if fleet is not None and fleet.degraded is not None:
            raise FleetError(
                f"{fleet.degraded['reason']}; shared workspaces are not swept until it is back"
            )
        if not await daemon.scheduler.run_now(reason="manual"):
            fleet = daemon.fleet
            if fleet is not None and not fleet.connected.is_set():  # that sweep waits on Redis
                shared = fleet.summary()
                raise BusyError(
                    f"the fleet's Redis ({shared['redis']}) is unreachable"
                    f" ({shared['reason'] or 'no answer yet'}): the sweep already started waits "
                    "for it, and no shared workspace is swept until it answers"
                )
            raise BusyError("a sweep is already running; try again when it has finished")
        return {
            "enabled": daemon.enabled(),
            "now": format_instant(daemon.clock.now()),
            "workspaces": daemon.last_outcomes,
        }

    async def search(
        self, workspace: str | None, query: str, k: int, *, origin: str | None = None
    ) -> dict[str, Any]:
        """The ``k`` best hits in one workspace, or (none named) in all of them, best first.

        The ranking is the CLI's default, the hybrid (:func:`~dreamd.recall.bundle.hybrid_search`):
        lexical hits first, by score across workspaces, then the episodes only the graph
        reached, by score, in the places left. With an ``origin`` (``owner``, ``agent``, ...)
        and dreaming on, the hits are recorded as recall traces like ``dreamd memory search``
        records them; without one, nothing is recorded. A workspace busy with a sweep still
        answers; its traces are then skipped.
        """
        daemon = self.daemon
        spaces = (
            [self._workspace(workspace)] if workspace else list(daemon.runtime.discovery.workspaces)
        )
        now, zone = daemon.clock.now(), daemon.runtime.zone
        record = origin is not None and daemon.enabled()

        embeddings = settings_of(daemon.runtime.config.embeddings)

        def work() -> list[dict[str, Any]]:
            found: list[tuple[bool, dict[str, Any]]] = []  # (only the graph reached it, hit)
            for chosen in spaces:
                with RecallIndex.open(chosen.root) as index, semantic_recall(index, embeddings):
                    index.update()
                    routed = hybrid_search(index, query, k=k, now=now)
                hits = [r.hit for r in routed]
                if record and origin and hits:
                    with contextlib.suppress(LockError):
                        record_search(chosen.root, query, hits, now=now, zone=zone, origin=origin)
                found += [
                    (
                        bool(r.route),
                        {
                            "workspace": str(chosen.root),
                            "agents": list(chosen.agents),
                            "path": h.path,
                            "startLine": h.start_line,
                            "endLine": h.end_line,
                            "snippet": h.snippet,
                            "score": h.score,
                            "source": h.source,
                            "also": [other.source for other in h.also],
                            "was": [
                                {"snippet": e.snippet, "source": e.source, "until": e.until}
                                for e in h.was
                            ],
                        },
                    )
                    for h, r in zip(hits, routed, strict=True)
                ]
            found.sort(key=lambda item: (item[0], -item[1]["score"]))
            return [hit for _, hit in found[:k]]

        return {"query": query, "hits": await asyncio.to_thread(work)}

    async def take_message(
        self, workspace: str | None, text: str, *, sender: str | None, session_kind: str
    ) -> dict[str, Any]:
        """Live intake: log one message to the workspace's day log (:mod:`dreamd.runs.intake`);
        409 while a sweep holds the workspace longer than a write waits."""
        chosen = self._workspace(workspace)
        runtime = self.daemon.runtime
        owners = owners_of(runtime.config)
        try:
            result = await asyncio.to_thread(
                take_message,
                chosen.root,
                text,
                sender=sender,
                session_kind=session_kind,
                owners=owners,
                now=self.daemon.clock.now(),
                zone=runtime.zone,
            )
        except LockError as exc:
            raise BusyError(f"{chosen.root} is busy (a sweep holds it); try again") from exc
        return {"workspace": str(chosen.root), **result}

    def metrics(self) -> str:
        """Prometheus text."""
        return self.daemon.metrics.render()

    def workspace_labels(self) -> dict[str, str]:
        """Each workspace's path -> its first agent id (``?workspace=`` accepts it)."""
        return {
            str(w.root): (w.agents[0] if w.agents else w.root.name)
            for w in self.daemon.runtime.discovery.workspaces
        }

    def events(self) -> list[dict[str, Any]]:
        """Recent health events, oldest first."""
        return [
            {"kind": e.kind, "workspace": e.workspace, "message": e.message, "at": e.at}
            for e in self.daemon.events
        ]
