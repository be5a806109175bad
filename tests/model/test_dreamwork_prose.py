"""Patterns and the dream report with a loopback model: checked words are used, the rest (and
every failure) keeps dreamd's own."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import frontmatter

from dreamd.config import DreamingConfig, ModelConfig
from dreamd.engine.dreamwork.report import report_sections
from dreamd.runs.sweep import Outcome, sweep_workspace
from tests.builders import write
from tests.fake_model import chat_reply, serve

START = datetime(2026, 3, 2, 3, 0, tzinfo=UTC)
PATTERN = "memory/patterns/p-nightly-export-timeout.md"
REPORT = "memory/dreams/2026-03-02.md"
LEARNED = "Lessons and Corrections"
ANSWER = {
    "patterns": [
        {
            "id": "p-nightly-export-timeout",
            "trigger": "the nightly export is about to run",
            "response": "watch the nightly export for a timeout on db-02",
        },
        {"id": "p-error-unknown", "trigger": "x", "response": "y"},
    ],
    "learned": ["I learned that the nightly export keeps failing with a timeout on db-02."],
    "focus": ["Mars is red and the moon is made of cheese."],
    "health": ["All notes are linked together and a search reaches them."],
}


def _workspace(tmp_path: Path) -> Path:
    """The nightly export fails three times over two days: a pattern is created tonight."""
    root = tmp_path / "ws"
    write(root, "MEMORY.md", "# Long-Term Memory\n")
    write(
        root,
        "memory/2026-02-28.md",
        "# 2026-02-28\n\n## Log\n- The nightly export failed with a timeout on db-02.\n"
        "- The nightly export failed again.\n",
    )
    write(
        root,
        "memory/2026-03-01.md",
        "# 2026-03-01\n\n## Log\n- The nightly export failed with a timeout, third time.\n",
    )
    return root


def _sweep(root: Path, url: str | None, days: int = 0) -> Outcome:
    model = None
    if url is not None:
        model = ModelConfig(
            endpoint=url, name="m", timeout_s=5, max_retries=0, diary=False, facts=False
        )
    when = START + timedelta(days=days)
    outcome = sweep_workspace(root, DreamingConfig(), now=when, zone=UTC, model=model)
    assert outcome.status == "ok", outcome.error
    return outcome


def _graph(outcome: Outcome) -> dict[str, Any]:
    return dict(outcome.summary["graph"])


def test_checked_words_phrase_the_pattern_and_the_report(tmp_path: Path) -> None:
    """The grounded pattern and lines are used; the invented focus and unknown id are not."""
    root = _workspace(tmp_path)
    with serve([(200, chat_reply(json.dumps(ANSWER)))]) as fake:
        outcome = _sweep(root, fake.url)
    prompt = fake.prompts()
    assert "## Pattern p-nightly-export-timeout (error about nightly)" in prompt
    assert "- The nightly export failed with a timeout on db-02." in prompt
    assert "## Report as computed" in prompt
    assert _graph(outcome)["model"] == {
        "outcome": "accepted",
        "kept": ["pattern p-nightly-export-timeout", "learned", "health"],
    }
    post = frontmatter.loads((root / PATTERN).read_text())
    assert (post["trigger"], post["response"], post["phrased"]) == (
        "the nightly export is about to run",
        "watch the nightly export for a timeout on db-02",
        "model",
    )
    sections = report_sections((root / REPORT).read_text())
    assert sections[LEARNED] == [
        "- I learned that the nightly export keeps failing with a timeout on db-02."
    ]
    assert sections["Health Insights"][-1] == (
        "- All notes are linked together and a search reaches them."
    )
    assert "Mars" not in (root / REPORT).read_text()
    assert sections["Tomorrow's Focus"] == [
        "- find a fix for what keeps going wrong: The nightly export failed with a timeout"
    ]
    page = (root / PATTERN).read_text()
    again = _sweep(root, None)  # the same night without a model: nothing to change
    assert again.changed == ()
    write(root, "memory/2026-03-02.md", "# 2026-03-02\n\n## Log\n- The nightly export failed.\n")
    _sweep(root, None, days=1)  # a fourth occasion, no model: the model's words stay
    later = frontmatter.loads((root / PATTERN).read_text())
    assert later["response"] == "watch the nightly export for a timeout on db-02"
    assert (later["updated"], len(later["examples"])) == ("2026-03-02", 4)
    assert (root / PATTERN).read_text() != page


def test_a_refused_answer_keeps_dreamds_words(tmp_path: Path) -> None:
    """An answer that is not JSON, or a model that fails, leaves the deterministic pages."""
    plain = _workspace(tmp_path / "plain")
    _sweep(plain, None)
    for name, reply in (("prose", chat_reply("Here is your report!")), ("down", {"error": "x"})):
        root = _workspace(tmp_path / name)
        with serve([(200 if name == "prose" else 500, reply)]) as fake:
            outcome = _sweep(root, fake.url)
        assert _graph(outcome)["model"]["outcome"] == "skipped"
        assert (root / PATTERN).read_text() == (plain / PATTERN).read_text()
        assert (root / REPORT).read_text() == (plain / REPORT).read_text()
    assert _graph(outcome)["model"]["reason"].startswith("the model was not available")
