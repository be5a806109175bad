"""Health events between hosts: typed on the wire, composed by the host that delivers them (pure).

A host shares an event as an :class:`~dreamd.fleet.records.EventRecord` (kind, host, instant,
workspace path, and for a takeover the lost host and the slot): :func:`wire_fields` is what goes
on the Redis stream. Another host reading it back composes the message its owners read with
:func:`compose`, from those fields alone: the kind picks a fixed sentence, the host is an id, the
workspace is named by its agents only when it is one this host knows (else "a shared
workspace"). A message is never taken from Redis, so a forged entry reaches an owner, at most,
as one of these sentences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from dreamd.fleet.records import EventRecord
from dreamd.host.health import HealthEvent

__all__ = ["compose", "local_kind", "wire_fields"]

_SENTENCES = {
    "failed": "the last sweep on host {host} failed; `dreamd status` on {host} says why",
    "idle": (
        "sweeps on host {host} keep ranking candidates but promote none; "
        "see `dreamd memory promote-explain`"
    ),
    "degraded": "the diary entry written on host {host} fell back to a fixed text: "
    "the model failed",
    "blocked": "dreaming is blocked on host {host}; `dreamd status` on {host} says why",
    "fleet-degraded": "host {host} cannot reach the fleet's Redis; "
    "shared workspaces wait until it is back",
    "fleet-recovered": "host {host} reaches the fleet's Redis again",
    "takeover": "host {host} swept this workspace for the {slot} slot in place of host {lost}, "
    "which had taken it and did not finish",
}
_LOCAL_KINDS = {"recovered": "fleet-recovered"}


def wire_fields(record: EventRecord) -> dict[str, str]:
    """The stream entry's fields: every set field as text."""
    fields: dict[str, Any] = msgspec.to_builtins(record)
    return {key: str(value) for key, value in fields.items() if value not in (None, "")}


def _workspace(record: EventRecord, known: Mapping[str, Sequence[str]], fleet: str) -> str:
    if record.kind in ("blocked", "fleet-degraded", "fleet-recovered"):
        return f"fleet {fleet}"
    agents = known.get(record.workspace)
    if agents is None:
        return "a shared workspace"
    return ", ".join(agents) or "a shared workspace"


def compose(record: EventRecord, known: Mapping[str, Sequence[str]], *, fleet: str) -> HealthEvent:
    """The event an owner hears for ``record`` (see the module rules)."""
    message = _SENTENCES[record.kind].format(
        host=record.host, slot=record.slot or "current", lost=record.lost or "another host"
    )
    kind = {"fleet-degraded": "degraded", "fleet-recovered": "recovered"}.get(
        record.kind, record.kind
    )
    return HealthEvent(kind, _workspace(record, known, fleet), message, record.at)


def local_kind(kind: str) -> str:
    """The wire kind of a fleet event this host raised itself."""
    return _LOCAL_KINDS.get(kind, kind)
