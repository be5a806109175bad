"""The composition root of ``dreamd run``: one asyncio process per host that dreams on schedule.

It wires together the runtime (config, workspaces, owner), the job budget, the scheduler, the
control API and systemd notifications, and owns their lifetimes:

* start: take the single-instance lock, open the API (Unix socket 0600, optional loopback TCP),
  send ``READY=1``, start the scheduler generation;
* ``SIGHUP``: load config and workspaces again; a bad new config is logged and the old one kept
  (status then warns with the error); a good one replaces the scheduler generation (the API
  stays up) and the log settings;
* ``SIGTERM``/``SIGINT``: ``STOPPING=1``, a "stopping" line, no new workspace sweep starts, the
  ones running finish (every write is atomic), "sweep interrupted: N workspace(s) not swept"
  when a sweep was cut short, a "stopped" line, exit 0.

Each sweep logs one summary line (workspaces, promoted, refused by gate, failed, skipped,
duration; the same as fields in JSON logs) and keeps its progress (done, running, waiting) for
status while it runs.

Sweeps fan out over workspaces concurrently; each workspace sweep holds one job slot and runs
in a worker process (:mod:`dreamd.daemon.workers`), so the event loop keeps answering the API in
milliseconds; status reads counts cached after each workspace sweep, never the workspaces.
Each outcome goes to metrics, to the sweep history, and through :mod:`dreamd.host.health` to health
events.

With ``[fleet]`` the daemon is one host of several (:mod:`dreamd.fleet.coordinator`): each
workspace sweep goes through the fleet (once per slot fleet-wide, fenced writes), workspaces
are taken in a host-specific order, chat adapters run only where this host leads them, health
events travel through the fleet to the leaders, and ``/dreaming on|off`` is fleet-wide.
Workspaces another host swept are counted again here, so status stays true on every host.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Collection, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import portalocker
from aiohttp import web

from dreamd import paths
from dreamd.chat.access import grants_of
from dreamd.chat.adapters import Adapters
from dreamd.chat.router import Router
from dreamd.clock import day_of, format_instant, parse_instant
from dreamd.config import LogConfig
from dreamd.daemon import heap
from dreamd.daemon.api import build_app, load_tokens
from dreamd.daemon.backend import DaemonService
from dreamd.daemon.folding import fold_while_idle
from dreamd.daemon.listener import (
    IDLE_SECONDS,
    LINGER_SECONDS,
    CappedSite,
    Gate,
    connection_caps,
    read_nofile,
)
from dreamd.daemon.logs import configure_logging
from dreamd.daemon.mcp_route import McpMount
from dreamd.daemon.metrics import Metrics
from dreamd.daemon.preflight import preflight
from dreamd.daemon.scheduler import Scheduler, ScheduleSettings
from dreamd.daemon.sdnotify import notify, watchdog_interval
from dreamd.daemon.workers import (
    JobSettings,
    Workers,
    count_workspaces,
    sweep_and_count,
    unchanged_of,
)
from dreamd.errors import DreamdError, ListenError
from dreamd.fleet.coordinator import Fleet, rotated
from dreamd.fleet.slots import slot_end, slot_of
from dreamd.host.clock import Clock, SystemClock
from dreamd.host.health import HISTORY_KEPT, HealthEvent, new_events, sweep_record
from dreamd.host.history import Histories, load_histories, save_histories
from dreamd.host.jobs import JobBudget
from dreamd.host.runtime import Runtime, load_runtime, socket_path
from dreamd.host.state import effective_enabled, set_enabled_override
from dreamd.host.status import (
    STATES,
    WorkspacesSummary,
    overall_state,
    status_entry,
    summary_of,
)
from dreamd.workspace.discovery import Workspace

__all__ = ["Daemon", "run_daemon"]

_log = logging.getLogger("dreamd")
STOP_GRACE_SECONDS = 8.0
BATCH = 50  # workspaces whose fingerprints one job checks
MANUAL_WAIT_SECONDS = 600.0  # a manual sweep in a fleet waits this long for a busy workspace
_NOT_SWEPT = ("stopped", "skipped")  # outcomes that leave no trace in the history


def _dir(runtime: Runtime) -> Path | None:
    """The config file's folder: relative ``token_file`` paths start there."""
    return runtime.config_path.parent if runtime.config_path else None


def _settings(runtime: Runtime) -> ScheduleSettings:
    dreaming = runtime.config.dreaming
    return ScheduleSettings(
        expression=dreaming.frequency,
        zone=runtime.zone,
        catch_up=dreaming.catch_up,
        owner=runtime.readiness.owner,
        heartbeat_seconds=runtime.heartbeat_seconds,
    )


class Daemon:
    """The running daemon (see the module rules)."""

    def __init__(
        self,
        runtime: Runtime,
        *,
        config_arg: Path | None = None,
        workspaces_arg: Sequence[Path] = (),
        clock: Clock | None = None,
        log_level: str | None = None,
    ) -> None:
        self.runtime = runtime
        self._log_level = log_level
        self.progress: dict[str, Any] | None = None  # the sweep running now (see status)
        self.reload_error: str | None = None  # the last rejected reload, until one succeeds
        self._config_arg = config_arg
        self._workspaces_arg = tuple(workspaces_arg)
        self.clock: Clock = clock or SystemClock()
        self.budget = JobBudget(runtime.config.jobs.max_concurrent)
        jobs = runtime.config.jobs
        self.workers = Workers(jobs.max_concurrent, nice=jobs.nice)
        self.events: deque[HealthEvent] = deque(maxlen=100)
        self.fleet: Fleet | None = None
        if runtime.config.fleet is not None:
            self.fleet = Fleet(
                runtime.config.fleet,
                clock=self.clock,
                host_jobs=self.budget.statistics,
                on_enabled=self._mirror_enabled,
                deliver=self._deliver,
                note=self.events.append,
                known=lambda: {str(w.root): w.agents for w in self.runtime.discovery.workspaces},
            )
        self.metrics = Metrics(host=self.fleet.host if self.fleet else None)
        self.metrics.last_success = self._last_success
        self.metrics.agents_of = self._agents_of
        self.subscribers: list[asyncio.Queue[HealthEvent]] = []
        self.started_at = format_instant(self.clock.now())
        self.last_outcomes: list[dict[str, Any]] = []
        self.counts: dict[str, dict[str, Any]] = {}
        self._counted_on: dict[str, str] = {}  # the dreaming day each workspace was counted on
        self.histories = Histories(load_histories())
        self._summary: tuple[WorkspacesSummary, msgspec.Raw] | None = None
        self._entries: dict[str, tuple[dict[str, Any], bytes]] = {}
        self.socket = socket_path(runtime.config)
        self._halt = threading.Event()
        self._stop = asyncio.Event()
        self._regenerate = asyncio.Event()
        self.scheduler = self._new_scheduler()
        self.adapters = Adapters(
            runtime.config.adapters,
            clock=self.clock,
            config_dir=_dir(runtime),
            leadership=self.fleet.leadership if self.fleet else None,
        )
        self._blocked: str | None = None
        self._recount: asyncio.Task[None] | None = None
        self.metrics.gauges.update(
            {
                "dreamd_job_slots_in_use": lambda: float(self.budget.statistics()["inUse"]),
                "dreamd_job_slots_limit": lambda: float(self.budget.limit),
                "dreamd_pending_events": lambda: float(len(self.scheduler.statistics()["pending"])),
                "dreamd_enabled": lambda: float(self.enabled()),
            }
        )
        self.metrics.labelled["dreamd_workspace_promoted_today"] = lambda: [
            (self.metrics.where(path), float(counts.get("promotedToday") or 0))
            for path, counts in sorted(self.counts.items())
        ]
        self.metrics.labelled["dreamd_state"] = lambda: [
            ({"state": state}, float(state == self.state())) for state in STATES
        ]
        if self.fleet is not None:
            self._fleet_metrics(self.fleet)

    def _agents_of(self, path: str) -> str:
        """The agent ids sharing a workspace, for metrics labels."""
        for workspace in self.runtime.discovery.workspaces:
            if str(workspace.root) == path:
                return ",".join(workspace.agents)
        return ""

    def _last_success(self) -> dict[str, float]:
        """Each workspace's newest successful sweep (seconds since the epoch), from history."""
        found: dict[str, float] = {}
        known = {str(workspace.root) for workspace in self.runtime.discovery.workspaces}
        for path, history in self.histories.items():
            if path not in known:
                continue
            for record in reversed(history):
                moment = parse_instant(str(record.get("at") or ""))
                if record.get("status") == "ok" and moment is not None:
                    found[path] = moment.timestamp()
                    break
        return found

    def _fleet_metrics(self, fleet: Fleet) -> None:
        def hosts() -> list[tuple[dict[str, str], float]]:
            lost = sum(1 for host in fleet.hosts if host.get("lost"))
            return [({"state": "up"}, len(fleet.hosts) - lost), ({"state": "lost"}, lost)]

        self.metrics.gauges["dreamd_fleet_up"] = lambda: float(fleet.connected.is_set())
        self.metrics.gauges["dreamd_fleet_jobs_limit"] = lambda: float(fleet.jobs_limit())
        self.metrics.labelled["dreamd_fleet_hosts"] = hosts

    def _changed(self, *paths: str) -> None:
        """These workspaces' counts or histories changed (none named: all of them)."""
        targets = paths or tuple(self._entries)
        for path in targets:
            self._entries.pop(path, None)
        self._summary = None

    def workspace_summary(self) -> tuple[WorkspacesSummary, msgspec.Raw]:
        """The per-workspace part of status; entries are rebuilt only for what changed."""
        if self._summary is None:
            idle = self.runtime.config.health.idle_sweeps
            entries = []
            for workspace in self.runtime.discovery.workspaces:
                path = str(workspace.root)
                cached = self._entries.get(path)
                if cached is None:
                    entry = status_entry(
                        workspace,
                        self.counts.get(path),
                        self.histories.get(path),
                        idle_sweeps=idle,
                    )
                    cached = self._entries[path] = (entry, msgspec.json.encode(entry))
                entries.append(cached)
            encoded = msgspec.Raw(b"[" + b",".join(raw for _, raw in entries) + b"]")
            self._summary = (summary_of([entry for entry, _ in entries]), encoded)
        return self._summary

    def state(self) -> str:
        """The host's state word, as ``status`` reports it (ok, degraded, blocked, disabled)."""
        fleet = self.fleet.summary()["state"] == "degraded" if self.fleet is not None else False
        return overall_state(
            enabled=self.enabled(),
            blocked=bool(self.runtime.readiness.blocked),
            degraded=self.workspace_summary()[0].degraded or fleet,
        )

    def enabled(self) -> bool:
        """Dreaming on or off (the fleet-wide value while Redis holds one, else the host
        override over config), read fresh each time."""
        if self.fleet is not None and self.fleet.shared_enabled is not None:
            return self.fleet.shared_enabled
        return effective_enabled(self.runtime.config.dreaming.enabled).enabled

    def _may_sweep(self) -> bool:
        """Whether the schedule runs: dreaming on, and in a fleet the fleet-wide value read."""
        return self.enabled() and (self.fleet is None or self.fleet.heard)

    def _new_scheduler(self) -> Scheduler:
        return Scheduler(
            _settings(self.runtime), sweep=self.sweep_all, enabled=self._may_sweep, clock=self.clock
        )

    async def sweep_all(self, reason: str) -> list[dict[str, Any]]:
        """Sweep every workspace concurrently within the job budget (holds no slot itself)."""
        started = time.perf_counter()
        runtime = self.runtime
        spaces = list(runtime.discovery.workspaces)
        notify(f"STATUS=sweeping {len(spaces)} workspace(s) ({reason})")
        self.progress = {
            "reason": reason,
            "startedAt": format_instant(self.clock.now()),
            "total": len(spaces),
            "done": 0,
            "running": 0,
            "waiting": len(spaces),
        }
        slot, until = self._slot(reason)
        if self.fleet is not None:
            spaces = rotated(spaces, self.fleet.host)
        try:
            async with asyncio.TaskGroup() as group:
                if self.fleet is None:  # unchanged workspaces found in batches, the rest swept
                    batches = [
                        group.create_task(self._sweep_batch(spaces[start : start + BATCH], until))
                        for start in range(0, len(spaces), BATCH)
                    ]
                else:  # each workspace through the fleet's lock, once per slot fleet-wide
                    tasks = [group.create_task(self._sweep_one(ws, slot, until)) for ws in spaces]
        finally:
            self.progress = None
        if self.fleet is None:
            outcomes = [outcome for batch in batches for outcome in batch.result()]
        else:
            outcomes = [task.result() for task in tasks]
        seconds = time.perf_counter() - started
        self.metrics.last_sweep_seconds = seconds
        for outcome in outcomes:
            self.metrics.record_outcome(outcome)
        await self._remember(outcomes)
        self.last_outcomes = outcomes
        failed = [o for o in outcomes if o["status"] not in ("ok", *_NOT_SWEPT)]
        skipped = [o for o in outcomes if o["status"] == "skipped"]
        notify(f"STATUS=last sweep: {len(outcomes)} workspace(s), {len(failed)} failed")
        _log_summary(reason, outcomes, seconds, failed=len(failed), skipped=skipped)
        await asyncio.to_thread(heap.trim)  # a round's garbage back to the system, not kept
        for outcome in skipped:
            _log.debug("skipped %s: %s", outcome["workspace"], outcome.get("reason"))
        if self.fleet is not None:
            self.fleet.swept_last = len(outcomes) - len(skipped)
            self.fleet.last_error = next((str(o.get("error")) for o in failed), None)
            elsewhere = {str(o["workspace"]) for o in skipped}
            if elsewhere:  # in the background: the next slot need not wait for the counting
                self._recount = asyncio.create_task(self.warm_counts(only=elsewhere))
        return outcomes

    def _slot(self, reason: str) -> tuple[str | None, datetime]:
        """The slot a scheduled sweep belongs to, and when it ends (a manual one has none)."""
        now = self.clock.now()
        if self.fleet is None or reason not in ("cron", "catch-up"):
            return None, now + timedelta(seconds=MANUAL_WAIT_SECONDS)
        dreaming = self.runtime.config.dreaming
        slot = slot_of(dreaming.frequency, self.runtime.zone, now)
        began = parse_instant(slot) or now
        return slot, slot_end(dreaming.frequency, self.runtime.zone, began)

    async def _sweep_batch(
        self, spaces: Sequence[Workspace], until: datetime
    ) -> list[dict[str, Any]]:
        """Sweep ``spaces``: one job finds those that are unchanged (their outcome is known
        without a sweep), then each of the others is swept on its own; outcomes in order."""
        found: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {}
        if not self._halt.is_set():
            runtime = self.runtime
            async with self.budget.slot("sweep", f"{len(spaces)} workspace(s): changed?"):
                now = self.clock.now()
                today = day_of(now, runtime.zone)
                asked = [(ws, self._counted_on.get(str(ws.root)) == today) for ws in spaces]
                found = await self.workers.run(
                    unchanged_of, asked, JobSettings.of(runtime.config), runtime.zone, now
                )
            for path, (_, counts) in found.items():
                self._progress(waiting=-1, done=1)
                if counts is not None:
                    self._count(path, counts, today)
        rest = [ws for ws in spaces if str(ws.root) not in found]
        swept = await asyncio.gather(*(self._sweep_one(ws, None, until) for ws in rest))
        outcomes = {str(ws.root): outcome for ws, outcome in zip(rest, swept, strict=True)}
        return [
            found[root][0] if root in found else outcomes[root]
            for root in (str(ws.root) for ws in spaces)
        ]

    async def _sweep_one(
        self, workspace: Workspace, slot: str | None, until: datetime
    ) -> dict[str, Any]:
        root = str(workspace.root)
        if self._halt.is_set():
            self._progress(waiting=-1, done=1)
            return {"workspace": root, "agents": list(workspace.agents), "status": "stopped"}
        runtime = self.runtime

        started = False

        async def sweep(fence: Callable[[], object] | None = None) -> dict[str, Any]:
            nonlocal started
            started = True
            self._progress(waiting=-1, running=1)
            now = self.clock.now()
            today = day_of(now, runtime.zone)
            try:
                outcome, counts = await self.workers.run(
                    sweep_and_count,
                    workspace,
                    JobSettings.of(runtime.config),
                    runtime.zone,
                    now,
                    fence,
                    self._counted_on.get(root) == today,
                )
            finally:
                self._progress(running=-1, done=1)
            if counts is not None:  # None: unchanged, the counts held are still true
                self._count(root, counts, today)
            return outcome

        try:
            if self.fleet is None:
                async with self.budget.slot("sweep", root):
                    return await sweep()
            return await self.fleet.sweep(
                root,
                workspace.agents,
                slot=slot,
                until=until,
                hold=lambda: self.budget.slot("sweep", root),
                run=sweep,
                stopping=self._halt.is_set,
            )
        finally:
            if not started:  # swept elsewhere in the fleet, or stopped while waiting
                self._progress(waiting=-1, done=1)

    def _progress(self, **change: int) -> None:
        """Move the running sweep's counts (done, running, waiting)."""
        if self.progress is not None:
            for key, step in change.items():
                self.progress[key] += step

    async def warm_counts(self, only: Collection[str] | None = None) -> None:
        """Count every workspace (or ``only`` these) in the background: status never reads."""
        runtime = self.runtime
        spaces = [
            (ws.root, ws.agents)
            for ws in runtime.discovery.workspaces
            if only is None or str(ws.root) in only
        ]
        for start in range(0, len(spaces), 50):
            if self._halt.is_set():
                return
            async with self.budget.slot("status", "counting workspaces"):
                now = self.clock.now()
                counted = await self.workers.run(
                    count_workspaces,
                    spaces[start : start + 50],
                    runtime.config.dreaming,
                    runtime.zone,
                    now,
                )
            today = day_of(now, runtime.zone)
            for path, counts in counted.items():
                self._count(path, counts, today)

    def _count(self, path: str, counts: dict[str, Any], day: str) -> None:
        """Keep a workspace's fresh counts, taken on the dreaming day ``day``."""
        self.counts[path] = counts
        if "error" in counts:  # a workspace that could not be read is counted again next time
            self._counted_on.pop(path, None)
        else:
            self._counted_on[path] = day
        self._changed(path)

    async def _remember(self, outcomes: list[dict[str, Any]]) -> None:
        stamp = format_instant(self.clock.now())
        idle = self.runtime.config.health.idle_sweeps
        fresh: list[HealthEvent] = []
        for outcome in outcomes:
            if outcome["status"] in _NOT_SWEPT:
                continue
            path = outcome["workspace"]
            before = self.histories.get(path)
            after = [*before, sweep_record(stamp, outcome)][-HISTORY_KEPT:]
            self.histories[path] = after
            fresh.extend(new_events(path, before, after, idle_sweeps=idle, at=stamp))
        self._changed(*(o["workspace"] for o in outcomes))
        await asyncio.to_thread(save_histories, self.histories.encoded())
        for event in fresh:
            self.publish(event)

    def publish(self, event: HealthEvent) -> None:
        """Keep a health event and hand it to every subscriber (chat adapters).

        In a fleet the event goes through the fleet, which hands it to every host's adapters.
        """
        _log.warning("health: %s: %s", event.workspace, event.message)
        self.events.append(event)
        if self.fleet is not None:
            self.fleet.share(event)
        else:
            self._deliver(event)

    def _deliver(self, event: HealthEvent) -> None:
        for queue in self.subscribers:
            queue.put_nowait(event)

    async def set_enabled(self, enabled: bool | None) -> None:
        """Persist the override (fleet-wide in a fleet; ``None`` clears this host's) and start
        or stop the schedule."""
        if self.fleet is not None:
            await self.fleet.set_enabled(enabled)
        await asyncio.to_thread(set_enabled_override, enabled, now=self.clock.now())
        self._regenerate.set()

    async def _mirror_enabled(self, enabled: bool | None) -> None:
        """The fleet-wide value changed (or was read first): follow it. It is not written into
        this host's state: a value read from Redis is never a local setting."""
        if enabled is not None:
            _log.info("fleet: dreaming turned %s fleet-wide", "on" if enabled else "off")
        self._regenerate.set()

    async def reload(self) -> bool:
        """Load config and workspaces again; keep the old ones when the new config is bad."""
        try:
            runtime = await asyncio.to_thread(load_runtime, self._config_arg, self._workspaces_arg)
            await asyncio.to_thread(preflight, runtime)
        except DreamdError as exc:
            _log.error("reload rejected, keeping the previous configuration: %s", exc)
            notify(f"STATUS=reload rejected: {exc}")
            self.reload_error = f"{format_instant(self.clock.now())}: {exc}"
            return False
        self.reload_error = None
        try:
            configure_logging(runtime.config.log, flag=self._log_level)
        except DreamdError as exc:
            _log.error("log settings not changed: %s", exc)
        self.runtime = runtime
        self._counted_on.clear()  # counted under the old settings: the next sweep counts again
        self._changed()
        jobs = runtime.config.jobs
        self.budget.limit = jobs.max_concurrent
        self.workers.reconfigure(jobs.max_concurrent, nice=jobs.nice)
        self.adapters.reconfigure(runtime.config.adapters, config_dir=_dir(runtime))
        _log.info("reloaded: %d workspace(s)", len(runtime.discovery.workspaces))
        self._regenerate.set()
        return True

    def request_stop(self, reason: str = "requested") -> None:
        """Begin a graceful stop (signal handlers call this with the signal's name)."""
        if not self._halt.is_set():
            running = self.progress["running"] if self.progress else 0
            _log.info(
                "stopping (%s): no new workspace sweep starts; %d running will finish",
                reason,
                running,
                extra={"fields": {"event": "stopping", "reason": reason, "running": running}},
            )
        self._halt.set()
        self._stop.set()

    async def run(self, *, ready: asyncio.Event | None = None) -> int:
        """Serve until stopped; returns the exit code."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.request_stop, sig.name)
        loop.add_signal_handler(signal.SIGHUP, lambda: loop.create_task(self.reload()))
        runner = await self._serve_api()
        events: asyncio.Queue[HealthEvent] = asyncio.Queue()  # chat adapters notify owners
        self.subscribers.append(events)
        try:
            notify(
                "READY=1", f"STATUS=serving {len(self.runtime.discovery.workspaces)} workspace(s)"
            )
            if ready is not None:
                ready.set()
            chat = Router(DaemonService(self), grants=lambda: grants_of(self.runtime.config))
            async with asyncio.TaskGroup() as group:
                helpers = [
                    group.create_task(self._watchdog()),
                    group.create_task(self.warm_counts()),
                    group.create_task(self.adapters.run(chat.dispatch, events)),
                ]
                fold_every = self.runtime.config.jobs.fold_every_s
                if fold_every > 0:
                    helpers.append(group.create_task(self._fold_while_idle(fold_every)))
                if self.fleet is not None:
                    helpers.append(group.create_task(self.fleet.run()))
                await self._generations()
                for helper in helpers:
                    helper.cancel()
        finally:
            self.subscribers.remove(events)
            notify("STOPPING=1")
            await asyncio.to_thread(self.workers.shutdown)
            await runner.cleanup()
            self.socket.unlink(missing_ok=True)
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                loop.remove_signal_handler(sig)
            _log.info("stopped", extra={"fields": {"event": "stopped"}})
        return 0

    async def _generations(self) -> None:
        while not self._stop.is_set():
            self._regenerate.clear()
            self._note_blocked()
            generation_stop = asyncio.Event()
            self.scheduler = self._new_scheduler()
            task = asyncio.create_task(self.scheduler.run(generation_stop))
            waiters = [asyncio.create_task(e.wait()) for e in (self._stop, self._regenerate)]
            await asyncio.wait([task, *waiters], return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
            generation_stop.set()
            if self._stop.is_set():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(STOP_GRACE_SECONDS):
                        await asyncio.shield(task)
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _note_blocked(self) -> None:
        """Raise a ``blocked`` event when dreaming is on but cannot sweep (once per reason)."""
        readiness = self.runtime.readiness
        blocked = readiness.blocked if self.enabled() else None
        if blocked and blocked != self._blocked:
            stamp = format_instant(self.clock.now())
            self.publish(HealthEvent("blocked", "host", f"{blocked}; fix: {readiness.fix}", stamp))
        self._blocked = blocked

    async def _fold_while_idle(self, every: float) -> None:
        await fold_while_idle(
            lambda: [ws.root for ws in self.runtime.discovery.workspaces],
            busy=lambda: self.progress is not None or self._halt.is_set(),
            slot=self.budget.slot,
            run=self.workers.run,
            now=self.clock.now,
            every=every,
        )

    async def _watchdog(self) -> None:
        interval = watchdog_interval()
        if interval is None:
            return
        while True:
            notify("WATCHDOG=1")
            await asyncio.sleep(interval)

    async def _serve_api(self) -> web.AppRunner:
        """Open the Unix socket and ``api.listen``, each behind its connection cap.

        The caps come from the open-files limit (:mod:`dreamd.daemon.listener`). A listener that
        cannot open is a :class:`ListenError` naming it; nothing is left listening then.
        """
        config = self.runtime.config
        listen = config.api.listen
        tokens = (
            load_tokens(Path(config.api.tokens_file).expanduser())
            if config.api.tokens_file
            else None
        )
        caps = connection_caps(read_nofile())
        app = build_app(DaemonService(self), tokens, listen=listen, mcp=McpMount(self))
        runner = web.AppRunner(
            app, access_log=None, keepalive_timeout=IDLE_SECONDS, lingering_time=LINGER_SECONDS
        )
        await runner.setup()
        path = self.socket = socket_path(config)
        try:
            await _open_socket(runner, path, Gate(caps.unix, caps.refusals))
            if listen:
                host, _, port = listen.rpartition(":")
                site = CappedSite(
                    runner, Gate(caps.tcp, caps.refusals), host=host.strip("[]"), port=int(port)
                )
                try:
                    await site.start()
                except OSError as exc:
                    raise ListenError(_listen_problem(listen, exc)) from exc
        except BaseException:
            await runner.cleanup()
            path.unlink(missing_ok=True)
            raise
        _log.info(
            "control API on %s (%d connections)%s; open-files limit %d",
            path,
            caps.unix,
            f" and {listen} ({caps.tcp} connections)" if listen else "",
            caps.nofile,
        )
        return runner


async def _open_socket(runner: web.AppRunner, path: Path, gate: Gate) -> None:
    """Listen on the owner-only Unix socket ``path`` (mode 0600 from the first instant)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # the single-instance lock is held: a socket file left here is stale
        previous = os.umask(0o177)
        try:
            await CappedSite(runner, gate, path=str(path)).start()
        finally:
            os.umask(previous)
        path.chmod(0o600)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ListenError(
            f"{path}: cannot open the control socket ({reason}); "
            "choose a writable folder and a short path in api.socket"
        ) from exc


def _listen_problem(listen: str, exc: OSError) -> str:
    """What went wrong opening ``api.listen``, and how to fix it."""
    if exc.errno == errno.EADDRINUSE:
        return (
            f"api.listen {listen} is already in use (another program listens there); "
            "stop it or choose another port in api.listen"
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return (
            f"api.listen {listen}: this host has no such address ({exc.strerror}); "
            "use 127.0.0.1:<port> in api.listen"
        )
    if exc.errno == errno.EACCES:
        return (
            f"api.listen {listen}: permission denied (ports below 1024 need privileges); "
            "choose a port from 1024 up in api.listen"
        )
    return f"api.listen {listen}: cannot listen there ({exc.strerror or exc})"


def _instance_lock() -> portalocker.Lock:
    directory = paths.runtime_dir()
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    lock = portalocker.Lock(directory / "daemon.lock", mode="a", timeout=0, fail_when_locked=True)
    try:
        lock.acquire()
    except portalocker.exceptions.LockException as exc:
        raise DreamdError(
            f"another `dreamd run` is active on this host (lock {directory / 'daemon.lock'})"
        ) from exc
    return lock


def _log_summary(
    reason: str,
    outcomes: Sequence[dict[str, Any]],
    seconds: float,
    *,
    failed: int,
    skipped: Sequence[dict[str, Any]],
) -> None:
    """One line per sweep: workspaces, promoted, refused by gate, failures, duration."""
    refused: Counter[str] = Counter()
    promoted = today = 0
    for outcome in outcomes:
        deep = outcome.get("deep") or {}
        promoted += int(deep.get("promoted") or 0)
        today += int(deep.get("promotedToday") or 0)  # the night's, from the events log
        refused.update({str(k): int(v) for k, v in (deep.get("rejected") or {}).items()})
    stopped = sum(1 for o in outcomes if o.get("status") == "stopped")
    swept = len(outcomes) - stopped - len(skipped)
    gates = ", ".join(f"{gate} {count}" for gate, count in sorted(refused.items())) or "none"
    fields = {
        "event": "sweep",
        "reason": reason,
        "workspaces": len(outcomes),
        "swept": swept,
        "promoted": promoted,
        "promotedToday": today,
        "refused": dict(sorted(refused.items())),
        "failed": failed,
        "skipped": len(skipped),
        "stopped": stopped,
        "durationS": round(seconds, 3),
    }
    _log.info(
        "sweep (%s): %d workspace(s) swept, %d promoted (%d today), refused by gate: %s; "
        "%d failed, %d skipped%s in %.1f s",
        reason,
        swept,
        promoted,
        today,
        gates,
        failed,
        len(skipped),
        f" (first: {skipped[0].get('reason')})" if skipped else "",
        seconds,
        extra={"fields": fields},
    )
    if stopped:
        _log.warning(
            "sweep interrupted: %d workspace(s) not swept",
            stopped,
            extra={"fields": {"event": "interrupted", "notSwept": stopped}},
        )


def run_daemon(
    config_arg: Path | None, workspaces: Sequence[Path], *, log_level: str | None = None
) -> int:
    """``dreamd run``: serve until SIGTERM/SIGINT."""
    heap.limit_arenas()  # before any thread starts (see dreamd.daemon.heap)
    configure_logging(LogConfig(), flag=log_level)  # until the config is read
    lock = _instance_lock()
    try:
        runtime = load_runtime(config_arg, workspaces)
        preflight(runtime)  # what `dreamd config check` checks too
        configure_logging(runtime.config.log, flag=log_level)
        daemon = Daemon(
            runtime, config_arg=config_arg, workspaces_arg=workspaces, log_level=log_level
        )
        return asyncio.run(daemon.run())
    finally:
        lock.release()
