"""Long transcripts drain: every owner turn of a long or growing session reaches the session
corpus exactly once, however many sweeps the caps take."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta
from pathlib import Path

from dreamd.config import DreamingConfig, LightConfig
from tests.workspace.transcript_turns import (
    CORPUS,
    START,
    append,
    checkpoints,
    corpus_counts,
    sweep,
    text,
    workspace,
)


def test_an_unchanged_long_transcript_drains_over_several_sweeps(tmp_path: Path) -> None:
    """Follows OpenClaw's dreaming-phases.test.ts "drains >80 unseen transcript messages across
    multiple unchanged sweeps": 160 short, unmarked user and assistant lines of the agent's main
    session, the stamp inside the message, all in the corpus after three sweeps of an untouched
    file (unmarked, so as a guest's: searchable, never promoted)."""
    root, sessions = workspace(tmp_path)
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
        sweep(root, sessions, START.replace(day=day, hour=3), week)
    corpus = (root / CORPUS / "2026-11-02.txt").read_text(encoding="utf-8").splitlines()
    assert len(corpus) == 160
    assert (corpus[0], corpus[-1]) == (
        "[main/dreaming-main#L1] Guest: bulk-line-0",
        "[main/dreaming-main#L160] Assistant to guest: bulk-line-159",
    )


def test_a_backlog_drains_at_the_sweeps_full_pace(tmp_path: Path) -> None:
    """One file with 600 turns and nothing else new: 240 a sweep, the untouched file reopened
    until it is drained, then left alone."""
    root, sessions = workspace(tmp_path)
    append(sessions / "long.jsonl", "long", 0, 600, START)
    now = START + timedelta(hours=12)
    sizes = []
    for hour in range(4):
        sweep(root, sessions, now + timedelta(hours=hour))
        sizes.append(sum(corpus_counts(root).values()))
    assert sizes == [240, 480, 600, 600]
    assert corpus_counts(root) == Counter({text("long", n): 1 for n in range(600)})


def test_six_hundred_turns_in_a_growing_session_each_arrive_once(tmp_path: Path) -> None:
    """One long session that keeps growing between nightly sweeps plus a second session: after
    enough sweeps every owner turn is in the corpus exactly once, even the ones whose day left
    the lookback while a cap held them back."""
    root, sessions = workspace(tmp_path)
    long_file, other = sessions / "long.jsonl", sessions / "other.jsonl"
    append(long_file, "long", 0, 400, START)
    append(other, "other", 0, 60, START)
    written = {"long": 400, "other": 60}
    now = START + timedelta(hours=18)
    for night in range(8):
        if night in (1, 2):  # the session goes on between sweeps
            append(long_file, "long", written["long"], 100, now - timedelta(hours=2))
            written["long"] += 100
        sweep(root, sessions, now)
        now += timedelta(days=1)
    expected = {text("long", n): 1 for n in range(written["long"])}
    expected |= {text("other", n): 1 for n in range(written["other"])}
    assert written["long"] == 600
    assert corpus_counts(root) == Counter(expected)
    assert all(row.get("backlogSince") is None for row in checkpoints(root).values())
