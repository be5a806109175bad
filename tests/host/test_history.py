"""Sweep histories: held encoded by the daemon, saved and loaded as the same records."""

from __future__ import annotations

from pathlib import Path

from dreamd.host.health import sweep_record
from dreamd.host.history import Histories, load_histories, save_histories

OUTCOME = {
    "workspace": "/ws/a",
    "status": "ok",
    "deep": {"ranked": 3, "promoted": 1, "rejected": {"duplicate": 2}},
    "diary": {"entry": "written"},
    "error": None,
    "durationMs": 12.5,
    "changedFiles": ["MEMORY.md"],
}


def test_histories_keep_records_as_they_were_given(tmp_path: Path) -> None:
    """What is set is what is read back, for each workspace; a workspace never swept has none."""
    first = sweep_record("2026-11-20T03:00:00.000Z", OUTCOME)
    second = sweep_record("2026-11-21T03:00:00.000Z", {**OUTCOME, "status": "error"})
    histories = Histories({"/ws/a": [first]})
    histories["/ws/a"] = [*histories.get("/ws/a"), second]
    assert (histories.get("/ws/a"), histories.get("/ws/b"), dict(histories.items())) == (
        [first, second],
        [],
        {"/ws/a": [first, second]},
    )


def test_encoded_histories_save_as_records(tmp_path: Path) -> None:
    """Saving the encoded form writes the same file as saving the records."""
    record = sweep_record("2026-11-20T03:00:00.000Z", OUTCOME)
    save_histories(Histories({"/ws/a": [record], "/ws/b": []}).encoded())
    assert load_histories() == {"/ws/a": [record], "/ws/b": []}
