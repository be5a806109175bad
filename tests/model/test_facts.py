"""The bank's facts with a loopback model: checked facts replace the claim rule's; else it stays."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from dreamd.config import DreamingConfig, ModelConfig
from dreamd.runs.sweep import sweep_workspace
from tests.builders import write
from tests.fake_model import chat_reply, serve

NOW = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
NOTE = "# 2026-11-25\n\n- We decided that Peter owns the billing runbook from now on.\n"


def _sweep(root: Path, url: str) -> tuple[dict[str, object], str]:
    model = ModelConfig(endpoint=url, name="m", timeout_s=5, max_retries=0, diary=False)
    outcome = sweep_workspace(root, DreamingConfig(), now=NOW, zone=UTC, model=model)
    world = root / "bank" / "experience.md"
    return dict(outcome.summary["reflect"]), world.read_text() if world.exists() else ""


def test_a_models_checked_facts_replace_the_claims_of_their_note(tmp_path: Path) -> None:
    """The note is shown as numbered data; the grounded fact is written, the invented one not."""
    root = tmp_path / "ws"
    write(root, "memory/2026-11-25.md", NOTE)
    facts = {
        "facts": [
            {"source": "memory/2026-11-25.md#L3", "kind": "experience",
             "text": "We decided Peter owns the billing runbook.", "entities": ["Peter"]},
            {"source": "memory/2026-11-25.md#L3", "kind": "world", "text": "Mars is red."},
        ]
    }  # fmt: skip
    with serve([(200, chat_reply(json.dumps(facts)))]) as fake:
        summary, page = _sweep(root, fake.url)
    assert "L3: - We decided that Peter owns the billing runbook from now on." in fake.prompts()
    assert summary["model"] == {"outcome": "accepted", "notes": 1, "facts": 1}
    assert "- We decided Peter owns the billing runbook." in page
    assert "Mars" not in page and (root / "bank" / "entities" / "Peter.md").exists()


def test_a_refused_answer_keeps_the_deterministic_facts(tmp_path: Path) -> None:
    """An answer that is not JSON leaves the claim rule's fact in place, and says why."""
    root = tmp_path / "ws"
    write(root, "memory/2026-11-25.md", NOTE)
    with serve([(200, chat_reply("Here are some facts!"))]) as fake:
        summary, page = _sweep(root, fake.url)
    assert summary["model"] == {"outcome": "skipped", "reason": "the model's answer was not JSON"}
    assert "- We decided that Peter owns the billing runbook from now on." in page
