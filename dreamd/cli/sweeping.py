"""``dreamd sweep``, ``dreamd status`` and ``dreamd dreaming on|off|reset|status|help``.

Without a daemon, ``sweep`` works here: up to ``jobs.max_concurrent`` workspaces at once (threads,
so their model calls overlap; each holds a host job slot), outcomes printed as they finish. In a
fleet each workspace is swept under its fleet lock with fenced writes, ``status`` carries the
fleet line and ``dreaming on|off`` sets the fleet-wide value. ``dreaming reset`` clears the
host's override, so ``dreaming.enabled`` decides again.

A config file on disk that no longer parses does not hide a running daemon: ``status`` shows
the daemon's own state (it kept the configuration it loaded) with the file's error as a
warning. ``status --deep`` also asks the model for one word (:mod:`dreamd.cli.probe`).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamd.cli.context import Context
from dreamd.cli.options import one_of
from dreamd.clock import format_instant
from dreamd.errors import ConfigError, DreamdError, FleetError

if TYPE_CHECKING:  # the engine, the job slots and Redis load when a verb runs, not to parse
    from dreamd.fleet.fence import Fence
    from dreamd.workspace.discovery import Workspace

__all__ = ["DREAMING_ACTIONS", "HELP_TEXT", "register"]

DREAMING_ACTIONS = ("on", "off", "reset", "status", "help", "options", "phases")
HELP_TEXT = """usage: dreamd dreaming status
usage: dreamd dreaming on|off|reset"""
PHASES_TEXT = """Phases:
- implementation detail: each sweep runs light -> REM -> deep.
- deep is the only stage that writes durable entries to MEMORY.md.
- DREAMS.md is for human-readable dreaming summaries and diary entries."""


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the verbs of this module."""
    sweep = commands.add_parser("sweep", help="run one light -> REM -> deep sweep now")
    sweep.add_argument(
        "--lock-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="seconds to wait for a busy workspace (default 10)",
    )
    json_flag(sweep)
    sweep.set_defaults(handler=run_sweep)
    status = commands.add_parser(
        "status",
        help="show whether dreaming runs and what it holds",
        description="Show whether dreaming runs and what it holds. Exits 0 when the state is "
        "ok, 4 when degraded, 5 when blocked, 6 when dreaming is off (1: the status could not "
        "be read), like `systemctl is-active`.",
    )
    status.add_argument(
        "--deep",
        action="store_true",
        help="also read each workspace's deep report and probe the model",
    )
    json_flag(status)
    status.set_defaults(handler=run_status)
    dreaming = commands.add_parser("dreaming", help="turn dreaming on or off for this host")
    dreaming.add_argument(
        "action",
        nargs="?",
        default="help",
        type=one_of("action", DREAMING_ACTIONS),
        metavar="ACTION",
        help="on, off, reset (back to dreaming.enabled), status or help",
    )
    json_flag(dreaming)
    dreaming.set_defaults(handler=run_dreaming)
    run = commands.add_parser("run", help="run the daemon: scheduled sweeps and the control API")
    run.set_defaults(handler=run_run)


def _daemon(ctx: Context) -> Path | None:
    """The daemon's socket, when this command should talk to it rather than work itself.

    Only for the host's own set-up: ``--workspace``, ``--config``, ``--now`` or ``--no-daemon``
    mean "work on exactly this, here".
    """
    from dreamd.host.runtime import socket_path

    args = ctx.args
    if args.workspace or args.config or args.now or args.no_daemon:
        return None
    return socket_path(ctx.config)


_KEPT = ("workspace", "status", "diary", "error", "durationMs", "changedFiles")


def _kept(outcome: dict[str, Any]) -> dict[str, Any]:
    """What the sweep history needs of an outcome (the rest is printed and let go)."""
    deep = outcome.get("deep") or {}
    counts = {key: deep[key] for key in ("ranked", "promoted", "rejected") if key in deep}
    return {**{key: outcome.get(key) for key in _KEPT}, "deep": counts}


def _sweeper(ctx: Context) -> Callable[[Workspace], dict[str, Any]]:
    """Sweeps one workspace under a host job slot (and, in a fleet, its fleet lock)."""
    from dreamd.fleet.oneshot import FleetSession
    from dreamd.host.jobs import JobBudget
    from dreamd.runs.sweep import Outcome, sweep_workspace

    budget = JobBudget(ctx.config.jobs.max_concurrent)
    session = FleetSession(ctx.config) if ctx.config.fleet is not None else None
    if session is not None:
        session.check()  # a host cut off from its fleet sweeps nothing shared

    def fenced(root: Path) -> contextlib.AbstractContextManager[Fence | None]:
        if session is None:
            return contextlib.nullcontext()
        return session.workspace(str(root), wait=ctx.args.lock_timeout)

    def sweep(workspace: Workspace) -> dict[str, Any]:
        try:
            with budget.hold("sweep", str(workspace.root)), fenced(workspace.root) as fence:
                return sweep_workspace(
                    workspace.root,
                    ctx.config.dreaming,
                    now=ctx.now,
                    zone=ctx.zone,
                    agents=workspace.agents,
                    sessions=workspace.sessions,
                    owners=workspace.owners,
                    trusted_unmarked=workspace.trusted_unmarked,
                    model=ctx.config.model,
                    lock_timeout=ctx.args.lock_timeout,
                    fence=fence,
                ).as_json()
        except FleetError:
            raise  # Redis away, a password or permission refused: the command fails, clearly
        except DreamdError as exc:  # busy elsewhere in the fleet: this workspace's outcome
            return Outcome(str(workspace.root), workspace.agents, "error", error=str(exc)).as_json()

    return sweep


def _finished(
    sweep: Callable[[Workspace], dict[str, Any]], spaces: list[Workspace], limit: int
) -> Iterator[dict[str, Any]]:
    """Each workspace's outcome as it finishes, at most ``limit`` sweeping at once."""
    if limit <= 1 or len(spaces) <= 1:
        yield from map(sweep, spaces)
        return
    waiting = iter(spaces)
    with ThreadPoolExecutor(limit, thread_name_prefix="dreamd-sweep") as pool:
        running: set[Future[dict[str, Any]]] = set()
        for workspace in waiting:
            running.add(pool.submit(sweep, workspace))
            if len(running) == limit:
                break
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                following = next(waiting, None)
                if following is not None:
                    running.add(pool.submit(sweep, following))


def _sweep_here(ctx: Context, report: Callable[[dict[str, Any]], None]) -> bool:
    """Sweep every workspace in this process, handing each outcome to ``report`` as it finishes.

    Up to ``jobs.max_concurrent`` workspaces sweep at once (their model calls overlap). Outcomes
    are streamed, not gathered: a sweep of a thousand workspaces holds only those in flight
    (plus the few counts the history keeps). Returns whether every workspace came out ``ok``.
    """
    from dreamd.host.history import record_outcomes

    kept, ok = [], True
    spaces = list(ctx.discovery.workspaces)
    for outcome in _finished(_sweeper(ctx), spaces, ctx.config.jobs.max_concurrent):
        report(outcome)
        kept.append(_kept(outcome))
        ok = ok and outcome["status"] == "ok"
    record_outcomes(kept, at=format_instant(ctx.now))
    return ok


def _lines(outcome: dict[str, Any]) -> list[str]:
    if outcome["status"] == "skipped":
        return [f"{outcome['workspace']}: skipped: {outcome.get('reason')}"]
    if outcome["error"]:
        return [f"{outcome['workspace']}: {outcome['status']}: {outcome['error']}"]
    light, deep = outcome["light"], outcome["deep"]
    lines = [
        f"{outcome['workspace']}: staged {light['staged']}, promoted {deep['promoted']} "
        f"({deep['promotedToday']} today), {len(outcome['changedFiles'])} file(s) changed "
        f"in {outcome['durationMs']:.0f} ms"
        + (" (unchanged since the last sweep)" if outcome.get("unchanged") else "")
    ]
    lines += [
        f"  + {item['snippet']} [{item['path']}:{item['startLine']}-{item['endLine']}]"
        for item in deep["promotions"]
    ]
    lines += [f"  ! {warning}" for warning in outcome["warnings"]]
    return lines


def run_sweep(ctx: Context) -> int:
    """Sweep every selected workspace; a failing one is reported and the others still run."""
    from dreamd.cli.client import call_daemon

    socket = _daemon(ctx)
    document = call_daemon(socket, "POST", "/v1/sweep") if socket else None
    if document is not None:
        if not document["enabled"]:
            ctx.note("dreaming is off; swept anyway because it was asked for")
        outcomes = document["workspaces"]
        ctx.emit(document, "\n".join(line for o in outcomes for line in _lines(o)))
        return 1 if any(outcome["status"] != "ok" for outcome in outcomes) else 0
    enabled = ctx.enabled.enabled
    if not ctx.json:
        ok = _sweep_here(ctx, lambda outcome: print("\n".join(_lines(outcome)), flush=True))
    else:
        gathered: list[dict[str, Any]] = []
        ok = _sweep_here(ctx, gathered.append)
        document = {"enabled": enabled, "now": format_instant(ctx.now), "workspaces": gathered}
        ctx.emit(document, "")
    if not enabled:
        ctx.note("dreaming is off; swept anyway because it was asked for")
    return 0 if ok else 1


def _status(ctx: Context, *, deep: bool = False) -> dict[str, Any]:
    from dreamd.cli.client import call_daemon

    socket = _daemon(ctx)
    document = call_daemon(socket, "GET", "/v1/status", timeout=30) if socket else None
    if document is not None and not deep:  # deep reports are read here, not cached by the daemon
        return dict(document)
    status = _gathered(ctx, deep=deep)
    if socket is not None:  # the host's own set-up: whether its daemon runs is known
        status["daemon"] = document.get("daemon") if document is not None else None
    return status


def _gathered(ctx: Context, *, deep: bool) -> dict[str, Any]:
    """The status document read here, from disk."""
    from dreamd.fleet.oneshot import fleet_status_line
    from dreamd.host.status import files_of, gather_status

    runtime = ctx.runtime
    files = files_of(runtime.config_path, runtime.openclaw.path if runtime.openclaw else None)
    status = gather_status(
        ctx.config, ctx.discovery, ctx.enabled, now=ctx.now, zone=ctx.zone, deep=deep, files=files
    )
    fleet = fleet_status_line(ctx.config)
    if fleet is not None:
        status["fleet"] = fleet
        if fleet["state"] == "degraded" and status["status"] == "ok":
            status["status"] = "degraded"
    return status


def _set_enabled(ctx: Context, enabled: bool | None) -> dict[str, Any]:
    """Set the host override (``None``: clear it) here or through the daemon."""
    from dreamd.cli.client import call_daemon
    from dreamd.fleet.oneshot import FleetSession
    from dreamd.host.state import set_enabled_override

    socket = _daemon(ctx)
    body = {"enabled": enabled}
    document = call_daemon(socket, "POST", "/v1/dreaming", body, timeout=30) if socket else None
    if document is not None:
        return dict(document)
    if ctx.config.fleet is not None and enabled is not None:
        FleetSession(ctx.config).set_enabled(enabled)
    set_enabled_override(enabled, now=ctx.now)
    ctx.refresh_enabled()
    return _status(ctx)


def _socket_despite(ctx: Context) -> Path | None:
    """The daemon's socket when the config file does not parse: its ``api.socket`` if the TOML
    still reads, else the default (only for the host's own set-up, as :func:`_daemon`)."""
    args = ctx.args
    if args.workspace or args.config or args.now or args.no_daemon:
        return None
    import os
    import tomllib

    from dreamd import paths

    named = os.environ.get("DREAMD_CONFIG", "").strip()
    source = Path(named).expanduser() if named else paths.default_config_path()
    raw: object = None
    with contextlib.suppress(OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        raw = tomllib.loads(source.read_text(encoding="utf-8")).get("api")
    configured = raw.get("socket") if isinstance(raw, dict) else None
    if isinstance(configured, str) and configured:
        return Path(configured).expanduser()
    return paths.runtime_dir() / "dreamd.sock"


def _status_despite(ctx: Context, error: ConfigError) -> dict[str, Any]:
    """The running daemon's status, with the broken config file as a warning (else raise)."""
    from dreamd.cli.client import call_daemon

    socket = _socket_despite(ctx)
    document = call_daemon(socket, "GET", "/v1/status", timeout=30) if socket else None
    if document is None:
        raise error
    status = dict(document)
    status["configError"] = str(error)
    if status["status"] == "ok":  # running on a config it can no longer reload
        status["status"] = "degraded"
    warning = f"{error} (the daemon keeps running with the configuration it loaded before)"
    status["warnings"] = [warning, *status.get("warnings", [])]
    return status


def _zone_of(ctx: Context, status: dict[str, Any]) -> Any:
    """The dreaming zone: from the config, else the one the status names."""
    try:
        return ctx.zone
    except ConfigError:
        from dreamd.clock import resolve_timezone

        with contextlib.suppress(ConfigError):
            return resolve_timezone(status.get("timezone"))
        return resolve_timezone(None)


def run_status(ctx: Context) -> int:
    """Print the host's dreaming status."""
    from dreamd.host.status import STATE_EXIT, render_status

    try:
        status = _status(ctx, deep=ctx.args.deep)
    except ConfigError as exc:
        status = _status_despite(ctx, exc)
    if ctx.args.deep and "configError" not in status:
        from dreamd.cli.probe import probe_model

        status["model"] = probe_model(ctx.config.model)
    extra = []
    if ctx.args.deep:
        for workspace in status["workspaces"]:
            if workspace.get("deepReport"):
                extra += [f"Deep report for {workspace['path']}:", workspace["deepReport"]]
    ctx.emit(status, render_status(status, zone=_zone_of(ctx, status), extra=extra))
    return STATE_EXIT.get(status["status"], 1)


def run_run(ctx: Context) -> int:
    """Run the daemon in the foreground until SIGTERM/SIGINT."""
    if ctx.args.now:
        raise DreamdError("`dreamd run` follows the real clock; --now is for one-shot commands")
    from dreamd.daemon.main import run_daemon  # the daemon's web stack loads only for `dreamd run`

    return run_daemon(ctx.args.config, ctx.args.workspace, log_level=ctx.args.log_level)


def run_dreaming(ctx: Context) -> int:
    """``on``/``off`` persist a host-wide override, ``reset`` clears it; the others read."""
    from dreamd.host.status import render_status

    action = ctx.args.action
    if action in ("on", "off", "reset"):
        status = _set_enabled(ctx, None if action == "reset" else action == "on")
        message = {
            "on": "Dreaming enabled.",
            "off": "Dreaming disabled.",
            "reset": "Override cleared: dreaming.enabled decides.",
        }[action]
        ctx.emit(status, message + "\n\n" + render_status(status, zone=ctx.zone))
        return 0
    if action == "status":
        status = _status(ctx)
        ctx.emit(status, render_status(status, zone=ctx.zone))
        return 0
    status = _status(ctx)
    text = f"{HELP_TEXT}\n\n{render_status(status, zone=ctx.zone)}\n\n{PHASES_TEXT}"
    ctx.emit({"usage": HELP_TEXT.splitlines(), "status": status}, text)
    return 0
