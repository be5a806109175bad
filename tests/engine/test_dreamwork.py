"""Patterns, topic files, the health score, the dream report and the diary, through sweeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import frontmatter
import pytest

from dreamd.config import DreamingConfig
from dreamd.engine.dreamwork.health import health_components, health_score
from dreamd.engine.dreamwork.learnings import read_learnings
from dreamd.engine.dreamwork.report import SECTIONS, report_sections
from dreamd.engine.phases.diary import FALLBACK_ENTRY, diary_entries
from dreamd.engine.phases.narrative import compose_entry
from dreamd.runs.sweep import sweep_workspace

START = datetime(2026, 3, 2, 3, 0, tzinfo=UTC)
TIMEOUT = "- The nightly export failed with a timeout on db-02."
PATTERN = "memory/patterns/p-nightly-export-timeout.md"


def _note(root: Path, day: str, *lines: str) -> None:
    path = root / "memory" / f"{day}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {day}\n\n## Log\n" + "\n".join(lines) + "\n", encoding="utf-8")


def _sweep(root: Path, days: int) -> dict[str, object]:
    outcome = sweep_workspace(root, DreamingConfig(), now=START + timedelta(days=days), zone=UTC)
    assert outcome.status == "ok", outcome.error
    return dict(outcome.summary)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace whose first day holds the same failure twice."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Long-Term Memory\n")
    _note(root, "2026-03-01", TIMEOUT, "- Ana looked at it.", "- The nightly export failed again.")
    return root


def test_a_pattern_appears_after_the_third_recurrence_and_not_before(ws: Path) -> None:
    """Two failures on one day make no pattern; a third on another day makes it; a fourth adds."""
    _sweep(ws, 0)
    assert not (ws / PATTERN).exists()
    _note(ws, "2026-03-02", "- The nightly export failed with a timeout, third time.")
    summary = _sweep(ws, 1)
    post = frontmatter.loads((ws / PATTERN).read_text())
    assert post["name"] == "The nightly export failed with a timeout"
    assert post["created"] == "2026-03-02"
    assert post["updated"] == "2026-03-02"
    assert len(post["examples"]) == 3
    assert post["episode_id"] == "p-nightly-export-timeout"
    assert post["facets"] == ["error.nightly-export-timeout", "error_group"]
    assert summary["graph"]["patternsChanged"] == [PATTERN]  # type: ignore[index]
    _note(ws, "2026-03-03", "- The nightly export failed once more.")
    _sweep(ws, 2)
    post = frontmatter.loads((ws / PATTERN).read_text())
    assert (post["created"], post["updated"], len(post["examples"])) == (
        "2026-03-02",
        "2026-03-03",
        4,
    )


def test_a_pattern_a_person_edited_is_never_overwritten(ws: Path) -> None:
    """Once a person edits the page, later occasions leave it byte for byte as they wrote it."""
    _note(ws, "2026-03-02", "- The nightly export failed with a timeout, third time.")
    _sweep(ws, 1)
    edited = (ws / PATTERN).read_text().replace("no fix recorded yet", "restart the exporter;")
    (ws / PATTERN).write_text(edited)
    _note(ws, "2026-03-03", "- The nightly export failed once more.")
    summary = _sweep(ws, 2)
    assert (ws / PATTERN).read_text() == edited
    assert PATTERN in summary["graph"]["editedByHand"]  # type: ignore[index]


def test_learnings_entries_are_occasions(tmp_path: Path) -> None:
    """Three ERRORS.md entries over two days make a pattern without any note saying so."""
    root = tmp_path / "ws"
    _note(root, "2026-03-02", "- A quiet day.")
    errors = "".join(
        f"## [ERR-{day.replace('-', '')}-00{n}] build\n\n**Logged**: {day}T10:00:00Z\n\n"
        f"### Summary\nWebpack build crashed on the CI runner\n\n"
        for n, day in enumerate(["2026-02-27", "2026-02-27", "2026-02-28"], 1)
    )
    (root / ".learnings").mkdir()
    (root / ".learnings" / "ERRORS.md").write_text(errors)
    assert [e.day for e in read_learnings(".learnings/ERRORS.md", errors)] == [
        "2026-02-27",
        "2026-02-27",
        "2026-02-28",
    ]
    _sweep(root, 1)
    post = frontmatter.loads((root / "memory/patterns/p-webpack-build-crashed.md").read_text())
    assert post["sources"] == [
        ".learnings/ERRORS.md:1",
        ".learnings/ERRORS.md:8",
        ".learnings/ERRORS.md:15",
    ]


def test_topic_files_are_written_and_a_persons_edit_survives(ws: Path) -> None:
    """Atlas named in three sections over two days gets a topic file; an edit is kept."""
    _note(ws, "2026-03-02", "- Atlas is the payments rewrite.", "- Ana reviewed Atlas.")
    (ws / "memory" / "2026-03-03.md").write_text(
        "# 2026-03-03\n\n## Standup\n- We ship Atlas on Friday.\n\n## Later\n- Atlas needs a demo.\n"
    )
    _sweep(ws, 2)
    topic = ws / "memory/topics/project_atlas.md"
    text = topic.read_text()
    assert text.startswith("# Atlas\n")
    assert "- Atlas is the payments rewrite. (memory/2026-03-02.md:4)" in text
    topic.write_text(text + "\nMy own line.\n")
    _note(ws, "2026-03-04", "- Atlas demo went well.")
    _sweep(ws, 3)
    assert topic.read_text() == text + "\nMy own line.\n"


def test_the_report_holds_the_nights_real_items(ws: Path) -> None:
    """Each section is there, in plain words; the pattern, the correction and the health score
    are the night's, and what keeps going wrong is the pattern the sweep created."""
    _note(
        ws,
        "2026-03-02",
        "- The nightly export failed with a timeout, third time.",
        "- Actually the backup runs at 02:00, not 01:00.",
    )
    summary = _sweep(ws, 1)
    report = (ws / "memory/dreams/2026-03-03.md").read_text()
    sections = report_sections(report)
    assert list(sections) == list(SECTIONS)
    graph = summary["graph"]
    assert sections["What Keeps Going Wrong"] == [
        "- The nightly export failed with a timeout: went wrong 3 times over 2 days, last on "
        "2026-03-02 (new tonight); no fix recorded yet"
    ]
    assert sections["Lessons and Corrections"] == [
        "- Corrected: Actually the backup runs at 02:00, not 01:00. (memory/2026-03-02.md:5)"
    ]
    assert sections["Health Insights"][0] == f"- Health score: {graph['health']}/100"  # type: ignore[index]
    for internal in ("FacetPoint", "M-FLOW", "junk_refused", "Root cause", "raise "):
        assert internal not in report
    log = (ws / "memory/dream-log.md").read_text().splitlines()
    assert log[0] == "# Dream log"
    assert log[-1].endswith("[2026-03-03](dreams/2026-03-03.md)")


def test_the_diary_tells_the_night_or_says_nothing(ws: Path) -> None:
    """Without a model a night with nothing kept, changed or recurring writes no entry; the
    night a mistake comes back a third time tells it in a sentence, never a keyword list."""
    _sweep(ws, 0)
    assert diary_entries((ws / "DREAMS.md").read_text()) == []
    _note(ws, "2026-03-02", "- The nightly export failed with a timeout, third time.")
    _sweep(ws, 1)
    entries = diary_entries((ws / "DREAMS.md").read_text())
    assert len(entries) == 1
    assert FALLBACK_ENTRY not in entries
    assert entries[0].endswith(
        "One mistake keeps coming back, 3 times now: “The nightly export failed with a timeout”."
    )


def test_two_nights_with_different_material_read_differently() -> None:
    """Different promotions and changes give different entries, each quoting its own items."""
    first = compose_entry(
        promotions=["Lena prefers calls after 16:00."],
        replaced=[("Swimming is on Saturdays.", "Swimming moved to Sundays.")],
    )
    second = compose_entry(
        promotions=["The NAS backup runs every night at 02:00."],
        patterns=[("Invoices to Nordlys sent without the PO number", 3, "use the template")],
    )
    assert first is not None and second is not None and first != second
    assert "“Lena prefers calls after 16:00”" in first and "a preference" in first
    assert "“Swimming is on Saturdays” no longer holds" in first
    assert "“The NAS backup runs every night at 02:00”" in second
    assert "What worked: “use the template”." in second
    assert compose_entry(promotions=[]) is None


def test_health_is_a_pure_weighted_score() -> None:
    """Perfect components score 100; each component shows its own value."""
    components = health_components(
        stats={"connectivity": 1.0, "reachable": 1.0},
        days_since_note=0,
        promoted=2,
        ranked=2,
        store_rows=0,
        store_cap=512,
        refused=0,
    )
    assert health_score(components) == {"score": 100, "components": components}
    worse = {**components, "freshness": 0.0}
    assert health_score(worse)["score"] == 80
    junk = health_components(
        stats={}, days_since_note=None, promoted=0, ranked=4, store_rows=0, store_cap=512, refused=1
    )
    assert junk["junk_refused"] == 0.8  # one of the night's five candidates was junk
    assert health_score(junk)["score"] == 23  # recall_pressure 0.15 + junk_refused 0.10 * 0.8
    lost = {**components, "durable_kept": 0.5}
    assert health_score(lost)["score"] == 50  # losing half the core facts halves the score
