"""Session ingestion (light, step 2): interactive transcripts into the session corpus.

For each transcript read since its checkpoint: a non-interactive session (cron, heartbeat,
subagent, dreaming, unknown) is only checkpointed at its end, so it is never read again. From an
interactive one, each message inside the lookback that is not noise
(:mod:`dreamd.engine.text.salience`) is redacted (:mod:`dreamd.redaction`), cut to 280
characters (with its speaker's label at least 12, as OpenClaw counts), and appended to
``memory/.dreams/session-corpus/<day>.txt`` as ``[<agent>/<session>#L<line>] User: <text>`` (the
day is the message's dreaming day, else the file's). Redaction reads the whole message, so a key
block pasted into one is found before it is cut. Its corpus line is recorded as a ``daily``
signal (query ``__dreaming_sessions__:<today>``, score 0.58, weighted up for high-salience
messages; not when it holds a mask: a message that held a secret stays in the corpus, masked,
and never enters the recall store). User turns are ``owner`` or ``untrusted`` by
:func:`dreamd.engine.transcripts.turn_origin`, which fails closed: only a turn marked as the
owner's, or from a configured owner, is the owner's (or, for an agent in ``trusted_unmarked``,
an unmarked turn of a direct session). Assistant turns are ``agent``, except a reply to an
untrusted turn, which is untrusted too: a stranger's words repeated by the agent are still a
stranger's. Their corpus lines say ``Guest:`` and ``Assistant to guest:`` instead of ``User:``
and ``Assistant:``, so wherever such a line is recalled later it stays untrusted, and its row
can never be promoted; the rule that decided is kept in the row's provenance for
``promote-explain``.

A message whose hash (agent, logical session, timestamp or line, text) was seen before is
skipped, so rotated copies and rewritten files count once. At most 240 messages are ingested per
sweep, shared out between the transcripts with something new (at least 12 each; what a short
one leaves goes to the longer ones, so one long backlog drains at 240 a sweep, where OpenClaw
stops each file at 80); the checkpoint stops after the last message taken, so the rest is read
next time, and nothing is skipped for good: while a cap leaves a
backlog, the checkpoint keeps the first day of the lookback the backlog was found in
(``backlog_since``), and the messages of that window stay eligible however many sweeps the file
takes to drain. Checkpoints of files that are gone are dropped. Pure.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

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
USER_LABEL, GUEST_LABEL = "User", "Guest"
ASSISTANT_LABEL, GUEST_REPLY_LABEL = "Assistant", "Assistant to guest"
MAX_MESSAGES = 240
MIN_PER_FILE = 12
MAX_SNIPPET, MIN_SNIPPET = 280, 12
_RENDERED = "{}: {}"  # the length rule counts the speaker too: "User: ok, db-03" is a claim
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


def _checkpoint(
    read: TranscriptRead, offset: int, *, backlog_since: str | None = None, guest: bool = False
) -> SessionCheckpoint:
    lines, mark = read.marks.get(offset, (read.lines, ""))
    return SessionCheckpoint(
        mtime_ms=read.mtime_ms,
        size=read.size,
        offset=offset,
        line_count=lines,
        anchor=mark,
        kind=read.kind,
        shared=read.shared,
        backlog_since=backlog_since,
        guest=guest,
    )


def _shares(reads: Sequence[TranscriptRead]) -> dict[str, int]:
    """How many messages each transcript may ingest this sweep: the sweep's budget shared out
    evenly (at least :data:`MIN_PER_FILE` each), and what a short file leaves given to the
    longer ones, so a single long backlog drains at the sweep's full pace."""
    shares: dict[str, int] = {}
    left = MAX_MESSAGES
    ordered = sorted(reads, key=lambda r: (len(r.messages), r.key))
    for index, read in enumerate(ordered):
        fair = max(MIN_PER_FILE, math.ceil(left / (len(ordered) - index)))
        shares[read.key] = min(len(read.messages), fair)
        left = max(0, left - shares[read.key])
    return shares


def _label(origin: str, role: str) -> str:
    """How a corpus line names its speaker: a guest, or the agent answering one, is marked."""
    if role == "user":
        return USER_LABEL if origin == "owner" else GUEST_LABEL
    return ASSISTANT_LABEL if origin == "agent" else GUEST_REPLY_LABEL


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
    trusted_unmarked: frozenset[str] = frozenset(),
    gone: Sequence[str] = (),
) -> SessionResult:
    """Ingest ``reads`` (see the module rules); ``gone`` names checkpoints whose file is gone."""
    today = day_of(now, zone)
    window_start = day_of(now - timedelta(days=lookback_days), zone)
    files: dict[str, SessionCheckpoint] = {
        key: row for key, row in checkpoints.rows.items() if key not in set(gone)
    }
    scopes: dict[str, list[str]] = {k: list(v.hashes) for k, v in seen.rows.items()}
    corpus_lines: dict[str, list[str]] = {}
    hits: dict[tuple[str, str | None], list[Hit]] = {}
    shares = _shares([r for r in reads if r.kind == "interactive" and r.messages])
    taken = closed = 0
    for read in sorted(reads, key=lambda r: r.key):
        if read.kind != "interactive":
            files[read.key] = _checkpoint(read, read.end)
            closed += 1
            continue
        prior = read.prior
        floor = prior.backlog_since if prior is not None and prior.backlog_since else None
        guest = prior.guest if prior is not None and read.start > 0 else False
        offset, used, backlog = read.end, 0, None
        scope = scopes.setdefault(f"{read.agent}:{read.session}", [])
        known = set(scope)
        for index, message in enumerate(read.messages):
            if used >= shares.get(read.key, 0) or taken >= MAX_MESSAGES:
                offset = read.messages[index - 1].end if index else read.start
                backlog = floor or window_start
                break
            origin, rule = "agent", None
            if message.role == "user":
                origin, rule = turn_origin(
                    message,
                    shared=read.shared,
                    owners=owners,
                    trust_unmarked=read.agent in trusted_unmarked,
                )
                guest = origin != "owner"
            elif guest:
                origin, rule = "untrusted", "guest-reply"
            moment = parse_instant(message.timestamp or "") or datetime.fromtimestamp(
                read.mtime_ms / 1000, UTC
            )
            day = day_of(moment, zone)
            text = collapse(redact(message.text))[:MAX_SNIPPET].rstrip()
            label = _label(origin, message.role)
            in_window = in_lookback(day, now=now, days=lookback_days, zone=zone) or (
                floor is not None and day >= floor
            )
            short = len(text) + len(_RENDERED.format(label, "")) < MIN_SNIPPET
            if not in_window or is_noise(message.text) or short:
                continue
            digest = _message_hash(read, message.timestamp, message.line, text)
            if digest in known:
                continue
            known.add(digest)
            scope.append(digest)
            path = corpus_path(day)
            lines = corpus_lines.setdefault(path, _lines(corpus.get(path)))
            lines.append(f"[{read.agent}/{read.session}#L{message.line}] {label}: {text}")
            score = min(1.0, SESSION_SCORE * weight(text))
            hits.setdefault((origin, rule), []).append(
                Hit(path, len(lines), len(lines), lines[-1], score)
            )
            taken += 1
            used += 1
        files[read.key] = _checkpoint(read, offset, backlog_since=backlog, guest=guest)
    for (origin, rule), found in sorted(hits.items(), key=lambda item: str(item[0])):
        store, _ = record_hits(
            store,
            found,
            query=SESSIONS_QUERY_PREFIX + today,
            now=now,
            day=today,
            signal="daily",
            origin=origin,
            dedupe_per_day=True,
            origin_rule=rule,
        )
    kept_scopes = dict(list(scopes.items())[-MAX_SCOPES:])
    seen_rows = {k: SeenMessages(hashes=tuple(v[-MAX_SEEN:])) for k, v in kept_scopes.items() if v}
    stamp_changed = bool(reads) or len(files) != len(checkpoints.rows)
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
