"""Long transcripts for the backlog tests: numbered owner turns appended to session files,
sweeps over them, and what reached the session corpus."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from dreamd.config import DreamingConfig
from dreamd.runs.sweep import sweep_workspace

START = datetime(2026, 11, 2, 8, 0, tzinfo=UTC)
CORPUS = "memory/.dreams/session-corpus"
SUBJECTS = ("invoice", "roadmap", "backup", "contract", "migration", "budget", "release")


def text(session: str, n: int) -> str:
    subject = SUBJECTS[n % len(SUBJECTS)]
    return f"Owner note {session}-{n:05d}: the {subject} for project Kestrel is tracked as {n}."


def turn(session: str, n: int, when: datetime) -> str:
    message: dict[str, Any] = {
        "role": "user",
        "content": text(session, n),
        "__openclaw": {"senderId": "11", "senderIsOwner": True},
    }
    stamp = when.isoformat().replace("+00:00", "Z")
    return json.dumps({"type": "message", "timestamp": stamp, "message": message}) + "\n"


def header(session: str) -> str:
    return json.dumps({"type": "session", "id": session, "sessionKind": "direct"}) + "\n"


def append(path: Path, session: str, first: int, count: int, when: datetime) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        if path.stat().st_size == 0:
            handle.write(header(session))
        for n in range(first, first + count):
            handle.write(turn(session, n, when + timedelta(seconds=n)))


def sweep(
    root: Path, sessions: Path, now: datetime, dreaming: DreamingConfig | None = None
) -> dict[str, Any]:
    outcome = sweep_workspace(
        root, dreaming or DreamingConfig(), now=now, zone=UTC, sessions=[("main", sessions)]
    )
    assert outcome.status == "ok", outcome.error
    return outcome.summary


def corpus_counts(root: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    folder = root / CORPUS
    for path in folder.glob("*.txt") if folder.is_dir() else ():
        for line in path.read_text(encoding="utf-8").splitlines():
            counts[line.split("] User: ", 1)[1]] += 1
    return counts


def workspace(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    return root, tmp_path / "sessions"


def checkpoints(root: Path) -> dict[str, Any]:
    state = json.loads((root / "memory/.dreams/session-ingestion.json").read_text())
    files: dict[str, Any] = state["files"]
    return files
