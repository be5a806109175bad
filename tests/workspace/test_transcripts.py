"""Transcripts into the session corpus: only interactive sessions, redacted, once, promotable."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dreamd.config import DreamingConfig
from dreamd.engine.hits import Hit
from dreamd.engine.transcripts import logical_session_id, parse_records, session_kind, spoken
from dreamd.recall.record import record_search
from dreamd.runs.sweep import sweep_workspace

NOW = datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
SECRET = "sk-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
EMAIL = "ana.silva@example.org"


def _line(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields})


def _message(role: str, content: Any, minutes: int = 0) -> str:
    """A turn; a user turn carries the runtime's owner mark (an unmarked one is untrusted)."""
    stamp = (
        (NOW - timedelta(hours=10) + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")
    )
    message: dict[str, Any] = {"role": role, "content": content}
    if role == "user":
        message["__openclaw"] = {"senderId": "11", "senderIsOwner": True}
    return _line("message", timestamp=stamp, message=message)


def transcript(path: Path, *lines: str) -> Path:
    """Write a JSONL transcript."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


INTERACTIVE = [
    _line("session", id="chat1", sessionKind="interactive"),
    _message("user", "We decided the billing service moves to Postgres 16 on db-02.", 1),
    _message(
        "assistant",
        [
            {"type": "text", "text": "Noted: billing runs on Postgres 16 now."},
            {"type": "toolCall", "name": "x"},
        ],
        2,
    ),
    _message("user", f"My key is {SECRET} and mail me at {EMAIL} about the migration plan", 3),
    _message("user", "ok thanks!", 4),
    _message(
        "user",
        "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>> recalled: the old cron runs at 4am <<<END_OPENCLAW_INTERNAL_CONTEXT>>> Is the queue drained now?",
        5,
    ),
    _message("assistant", "HEARTBEAT_OK", 6),
    _line("message", message={"role": "toolResult", "content": "tool output secret stuff"}),
    "{broken json",
    _message("user", "System: [2026-11-28] reminder text from the system wrapper", 7),
]


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace and its agent's sessions folder with interactive and other transcripts."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    sessions = tmp_path / "agents" / "main" / "sessions"
    transcript(sessions / "chat1.jsonl", *INTERACTIVE)
    transcript(
        sessions / "cron1.jsonl",
        _message("user", "[cron:abc] nightly report please"),
        _message("assistant", "Cron fact: disk usage is 80 percent."),
    )
    transcript(
        sessions / "beat1.jsonl",
        _message("user", "Read HEARTBEAT.md if it exists and follow it."),
        _message("assistant", "Heartbeat fact: nothing to do today at all."),
    )
    transcript(
        sessions / "sub1.jsonl",
        _message("user", "Subagent task: summarise the long document now"),
        _message("assistant", "Subagent fact: the document is long and dull."),
    )
    transcript(
        sessions / "odd1.jsonl",
        _message("user", "Unknown session fact: nobody knows where this came from."),
    )
    (sessions / "sessions.json").write_text(
        json.dumps({"agent:main:subagent:1": {"sessionId": "sub1"}})
    )
    return root, sessions


def _all_files(root: Path) -> str:
    return "\n".join(
        p.read_text(errors="replace") for p in root.rglob("*") if p.is_file() and p.name != "lock"
    )


def test_only_interactive_content_reaches_the_corpus_redacted(workspace: tuple[Path, Path]) -> None:
    """Interactive turns are ingested, redacted; other sessions, context, tools and noise never are."""
    root, sessions = workspace
    outcome = sweep_workspace(
        root, DreamingConfig(), now=NOW, zone=UTC, sessions=[("main", sessions)]
    )
    assert outcome.status == "ok", outcome.error
    corpus = (root / "memory/.dreams/session-corpus/2026-11-28.txt").read_text().splitlines()
    assert corpus == [
        "[main/chat1#L2] User: We decided the billing service moves to Postgres 16 on db-02.",
        "[main/chat1#L3] Assistant: Noted: billing runs on Postgres 16 now.",
        "[main/chat1#L4] User: My key is sk-*** and mail me at *** about the migration plan",
        "[main/chat1#L6] User: Is the queue drained now?",
    ]
    everything = _all_files(root)
    for forbidden in (
        SECRET,
        EMAIL,
        "Cron fact",
        "Heartbeat fact",
        "Subagent fact",
        "Unknown session",
        "recalled:",
        "tool output",
        "System: [",
        "HEARTBEAT_OK",
    ):
        assert forbidden not in everything
    store = json.loads((root / "memory/.dreams/short-term-recall.json").read_text())["entries"]
    row = store["memory:memory/.dreams/session-corpus/2026-11-28.txt:1:1"]
    assert (
        row["dailyCount"],
        row["provenance"]["originClass"],
        row["provenance"]["sessionKind"],
    ) == (1, "owner", "interactive")
    assert row["totalScore"] == pytest.approx(0.58 * 1.15)  # a decision weighs more


def test_second_sweep_reads_nothing_and_appends_read_only_the_new(
    workspace: tuple[Path, Path],
) -> None:
    """Unchanged transcripts are not re-read; new lines are; a rewritten file adds no duplicates."""
    root, sessions = workspace
    sources = [("main", sessions)]
    sweep_workspace(root, DreamingConfig(), now=NOW, zone=UTC, sessions=sources)
    again = sweep_workspace(
        root, DreamingConfig(), now=NOW + timedelta(hours=1), zone=UTC, sessions=sources
    )
    assert again.changed == ()
    chat = sessions / "chat1.jsonl"
    chat.write_text(
        chat.read_text()
        + _message("user", "Follow-up: the replica also moves to db-03.", 30)
        + "\n"
    )
    third = sweep_workspace(
        root, DreamingConfig(), now=NOW + timedelta(hours=2), zone=UTC, sessions=sources
    )
    corpus_file = root / "memory/.dreams/session-corpus/2026-11-28.txt"
    assert (
        corpus_file.read_text().splitlines()[-1]
        == "[main/chat1#L11] User: Follow-up: the replica also moves to db-03."
    )
    assert third.summary["light"]["staged"] >= 1
    (sessions / "chat1.jsonl.reset.2026-11-28T10:00:00Z").write_text(chat.read_text())
    chat.write_text(_line("session", id="chat1", sessionKind="interactive") + "\n")
    sweep_workspace(
        root, DreamingConfig(), now=NOW + timedelta(hours=3), zone=UTC, sessions=sources
    )
    assert len(corpus_file.read_text().splitlines()) == 5


def test_session_knowledge_can_be_promoted(workspace: tuple[Path, Path]) -> None:
    """A corpus line that users later recall on three days is promoted with its corpus source."""
    root, sessions = workspace
    sweep_workspace(root, DreamingConfig(), now=NOW, zone=UTC, sessions=[("main", sessions)])
    path = "memory/.dreams/session-corpus/2026-11-28.txt"
    line = (root / path).read_text().splitlines()[0]
    for offset, query in enumerate(("billing database", "postgres host for billing", "db-02 role")):
        hit = Hit(path, 1, 1, line, 0.9)
        record_search(root, query, [hit], now=NOW + timedelta(days=offset, hours=8), zone=UTC)
    outcome = sweep_workspace(
        root, DreamingConfig(), now=NOW + timedelta(days=3), zone=UTC, sessions=[("main", sessions)]
    )
    assert outcome.summary["deep"]["promoted"] == 1
    memory = (root / "MEMORY.md").read_text()
    assert (
        "- We decided the billing service moves to Postgres 16 on db-02. (chat 2026-11-28#L1)\n"
        in memory
    )


def test_kinds_and_rotations() -> None:
    """Header, store and first prompt decide the kind; rotations share a logical id."""
    records = parse_records(b'{"type":"session","sessionKind":"cron"}\n')
    assert session_kind(records, None) == "cron"
    assert (
        session_kind(
            parse_records(
                b'{"type":"message","message":{"role":"user","content":"[cron:x] go"}}\n'
            ),
            None,
        )
        == "cron"
    )
    assert session_kind([], "subagent") == "subagent"
    assert session_kind([], None) == "unknown"
    assert logical_session_id("abc.jsonl.deleted.2026-11-28T10:00:00Z") == "abc"
    half = b'{"type":"message","message":{"role":"user","content":"complete line"}}\n{"type":"mess'
    assert [m.text for m in spoken(parse_records(half))] == ["complete line"]
