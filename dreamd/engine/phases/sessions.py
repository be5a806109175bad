"""Session ingestion (light, step 2): interactive transcripts into the session corpus.

For each transcript read since its checkpoint: a non-interactive session (cron, heartbeat,
subagent, dreaming, unknown) is only checkpointed at its end, so it is never read again. From an
interactive one, each message inside the lookback that is not noise
(:mod:`dreamd.engine.text.salience`) is redacted (:mod:`dreamd.redaction`), cut to 280
characters (at least 12), and appended to
``memory/.dreams/session-corpus/<day>.txt`` as ``[<agent>/<session>#L<line>] User: <text>`` (the
day is the message's dreaming day, else the file's). Redaction reads the whole message, so a key
block pasted into one is found before it is cut. Its corpus line is recorded as a ``daily``
signal (query ``__dreaming_sessions__:<today>``, score 0.58, weighted up for high-salience
messages; not when it holds a mask: a message that held a secret stays in the corpus, masked,
and never enters the recall store; origin ``agent`` for assistant turns, and for user turns
``owner`` or ``untrusted`` by :func:`dreamd.engine.transcripts.turn_origin`: in a group or
several people's session only a configured owner's turns are the owner's). An untrusted turn's
corpus line says ``Guest:`` instead of ``User:``, so wherever that line is recalled later it
stays untrusted (:data:`GUEST_LABEL`), and its row can never be promoted.

A message whose hash (agent, logical session, timestamp or line, text) was seen before is
skipped, so rotated copies and rewritten files count once. At most 240 messages per sweep and
``min(80, max(12, ceil(240 / files)))`` per file; the checkpoint stops after the last message
taken, so the rest is read next time. Pure.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

from dreamd.clock import day_of, parse_instant
from dreamd.engine.hits import Hit
from dreamd.engine.phases.light import in_lookback
from dreamd.engine.snapshot import TextFile
from dreamd.engine.state import RecallEntry, SeenMessages, SessionCheckpoint, Table
from dreamd.engine.text.salience import is_noise, weight
from dreamd.engine.text.snippets import collapse
from dreamd.engine.traces import SESSIONS_QUERY_PREFIX, record_hits
from dreamd.engine.transcripts import TranscriptRead, turn_origin
from dreamd.layout import SESSION_CORPUS_DIR
from dreamd.redaction import redact

__all__ = ["GUEST_LABEL", "SESSION_SCORE", "SessionResult", "corpus_path", "plan_sessions"]

SESSION_SCORE = 0.58
GUEST_LABEL = "Guest"
MAX_MESSAGES = 240
MAX_PER_FILE, MIN_PER_FILE = 80, 12
MAX_SNIPPET, MIN_SNIPPET = 280, 12
MAX_SEEN, MAX_SCOPES = 4096, 2048


@dataclass(frozen=True)
class SessionResult:
    """New state and corpus text after ingesting transcripts."""

    store: Table[RecallEntry]
    checkpoints: Table[SessionCheckpoint]
    seen: Table[SeenMessages]
    corpus: Mapping[str, str]  # corpus path -> its whole new text
    ingested: int
    closed: int  # non-interactive transcripts checkpointed and left alone


def corpus_path(day: str) -> str:
    """``memory/.dreams/session-corpus/<day>.txt``."""
    return f"{SESSION_CORPUS_DIR}/{day}.txt"


def _message_hash(read: TranscriptRead, stamp: str | None, line: int, text: str) -> str:
    where = f"ts:{stamp}" if stamp else f"line:{line}"
    raw = f"{read.agent}:{read.session}\n{where}\n{text}"
    return hashlib.sha1(raw.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]


def _checkpoint(read: TranscriptRead, offset: int) -> SessionCheckpoint:
    lines, mark = read.marks.get(offset, (read.lines, ""))
    return SessionCheckpoint(
        mtime_ms=read.mtime_ms,
        size=read.size,
        offset=offset,
        line_count=lines,
        anchor=mark,
        kind=read.kind,
        shared=read.shared,
    )


def _lines(text: TextFile | None) -> list[str]:
    if text is None or not text.exists:
        return []
    lines = text.text.replace("\r\n", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def plan_sessions(
    reads: Sequence[TranscriptRead],
    *,
    store: Table[RecallEntry],
    checkpoints: Table[SessionCheckpoint],
    seen: Table[SeenMessages],
    corpus: Mapping[str, TextFile],
    now: datetime,
    zone: tzinfo,
    lookback_days: float,
    owners: frozenset[str] = frozenset(),
) -> SessionResult:
    """Ingest ``reads`` (see the module rules)."""
    today = day_of(now, zone)
    files: dict[str, SessionCheckpoint] = dict(checkpoints.rows)
    scopes: dict[str, list[str]] = {k: list(v.hashes) for k, v in seen.rows.items()}
    corpus_lines: dict[str, list[str]] = {}
    hits: dict[str, list[Hit]] = {"owner": [], "agent": [], "untrusted": []}
    interactive = [r for r in reads if r.kind == "interactive" and r.messages]
    per_file = min(
        MAX_PER_FILE, max(MIN_PER_FILE, math.ceil(MAX_MESSAGES / max(1, len(interactive))))
    )
    taken = closed = 0
    for read in sorted(reads, key=lambda r: r.key):
        if read.kind != "interactive":
            files[read.key] = _checkpoint(read, read.end)
            closed += 1
            continue
        offset, used = read.end, 0
        scope = scopes.setdefault(f"{read.agent}:{read.session}", [])
        known = set(scope)
        for index, message in enumerate(read.messages):
            if used >= per_file or taken >= MAX_MESSAGES:
                offset = read.messages[index - 1].end if index else read.start
                break
            used += 1
            moment = parse_instant(message.timestamp or "") or datetime.fromtimestamp(
                read.mtime_ms / 1000, UTC
            )
            day = day_of(moment, zone)
            text = collapse(redact(message.text))[:MAX_SNIPPET].rstrip()
            if (
                not in_lookback(day, now=now, days=lookback_days, zone=zone)
                or is_noise(message.text)
                or len(text) < MIN_SNIPPET
            ):
                continue
            digest = _message_hash(read, message.timestamp, message.line, text)
            if digest in known:
                continue
            known.add(digest)
            scope.append(digest)
            path = corpus_path(day)
            lines = corpus_lines.setdefault(path, _lines(corpus.get(path)))
            origin = "agent"
            if message.role == "user":
                origin = turn_origin(message, shared=read.shared, owners=owners)
            role = {"owner": "User", "agent": "Assistant"}.get(origin, GUEST_LABEL)
            lines.append(f"[{read.agent}/{read.session}#L{message.line}] {role}: {text}")
            score = min(1.0, SESSION_SCORE * weight(text))
            hits[origin].append(Hit(path, len(lines), len(lines), lines[-1], score))
            taken += 1
        files[read.key] = _checkpoint(read, offset)
    for origin, found in hits.items():
        store, _ = record_hits(
            store,
            found,
            query=SESSIONS_QUERY_PREFIX + today,
            now=now,
            day=today,
            signal="daily",
            origin=origin,
            dedupe_per_day=True,
        )
    kept_scopes = dict(list(scopes.items())[-MAX_SCOPES:])
    seen_rows = {k: SeenMessages(hashes=tuple(v[-MAX_SEEN:])) for k, v in kept_scopes.items() if v}
    stamp_changed = bool(reads)
    return SessionResult(
        store=store,
        checkpoints=checkpoints.with_rows(files, updated_at=checkpoints.updated_at)
        if stamp_changed
        else checkpoints,
        seen=seen.with_rows(seen_rows, updated_at=seen.updated_at) if taken else seen,
        corpus={path: "\n".join(lines) + "\n" for path, lines in corpus_lines.items()},
        ingested=taken,
        closed=closed,
    )
