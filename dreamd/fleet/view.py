"""What ``dreamd fleet status`` shows, and the one-line fleet summary of ``status`` (pure).

``{"name", "hosts": [{"id", "version", "startedAt", "lastSeen", "jobsInUse", "jobsLimit",
"sweptLast", "lastError", "leads", "state", "lost"}], "workspaces": [{"path", "lastSweep":
{"host", "at", "status", "slot", "takeover"} | null}], "takeovers": [{"host", "lost",
"workspace", "slot", "at", "claimedAt"}], "jobs": {"inUse", "limit"}}``. A host is ``lost`` once
its announcement's time to live ran out without it saying it stopped; it stays listed, so a
dead host is seen. Every record comes from Redis and is checked first
(:mod:`dreamd.fleet.records`): one that does not fit is left out (a host) or shown as
unreadable (a workspace's last sweep), never shown as written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from dreamd.fleet.records import (
    MAX_ERROR,
    HostRecord,
    SweepRecord,
    TakeoverRecord,
    clean_text,
    decode,
)

__all__ = ["fleet_document", "render_fleet", "summary_line"]


def _host(host_id: str, raw: str) -> dict[str, Any] | None:
    record = decode(raw, HostRecord)
    if record is None or record.id != host_id:
        return None
    document: dict[str, Any] = msgspec.to_builtins(record)
    if record.last_error is not None:
        document["lastError"] = clean_text(record.last_error, MAX_ERROR)
    document["leads"] = list(record.leads)
    return document


def fleet_document(
    name: str,
    hosts: Mapping[str, str],
    alive: Mapping[str, bool],
    sweeps: Mapping[str, str],
    *,
    known: Iterable[str] = (),
    jobs: Mapping[str, int] | None = None,
    takeovers: Sequence[Any] = (),
) -> dict[str, Any]:
    """The fleet status document from the raw hashes (see the module docstring)."""
    listed = []
    for host_id in sorted(hosts):
        record = _host(host_id, hosts[host_id])
        if record is None:
            continue
        gone = not alive.get(host_id, False) and record.get("state") != "stopped"
        listed.append({**record, "lost": gone})
    paths = sorted({*sweeps, *known})
    workspaces = []
    for path in paths:
        raw = sweeps.get(path)
        last = decode(raw, SweepRecord)
        shown = msgspec.to_builtins(last) if last is not None else None
        unreadable = raw is not None and last is None
        workspaces.append({"path": path, "lastSweep": shown, "unreadable": unreadable})
    taken = [decode(raw, TakeoverRecord) for raw in takeovers]
    return {
        "name": name,
        "hosts": listed,
        "workspaces": workspaces,
        "takeovers": [msgspec.to_builtins(item) for item in taken if item is not None],
        "jobs": dict(jobs or {"inUse": 0, "limit": 0}),
    }


def summary_line(fleet: Mapping[str, Any]) -> str:
    """``fleet <name>: ...``: hosts, lost ones, workspaces, jobs, this host and what it leads."""
    name = fleet.get("name", "?")
    if fleet.get("state") == "degraded":
        return (
            f"fleet {name}: degraded since {fleet.get('since')}: {fleet.get('reason')}; "
            "shared workspaces are not swept until it is back"
        )
    hosts = fleet.get("hosts") or []
    lost = sum(1 for host in hosts if host.get("lost"))
    jobs = fleet.get("jobs") or {}
    leads = ", ".join(fleet.get("leads") or ()) or "nothing"
    return (
        f"fleet {name}: {len(hosts) - lost} host(s) up, {lost} lost; "
        f"jobs {jobs.get('inUse', 0)}/{jobs.get('limit', 0)}; "
        f"this host {fleet.get('host')} leads {leads}"
    )


def render_fleet(document: Mapping[str, Any]) -> str:
    """``dreamd fleet status`` as text: one line per host, then one per workspace."""
    jobs = document.get("jobs") or {}
    lines = [f"Fleet {document['name']}: jobs {jobs.get('inUse', 0)}/{jobs.get('limit', 0)}"]
    for host in document["hosts"]:
        state = "lost" if host["lost"] else host.get("state") or "ok"
        leads = f", leads {', '.join(host['leads'])}" if host.get("leads") else ""
        error = f", last error: {host['lastError']}" if host.get("lastError") else ""
        lines.append(
            f"- host {host['id']} ({state}): dreamd {host.get('version', '?')}, last seen "
            f"{host.get('lastSeen', '?')}, jobs {host.get('jobsInUse', 0)}/"
            f"{host.get('jobsLimit', '?')}, swept {host.get('sweptLast', 0)} last time"
            f"{leads}{error}"
        )
    for workspace in document["workspaces"]:
        last = workspace["lastSweep"]
        said = f"{last['status']} by {last['host']} at {last['at']}" if last else "never swept"
        if last and last.get("takeover"):
            said += f" (taken over from lost host {last['takeover']['lost']})"
        if workspace.get("unreadable"):
            said = "its last sweep record is unreadable (not written by dreamd)"
        lines.append(f"- workspace {workspace['path']}: {said}")
    for taken in document.get("takeovers") or ():
        lines.append(
            f"- takeover at {taken['at']}: host {taken['host']} swept {taken['workspace']} "
            f"for the {taken['slot']} slot; lost host {taken['lost']} had taken it at "
            f"{taken.get('claimedAt') or '?'}"
        )
    return "\n".join(lines)
