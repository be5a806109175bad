"""Status: what dreaming is doing on this host, as JSON and as the ``Dreaming status:`` block.

The overall ``status`` is one of ``disabled`` (dreaming is off), ``blocked`` (on, but the
owner cannot run sweeps: see ``owner``; pending sweep events are listed with their age),
``degraded`` (a workspace cannot be read or has a symlinked folder every sweep refuses, or
``health`` found a problem: the last sweep failed,
the diary degraded, or sweeps keep ranking without promoting) or ``ok``. Gathering only
reads: corrupt state is reported, never set aside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from dreamd.clock import day_of, format_instant, parse_instant
from dreamd.config import Config
from dreamd.engine.phases.cycle import thresholds_of
from dreamd.engine.phases.deep import rank
from dreamd.engine.phases.diary import diary_entries
from dreamd.engine.state import PHASE_SIGNALS, RECALL_STORE
from dreamd.engine.text.blocks import read_block
from dreamd.errors import DreamdError
from dreamd.host.health import problems
from dreamd.host.history import load_histories
from dreamd.host.owner import assess
from dreamd.host.schedule import next_fire
from dreamd.host.state import EnabledState, load_host_state
from dreamd.layout import (
    DREAMS_FILE,
    DREAMS_FILE_LOWER,
    MEMORY_FILE,
    check_workspace_folders,
    is_short_term_path,
)
from dreamd.store.events import read_events
from dreamd.store.statefiles import load_table
from dreamd.workspace.discovery import Discovery, Workspace

__all__ = [
    "WorkspacesSummary",
    "build_status",
    "counts_or_error",
    "gather_status",
    "render_status",
    "status_entry",
    "summarize_workspaces",
    "summary_of",
    "workspace_counts",
]


def _tz_name(zone: tzinfo, now: datetime) -> str:
    return str(getattr(zone, "key", None) or now.astimezone(zone).tzname() or "UTC")


def _read(root: Path, name: str) -> str:
    try:
        return (root / name).read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError):
        return ""


def workspace_counts(
    workspace: Workspace, config: Config, *, now: datetime, zone: tzinfo, deep: bool = False
) -> dict[str, Any]:
    """Counts for one workspace: store rows, promotions, signals, candidates, diary, MEMORY.md.

    ``deep`` adds the text of the workspace's ``## Deep Sleep`` report.
    """
    root = workspace.root
    check_workspace_folders(root)  # a workspace every sweep refuses shows that, not stale counts
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
    for event in read_events(root, tail_bytes=65_536):
        if event.get("type") == "memory.dream.completed":
            last_sweep = event.get("timestamp")
    counts = {
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
        "lastSweep": last_sweep,
        "warnings": warnings,
    }
    if deep:
        counts["deepReport"] = read_block(dreams, "deep")
    return counts


def _schedule(schedule: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    pending = [
        {**event, "ageSeconds": round((now - moment).total_seconds())}
        for event in schedule.get("pending") or []
        if isinstance(event, dict)
        and (moment := parse_instant(str(event.get("enqueuedAt", "")))) is not None
    ]
    return {
        "lastFireAt": schedule.get("lastFireAt"),
        "lastRunAt": schedule.get("lastRunAt"),
        "pending": pending,
    }


@dataclass(frozen=True)
class WorkspacesSummary:
    """The per-workspace part of status: entries, their warnings, whether any is degraded."""

    entries: list[dict[str, Any]]
    warnings: list[str]
    degraded: bool


def status_entry(
    workspace: Workspace,
    counts: Mapping[str, Any] | None,
    history: Sequence[Mapping[str, Any]],
    *,
    idle_sweeps: int,
) -> dict[str, Any]:
    """One workspace's status entry: its counts, health and last sweep outcome."""
    path = str(workspace.root)
    entry = dict(counts or {"path": path, "agents": list(workspace.agents), "counting": True})
    entry["health"] = problems(history, idle_sweeps=idle_sweeps)
    entry["lastOutcome"] = dict(history[-1]) if history else None
    return entry


def summary_of(entries: Sequence[dict[str, Any]]) -> WorkspacesSummary:
    """Warnings and the degraded flag over status entries."""
    warnings = [
        f"{entry['path']}: {message}" for entry in entries for message in entry["health"].values()
    ]
    degraded = any(
        "error" in entry or entry.get("warnings") or entry["health"] for entry in entries
    )
    return WorkspacesSummary(list(entries), warnings, degraded)


def summarize_workspaces(
    config: Config,
    discovery: Discovery,
    *,
    counts: Mapping[str, dict[str, Any]],
    histories: Mapping[str, Sequence[Mapping[str, Any]]],
) -> WorkspacesSummary:
    """Each workspace's counts with its health judged from its sweep history."""
    idle = config.health.idle_sweeps
    entries = [
        status_entry(
            ws, counts.get(str(ws.root)), histories.get(str(ws.root)) or (), idle_sweeps=idle
        )
        for ws in discovery.workspaces
    ]
    return summary_of(entries)


def build_status(
    config: Config,
    discovery: Discovery,
    enabled: EnabledState,
    *,
    summary: WorkspacesSummary,
    schedule: Mapping[str, Any],
    now: datetime,
    zone: tzinfo,
    workspaces: Any = None,
) -> dict[str, Any]:
    """The status document from its parts; ``workspaces`` may be the entries pre-encoded."""
    readiness = assess(discovery)
    if not enabled.enabled:
        status = "disabled"
    elif readiness.blocked:
        status = "blocked"
    elif summary.degraded:
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
        "warnings": [*discovery.warnings, *readiness.warnings, *summary.warnings],
        "timezone": _tz_name(zone, now),
        "frequency": config.dreaming.frequency,
        "nextRun": format_instant(next_fire(config.dreaming.frequency, zone, now)),
        "schedule": _schedule(schedule, now),
        "policy": {
            "minScore": deep.min_score,
            "minRecallCount": deep.min_recall_count,
            "minUniqueQueries": deep.min_unique_queries,
            "limit": deep.limit,
            "maxAgeDays": deep.max_age_days,
        },
        "now": format_instant(now),
        "workspaces": summary.entries if workspaces is None else workspaces,
    }


def counts_or_error(
    workspace: Workspace, config: Config, *, now: datetime, zone: tzinfo, deep: bool = False
) -> dict[str, Any]:
    """:func:`workspace_counts`, or the error that prevented reading the workspace."""
    try:
        return workspace_counts(workspace, config, now=now, zone=zone, deep=deep)
    except DreamdError as exc:
        error = str(exc)
    except OSError as exc:  # one unreadable workspace is its own problem, not the host's
        error = f"cannot read {exc.filename or workspace.root}: {exc.strerror or exc}"
    return {"path": str(workspace.root), "agents": list(workspace.agents), "error": error}


def gather_status(
    config: Config,
    discovery: Discovery,
    enabled: EnabledState,
    *,
    now: datetime,
    zone: tzinfo,
    deep: bool = False,
) -> dict[str, Any]:
    """The whole status document, read from disk now (see the module rules)."""
    counts = {
        str(ws.root): counts_or_error(ws, config, now=now, zone=zone, deep=deep)
        for ws in discovery.workspaces
    }
    summary = summarize_workspaces(config, discovery, counts=counts, histories=load_histories())
    schedule = load_host_state().get("schedule") or {}
    return build_status(
        config, discovery, enabled, summary=summary, schedule=schedule, now=now, zone=zone
    )


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
        for event in status["schedule"]["pending"]:
            minutes = event["ageSeconds"] // 60
            lines.append(
                f"- pending: {event['reason']} sweep for {event['owner']}, {minutes} min old"
            )
    elif status["owner"]:
        lines.append(f"- owner: {status['owner']}")
    for workspace in status["workspaces"]:
        if "error" in workspace:
            lines.append(f"- workspace {workspace['path']}: error: {workspace['error']}")
            continue
        if workspace.get("counting"):
            lines.append(f"- workspace {workspace['path']}: counting…")
            continue
        lines.append(
            f"- workspace {workspace['path']}: {workspace['shortTerm']} short-term, "
            f"{workspace['candidates']} ready, {workspace['promoted']} promoted "
            f"({workspace['promotedToday']} today), last sweep {workspace['lastSweep'] or 'never'}"
        )
    lines += [f"- warning: {warning}" for warning in status["warnings"]]
    lines += list(extra)
    return "\n".join(lines)
