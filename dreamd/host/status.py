"""Status: what dreaming is doing on this host, as JSON and as the ``Dreaming status:`` block.

The overall ``status`` is one of ``disabled`` (dreaming is off), ``blocked`` (on, but the
owner cannot run sweeps: see ``owner``; pending sweep events are listed with their age),
``degraded`` (a workspace cannot be read or has a symlinked folder every sweep refuses, the
fleet's Redis is unreachable, or ``health`` found a problem: the last sweep failed,
the diary degraded, or sweeps keep ranking without promoting) or ``ok``. Notes the last sweep
skipped (unreadable, not text) or read with a fallback encoding are listed in ``warnings``
until a sweep reads them cleanly. Gathering only reads: corrupt state is reported, never set
aside.

``dreamd status`` exits with the state (:data:`STATE_EXIT`, as ``systemctl is-active`` does:
0 only when all is well), the text names it on its ``- state:`` line, and a blocked or disabled
host shows no next run (none would happen). ``daemon`` is the running daemon (its pid, since
when), ``null`` when none answers.

Truth rules: a workspace's ``lastSweep`` is its newest sweep of any kind, one that changed
nothing included (``lastSweepChanged`` is then 0: "no change"); ``sweeping`` is the progress of
a sweep running now (done, running, waiting), else null; ``files`` names the config files in
force. JSON instants are ISO-8601 (UTC); the text shows every instant in the dreaming zone.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from dreamd.clock import format_instant, parse_instant
from dreamd.config import Config, DreamingConfig
from dreamd.engine.phases.cycle import thresholds_of
from dreamd.engine.phases.diary import diary_entries
from dreamd.engine.phases.screen import rank_screened
from dreamd.engine.state import NOTE_WARNINGS
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
from dreamd.workspace.discovery import Discovery, Workspace
from dreamd.workspace.openclaw import find_openclaw_config, read_openclaw_config
from dreamd.workspace.reader import read_promotions
from dreamd.workspace.statesources import load_state

__all__ = [
    "STATES",
    "STATE_EXIT",
    "WorkspacesSummary",
    "build_status",
    "counts_or_error",
    "files_of",
    "gather_status",
    "overall_state",
    "render_status",
    "shown_time",
    "status_entry",
    "summarize_workspaces",
    "summary_of",
    "workspace_counts",
]


STATES = ("ok", "degraded", "blocked", "disabled")
"""The overall state, best first."""
STATE_EXIT = {"ok": 0, "degraded": 4, "blocked": 5, "disabled": 6}
"""``dreamd status``'s exit code per state (1 and 2 stay errors and usage errors)."""


def overall_state(*, enabled: bool, blocked: bool, degraded: bool) -> str:
    """The one word for the host: disabled, blocked, degraded or ok (see the module rules)."""
    if not enabled:
        return "disabled"
    if blocked:
        return "blocked"
    return "degraded" if degraded else "ok"


def files_of(config_path: Path | None, openclaw_path: Path | None) -> dict[str, str | None]:
    """The config files in force: dreamd's and OpenClaw's (None: none was read)."""
    return {
        "config": str(config_path) if config_path else None,
        "openclaw": str(openclaw_path) if openclaw_path else None,
    }


def shown_time(stamp: object, zone: tzinfo) -> str:
    """An ISO instant as ``2026-12-02 03:00 CET`` in ``zone``; ``never`` when there is none."""
    moment = parse_instant(str(stamp)) if stamp else None
    if moment is None:
        return str(stamp) if stamp else "never"
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")


def _newest(*stamps: object) -> str | None:
    """The latest of ISO instants (None and unparsable ones ignored)."""
    known = [(moment, str(s)) for s in stamps if s and (moment := parse_instant(str(s)))]
    return max(known)[1] if known else None


def _tz_name(zone: tzinfo, now: datetime) -> str:
    return str(getattr(zone, "key", None) or now.astimezone(zone).tzname() or "UTC")


def _read(root: Path, name: str) -> str:
    try:
        return (root / name).read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError):
        return ""


def workspace_counts(
    workspace: Workspace,
    dreaming: DreamingConfig,
    *,
    now: datetime,
    zone: tzinfo,
    deep: bool = False,
) -> dict[str, Any]:
    """Counts for one workspace: store rows, promotions, signals, candidates, diary, MEMORY.md.

    ``deep`` adds the text of the workspace's ``## Deep Sleep`` report.
    """
    root = workspace.root
    check_workspace_folders(root)  # a workspace every sweep refuses shows that, not stale counts
    state = load_state(root, readonly=True)  # with OpenClaw's renamed files and SQLite rows
    store, signals, warnings = state.store, state.signals, list(state.warnings)
    rows = list(store.rows.values())
    promoted_today = len(read_promotions(root, now=now, zone=zone))  # the one count
    memory = _read(root, MEMORY_FILE)
    ranking = rank_screened(
        store,
        signals.rows,
        thresholds_of(dreaming),
        memory_text=memory,
        now=now,
        zone=zone,
    ).ranking
    dreams = _read(root, DREAMS_FILE) or _read(root, DREAMS_FILE_LOWER)
    last_sweep = None
    for event in read_events(root, tail_bytes=65_536):
        if event.get("type") == "memory.dream.completed":
            last_sweep = event.get("timestamp")
    counts = {
        "path": str(root),
        "agents": list(workspace.agents),
        "shortTerm": sum(1 for row in rows if is_short_term_path(row.path)),
        "promoted": sum(1 for row in rows if row.promoted_at and not row.forgotten_at),
        "promotedToday": promoted_today,
        "grounded": sum(1 for row in rows if row.grounded_count > 0),
        "signals": len(signals.rows),
        "candidates": len(ranking.candidates),
        "memoryChars": len(memory),
        "diaryEntries": len(diary_entries(dreams)),
        "lastSweep": last_sweep,
        "warnings": warnings,
        "noteWarnings": _note_warnings(store.top.get(NOTE_WARNINGS)),
        "stateSources": list(state.sources),
    }
    if deep:
        counts["deepReport"] = read_block(dreams, "deep")
    return counts


def _note_warnings(value: object) -> list[str]:
    """The notes the last sweep skipped or read with a fallback, as the store keeps them."""
    return [str(item) for item in value] if isinstance(value, list) else []


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
    if history and "counting" not in entry:  # every sweep counts, one that changed nothing too
        last = history[-1]
        entry["lastSweep"] = _newest(entry.get("lastSweep"), last.get("at"))
        if entry["lastSweep"] == last.get("at"):
            entry["lastSweepChanged"] = last.get("changed")
    return entry


def summary_of(entries: Sequence[dict[str, Any]]) -> WorkspacesSummary:
    """Warnings and the degraded flag over status entries."""
    warnings = [
        f"{entry['path']}: {message}" for entry in entries for message in entry["health"].values()
    ]
    warnings += [
        f"{entry['path']}: {message}"
        for entry in entries
        for message in entry.get("noteWarnings") or ()
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
    files: Mapping[str, str | None] | None = None,
    sweeping: Mapping[str, Any] | None = None,
    warnings: Sequence[str] = (),
) -> dict[str, Any]:
    """The status document from its parts; ``workspaces`` may be the entries pre-encoded."""
    readiness = assess(discovery)
    status = overall_state(
        enabled=enabled.enabled, blocked=bool(readiness.blocked), degraded=summary.degraded
    )
    deep = config.dreaming.deep
    upcoming = next_fire(config.dreaming.frequency, zone, now) if status in STATES[:2] else None
    return {
        "enabled": enabled.enabled,
        "enabledSource": enabled.source,
        "status": status,
        "blocked": {"reason": readiness.blocked, "fix": readiness.fix}
        if readiness.blocked
        else None,
        "owner": readiness.owner,
        "warnings": [*warnings, *discovery.warnings, *readiness.warnings, *summary.warnings],
        "files": dict(files) if files is not None else {"config": None, "openclaw": None},
        "sweeping": dict(sweeping) if sweeping else None,
        "timezone": _tz_name(zone, now),
        "frequency": config.dreaming.frequency,
        "nextRun": format_instant(upcoming) if upcoming else None,
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
    workspace: Workspace,
    dreaming: DreamingConfig,
    *,
    now: datetime,
    zone: tzinfo,
    deep: bool = False,
) -> dict[str, Any]:
    """:func:`workspace_counts`, or the error that prevented reading the workspace."""
    try:
        return workspace_counts(workspace, dreaming, now=now, zone=zone, deep=deep)
    except DreamdError as exc:
        error = str(exc)
    except OSError as exc:  # one unreadable workspace is its own problem, not the host's
        error = f"cannot read {exc.filename or workspace.root}: {exc.strerror or exc}"
    return {"path": str(workspace.root), "agents": list(workspace.agents), "error": error}


def openclaw_dreaming_warnings(config: Config, discovery: Discovery) -> list[str]:
    """A warning per workspace dreamd dreams that OpenClaw's own dreaming would dream too.

    OpenClaw 2026.9 and later dream by default, so an unset ``enabled`` counts as on.
    """
    try:
        found = find_openclaw_config(config)
        install = read_openclaw_config(found) if found is not None else None
    except DreamdError:
        return []
    if install is None or install.dreaming.values.get("dreaming.enabled", True) is not True:
        return []
    theirs = {os.path.realpath(agent.workspace) for agent in install.agents}
    return [
        f"{ws.root}: OpenClaw's own dreaming is on for this workspace too ({install.path}); "
        "set plugins.entries.memory-core.config.dreaming.enabled to false there "
        "(docs/migrating-from-openclaw.md)"
        for ws in discovery.workspaces
        if os.path.realpath(ws.root) in theirs
    ]


def gather_status(
    config: Config,
    discovery: Discovery,
    enabled: EnabledState,
    *,
    now: datetime,
    zone: tzinfo,
    deep: bool = False,
    files: Mapping[str, str | None] | None = None,
) -> dict[str, Any]:
    """The whole status document, read from disk now (see the module rules)."""
    counts = {
        str(ws.root): counts_or_error(ws, config.dreaming, now=now, zone=zone, deep=deep)
        for ws in discovery.workspaces
    }
    summary = summarize_workspaces(config, discovery, counts=counts, histories=load_histories())
    if enabled.enabled:  # with dreamd's dreaming off (going back to OpenClaw) both may not dream
        summary.warnings.extend(openclaw_dreaming_warnings(config, discovery))
    schedule = load_host_state().get("schedule") or {}
    return build_status(
        config,
        discovery,
        enabled,
        summary=summary,
        schedule=schedule,
        now=now,
        zone=zone,
        files=files,
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
        f"- state: {status['status']}",
    ]
    if status.get("nextRun"):
        lines.append(f"- next run: {shown_time(status['nextRun'], zone)}")
    elif status["status"] == "blocked":
        lines.append("- next run: none while blocked")
    if "daemon" in status:
        daemon = status["daemon"]
        lines.append(
            f"- daemon running (pid {daemon['pid']}, since {shown_time(daemon['startedAt'], zone)})"
            if daemon
            else "- daemon not running (sweeps happen only when asked: `dreamd sweep`)"
        )
    sweeping = status.get("sweeping")
    if sweeping:
        lines.append(
            f"- sweeping now ({sweeping['reason']}, since {shown_time(sweeping['startedAt'], zone)}"
            f"): {sweeping['done']} done, {sweeping['running']} running, "
            f"{sweeping['waiting']} waiting"
        )
    if status["blocked"]:
        lines.append(f"- blocked: {status['blocked']['reason']}; fix: {status['blocked']['fix']}")
        for event in status["schedule"]["pending"]:
            minutes = event["ageSeconds"] // 60
            lines.append(
                f"- pending: {event['reason']} sweep for {event['owner']}, {minutes} min old"
            )
    elif status["owner"]:
        lines.append(f"- owner: {status['owner']}")
    if status.get("fleet"):
        lines.append(f"- {status['fleet']['line']}")
    files = status.get("files") or {}
    in_force = [f"{path} ({kind})" for kind, path in files.items() if path]
    lines.append(f"- config in force: {', '.join(in_force) or 'none (defaults)'}")
    for workspace in status["workspaces"]:
        if "error" in workspace:
            lines.append(f"- workspace {workspace['path']}: error: {workspace['error']}")
            continue
        if workspace.get("counting"):
            lines.append(f"- workspace {workspace['path']}: counting…")
            continue
        unchanged = " (no change)" if workspace.get("lastSweepChanged") == 0 else ""
        lines.append(
            f"- workspace {workspace['path']}: {workspace['shortTerm']} short-term, "
            f"{workspace['candidates']} ready, {workspace['promoted']} promoted "
            f"({workspace['promotedToday']} today), "
            f"last sweep {shown_time(workspace['lastSweep'], zone)}{unchanged}"
        )
    model = status.get("model")
    if model:
        lines.append(f"- model: {_model_line(model)}")
    lines += [f"- warning: {warning}" for warning in status["warnings"]]
    lines += list(extra)
    return "\n".join(lines)


def _model_line(model: Mapping[str, Any]) -> str:
    """``status --deep``'s model probe in words."""
    if not model.get("configured"):
        return "none configured (sweeps use no model)"
    where = f"{model.get('name')} at {model.get('endpoint')}"
    if model.get("ok"):
        return f"{where}: answered in {model.get('latencyMs'):.0f} ms"
    return f"{where}: error after {model.get('latencyMs'):.0f} ms: {model.get('error')}"
