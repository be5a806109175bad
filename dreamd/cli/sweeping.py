"""``dreamd sweep``, ``dreamd status`` and ``dreamd dreaming on|off|status|help``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamd.cli.client import call_daemon
from dreamd.cli.context import Context
from dreamd.clock import format_instant
from dreamd.errors import DreamdError
from dreamd.host.history import record_outcomes
from dreamd.host.jobs import JobBudget
from dreamd.host.runtime import socket_path
from dreamd.host.state import set_enabled_override
from dreamd.host.status import gather_status, render_status
from dreamd.runs.sweep import sweep_workspace

__all__ = ["HELP_TEXT", "register"]

HELP_TEXT = """Usage: /dreaming status
Usage: /dreaming on|off"""
PHASES_TEXT = """Phases:
- implementation detail: each sweep runs light -> REM -> deep.
- deep is the only stage that writes durable entries to MEMORY.md.
- DREAMS.md is for human-readable dreaming summaries and diary entries."""


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the verbs of this module."""
    sweep = commands.add_parser("sweep", help="run one light -> REM -> deep sweep now")
    sweep.add_argument(
        "--lock-timeout", type=float, default=10.0, help="seconds to wait for a busy workspace"
    )
    json_flag(sweep)
    sweep.set_defaults(handler=run_sweep)
    status = commands.add_parser("status", help="show whether dreaming runs and what it holds")
    status.add_argument(
        "--deep", action="store_true", help="also read each workspace's deep report"
    )
    json_flag(status)
    status.set_defaults(handler=run_status)
    dreaming = commands.add_parser("dreaming", help="turn dreaming on or off for this host")
    dreaming.add_argument("action", nargs="?", default="help", help="on, off, status or help")
    json_flag(dreaming)
    dreaming.set_defaults(handler=run_dreaming)
    run = commands.add_parser("run", help="run the daemon: scheduled sweeps and the control API")
    run.set_defaults(handler=run_run)


def _daemon(ctx: Context) -> Path | None:
    """The daemon's socket, when this command should talk to it rather than work itself.

    Only for the host's own set-up: ``--workspace``, ``--config``, ``--now`` or ``--no-daemon``
    mean "work on exactly this, here".
    """
    args = ctx.args
    if args.workspace or args.config or args.now or args.no_daemon:
        return None
    return socket_path(ctx.config)


_KEPT = ("workspace", "status", "diary", "error", "durationMs")


def _kept(outcome: dict[str, Any]) -> dict[str, Any]:
    """What the sweep history needs of an outcome (the rest is printed and let go)."""
    deep = outcome.get("deep") or {}
    counts = {key: deep[key] for key in ("ranked", "promoted", "rejected") if key in deep}
    return {**{key: outcome.get(key) for key in _KEPT}, "deep": counts}


def _sweep_here(ctx: Context, report: Callable[[dict[str, Any]], None]) -> bool:
    """Sweep every workspace in this process, handing each outcome to ``report`` as it finishes.

    Outcomes are streamed, not gathered: a sweep of a thousand workspaces holds one at a time
    (plus the few counts the history keeps). Returns whether every workspace came out ``ok``.
    """
    budget = JobBudget(ctx.config.jobs.max_concurrent)
    kept, ok = [], True
    for workspace in ctx.discovery.workspaces:
        with budget.hold("sweep", str(workspace.root)):
            outcome = sweep_workspace(
                workspace.root,
                ctx.config.dreaming,
                now=ctx.now,
                zone=ctx.zone,
                agents=workspace.agents,
                sessions=workspace.sessions,
                owners=workspace.owners,
                model=ctx.config.model,
                lock_timeout=ctx.args.lock_timeout,
            ).as_json()
        report(outcome)
        kept.append(_kept(outcome))
        ok = ok and outcome["status"] == "ok"
    record_outcomes(kept, at=format_instant(ctx.now))
    return ok


def _lines(outcome: dict[str, Any]) -> list[str]:
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
    socket = None if deep else _daemon(ctx)  # deep reports are read here, not cached by the daemon
    document = call_daemon(socket, "GET", "/v1/status", timeout=30) if socket else None
    if document is not None:
        return dict(document)
    return gather_status(
        ctx.config, ctx.discovery, ctx.enabled, now=ctx.now, zone=ctx.zone, deep=deep
    )


def _set_enabled(ctx: Context, enabled: bool) -> dict[str, Any]:
    socket = _daemon(ctx)
    body = {"enabled": enabled}
    document = call_daemon(socket, "POST", "/v1/dreaming", body, timeout=30) if socket else None
    if document is not None:
        return dict(document)
    set_enabled_override(enabled, now=ctx.now)
    ctx.refresh_enabled()
    return _status(ctx)


def run_status(ctx: Context) -> int:
    """Print the host's dreaming status."""
    status = _status(ctx, deep=ctx.args.deep)
    extra = []
    if ctx.args.deep:
        for workspace in status["workspaces"]:
            if workspace.get("deepReport"):
                extra += [f"Deep report for {workspace['path']}:", workspace["deepReport"]]
    ctx.emit(status, render_status(status, zone=ctx.zone, extra=extra))
    return 0


def run_run(ctx: Context) -> int:
    """Run the daemon in the foreground until SIGTERM/SIGINT."""
    if ctx.args.now:
        raise DreamdError("`dreamd run` follows the real clock; --now is for one-shot commands")
    from dreamd.daemon.main import run_daemon  # the daemon's web stack loads only for `dreamd run`

    return run_daemon(ctx.args.config, ctx.args.workspace)


def run_dreaming(ctx: Context) -> int:
    """``on``/``off`` persist a host-wide override; ``status``/``help`` only read."""
    action = ctx.args.action.lower()
    if action in ("on", "off"):
        status = _set_enabled(ctx, action == "on")
        message = "Dreaming enabled." if action == "on" else "Dreaming disabled."
        ctx.emit(status, message + "\n\n" + render_status(status, zone=ctx.zone))
        return 0
    if action == "status":
        status = _status(ctx)
        ctx.emit(status, render_status(status, zone=ctx.zone))
        return 0
    status = _status(ctx)
    usage_only = action not in ("help", "options", "phases")
    text = f"{HELP_TEXT}\n\n{render_status(status, zone=ctx.zone)}\n\n{PHASES_TEXT}"
    ctx.emit({"usage": HELP_TEXT.splitlines(), "status": status}, text)
    return 2 if usage_only else 0
