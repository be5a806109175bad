"""Status: what dreaming is doing on this host, as JSON and as the ``Dreaming status:`` block.

The overall ``status`` is one of ``disabled`` (dreaming is off), ``blocked`` (on, but the
owner cannot run sweeps: see ``owner``), ``degraded`` (a workspace cannot be read or its last
sweep failed) or ``ok``. Gathering only reads: corrupt state is reported, never set aside.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from cronsim import CronSim

from dreamd.blocks import read_block
from dreamd.clock import day_of, format_instant, parse_instant
from dreamd.config import Config
from dreamd.discovery import Discovery, Workspace
from dreamd.errors import DreamdError
from dreamd.events import read_events
from dreamd.hoststate import EnabledState
from dreamd.layout import DREAMS_FILE, DREAMS_FILE_LOWER, MEMORY_FILE, is_short_term_path
from dreamd.owner import assess
from dreamd.phases.cycle import thresholds_of
from dreamd.phases.deep import rank
from dreamd.phases.diary import diary_entries
from dreamd.state import PHASE_SIGNALS, RECALL_STORE
from dreamd.statefiles import load_table

__all__ = ["gather_status", "next_run", "render_status", "workspace_counts"]


def next_run(expression: str, zone: tzinfo, now: datetime) -> datetime:
    """The next time the sweep cron fires after ``now``, in ``zone``."""
    fire: datetime = next(
        CronSim(expression, now.astimezone(zone).replace(second=0, microsecond=0))
    )
    return fire


def _tz_name(zone: tzinfo, now: datetime) -> str:
    return str(getattr(zone, "key", None) or now.astimezone(zone).tzname() or "UTC")


def _read(root: Path, name: str) -> str:
    try:
        return (root / name).read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError):
        return ""


def workspace_counts(
    workspace: Workspace, config: Config, *, now: datetime, zone: tzinfo
) -> dict[str, Any]:
    """Counts for one workspace: store rows, promotions, signals, candidates, diary, MEMORY.md."""
    root = workspace.root
    store, warnings = load_table(root, RECALL_STORE, readonly=True)
    signals, more = load_table(root, PHASE_SIGNALS, readonly=True)
    warnings += more
    rows = list(store.rows.values())
    today = day_of(now, zone)
    promoted_today = sum(
        1
        for row in rows
        if row.promoted_at
        and (moment := parse_instant(row.promoted_at)) is not None
        and day_of(moment, zone) == today
    )
    ranking = rank(store.rows, signals.rows, thresholds_of(config.dreaming), now=now, zone=zone)
    dreams = _read(root, DREAMS_FILE) or _read(root, DREAMS_FILE_LOWER)
    last_sweep = None
    for event in read_events(root):
        if event.get("type") == "memory.dream.completed":
            last_sweep = event.get("timestamp")
    return {
        "path": str(root),
        "agents": list(workspace.agents),
        "shortTerm": sum(1 for row in rows if is_short_term_path(row.path)),
        "promoted": sum(1 for row in rows if row.promoted_at),
        "promotedToday": promoted_today,
        "grounded": sum(1 for row in rows if row.grounded_count > 0),
        "signals": len(signals.rows),
        "candidates": len(ranking.candidates),
        "memoryChars": len(_read(root, MEMORY_FILE)),
        "diaryEntries": len(diary_entries(dreams)),
        "deepReport": read_block(dreams, "deep"),
        "lastSweep": last_sweep,
        "warnings": warnings,
    }


def gather_status(
    config: Config,
    discovery: Discovery,
    enabled: EnabledState,
    *,
    now: datetime,
    zone: tzinfo,
) -> dict[str, Any]:
    """The whole status document (see the module rules)."""
    readiness = assess(discovery)
    warnings = [*discovery.warnings, *readiness.warnings]
    workspaces: list[dict[str, Any]] = []
    degraded = False
    for workspace in discovery.workspaces:
        try:
            counts = workspace_counts(workspace, config, now=now, zone=zone)
        except DreamdError as exc:
            counts = {
                "path": str(workspace.root),
                "agents": list(workspace.agents),
                "error": str(exc),
            }
            degraded = True
        workspaces.append(counts)
        degraded = degraded or bool(counts.get("warnings"))
    if not enabled.enabled:
        status = "disabled"
    elif readiness.blocked:
        status = "blocked"
    elif degraded:
        status = "degraded"
    else:
        status = "ok"
    deep = config.dreaming.deep
    return {
        "enabled": enabled.enabled,
        "enabledSource": enabled.source,
        "status": status,
        "blocked": {"reason": readiness.blocked, "fix": readiness.fix}
        if readiness.blocked
        else None,
        "owner": readiness.owner,
        "warnings": warnings,
        "timezone": _tz_name(zone, now),
        "frequency": config.dreaming.frequency,
        "nextRun": format_instant(next_run(config.dreaming.frequency, zone, now)),
        "policy": {
            "minScore": deep.min_score,
            "minRecallCount": deep.min_recall_count,
            "minUniqueQueries": deep.min_unique_queries,
            "limit": deep.limit,
            "maxAgeDays": deep.max_age_days,
        },
        "now": format_instant(now),
        "workspaces": workspaces,
    }


def render_status(status: dict[str, Any], *, zone: tzinfo, extra: Sequence[str] = ()) -> str:
    """The ``Dreaming status:`` block shared by the CLI and chat commands."""
    policy = status["policy"]
    on = "on" if status["enabled"] else "off"
    override = " (override)" if status["enabledSource"] == "override" else ""
    lines = [
        "Dreaming status:",
        f"- enabled: {on} ({status['timezone']}){override}",
        f"- sweep cadence: {status['frequency']}",
        f"- promotion policy: score>={policy['minScore']}, recalls>={policy['minRecallCount']}, "
        f"uniqueQueries>={policy['minUniqueQueries']}",
    ]
    if status["enabled"]:
        moment = parse_instant(status["nextRun"])
        when = (
            moment.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z") if moment else status["nextRun"]
        )
        lines.append(f"- next run: {when}")
    if status["blocked"]:
        lines.append(f"- blocked: {status['blocked']['reason']}; fix: {status['blocked']['fix']}")
    elif status["owner"]:
        lines.append(f"- owner: {status['owner']}")
    for workspace in status["workspaces"]:
        if "error" in workspace:
            lines.append(f"- workspace {workspace['path']}: error: {workspace['error']}")
            continue
        lines.append(
            f"- workspace {workspace['path']}: {workspace['shortTerm']} short-term, "
            f"{workspace['candidates']} ready, {workspace['promoted']} promoted "
            f"({workspace['promotedToday']} today), last sweep {workspace['lastSweep'] or 'never'}"
        )
    lines += [f"- warning: {warning}" for warning in status["warnings"]]
    lines += list(extra)
    return "\n".join(lines)
