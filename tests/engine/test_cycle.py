"""Properties of whole sweeps: deterministic, idempotent, never writing outside the workspace."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from dreamd.config import DreamingConfig
from dreamd.engine.hits import Hit
from dreamd.engine.phases.cycle import plan_sweep
from dreamd.recall.record import record_search
from dreamd.runs.sweep import sweep_workspace
from dreamd.store.fingerprint import FINGERPRINT_FILE
from dreamd.workspace.reader import read_snapshot
from tests import strategies

START = datetime(2026, 11, 10, tzinfo=UTC)


def _content_line(lines: list[str], wanted: int) -> int | None:
    """``wanted`` when it holds text worth recalling, else the first such line."""
    order = [wanted, *range(1, len(lines) + 1)]
    for number in order:
        if 1 <= number <= len(lines) and len(lines[number - 1].strip()) >= 8:
            return number
    return None


def _build(root: Path, notes: list[str], recalls: list[tuple[int, int, int, str, int]]) -> None:
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Long-Term Memory\n\n- A human line.\n")
    for index, text in enumerate(notes):
        day = (START + timedelta(days=index)).date().isoformat()
        (root / "memory" / f"{day}.md").write_text(text, encoding="utf-8")
    ordered = sorted(recalls, key=lambda r: (r[0] + r[4], r))
    for note_index, wanted, query, origin, after in ordered:
        index = note_index % len(notes)
        lines = notes[index].split("\n")
        line = _content_line(lines, wanted)
        if line is None:
            continue
        day = (START + timedelta(days=index)).date().isoformat()
        when = START + timedelta(days=index + 1 + after, hours=10)
        hit = Hit(f"memory/{day}.md", line, line, lines[line - 1], 0.95)
        record_search(root, f"question {query}", [hit], now=when, zone=UTC, origin=origin)


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name not in ("lock", FINGERPRINT_FILE)  # the fingerprint is a cache
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # a row just over the score threshold, screened out as situational
    notes=["", "- Billing billing tea coffee host host gateway postgres postgres.", "", ""],
    recalls=[
        (0, 1, 0, "agent", 0),
        (0, 1, 0, "agent", 0),
        (1, 1, 0, "agent", 2),
        (1, 1, 0, "agent", 3),
        (1, 1, 2, "agent", 5),
        (1, 1, 1, "agent", 2),
        (0, 1, 0, "agent", 0),
        (0, 1, 1, "agent", 2),
        (0, 1, 2, "agent", 4),
        (0, 1, 3, "agent", 6),
        (0, 1, 4, "agent", 8),
    ],
    storage="separate",
)
@example(  # a lone CR moves the promoted line: the REM report must name where deep found it
    notes=[
        "- Billing.\n- Billing.\n- Billing.\n\r0\n- Billing.\n- Billing.\n- Billing billing billing."
    ],
    recalls=[(0, 7, q, "agent", 2 * q) for q in range(5)],
    storage="separate",
)
@given(
    notes=st.lists(strategies.note, min_size=1, max_size=6),
    recalls=st.tuples(st.lists(strategies.recall, max_size=30), strategies.strong_recalls).map(
        lambda parts: parts[0] + parts[1]
    ),
    storage=st.sampled_from(["separate", "inline", "both"]),
)
def test_second_sweep_plans_nothing_and_stays_inside(
    notes: list[str], recalls: list[tuple[int, int, int, str, int]], storage: str
) -> None:
    """After one sweep, a second with no new input changes no byte; all writes stay inside."""
    dreaming = DreamingConfig(storage=storage)  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as scratch:
        outside = Path(scratch) / "outside"
        outside.mkdir()
        root = Path(scratch) / "ws"
        _build(root, notes, recalls)
        now = START + timedelta(days=16, hours=3)
        first = sweep_workspace(root, dreaming, now=now, zone=UTC)
        assert first.status == "ok", first.error
        event(f"promoted {first.summary['deep']['promoted']}")
        for path in first.changed:
            assert (root / path).resolve().is_relative_to(root.resolve())
        # The same instant: time is an input too (OpenClaw's recency decays by the hour, so a
        # row at the score threshold's edge may cross it later, and the report would say so).
        snapshot = read_snapshot(root, dreaming=dreaming, now=now, zone=UTC)
        plan = plan_sweep(snapshot, dreaming, now=now, zone=UTC)
        before = _files(root)
        second = sweep_workspace(root, dreaming, now=now, zone=UTC)
        assert second.changed == ()
        assert _files(root) == before
        assert plan.summary["deep"]["promoted"] == 0
        assert list(outside.iterdir()) == []
        memory = (root / "MEMORY.md").read_text()
        assert memory.startswith("# Long-Term Memory\n\n- A human line.\n")


@settings(max_examples=15, deadline=None)
@given(
    notes=st.lists(strategies.note, min_size=1, max_size=4),
    recalls=st.lists(strategies.recall, max_size=20),
)
def test_planning_is_deterministic(
    notes: list[str], recalls: list[tuple[int, int, int, str, int]]
) -> None:
    """The same snapshot and time always give the same plan."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "ws"
        _build(root, notes, recalls)
        now = START + timedelta(days=16, hours=3)
        snapshot = read_snapshot(root, dreaming=DreamingConfig(), now=now, zone=UTC)
        first = plan_sweep(snapshot, DreamingConfig(), now=now, zone=UTC)
        second = plan_sweep(snapshot, DreamingConfig(), now=now, zone=UTC)
        assert first == second
