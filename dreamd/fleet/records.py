"""What the fleet reads back from Redis, as checked types (pure): Redis is an untrusted peer.

Whoever can write to the fleet's Redis controls the fleet, so nothing read from it is taken as
it comes: every record is decoded into a ``msgspec`` type with bounds (:func:`decode`), and a
value that does not fit is dropped, never shown or acted on as written. Host ids and adapter
names are short tokens, instants are ISO-8601 UTC, counts are bounded, free text (a host's last
error) is cut and stripped of control characters by :func:`clean_text`. Health events travel as
:class:`EventRecord`: typed fields only; the message an owner reads is composed by the host that
delivers it (:mod:`dreamd.fleet.events`), never copied from Redis.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal, TypeVar

import msgspec

__all__ = [
    "EVENT_KINDS",
    "HOST_ID",
    "MAX_HOSTS",
    "Claim",
    "EventRecord",
    "HostRecord",
    "SweepRecord",
    "TakeoverRecord",
    "clean_text",
    "decode",
    "decode_fields",
    "valid_host_id",
    "valid_instant",
]

HOST_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
"""A host id: a hostname's letters (``fleet.host_id``, else the hostname, must match)."""
_INSTANT = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$"
_VERSION = r"^[0-9A-Za-z.+_-]{1,40}$"
_ADAPTER = r"^[a-z][a-z0-9_-]{0,31}$"
MAX_PATH = 4096
MAX_HOSTS = 1000
MAX_ERROR = 300
EVENT_KINDS = (
    "failed",
    "idle",
    "degraded",
    "blocked",
    "fleet-degraded",
    "fleet-recovered",
    "takeover",
)

HostId = Annotated[str, msgspec.Meta(pattern=HOST_ID)]
Instant = Annotated[str, msgspec.Meta(pattern=_INSTANT)]
SlotName = Annotated[str, msgspec.Meta(pattern=r"^$|" + _INSTANT)]
Count = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]
WorkspacePath = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_PATH)]
Status = Literal["ok", "error", "conflict", "skipped", "stopped"]


Adapter = Annotated[str, msgspec.Meta(pattern=_ADAPTER)]


class HostRecord(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """A host's announcement (``hosts`` hash)."""

    id: HostId
    version: Annotated[str, msgspec.Meta(pattern=_VERSION)] = "?"
    started_at: Instant | None = None
    last_seen: Instant | None = None
    jobs_in_use: Count = 0
    jobs_limit: Annotated[int, msgspec.Meta(ge=0, le=4096)] = 0
    swept_last: Count = 0
    last_error: Annotated[str, msgspec.Meta(max_length=4 * MAX_ERROR)] | None = None
    leads: Annotated[tuple[Adapter, ...], msgspec.Meta(max_length=8)] = ()
    state: Literal["ok", "stopped"] = "ok"


class TakeoverRecord(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """A workspace swept by ``host`` because ``lost``, which held it in ``slot``, was lost."""

    host: HostId
    lost: HostId
    workspace: WorkspacePath
    slot: SlotName
    at: Instant
    claimed_at: Instant | None = None  # when the lost host had taken it


class SweepRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A workspace's last sweep (``sweeps`` hash)."""

    host: HostId
    at: Instant
    status: Status
    slot: SlotName = ""
    takeover: TakeoverRecord | None = None


class Claim(msgspec.Struct, frozen=True, kw_only=True):
    """Who took a workspace's lock last, for which slot (``claims`` hash)."""

    host: HostId
    token: Annotated[int, msgspec.Meta(ge=1)]
    slot: SlotName
    at: Instant


class EventRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A health event on the ``events`` stream: typed fields, no message."""

    kind: Literal[
        "failed",
        "idle",
        "degraded",
        "blocked",
        "fleet-degraded",
        "fleet-recovered",
        "takeover",
    ]
    host: HostId
    at: Instant
    workspace: Annotated[str, msgspec.Meta(max_length=MAX_PATH)] = ""
    lost: HostId | None = None
    slot: SlotName = ""
    count: Count = 0


T = TypeVar("T")


def decode(raw: str | bytes | None, kind: type[T]) -> T | None:
    """``raw`` (JSON) as ``kind``, or ``None`` when absent or not a valid ``kind``."""
    if raw is None:
        return None
    try:
        return msgspec.json.decode(raw, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def decode_fields(fields: dict[str, Any], kind: type[T]) -> T | None:
    """A stream entry's string fields as ``kind`` (numbers from their text), else ``None``."""
    try:
        return msgspec.convert(fields, kind, strict=False)
    except msgspec.ValidationError:
        return None


def valid_host_id(text: str) -> bool:
    """Whether ``text`` may be a host id."""
    return decode_fields({"id": text}, HostRecord) is not None


def valid_instant(text: str) -> bool:
    """Whether ``text`` is an instant as the fleet writes them (``...Z``)."""
    return _INSTANT_RE.fullmatch(text) is not None


_INSTANT_RE = re.compile(_INSTANT.strip("^$"))


def clean_text(text: str, limit: int = MAX_ERROR) -> str:
    """``text`` on one line, without control or format characters, at most ``limit`` long."""
    kept = "".join(
        " " if unicodedata.category(char)[0] in ("C", "Z") and char != " " else char
        for char in text
    )
    kept = " ".join(kept.split())
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"
