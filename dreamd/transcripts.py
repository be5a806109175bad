"""Session transcripts (OpenClaw's JSONL format): what kind of session, and what was said.

A transcript is one JSON record per line: a ``type: "session"`` header, then ``type: "message"``
records with ``message.role`` and ``message.content`` (a string, or a list of parts of which only
``type: "text"`` parts count) and a ``timestamp``. Broken lines are skipped.

Session kind, first answer wins: the header's ``sessionKind``; the session store
(``sessions.json``: the key that names this session id — ``…:cron:…`` cron, ``…:heartbeat``
heartbeat, ``…:subagent:…`` subagent, ``dreaming-narrative-…`` dreaming, any other ``agent:…``
key interactive); the first user prompt (``[cron:<id>]`` cron, a heartbeat prompt heartbeat);
else ``unknown``. Only ``interactive`` sessions are ever ingested.

Kept: user and assistant text. Dropped: system wrappers (``System: [...]``), cron and heartbeat
prompts and ``HEARTBEAT_OK`` acks, silent replies, tool calls and tool output, internal task
completion events. Stripped from what is kept: recalled context between
``<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>`` and ``<<<END_OPENCLAW_INTERNAL_CONTEXT>>>`` and dreamd's
own ``<<<BEGIN_DREAMD_MEMORY>>>`` … ``<<<END_DREAMD_MEMORY>>>`` blocks, so a recalled snippet is
never learned again as if it were new. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePosixPath
from typing import Any

import msgspec

from dreamd.clock import format_instant
from dreamd.snippets import collapse

__all__ = [
    "INTERACTIVE_KINDS",
    "Message",
    "Record",
    "kind_from_store",
    "logical_session_id",
    "parse_records",
    "session_kind",
    "spoken",
]

INTERACTIVE_KINDS = frozenset({"interactive", "main", "direct", "chat", "dm", "group"})
_CONTEXT_BLOCKS = re.compile(
    r"<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>.*?(?:<<<END_OPENCLAW_INTERNAL_CONTEXT>>>|$)"
    r"|<<<BEGIN_DREAMD_MEMORY>>>.*?(?:<<<END_DREAMD_MEMORY>>>|$)"
    r"|\[Internal task completion event\].*?(?:\n\s*\n|$)",
    re.DOTALL,
)
_SYSTEM_WRAPPER = re.compile(r"^\s*System(?: \(untrusted\))?:\s*\[", re.IGNORECASE)
_CRON_PROMPT = re.compile(r"^\s*\[cron:[^\]]*\]")
_HEARTBEAT_PROMPT = re.compile(r"HEARTBEAT\.md|^\s*\[heartbeat\]", re.IGNORECASE)
_HEARTBEAT_ACK = re.compile(r"^[\s*_`]*HEARTBEAT_OK[\s*_`.!]*(?:\S.{0,40})?$", re.IGNORECASE)
_SILENT = frozenset({"NO_REPLY", "NO_RESPONSE", "SILENT", "[silent]"})
_ROTATION = re.compile(r"\.jsonl(?:\.(?:reset|deleted)\.[^/]+)?$")


@dataclass(frozen=True, slots=True)
class Record:
    """One JSONL line that parsed to an object: its 1-based line number, where it ends (bytes
    from the start of the file, newline included) and its content."""

    line: int
    end: int
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Message:
    """A user or assistant text worth reading, with where it came from."""

    line: int
    end: int
    role: str  # "user" or "assistant"
    text: str
    timestamp: str | None


def logical_session_id(path: str) -> str:
    """``abc`` for ``abc.jsonl`` and its rotations ``abc.jsonl.reset.<iso>``/``.deleted.<iso>``."""
    return _ROTATION.sub("", PurePosixPath(path).name)


def parse_records(data: bytes, *, start: int = 0, first_line: int = 1) -> list[Record]:
    """Every complete line of ``data`` (the file from byte ``start`` on) that is a JSON object.

    Broken lines are skipped; a last line without its newline is not read yet (the writer may
    still be writing it).
    """
    records = []
    position = 0
    line = first_line
    while True:
        newline = data.find(b"\n", position)
        if newline < 0:
            break
        raw = data[position:newline]
        position = newline + 1
        if raw.strip():
            try:
                value = msgspec.json.decode(raw)
            except (msgspec.DecodeError, RecursionError):  # RecursionError: nested too deeply
                value = None
            if isinstance(value, dict):
                records.append(Record(line, start + position, value))
        line += 1
    return records


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") in ("text", "input_text", "output_text")
        )
    return ""


def _role_and_text(record: Record) -> tuple[str, str] | None:
    data = record.data
    if data.get("type") != "message":
        return None
    message = data.get("message")
    if not isinstance(message, dict):
        return None
    role = message.get("role")
    if role not in ("user", "assistant"):
        return None
    return str(role), _content_text(message.get("content"))


def kind_from_store(store: Mapping[str, Any], session_id: str) -> str | None:
    """The kind the session store's key gives ``session_id``, if it lists it."""
    for key, value in store.items():
        if not isinstance(value, dict) or value.get("sessionId") != session_id:
            continue
        lowered = str(key).lower()
        if "dreaming-narrative" in lowered:
            return "dreaming"
        for marker, kind in (
            (":cron", "cron"),
            (":heartbeat", "heartbeat"),
            (":subagent", "subagent"),
        ):
            if marker in lowered:
                return kind
        return "interactive" if lowered.startswith("agent:") else None
    return None


def session_kind(records: list[Record], store_kind: str | None) -> str:
    """The session's kind (see the module rules)."""
    for record in records:
        if record.data.get("type") == "session":
            declared = str(record.data.get("sessionKind") or "").lower()
            if declared:
                return "interactive" if declared in INTERACTIVE_KINDS else declared
            break
    if store_kind:
        return store_kind
    for record in records:
        found = _role_and_text(record)
        if found and found[0] == "user":
            text = found[1]
            if _CRON_PROMPT.match(text):
                return "cron"
            if _HEARTBEAT_PROMPT.search(text):
                return "heartbeat"
            break
    return "unknown"


def _dropped(role: str, text: str) -> bool:
    stripped = text.strip()
    if not stripped or stripped in _SILENT:
        return True
    if role == "user":
        return bool(
            _SYSTEM_WRAPPER.match(stripped)
            or _CRON_PROMPT.match(stripped)
            or _HEARTBEAT_PROMPT.search(stripped)
        )
    return _HEARTBEAT_ACK.match(stripped) is not None


def spoken(records: list[Record]) -> Iterator[Message]:
    """The user and assistant texts worth reading, recalled context stripped."""
    for record in records:
        found = _role_and_text(record)
        if found is None:
            continue
        role, text = found
        if _dropped(role, text):
            continue
        cleaned = collapse(_CONTEXT_BLOCKS.sub(" ", text))
        if not cleaned or _dropped(role, cleaned):
            continue
        yield Message(record.line, record.end, role, cleaned, _timestamp(record.data))


def _timestamp(data: Mapping[str, Any]) -> str | None:
    stamp = data.get("timestamp")
    if isinstance(stamp, int | float) and not isinstance(stamp, bool) and stamp > 0:
        seconds = stamp / 1000 if stamp > 1e11 else stamp
        return format_instant(datetime.fromtimestamp(seconds, UTC))
    return stamp if isinstance(stamp, str) else None
