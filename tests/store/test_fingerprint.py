"""The no-op fast path: an unchanged workspace answers from its fingerprint, any change is seen."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from dreamd.config import DreamingConfig, LightConfig
from dreamd.engine.hits import Hit
from dreamd.recall.record import record_search
from dreamd.runs.sweep import Outcome, sweep_workspace
from dreamd.store.fingerprint import FINGERPRINT_FILE, RACY_NS, load
from tests.builders import at, write

NOW = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
FACT = "- The billing service runs on Postgres 16 on host db-02."
OLD = 1_700_000_000


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with one searched fact; its notes' time stamps lie well in the past."""
    root = tmp_path / "ws"
    write(root, "memory/2026-11-24.md", f"# 2026-11-24\n\n{FACT}\n")
    write(root, "MEMORY.md", "# Long-Term Memory\n\n- Written by hand.\n")
    for day, query in (("2026-11-21", "db host"), ("2026-11-22", "postgres"), ("2026-11-23", "x")):
        hit = Hit("memory/2026-11-24.md", 3, 3, FACT, 0.9)
        record_search(root, query, [hit], now=at(f"{day}T10:00:00Z"), zone=UTC)
    os.utime(root / "memory/2026-11-24.md", (OLD, OLD))
    return root


def _sweep(root: Path, **overrides: object) -> Outcome:
    now = overrides.pop("now", NOW)
    dreaming = overrides.pop("dreaming", DreamingConfig())
    zone = overrides.pop("zone", UTC)
    assert isinstance(now, datetime) and isinstance(dreaming, DreamingConfig)
    return sweep_workspace(root, dreaming, now=now, zone=zone)  # type: ignore[arg-type]


def _settled(root: Path) -> Outcome:
    """Sweep until a sweep changes nothing (the second at the latest) and return it."""
    first = _sweep(root)
    second = _sweep(root)
    assert first.changed and not second.changed
    assert "unchanged" not in second.summary
    return second


def test_unchanged_workspace_answers_from_its_fingerprint(workspace: Path) -> None:
    """After a verified no-op, the next sweep replays its summary and touches nothing."""
    verified = _settled(workspace)
    assert load(workspace) is not None
    files = {p: p.stat().st_mtime_ns for p in workspace.rglob("*") if p.name != "lock"}
    third = _sweep(workspace, now=NOW + timedelta(hours=5))
    assert third.summary == {**verified.summary, "unchanged": True}
    assert third.changed == () and third.status == "ok"
    assert {p: p.stat().st_mtime_ns for p in workspace.rglob("*") if p.name != "lock"} == files


def test_a_new_note_line_is_seen(workspace: Path) -> None:
    """Editing a note makes the next sweep do the full work."""
    _settled(workspace)
    with (workspace / "memory/2026-11-24.md").open("a") as note:
        note.write("- Added later by hand.\n")
    os.utime(workspace / "memory/2026-11-24.md", (OLD + 5, OLD + 5))
    again = _sweep(workspace)
    assert "unchanged" not in again.summary


def test_same_size_same_time_edit_of_memory_is_seen(workspace: Path) -> None:
    """Files the sweep writes are compared by content, not by size and time stamp."""
    _settled(workspace)
    memory = workspace / "MEMORY.md"
    stat = memory.stat()
    memory.write_bytes(memory.read_bytes().replace(b"by hand", b"BY HAND"))
    os.utime(memory, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    again = _sweep(workspace)
    assert "unchanged" not in again.summary


@pytest.mark.parametrize(
    "change",
    [
        {"now": NOW + timedelta(days=1)},
        {"dreaming": DreamingConfig(light=LightConfig(lookback_days=3))},
        {"zone": ZoneInfo("Pacific/Auckland")},
    ],
    ids=["next day", "other config", "other timezone"],
)
def test_other_settings_do_the_full_work(workspace: Path, change: dict[str, object]) -> None:
    """The day, the config and the timezone are part of the fingerprint."""
    _settled(workspace)
    again = _sweep(workspace, **change)
    assert "unchanged" not in again.summary


def test_a_search_recorded_since_is_seen(workspace: Path) -> None:
    """A new recall trace changes the store, so the next sweep reads it."""
    _settled(workspace)
    hit = Hit("memory/2026-11-24.md", 3, 3, FACT, 0.9)
    record_search(workspace, "billing db", [hit], now=at("2026-11-25T10:00:00Z"), zone=UTC)
    assert "unchanged" not in _sweep(workspace).summary


def test_a_racily_fresh_note_is_not_trusted(workspace: Path) -> None:
    """A note modified just before the verifying sweep began leaves no fingerprint."""
    _sweep(workspace)
    fresh = time.time_ns() - RACY_NS // 2
    os.utime(workspace / "memory/2026-11-24.md", ns=(fresh, fresh))
    assert not _sweep(workspace).changed
    assert not (workspace / "memory/.dreams" / FINGERPRINT_FILE).exists()
    assert "unchanged" not in _sweep(workspace).summary


def test_a_changing_sweep_drops_the_old_fingerprint(workspace: Path) -> None:
    """Once a sweep writes, the stored fingerprint is gone."""
    _settled(workspace)
    write(workspace, "memory/2026-11-25.md", f"# 2026-11-25\n\n{FACT}\n- Another fact.\n")
    changed = _sweep(workspace)
    assert changed.changed
    assert load(workspace) is None


def test_a_new_file_under_memory_is_seen(workspace: Path) -> None:
    """A note added in a subfolder (or any file the notes walk would see) invalidates."""
    _settled(workspace)
    write(workspace, "memory/2026/2026-11-25.md", "# 2026-11-25\n\n- A note in a year folder.\n")
    assert "unchanged" not in _sweep(workspace).summary


def test_own_reports_and_state_do_not_invalidate(workspace: Path) -> None:
    """Older reports and files under memory/.dreams (other than the tables) are not inputs."""
    _settled(workspace)
    write(workspace, "memory/dreaming/deep/2026-11-01.md", "# an old report\n")
    write(workspace, "memory/.dreams/events.jsonl", '{"type": "x"}\n')
    assert _sweep(workspace).summary.get("unchanged") is True


def test_a_written_file_unchanged_since_is_not_read_again(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the sweep writes keeps the digest it had when its size, inode and change time
    are unchanged and that change time is older than the trusted bound; otherwise it is read."""
    from dreamd.store import fingerprint

    first = fingerprint.take(workspace, now=NOW, zone=UTC, sessions=())
    assert "MEMORY.md" in first.owned
    opened: list[str] = []
    real_open = open

    def counting_open(path: str, *args: object, **kwargs: object) -> object:
        opened.append(str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", counting_open)
    later = time.time_ns() + RACY_NS
    again = fingerprint.take(
        workspace, now=NOW, zone=UTC, sessions=(), known=first.owned, trusted_before_ns=later
    )
    assert again.inputs == first.inputs and opened == []
    fresh = fingerprint.take(
        workspace, now=NOW, zone=UTC, sessions=(), known=first.owned, trusted_before_ns=0
    )
    assert fresh.inputs == first.inputs
    assert str(workspace / "MEMORY.md") in opened
