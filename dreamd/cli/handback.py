"""``dreamd memory export-openclaw``: hand the workspaces' state back to OpenClaw.

Every workspace dreamd dreams, or the one ``--agent`` picks. A preview by default; ``--apply``
writes (see :mod:`dreamd.runs.handback` for what and where), and needs dreamd's dreaming off
first and OpenClaw stopped.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from dreamd.cli.context import Context
from dreamd.errors import DreamdError

__all__ = ["register"]


def register(verbs: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``export-openclaw`` under ``dreamd memory``."""
    export = verbs.add_parser(
        "export-openclaw",
        help="hand the recall store, promotions and searches back to OpenClaw "
        "(preview; --apply to write)",
    )
    export.add_argument(
        "--apply", action="store_true", help="write them (dreamd's dreaming off, OpenClaw stopped)"
    )
    json_flag(export)
    export.set_defaults(handler=run_export)


def _text(report: dict[str, Any]) -> str:
    before, after = report["openclawBefore"], report["openclawAfter"]
    where = (
        f"OpenClaw state {report['database']}"
        if report["route"] == "sqlite"
        else "memory/.dreams/*.json (OpenClaw has no state database yet: it imports these "
        "on its first start)"
    )
    lines = [
        f"{report['workspaceDir']}: {report['recall']} recall row(s) "
        f"({report['promoted']} promoted), {report['rows']['short-term-phase-signals']} phase "
        f"signal(s), {report['rows']['dreaming-daily-ingestion']} checkpoint(s) -> {where}"
    ]
    if report["route"] == "sqlite":
        lines.append(
            f"  OpenClaw holds {before['recall']} row(s) ({before['promoted']} promoted) for "
            f"this workspace; after: {after['recall']} ({after['promoted']} promoted)"
        )
    if report["retired"]:
        lines.append(
            f"  {report['retired']} row(s) past the cap of 512 retired to dreamd's long-term "
            "layer first, as its next save would"
        )
    if report["removed"]:
        lines.append(
            f"  {report['removed']} row(s) only OpenClaw holds, which dreamd retired to its "
            "long-term layer, removed to stay within OpenClaw's 512"
        )
    if report["patched"]:
        lines.append(f"  {report['patched']} row(s) only OpenClaw holds marked promoted")
    for key in report["skipped"]:
        lines.append(f"  ! row {key} is larger than OpenClaw allows; not written")
    lines.append("  written" if report["applied"] else "  preview: nothing written (--apply)")
    return "\n".join(lines)


def run_export(ctx: Context) -> int:
    """Preview (or write) the handback of each workspace."""
    from dreamd.runs.handback import run_handback
    from dreamd.workspace.openclaw_state import find_state_databases

    if ctx.args.apply and ctx.enabled.enabled:
        raise DreamdError(
            "dreamd's dreaming is still on for this host; run `dreamd dreaming off` first, "
            "so dreamd does not dream these workspaces again once OpenClaw has them"
        )
    install = ctx.runtime.openclaw
    databases = find_state_databases([install.path.parent] if install is not None else [])
    agent = getattr(ctx.args, "agent", None)
    chosen = [ctx.workspace(agent)] if agent else list(ctx.discovery.workspaces)
    reports = [
        run_handback(ws.root, databases=databases, now=ctx.now, apply=ctx.args.apply)
        for ws in chosen
    ]
    ctx.emit({"workspaces": reports}, "\n".join(_text(report) for report in reports))
    return 0
