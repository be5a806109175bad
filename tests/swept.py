"""A workspace lived through the command line, for the tests that look for planted values in
every file dreamd writes: a transcript and a config next to it, then a sweep, searches recorded
as an agent records them, a promotion with every threshold at zero, and a second sweep."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamd.cli.main import main
from dreamd.recall.index import RecallIndex
from dreamd.recall.record import record_search
from dreamd.recall.search import search

NOW = datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
FACT = "We decided the brewery moves its billing to Postgres 16 on db-02."
_CONFIG = (
    "[dreaming]",
    'timezone = "UTC"',
    "[agents]",
    'system_agent = "main"',
    "[[agents.list]]",
    'id = "main"',
    'workspace = "ws"',
    'sessions = "agents/main/sessions"',
    "trust_unmarked_turns = true",
)


def write_transcript(base: Path, turns: Sequence[str]) -> None:
    """``turns`` as the owner's messages of one session of agent ``main``, a minute apart, and
    the config that names the workspace ``ws`` and trusts those turns."""
    sessions = base / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    header = json.dumps({"type": "session", "id": "chat1", "sessionKind": "interactive"})
    lines = [header, *(_message(text, minute) for minute, text in enumerate(turns))]
    (sessions / "chat1.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (base / "config.toml").write_text("\n".join(_CONFIG) + "\n", encoding="utf-8")


def _message(text: str, minutes: int) -> str:
    stamp = (NOW - timedelta(hours=10) + timedelta(minutes=minutes)).isoformat()
    message = {"role": "user", "content": text}
    record = {"type": "message", "timestamp": stamp.replace("+00:00", "Z"), "message": message}
    return json.dumps(record)


def dreamd(base: Path, *argv: str) -> int:
    """One ``dreamd`` command on ``base``'s config at :data:`NOW`, its output swallowed."""
    flags = ["--no-daemon", "--config", str(base / "config.toml"), "--now", NOW.isoformat()]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main([*flags, *argv])


def live(base: Path, queries: Sequence[str]) -> dict[str, str]:
    """Sweep, search ``queries`` (recorded), promote everything, sweep again; the text of every
    file of the workspace that was not there before, by workspace-relative path."""
    root = base / "ws"
    planted = {p for p in root.rglob("*") if p.is_file()}
    assert dreamd(base, "sweep") == 0
    with RecallIndex.open(root) as index:
        index.update()
        for query in queries:
            record_search(root, query, search(index, query, k=20, now=NOW), now=NOW, zone=UTC)
    zero = ["--min-score", "0", "--min-recall-count", "0", "--min-unique-queries", "0"]
    promote = ["--workspace", str(root), "memory", "promote", "--apply", "--limit", "200"]
    assert dreamd(base, *promote, *zero) == 0
    assert dreamd(base, "sweep") == 0
    return {
        p.relative_to(root).as_posix(): p.read_bytes().decode("utf-8", "replace")
        for p in root.rglob("*")
        if p.is_file() and p not in planted
    }


def found(value: str, data: str) -> bool:
    """Whether ``data`` holds ``value``, as written or in lower case."""
    return value in data or value.lower() in data.lower()
