"""``dreamd sweep``, ``dreamd status`` and ``dreamd dreaming on|off|status|help``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from dreamd.commands.context import Context
from dreamd.hoststate import set_enabled_override
from dreamd.status import gather_status, render_status
from dreamd.sweep import sweep_workspace

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


def run_sweep(ctx: Context) -> int:
    """Sweep every selected workspace; a failing one is reported and the others still run."""
    outcomes = []
    enabled = ctx.enabled
    if not enabled.enabled:
        ctx.note("dreaming is off; sweeping anyway because it was asked for")
    for workspace in ctx.discovery.workspaces:
        outcome = sweep_workspace(
            workspace.root,
            ctx.config.dreaming,
            now=ctx.now,
            zone=ctx.zone,
            agents=workspace.agents,
            lock_timeout=ctx.args.lock_timeout,
        )
        outcomes.append(outcome)
    document = {
        "enabled": enabled.enabled,
        "now": ctx.now.isoformat(),
        "workspaces": [outcome.as_json() for outcome in outcomes],
    }
    lines = []
    for outcome in outcomes:
        if outcome.error:
            lines.append(f"{outcome.workspace}: {outcome.status}: {outcome.error}")
            continue
        light, deep = outcome.summary["light"], outcome.summary["deep"]
        lines.append(
            f"{outcome.workspace}: staged {light['staged']}, promoted {deep['promoted']} "
            f"({deep['promotedToday']} today), {len(outcome.changed)} file(s) changed "
            f"in {outcome.duration_ms:.0f} ms"
        )
        lines += [
            f"  + {item['snippet']} [{item['path']}:{item['startLine']}-{item['endLine']}]"
            for item in deep["promotions"]
        ]
        lines += [f"  ! {warning}" for warning in outcome.warnings]
    ctx.emit(document, "\n".join(lines))
    return 1 if any(outcome.status != "ok" for outcome in outcomes) else 0


def _status(ctx: Context) -> dict[str, Any]:
    return gather_status(ctx.config, ctx.discovery, ctx.enabled, now=ctx.now, zone=ctx.zone)


def run_status(ctx: Context) -> int:
    """Print the host's dreaming status."""
    status = _status(ctx)
    if not ctx.args.deep:
        for workspace in status["workspaces"]:
            workspace.pop("deepReport", None)
    extra = []
    if ctx.args.deep:
        for workspace in status["workspaces"]:
            if workspace.get("deepReport"):
                extra += [f"Deep report for {workspace['path']}:", workspace["deepReport"]]
    ctx.emit(status, render_status(status, zone=ctx.zone, extra=extra))
    return 0


def run_dreaming(ctx: Context) -> int:
    """``on``/``off`` persist a host-wide override; ``status``/``help`` only read."""
    action = ctx.args.action.lower()
    if action in ("on", "off"):
        set_enabled_override(action == "on", now=ctx.now)
        ctx.refresh_enabled()
        status = _status(ctx)
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
