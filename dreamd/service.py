"""What the control API serves, answered from the running daemon's state.

Everything that reads workspace files runs in a worker thread. Documents have the same shapes
as the CLI's ``--json`` output (``status``, ``sweep``, ``promote-explain``), so the CLI can print
a daemon's answer exactly as it prints its own.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamd.clock import format_instant
from dreamd.discovery import Workspace
from dreamd.errors import DreamdError
from dreamd.explain import candidate_json, explain
from dreamd.hoststate import effective_enabled, load_host_state
from dreamd.layout import DREAMS_FILE, DREAMS_FILE_LOWER
from dreamd.phases.cycle import thresholds_of
from dreamd.phases.deep import rank
from dreamd.phases.diary import diary_entries
from dreamd.status import build_status
from dreamd.web import BusyError
from dreamd.workspace import read_snapshot

if TYPE_CHECKING:
    from dreamd.daemon import Daemon

__all__ = ["DaemonService"]


class DaemonService:
    """The :class:`dreamd.web.Service` of a running :class:`~dreamd.daemon.Daemon`."""

    def __init__(self, daemon: Daemon) -> None:
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
        document = build_status(
            runtime.config,
            runtime.discovery,
            effective_enabled(runtime.config.dreaming.enabled),
            summary=summary,
            schedule=load_host_state().get("schedule") or {},
            now=daemon.clock.now(),
            zone=runtime.zone,
            workspaces=encoded,
        )
        document["daemon"] = {
            "pid": os.getpid(),
            "startedAt": self.daemon.started_at,
            "scheduler": self.daemon.scheduler.statistics(),
            "jobs": self.daemon.budget.statistics(),
        }
        return document

    async def workspaces(self) -> list[dict[str, Any]]:
        """Each workspace's counts (the status document's list)."""
        return self.daemon.workspace_summary()[0].entries

    async def explain(self, workspace: str | None, selector: str | None) -> dict[str, Any]:
        """One entry explained, or (no selector) the candidates passing every gate."""
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
                return explain(snapshot, thresholds, selector, now=now)[1]
            ranking = rank(snapshot.store.rows, snapshot.signals.rows, thresholds, now=now)
            return {
                "workspaceDir": str(snapshot.root),
                "thresholds": thresholds.as_json(),
                "candidates": [candidate_json(s) for s in ranking.candidates],
                "rejected": dict(sorted(ranking.rejected.items())),
            }

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

    async def set_enabled(self, enabled: bool) -> dict[str, Any]:
        """Turn dreaming on or off for the host; answers with the new status."""
        await self.daemon.set_enabled(enabled)
        return await self.status()

    async def sweep_now(self) -> dict[str, Any]:
        """Sweep every workspace now; 409 while another sweep runs."""
        daemon = self.daemon
        if not await daemon.scheduler.run_now(reason="manual"):
            raise BusyError("a sweep is already running; try again when it has finished")
        return {
            "enabled": daemon.enabled(),
            "now": format_instant(daemon.clock.now()),
            "workspaces": daemon.last_outcomes,
        }

    def metrics(self) -> str:
        """Prometheus text."""
        return self.daemon.metrics.render()

    def events(self) -> list[dict[str, Any]]:
        """Recent health events, oldest first."""
        return [
            {"kind": e.kind, "workspace": e.workspace, "message": e.message, "at": e.at}
            for e in self.daemon.events
        ]
