"""Live intake: one chat message, as it arrives, into the day's log (seed 004's hippocampus).

A message comes with its sender and its session's kind. Rules, in order:

* Only an ``interactive`` session's messages are logged (cron, heartbeat, subagent and unknown
  sessions stay out, as in transcript ingestion).
* The thalamus: system wrappers, cron and heartbeat prompts and recalled context are stripped
  or dropped as transcripts are (:func:`dreamd.engine.transcripts.clean_text`), and pure
  greetings and acknowledgements are dropped (:func:`dreamd.engine.text.salience.is_noise`).
  What is kept is tagged with its salience kind (``decision``, ``correction``, ...).
* Redaction runs on the whole message before it is cut to :data:`MAX_MESSAGE_CHARS` and
  written on one line: no secret reaches the log.
* Taint: a message is the owner's only when its sender is one of the configured owners, the
  whole id compared (:func:`sender_key`: ``telegram:4242`` is not ``discord:4242``, and a bare
  ``4242`` only matches a bare ``4242``); no owners configured, no owner's message: fail
  closed. Any other sender's line says ``Guest:``, the same label a guest's transcript
  turn gets, so wherever it is recalled it stays ``untrusted`` and is never promoted
  (:func:`is_guest_line`), never a bank fact and never a topic line.
* The line is ``- [HH:MM] <text>`` (``- [HH:MM] Guest: <text>`` for a guest), appended to
  ``memory/logs/YYYY/MM/YYYY-MM-DD.md`` (the message's day in the dreaming timezone), a file that
  starts with a ``# YYYY-MM-DD`` heading. That path is a daily note of that day
  (:func:`dreamd.layout.is_short_term_path`), so sweeps read the log as they read notes.

Pure.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass

from dreamd.engine.text.salience import is_noise, kind_of
from dreamd.engine.transcripts import clean_text
from dreamd.patterns import LazyPattern
from dreamd.redaction import redact

__all__ = [
    "GUEST_LABEL",
    "LOGS_DIR",
    "MAX_MESSAGE_CHARS",
    "Intake",
    "append_log_line",
    "is_guest_line",
    "log_path",
    "plan_intake",
    "sender_key",
]

LOGS_DIR = "memory/logs"
MAX_MESSAGE_CHARS = 2000
GUEST_LABEL = "Guest"  # as dreamd.engine.phases.sessions.GUEST_LABEL
_GUEST = LazyPattern(r"(?:^|\s)\[\d{2}:\d{2}\] Guest: ")


@dataclass(frozen=True, slots=True)
class Intake:
    """What becomes of one message: the line to log (``None``: dropped, and why)."""

    line: str | None
    kind: str  # the salience kind of a kept message; "" for a dropped one
    origin: str  # "owner" or "untrusted"
    reason: str  # why it was dropped; "" when kept
    redacted: bool


def log_path(day: str) -> str:
    """``memory/logs/YYYY/MM/YYYY-MM-DD.md`` for ``day`` (``YYYY-MM-DD``)."""
    return f"{LOGS_DIR}/{day[:4]}/{day[5:7]}/{day}.md"


def sender_key(sender: str) -> str:
    """A sender id as owners are compared: trimmed, lower case, no ``@`` before the id."""
    channel, colon, name = sender.strip().lower().rpartition(":")
    return f"{channel}{colon}{name.strip().lstrip('@')}"


def is_guest_line(text: str) -> bool:
    """True when ``text`` (a log line, or a snippet holding one) is a guest's message."""
    return _GUEST.search(text) is not None


def plan_intake(
    text: str,
    *,
    sender: str | None,
    owners: Set[str],
    session_kind: str,
    clock: str,
    role: str = "user",
) -> Intake:
    """Decide one message (see the module rules); ``clock`` is its ``HH:MM``."""
    is_owner = sender is not None and sender_key(sender) in owners
    origin = "owner" if is_owner else "untrusted"
    if session_kind != "interactive":
        reason = f"a {session_kind} session's messages are not logged"
        return Intake(None, "", origin, reason, redacted=False)
    cleaned = clean_text(role, text)
    if not cleaned:
        return Intake(None, "", origin, "a system, cron or heartbeat message", redacted=False)
    if is_noise(cleaned):
        return Intake(None, "", origin, "a greeting or acknowledgement", redacted=False)
    masked = redact(cleaned)
    body = " ".join(masked.split())
    if len(body) > MAX_MESSAGE_CHARS:
        body = body[: MAX_MESSAGE_CHARS - 1].rstrip() + "…"
    label = "" if is_owner else f"{GUEST_LABEL}: "
    line = f"- [{clock}] {label}{body}"
    redacted = masked != clean_text(role, text, mask=False)
    return Intake(line, kind_of(body), origin, "", redacted=redacted)


def append_log_line(current: str | None, day: str, line: str) -> str:
    """The log's text with ``line`` appended (a new log starts with its ``# day`` heading)."""
    if not current:
        return f"# {day}\n\n{line}\n"
    return current + ("" if current.endswith("\n") else "\n") + line + "\n"
