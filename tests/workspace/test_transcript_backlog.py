"""Long transcripts: every owner turn reaches the session corpus exactly once, however many
sweeps the caps take, whatever is appended, rotated, truncated or deleted in between."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dreamd.config import DreamingConfig, LightConfig
from dreamd.runs.sweep import sweep_workspace

START = datetime(2026, 11, 2, 8, 0, tzinfo=UTC)
CORPUS = "memory/.dreams/session-corpus"
SUBJECTS = ("invoice", "roadmap", "backup", "contract", "migration", "budget", "release")


def _text(session: str, n: int) -> str:
    subject = SUBJECTS[n % len(SUBJECTS)]
    return f"Owner note {session}-{n:05d}: the {subject} for project Kestrel is tracked as {n}."


def _turn(session: str, n: int, when: datetime) -> str:
    message: dict[str, Any] = {
        "role": "user",
        "content": _text(session, n),
        "__openclaw": {"senderId": "11", "senderIsOwner": True},
    }
    stamp = when.isoformat().replace("+00:00", "Z")
    return json.dumps({"type": "message", "timestamp": stamp, "message": message}) + "\n"


def _header(session: str) -> str:
    return json.dumps({"type": "session", "id": session, "sessionKind": "direct"}) + "\n"


def _append(path: Path, session: str, first: int, count: int, when: datetime) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        if path.stat().st_size == 0:
            handle.write(_header(session))
        for n in range(first, first + count):
            handle.write(_turn(session, n, when + timedelta(seconds=n)))


def _sweep(
    root: Path, sessions: Path, now: datetime, dreaming: DreamingConfig | None = None
) -> dict[str, Any]:
    outcome = sweep_workspace(
        root, dreaming or DreamingConfig(), now=now, zone=UTC, sessions=[("main", sessions)]
    )
    assert outcome.status == "ok", outcome.error
    return outcome.summary


def _corpus_counts(root: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    folder = root / CORPUS
    for path in folder.glob("*.txt") if folder.is_dir() else ():
        for line in path.read_text(encoding="utf-8").splitlines():
            counts[line.split("] User: ", 1)[1]] += 1
    return counts


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    return root, tmp_path / "sessions"


def _checkpoints(root: Path) -> dict[str, Any]:
    state = json.loads((root / "memory/.dreams/session-ingestion.json").read_text())
    files: dict[str, Any] = state["files"]
    return files


def test_an_unchanged_long_transcript_drains_over_several_sweeps(tmp_path: Path) -> None:
    """Follows OpenClaw's dreaming-phases.test.ts "drains >80 unseen transcript messages across
    multiple unchanged sweeps": 160 short, unmarked user and assistant lines of the agent's main
    session, the stamp inside the message, all in the corpus after three sweeps of an untouched
    file (unmarked, so as a guest's: searchable, never promoted)."""
    root, sessions = _workspace(tmp_path)
    records = [
        json.dumps(
            {
                "type": "message",
                "message": {
                    "role": "user" if n % 2 == 0 else "assistant",
                    "timestamp": "2026-11-02T18:00:00.000Z",
                    "content": [{"type": "text", "text": f"bulk-line-{n}"}],
                },
            }
        )
        for n in range(160)
    ]
    sessions.mkdir(parents=True)
    (sessions / "dreaming-main.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    store = {"agent:main:main": {"sessionId": "dreaming-main"}}  # the agent's main session
    (sessions / "sessions.json").write_text(json.dumps(store), encoding="utf-8")
    week = DreamingConfig(light=LightConfig(limit=20, lookback_days=7))
    for day in (5, 6, 7):
        _sweep(root, sessions, START.replace(day=day, hour=3), week)
    corpus = (root / CORPUS / "2026-11-02.txt").read_text(encoding="utf-8").splitlines()
    assert len(corpus) == 160
    assert (corpus[0], corpus[-1]) == (
        "[main/dreaming-main#L1] Guest: bulk-line-0",
        "[main/dreaming-main#L160] Assistant to guest: bulk-line-159",
    )


def test_a_backlog_drains_at_the_sweeps_full_pace(tmp_path: Path) -> None:
    """One file with 600 turns and nothing else new: 240 a sweep, the untouched file reopened
    until it is drained, then left alone."""
    root, sessions = _workspace(tmp_path)
    _append(sessions / "long.jsonl", "long", 0, 600, START)
    now = START + timedelta(hours=12)
    sizes = []
    for hour in range(4):
        _sweep(root, sessions, now + timedelta(hours=hour))
        sizes.append(sum(_corpus_counts(root).values()))
    assert sizes == [240, 480, 600, 600]
    assert _corpus_counts(root) == Counter({_text("long", n): 1 for n in range(600)})


def test_six_hundred_turns_in_a_growing_session_each_arrive_once(tmp_path: Path) -> None:
    """One long session that keeps growing between nightly sweeps plus a second session: after
    enough sweeps every owner turn is in the corpus exactly once, even the ones whose day left
    the lookback while a cap held them back."""
    root, sessions = _workspace(tmp_path)
    long_file, other = sessions / "long.jsonl", sessions / "other.jsonl"
    _append(long_file, "long", 0, 400, START)
    _append(other, "other", 0, 60, START)
    written = {"long": 400, "other": 60}
    now = START + timedelta(hours=18)
    for night in range(8):
        if night in (1, 2):  # the session goes on between sweeps
            _append(long_file, "long", written["long"], 100, now - timedelta(hours=2))
            written["long"] += 100
        _sweep(root, sessions, now)
        now += timedelta(days=1)
    expected = {_text("long", n): 1 for n in range(written["long"])}
    expected |= {_text("other", n): 1 for n in range(written["other"])}
    assert written["long"] == 600
    assert _corpus_counts(root) == Counter(expected)
    assert all(row.get("backlogSince") is None for row in _checkpoints(root).values())


def test_a_truncated_transcript_is_read_again_without_duplicates(tmp_path: Path) -> None:
    """A file cut shorter than its checkpoint is noticed and read from the start; what was read
    before is not ingested twice, and what is new after the cut is."""
    root, sessions = _workspace(tmp_path)
    path = sessions / "t.jsonl"
    _append(path, "t", 0, 50, START)
    now = START + timedelta(hours=12)
    _sweep(root, sessions, now)
    path.write_text(_header("t"), encoding="utf-8")
    _append(path, "t", 0, 10, START)  # the same first ten turns
    _append(path, "t", 50, 5, START)  # and five new ones
    _sweep(root, sessions, now + timedelta(hours=1))
    assert _corpus_counts(root) == Counter({_text("t", n): 1 for n in (*range(50), *range(50, 55))})


def test_a_rotated_transcript_is_read_on_from_where_it_stopped(tmp_path: Path) -> None:
    """``x.jsonl`` renamed ``x.jsonl.reset.<iso>`` mid-backlog resumes from the old checkpoint,
    past what the seen-message hashes remember (4,200 turns), and the old checkpoint is
    dropped once its file is gone."""
    root, sessions = _workspace(tmp_path)
    path = sessions / "big.jsonl"
    _append(path, "big", 0, 4200, START)
    now = START + timedelta(hours=12)
    for hour in range(18):  # 240 a sweep: 4,200 turns take 18 sweeps, the rotation at 3
        if hour == 3:
            path.rename(sessions / "big.jsonl.reset.2026-11-02T20:00:00Z")
        _sweep(root, sessions, now + timedelta(hours=hour))
    assert _corpus_counts(root) == Counter({_text("big", n): 1 for n in range(4200)})
    assert sorted(_checkpoints(root)) == ["main:big.jsonl.reset.2026-11-02T20:00:00Z"]


def test_a_deleted_transcript_loses_its_checkpoint(tmp_path: Path) -> None:
    """The checkpoint of a transcript that is gone is dropped at the next sweep; a folder that
    cannot be listed keeps its checkpoints."""
    root, sessions = _workspace(tmp_path)
    _append(sessions / "a.jsonl", "a", 0, 3, START)
    _append(sessions / "b.jsonl", "b", 0, 3, START)
    now = START + timedelta(hours=12)
    _sweep(root, sessions, now)
    assert sorted(_checkpoints(root)) == ["main:a.jsonl", "main:b.jsonl"]
    (sessions / "a.jsonl").unlink()
    _sweep(root, sessions, now + timedelta(hours=1))
    assert sorted(_checkpoints(root)) == ["main:b.jsonl"]
    (sessions / "b.jsonl").unlink()
    sessions.rmdir()
    _sweep(root, sessions, now + timedelta(hours=2))
    assert sorted(_checkpoints(root)) == ["main:b.jsonl"]


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    batches=st.lists(
        st.tuples(st.integers(0, 260), st.booleans(), st.integers(0, 30)),
        min_size=1,
        max_size=4,
    )
)
def test_any_schedule_of_appends_and_sweeps_ingests_each_turn_once(
    tmp_path_factory: Any, batches: list[tuple[int, bool, int]]
) -> None:
    """Whatever is appended between sweeps, and whenever the file is rotated, every turn
    reaches the corpus once after enough sweeps to drain the caps."""
    root, sessions = _workspace(tmp_path_factory.mktemp("schedule"))
    path, written, now = sessions / "s.jsonl", 0, START + timedelta(hours=6)
    for count, rotate, hours in batches:
        _append(path, "s", written, count, now - timedelta(hours=1))
        written += count
        if rotate and path.exists():
            path.rename(sessions / f"s.jsonl.reset.{written}")
        now += timedelta(hours=hours)
        _sweep(root, sessions, now)
    for _ in range(written // 80 + 2):
        now += timedelta(hours=8)
        _sweep(root, sessions, now)
    assert _corpus_counts(root) == Counter({_text("s", n): 1 for n in range(written)})
