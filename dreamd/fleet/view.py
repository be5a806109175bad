"""What ``dreamd fleet status`` shows, and the one-line fleet summary of ``status`` (pure).

``{"name", "hosts": [{"id", "version", "startedAt", "lastSeen", "jobsInUse", "jobsLimit",
"sweptLast", "lastError", "leads", "state", "lost"}], "workspaces": [{"path", "lastSweep":
{"host", "at", "status", "slot"} | null}], "jobs": {"inUse", "limit"}}``. A host is ``lost``
once its announcement's time to live ran out without it saying it stopped; it stays
listed, so a dead host is seen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

__all__ = ["decode_record", "fleet_document", "render_fleet", "summary_line"]


def decode_record(raw: str | bytes | None) -> dict[str, Any] | None:
    """A JSON object stored in Redis, or ``None`` when absent or not an object."""
    if raw is None:
        return None
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return None
    return value if isinstance(value, dict) else None


def fleet_document(
    name: str,
    hosts: Mapping[str, str],
    alive: Mapping[str, bool],
    sweeps: Mapping[str, str],
    *,
    known: Iterable[str] = (),
    jobs: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The fleet status document from the raw hashes (see the module docstring)."""
    listed = []
    for host_id in sorted(hosts):
        record = decode_record(hosts[host_id]) or {}
        gone = not alive.get(host_id, False) and record.get("state") != "stopped"
        listed.append({**record, "id": host_id, "lost": gone})
    paths = sorted({*sweeps, *known})
    workspaces = [{"path": path, "lastSweep": decode_record(sweeps.get(path))} for path in paths]
    return {
        "name": name,
        "hosts": listed,
        "workspaces": workspaces,
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
        lines.append(f"- workspace {workspace['path']}: {said}")
    return "\n".join(lines)
