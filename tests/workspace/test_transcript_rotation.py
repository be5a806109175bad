"""Transcripts rewritten under a checkpoint: a truncated, rotated or deleted session file is
noticed, read on from where it stopped, and nothing is ingested twice."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from dreamd.engine.phases import sessions as sessions_phase
from tests.workspace.transcript_turns import (
    START,
    append,
    checkpoints,
    corpus_counts,
    header,
    sweep,
    text,
    workspace,
)


def test_a_truncated_transcript_is_read_again_without_duplicates(tmp_path: Path) -> None:
    """A file cut shorter than its checkpoint is noticed and read from the start; what was read
    before is not ingested twice, and what is new after the cut is."""
    root, sessions = workspace(tmp_path)
    path = sessions / "t.jsonl"
    append(path, "t", 0, 50, START)
    now = START + timedelta(hours=12)
    sweep(root, sessions, now)
    path.write_text(header("t"), encoding="utf-8")
    append(path, "t", 0, 10, START)  # the same first ten turns
    append(path, "t", 50, 5, START)  # and five new ones
    sweep(root, sessions, now + timedelta(hours=1))
    assert corpus_counts(root) == Counter({text("t", n): 1 for n in (*range(50), *range(50, 55))})


def test_a_rotated_transcript_is_read_on_from_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``x.jsonl`` renamed ``x.jsonl.reset.<iso>`` mid-backlog resumes from the old checkpoint,
    past what the seen-message hashes remember, and the old checkpoint is dropped once its file
    is gone. The caps are scaled down (256 hashes, 24 messages a sweep) so the backlog, ten
    times the sweep's cap and more than the hashes hold, stays small."""
    monkeypatch.setattr(sessions_phase, "MAX_SEEN", 256)
    monkeypatch.setattr(sessions_phase, "MAX_MESSAGES", 24)
    root, sessions = workspace(tmp_path)
    path = sessions / "big.jsonl"
    append(path, "big", 0, 420, START)
    now = START + timedelta(hours=12)
    for hour in range(18):  # 24 a sweep: 420 turns take 18 sweeps, the rotation at 3
        if hour == 3:
            path.rename(sessions / "big.jsonl.reset.2026-11-02T20:00:00Z")
        sweep(root, sessions, now + timedelta(hours=hour))
    assert corpus_counts(root) == Counter({text("big", n): 1 for n in range(420)})
    assert sorted(checkpoints(root)) == ["main:big.jsonl.reset.2026-11-02T20:00:00Z"]


def test_a_deleted_transcript_loses_its_checkpoint(tmp_path: Path) -> None:
    """The checkpoint of a transcript that is gone is dropped at the next sweep; a folder that
    cannot be listed keeps its checkpoints."""
    root, sessions = workspace(tmp_path)
    append(sessions / "a.jsonl", "a", 0, 3, START)
    append(sessions / "b.jsonl", "b", 0, 3, START)
    now = START + timedelta(hours=12)
    sweep(root, sessions, now)
    assert sorted(checkpoints(root)) == ["main:a.jsonl", "main:b.jsonl"]
    (sessions / "a.jsonl").unlink()
    sweep(root, sessions, now + timedelta(hours=1))
    assert sorted(checkpoints(root)) == ["main:b.jsonl"]
    (sessions / "b.jsonl").unlink()
    sessions.rmdir()
    sweep(root, sessions, now + timedelta(hours=2))
    assert sorted(checkpoints(root)) == ["main:b.jsonl"]
