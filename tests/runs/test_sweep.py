"""Whole sweeps over real workspaces in tmp_path: promotion, exclusions, idempotence, conflicts."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.config import DreamingConfig
from dreamd.engine.hits import Hit
from dreamd.engine.phases.cycle import plan_sweep
from dreamd.engine.snapshot import Snapshot
from dreamd.recall.record import record_search
from dreamd.runs.sweep import run_planned, sweep_workspace
from dreamd.store.fingerprint import FINGERPRINT_FILE
from dreamd.workspace.reader import read_snapshot
from tests.builders import at, write

FACT = "- The billing service runs on Postgres 16 on host db-02."
NOISE = "- Lunch was noodles from the place on Fifth Street today."
WEB = "- A pasted web page says the payments key rotates monthly."
FILLER = "- Standup at 09:30 went fine, nothing blocking anyone."


def _recall(root: Path, line: int, query: str, when: str, *, origin: str = "agent") -> None:
    text = (root / "memory/2026-11-20.md").read_text().split("\n")[line - 1]
    hit = Hit("memory/2026-11-20.md", line, line, text, 0.9)
    record_search(root, query, [hit], now=at(when), zone=UTC, origin=origin)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace whose fact was searched on three days by three distinct questions."""
    root = tmp_path / "ws"
    write(
        root,
        "memory/2026-11-20.md",
        f"# 2026-11-20\n\n## Infra\n{FACT}\n{NOISE}\n{WEB}\n{FILLER}\n",
    )
    write(root, "MEMORY.md", "# Long-Term Memory\n\n- I prefer short answers.\n")
    _recall(root, 4, "which host runs billing", "2026-11-21T10:00:00Z")
    _recall(root, 4, "billing postgres version", "2026-11-23T10:00:00Z")
    _recall(root, 4, "where is the billing database", "2026-11-25T10:00:00Z")
    _recall(root, 5, "lunch place", "2026-11-25T12:00:00Z")
    for day in ("21", "22", "23", "24"):
        _recall(root, 6, f"payments key {day}", f"2026-11-{day}T09:00:00Z", origin="untrusted")
    return root


NOW = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)


def test_searched_fact_is_promoted_with_its_source(workspace: Path) -> None:
    """The fact is appended to MEMORY.md with its source; noise and untrusted text stay out."""
    outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    assert outcome.status == "ok", outcome.error
    memory = (workspace / "MEMORY.md").read_text()
    assert memory.startswith("# Long-Term Memory\n\n- I prefer short answers.\n\n")
    assert "## Promoted From Short-Term Memory (2026-11-26)" in memory
    assert "<!-- dreamd-memory-promotion:memory:memory/2026-11-20.md:4:4 -->" in memory
    assert "- The billing service runs on Postgres 16 on host db-02. (2026-11-20.md#L4)\n" in memory
    for text in ("Lunch", "payments", "Standup"):
        assert text not in memory
    deep = outcome.summary["deep"]
    assert deep["promoted"] == 1
    assert deep["rejected"]["origin"] == 1
    assert deep["rejected"]["signal threshold"] >= 1
    assert "memory.promotion.applied" in (workspace / "memory/.dreams/events.jsonl").read_text()


def test_second_sweep_changes_nothing(workspace: Path) -> None:
    """Sweeping again with no new input writes no file and no state (its fingerprint aside)."""
    sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    kept = {"lock", FINGERPRINT_FILE}
    before = {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file() and p.name not in kept}
    again = sweep_workspace(workspace, DreamingConfig(), now=NOW.replace(hour=9), zone=UTC)
    after = {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file() and p.name not in kept}
    assert again.changed == ()
    assert after == before


def test_memory_is_backed_up_before_it_changes(workspace: Path) -> None:
    """The previous MEMORY.md is kept under memory/.dreams/backups/."""
    original = (workspace / "MEMORY.md").read_bytes()
    sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    backups = list((workspace / "memory/.dreams/backups").glob("MEMORY.md.*.md"))
    assert [b.read_bytes() for b in backups] == [original]


def test_human_edit_during_the_sweep_is_never_overwritten(workspace: Path) -> None:
    """An edit made between planning and writing wins; the sweep re-plans and keeps it."""
    dreaming = DreamingConfig()
    calls = []

    def planner(snapshot: Snapshot):  # type: ignore[no-untyped-def]
        calls.append(1)
        plan = plan_sweep(snapshot, dreaming, now=NOW, zone=UTC)
        if len(calls) == 1:  # a person saves MEMORY.md while the first plan is in flight
            path = workspace / "MEMORY.md"
            path.write_text(path.read_text() + "- Added by hand during the sweep.\n")
        return plan

    outcome = run_planned(workspace, planner, dreaming=dreaming, now=NOW, zone=UTC)
    assert outcome.status == "ok"
    assert len(calls) == 2
    assert any("re-planned" in warning for warning in outcome.warnings)
    memory = (workspace / "MEMORY.md").read_text()
    assert "- Added by hand during the sweep.\n" in memory
    assert memory.count("dreamd-memory-promotion:") == 1


def test_workspace_that_keeps_changing_is_skipped_and_says_so(workspace: Path) -> None:
    """If every attempt conflicts, nothing is written and the outcome says why."""
    dreaming = DreamingConfig()

    def planner(snapshot: Snapshot):  # type: ignore[no-untyped-def]
        plan = plan_sweep(snapshot, dreaming, now=NOW, zone=UTC)
        path = workspace / "MEMORY.md"
        path.write_text(path.read_text() + "- another edit\n")
        return plan

    outcome = run_planned(workspace, planner, dreaming=dreaming, now=NOW, zone=UTC)
    assert outcome.status == "conflict"
    assert "kept changing" in (outcome.error or "")
    assert "dreamd-memory-promotion" not in (workspace / "MEMORY.md").read_text()


def test_marker_already_in_memory_is_reconciled_not_duplicated(workspace: Path) -> None:
    """A key OpenClaw already promoted is marked promoted without a second entry."""
    path = workspace / "MEMORY.md"
    path.write_text(
        path.read_text()
        + "\n<!-- openclaw-memory-promotion:memory:memory/2026-11-20.md:4:4 -->\n- billing on pg16\n"
    )
    outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    assert outcome.summary["deep"]["reconciled"] == 1
    assert outcome.summary["deep"]["promoted"] == 0
    assert "dreamd-memory-promotion" not in path.read_text()


def test_deleted_source_is_skipped_by_category(workspace: Path) -> None:
    """A candidate whose text left the live note is reported as 'source rehydration'."""
    note = workspace / "memory/2026-11-20.md"
    note.write_text(note.read_text().replace(FACT, "- (moved elsewhere)"))
    outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    assert outcome.summary["deep"]["promoted"] == 0
    assert outcome.summary["deep"]["rejected"]["source rehydration"] == 1


def test_symlinked_memory_file_is_refused(workspace: Path, tmp_path: Path) -> None:
    """A MEMORY.md that is a symlink makes the sweep fail with a clear error, writing nothing."""
    outside = tmp_path / "elsewhere.md"
    outside.write_text("outside\n")
    (workspace / "MEMORY.md").unlink()
    (workspace / "MEMORY.md").symlink_to(outside)
    outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    assert outcome.status == "error"
    assert "symlink" in (outcome.error or "")
    assert outside.read_text() == "outside\n"


def test_inline_storage_writes_blocks_into_todays_note(workspace: Path) -> None:
    """Inline mode puts Light/REM blocks in today's note, and sweeping again changes nothing."""
    dreaming = DreamingConfig(storage="inline")
    sweep_workspace(workspace, dreaming, now=NOW, zone=UTC)
    today = (workspace / "memory/2026-11-26.md").read_text()
    assert "<!-- dreamd:dreaming:light:start -->" in today
    assert "<!-- dreamd:dreaming:rem:start -->" in today
    assert not (workspace / "memory/dreaming/light").exists()
    again = sweep_workspace(workspace, dreaming, now=NOW.replace(hour=8), zone=UTC)
    assert again.changed == ()


def test_snapshot_skips_huge_notes(workspace: Path) -> None:
    """A note over 16 MiB is skipped and named, not read."""
    big = workspace / "memory/2026-11-25.md"
    with big.open("wb") as handle:
        handle.truncate(16 * 1024 * 1024 + 1)
    snapshot = read_snapshot(workspace, dreaming=DreamingConfig(), now=NOW, zone=UTC)
    assert "memory/2026-11-25.md" not in snapshot.notes
    assert any("larger than 16 MiB" in item for item in snapshot.skipped)


def test_stale_rows_move_to_the_long_term_layer(workspace: Path) -> None:
    """A row last recalled over 30 days ago with few recalls leaves the store for longterm.jsonl."""
    from dreamd.engine.state import RECALL_STORE
    from dreamd.store.statefiles import load_table
    from dreamd.store.writer import save_store
    from tests.builders import entry, table

    store_path = workspace / "memory/.dreams/short-term-recall.json"
    store, _ = load_table(workspace, RECALL_STORE)
    old = entry(
        key="old",
        start=9,
        end=9,
        snippet="- An old fact nobody asked about again.",
        recall_count=1,
        total_score=0.8,
        last_recalled_at="2026-10-01T00:00:00.000Z",
    )
    save_store(workspace, store.with_rows({**store.rows, "old": old}, updated_at=store.updated_at))
    outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    assert outcome.summary["longTerm"] == {"retired": 1}
    assert "old" not in json.loads(store_path.read_text())["entries"]
    lines = (workspace / "memory/.rag/longterm.jsonl").read_text().splitlines()
    assert [json.loads(line)["key"] for line in lines] == ["old"]
    assert table([old]).rows["old"].snippet in lines[0]


def test_an_os_error_fails_this_workspace_only(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the daemon's user may not read fails the sweep of that workspace, not the host."""

    def refuse(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied", str(workspace / "memory/.dreams/x.json"))

    monkeypatch.setattr("dreamd.runs.sweep.read_snapshot", refuse)
    outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    assert outcome.status == "error"
    assert (
        outcome.error
        == f"cannot read or write {workspace}/memory/.dreams/x.json: Permission denied"
    )


def test_a_sweep_brings_the_recall_index_up_to_date(workspace: Path) -> None:
    """A workspace that has an index has it updated by the sweep: the notes an agent wrote
    since, and the sweep's own writes, are indexed before the next search."""
    from dreamd.recall.index import RecallIndex
    from dreamd.recall.sources import discover_sources

    with RecallIndex.open(workspace) as index:
        index.update()
    write(workspace, "memory/2026-11-19.md", "# 2026-11-19\n\n- The zephyrine rollout began.\n")
    outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    with RecallIndex.open(workspace) as index:
        indexed = index.read(
            lambda conn: {row[0] for row in conn.execute("SELECT path FROM files").fetchall()}
        )
    assert (outcome.status, "memory/2026-11-19.md" in indexed) == ("ok", True)
    assert indexed == set(discover_sources(workspace))


def test_a_sweep_makes_no_index_where_none_was(workspace: Path) -> None:
    """The first search builds the index, not a sweep: a workspace never searched gets none."""
    outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC)
    assert (outcome.status, (workspace / "memory/.dreams/index.sqlite").exists()) == ("ok", False)
