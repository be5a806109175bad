"""The fleet for one CLI command: ``fleet status``, the status line, locks for ``sweep``.

A one-shot command talks to Redis with a blocking client and gives up quickly when it is
away: status says so in its fleet line; ``dreamd sweep`` refuses to touch a shared workspace
without the lock (:class:`~dreamd.errors.FleetError`, which names what went wrong: Redis
unreachable, a password refused, a permission the ACL user lacks). The daemon does not have to
run. A lock held by this command is renewed every heartbeat until the sweep is done.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from dreamd.clock import format_instant
from dreamd.config import Config
from dreamd.errors import FleetError, LockError
from dreamd.fleet.connection import host_id_of, reason, redis_errors, redis_url, sync_client
from dreamd.fleet.coordinator import heartbeat_of
from dreamd.fleet.fence import Fence
from dreamd.fleet.keys import Keys
from dreamd.fleet.locks import WorkspaceLocks
from dreamd.fleet.records import SweepRecord
from dreamd.fleet.registry import read_document_sync, record_manual
from dreamd.fleet.view import summary_line

__all__ = ["FleetSession", "fleet_status_line"]


class FleetSession:
    """One command's connection to the fleet of ``config`` (which must have ``[fleet]``)."""

    def __init__(self, config: Config) -> None:
        fleet = config.fleet
        if fleet is None:
            raise FleetError("this host is not in a fleet: there is no [fleet] in its config")
        self.config = config
        self.url = redis_url(fleet)
        self.keys = Keys(fleet.name)
        self.host = host_id_of(fleet)
        self.client = sync_client(self.url)
        self.locks = WorkspaceLocks(
            self.url, self.keys, self.host, ttl=fleet.host_ttl_s, heartbeat=heartbeat_of(fleet)
        )

    def unreachable(self, exc: BaseException) -> FleetError:
        return FleetError(f"{reason(exc, self.url)}; shared workspaces are not swept without it")

    def check(self) -> None:
        """Raise :class:`~dreamd.errors.FleetError` unless Redis answers."""
        try:
            self.client.ping()
        except redis_errors() as exc:
            raise self.unreachable(exc) from exc

    def set_enabled(self, enabled: bool | None) -> None:
        """Set the fleet-wide ``/dreaming on|off`` value (every daemon follows it); ``None``
        clears it."""
        try:
            if enabled is None:
                self.client.delete(self.keys.enabled)
            else:
                self.client.set(self.keys.enabled, "1" if enabled else "0")
        except redis_errors() as exc:
            raise self.unreachable(exc) from exc

    def jobs_limit(self, hosts: Sequence[dict[str, Any]]) -> int:
        fleet = self.config.fleet
        if fleet is not None and fleet.max_concurrent:
            return fleet.max_concurrent
        own = self.config.jobs.max_concurrent
        return sum(int(h.get("jobsLimit") or own) for h in hosts if not h["lost"]) or own

    def document(self, known: Sequence[str] = ()) -> dict[str, Any]:
        """The ``fleet status`` document."""
        try:
            document = read_document_sync(self.client, self.keys, known=known)
        except redis_errors() as exc:
            raise self.unreachable(exc) from exc
        document["jobs"]["limit"] = self.jobs_limit(document["hosts"])
        return document

    @contextlib.contextmanager
    def workspace(self, path: str, *, wait: float) -> Iterator[Fence]:
        """Hold ``path``'s fleet lock for the block; yields the writer's fence."""
        self.check()
        try:
            grant = self.locks.take(path, wait=wait, at=format_instant_now())
        except redis_errors() as exc:
            raise self.unreachable(exc) from exc
        if grant is None:
            raise LockError(
                f"workspace {path} is busy: another fleet host holds its lock; "
                f"waited {wait:g}s, try again later"
            )
        try:
            yield self.locks.fence(grant)
            with contextlib.suppress(*redis_errors()):
                record = SweepRecord(host=self.host, at=format_instant_now(), status="ok")
                record_manual(self.client, self.keys, path, record, lease=grant.lease)
        finally:
            self.locks.release(grant)


def format_instant_now() -> str:
    from datetime import UTC, datetime

    return format_instant(datetime.now(UTC))


def fleet_status_line(config: Config) -> dict[str, Any] | None:
    """The fleet part of ``dreamd status`` when no daemon answers (``None`` without a fleet)."""
    fleet = config.fleet
    if fleet is None:
        return None
    summary: dict[str, Any] = {"name": fleet.name, "host": host_id_of(fleet), "leads": []}
    try:
        session = FleetSession(config)
        document = session.document()
    except FleetError as exc:
        summary |= {"state": "degraded", "reason": str(exc), "since": format_instant_now()}
    else:
        summary |= {"state": "ok", "hosts": document["hosts"], "jobs": document["jobs"]}
        me = next((h for h in document["hosts"] if h["id"] == summary["host"]), None)
        summary["leads"] = (me or {}).get("leads") or []
    summary["line"] = summary_line(summary)
    return summary
