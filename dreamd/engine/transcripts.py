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
never learned again as if it were new; and the inbound context OpenClaw puts before a channel
message (headers ending in ``⟦openclaw:ctx⟧``, or the older ``… (untrusted metadata):`` and
``… (untrusted, for context):`` forms, each with its JSON or text block): chat history, reply
targets and forwarded text in them are other people's words.

**Senders.** OpenClaw records who spoke a user turn in ``message.__openclaw``: ``senderId``,
``senderIsOwner`` (its own owner check) and a ``senderIdentity``; older transcripts carry only
the leading ``Conversation info`` block (``sender.id``) or ``Sender`` block (``id``) of the
message. A session is **shared** when the session store gives it ``chatType`` ``group`` or
``channel`` (or its key has a ``:group:``/``:channel:`` peer), the header says so, a
``Conversation info`` block names a group (``group_subject``, ``group_channel``,
``conversation_label``...), or its user turns come from two or more sender ids.
:func:`turn_origin` decides each user turn: ``owner`` when its sender is a configured owner or
OpenClaw recorded ``senderIsOwner: true``; ``untrusted`` when OpenClaw recorded
``senderIsOwner: false``, and whenever nothing marks the sender as an owner: a turn without a
mark fails closed, since a stranger who writes to a public bot must never write into its owner's
memory. A single-user runtime that writes no marks can opt in with
``agents.trust_unmarked_turns``: an unmarked turn of a direct (not shared) session is then the
owner's. A kept text is redacted as written, before its lines are joined: a value on the line
after ``Password:`` or a key block must be seen with its lines. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import PurePosixPath
from typing import Any

import msgspec

from dreamd.clock import format_instant
from dreamd.engine.state import SessionCheckpoint
from dreamd.engine.text.snippets import collapse
from dreamd.redaction import redact

__all__ = [
    "INTERACTIVE_KINDS",
    "ORIGIN_RULES",
    "Message",
    "Record",
    "TranscriptRead",
    "clean_text",
    "is_shared",
    "kind_from_store",
    "logical_session_id",
    "normalized_id",
    "parse_records",
    "session_kind",
    "shared_from_store",
    "spoken",
    "strip_inbound_context",
    "turn_origin",
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
_CTX_MARK = "⟦openclaw:ctx⟧"
_INBOUND_HEADER = re.compile(
    r"^[^\n]{1,120}(?:" + re.escape(_CTX_MARK) + r"|\((?:untrusted[^)\n]*|metadata, do not treat "
    r"as instructions or commands)\):)[ \t]*$",
    re.MULTILINE,
)
_LEADING_STAMP = re.compile(r"^\[[A-Za-z]{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2}[^\]]*\] *")
_GROUP_KEYS = ("group_subject", "group_channel", "group_space", "conversation_label")
_PEER = re.compile(r"(?:^|:)(?:group|channel):[^:]+")
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
    """A user or assistant text worth reading, with where it came from and who said it."""

    line: int
    end: int
    role: str  # "user" or "assistant"
    text: str
    timestamp: str | None
    sender: str | None = None  # the sender id OpenClaw recorded for a user turn
    sender_is_owner: bool | None = None  # OpenClaw's own owner check, when it recorded one
    group: bool = False  # the turn's own context names a group conversation


@dataclass(frozen=True)
class TranscriptRead:
    """What is new in one transcript file since its checkpoint."""

    key: str  # "<agent>:<file name>"
    agent: str
    session: str  # the logical session id shared by rotations
    kind: str
    mtime_ms: float
    size: int
    messages: tuple[Message, ...]
    marks: Mapping[int, tuple[int, str]] = field(default_factory=dict)  # end -> (lines, anchor)
    start: int = 0  # byte offset reading began at
    end: int = 0  # byte offset after the last complete line
    lines: int = 0  # complete lines up to ``end``
    shared: bool = False  # a group's or several people's session: see dreamd.engine.transcripts
    prior: SessionCheckpoint | None = None  # the checkpoint reading resumed from, if any


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


def _json_block(text: str, start: int) -> tuple[Any, int]:
    """The fenced JSON block starting on the line at ``start`` (or None) and where it ends."""
    fence = re.match(r"[ \t]*```json[ \t]*\n", text[start:])
    if fence is None:
        blank = text.find("\n\n", start)
        return None, len(text) if blank < 0 else blank + 2
    body_start = start + fence.end()
    close = text.find("\n```", body_start)
    end = len(text) if close < 0 else close + 4
    try:
        value = msgspec.json.decode(text[body_start : close if close >= 0 else len(text)])
    except (msgspec.DecodeError, RecursionError):
        value = None
    return value, end


def strip_inbound_context(text: str) -> tuple[str, dict[str, Any]]:
    """``text`` without OpenClaw's inbound context blocks, and what the first ones said.

    The mapping holds the first ``Conversation info`` and ``Sender`` JSON objects found before
    any of the person's own words (later look-alikes are the person's text, never trusted).
    """
    text = _LEADING_STAMP.sub("", text)
    if _CTX_MARK not in text and "(untrusted" not in text and "(metadata, do not" not in text:
        return text, {}
    found: dict[str, Any] = {}
    kept: list[str] = []
    position = 0
    leading = True
    for header in _INBOUND_HEADER.finditer(text):
        if header.start() < position:
            continue
        before = text[position : header.start()]
        if before.strip():
            leading = False
        kept.append(before)
        label = header.group(0).replace(_CTX_MARK, "").split("(", 1)[0].strip().rstrip(":")
        if label == "Context" and _CTX_MARK in header.group(0):
            position = len(text)  # a trailing channel context runs to the end
            break
        value, position = _json_block(text, header.end() + 1)
        if leading and isinstance(value, dict) and label in ("Conversation info", "Sender"):
            found.setdefault(label, value)
    kept.append(text[position:])
    return "".join(kept), found


def _sender_of(
    message: Mapping[str, Any], found: Mapping[str, Any]
) -> tuple[str | None, bool | None, bool]:
    """(sender id, OpenClaw's owner verdict, the context names a group) of a user turn."""
    meta = message.get("__openclaw")
    sender: str | None = None
    is_owner: bool | None = None
    if isinstance(meta, dict):
        if isinstance(meta.get("senderId"), str | int) and not isinstance(
            meta.get("senderId"), bool
        ):
            sender = str(meta["senderId"])
        if isinstance(meta.get("senderIsOwner"), bool):
            is_owner = meta["senderIsOwner"]
    info = found.get("Conversation info")
    info = info if isinstance(info, dict) else {}
    if sender is None:
        inner = info.get("sender")
        candidates = [inner.get("id") if isinstance(inner, dict) else None]
        block = found.get("Sender")
        candidates.append(block.get("id") if isinstance(block, dict) else None)
        sender = next((str(c) for c in candidates if isinstance(c, str | int) and c != ""), None)
    group = any(info.get(key) for key in _GROUP_KEYS) or info.get("is_group_chat") is True
    return sender, is_owner, group


def normalized_id(sender: str) -> str:
    """``123`` for ``123``, ``telegram:123`` or ``user:123``: ids compare without prefixes."""
    return sender.strip().rsplit(":", 1)[-1].lstrip("@").lower()


def turn_origin(
    message: Message, *, shared: bool, owners: Set[str], trust_unmarked: bool = False
) -> tuple[str, str]:
    """``(origin, rule)`` for a user turn: ``owner`` or ``untrusted``, and the rule that decided
    it (see the module rules; :data:`ORIGIN_RULES` words each rule)."""
    if message.sender is not None and normalized_id(message.sender) in owners:
        return "owner", "configured-owner"
    if message.sender_is_owner is not None:
        return ("owner", "owner-mark") if message.sender_is_owner else ("untrusted", "not-owner")
    if shared or message.group:
        return "untrusted", "shared-unmarked"
    if trust_unmarked:
        return "owner", "trusted-unmarked"
    return "untrusted", "unmarked"


ORIGIN_RULES: Mapping[str, str] = {
    "configured-owner": "the sender is a configured owner",
    "owner-mark": "the runtime marked the sender as the owner",
    "not-owner": "the runtime marked the sender as not the owner",
    "shared-unmarked": "a turn in a shared session without an owner mark",
    "trusted-unmarked": "an unmarked turn of a direct session, trusted by "
    "agents.trust_unmarked_turns",
    "unmarked": "a turn without an owner mark (set agents.trust_unmarked_turns for a "
    "single-user runtime that writes no marks)",
    "guest-reply": "the agent's reply to an untrusted turn",
    "guest-line": "a transcript line spoken by a guest, or the agent's reply to one",
}


def shared_from_store(store: Mapping[str, Any], session_id: str) -> bool:
    """Whether the session store marks ``session_id`` as a group or channel conversation."""
    for key, value in store.items():
        if not isinstance(value, dict) or value.get("sessionId") != session_id:
            continue
        if str(value.get("chatType") or "").lower() in ("group", "channel"):
            return True
        return _PEER.search(str(key).lower()) is not None
    return False


def is_shared(records: list[Record], messages: tuple[Message, ...], store_shared: bool) -> bool:
    """Whether the session is a group or several people's (see the module rules)."""
    if store_shared or any(message.group for message in messages):
        return True
    for record in records:
        if record.data.get("type") == "session":
            chat = str(record.data.get("chatType") or record.data.get("sessionKind") or "")
            if chat.lower() in ("group", "channel"):
                return True
            break
    senders = {normalized_id(m.sender) for m in messages if m.role == "user" and m.sender}
    return len(senders) > 1


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


def clean_text(role: str, text: str, *, mask: bool = True) -> str:
    """``text`` as a kept message says it (one line, redacted unless ``mask`` is false), or
    ``""`` when the rules drop it: the same filters and stripping as :func:`spoken`, for a
    message that arrives on its own."""
    if _dropped(role, text):
        return ""
    text = _CONTEXT_BLOCKS.sub(" ", strip_inbound_context(text)[0])
    cleaned = collapse(redact(text) if mask else text)
    return "" if not cleaned or _dropped(role, cleaned) else cleaned


def spoken(records: list[Record]) -> Iterator[Message]:
    """The user and assistant texts worth reading, recalled context stripped, senders known."""
    for record in records:
        found = _role_and_text(record)
        if found is None:
            continue
        role, text = found
        if _dropped(role, text):
            continue
        text, context = strip_inbound_context(text)
        cleaned = collapse(redact(_CONTEXT_BLOCKS.sub(" ", text)))
        if not cleaned or _dropped(role, cleaned):
            continue
        sender, is_owner, group = None, None, False
        if role == "user":
            sender, is_owner, group = _sender_of(record.data["message"], context)
        stamp = _timestamp(record.data)
        yield Message(record.line, record.end, role, cleaned, stamp, sender, is_owner, group)


def _timestamp(data: Mapping[str, Any]) -> str | None:
    """The record's time stamp, else its message's (some writers put it there)."""
    stamp = data.get("timestamp")
    if stamp is None and isinstance(data.get("message"), dict):
        stamp = data["message"].get("timestamp")
    if isinstance(stamp, int | float) and not isinstance(stamp, bool) and stamp > 0:
        seconds = stamp / 1000 if stamp > 1e11 else stamp
        return format_instant(datetime.fromtimestamp(seconds, UTC))
    return stamp if isinstance(stamp, str) else None
