"""Grounded-only text must read as a durable claim: activity logs and chatter are filler."""

from __future__ import annotations

import pytest

from dreamd.engine.text.durability import filler_reason, is_durable_claim


@pytest.mark.parametrize(
    "text",
    [
        "Alice owns the billing service and answers its pages.",
        "The search cluster runs on OpenSearch 2.11 on host es-03.internal:9200.",
        "We decided to deploy checkout only on Tuesdays from now on.",
        "Bob prefers short written summaries over meetings.",
        "Always run migrations before deploying.",
        "Decidimos publicar las notas de versión siempre en español e inglés.",
        "Die Zeitzone des Teams ist künftig Europe/Berlin.",
        "デプロイ前に必ずマイグレーションを実行する。",
        "Work log: Review the error budget every Monday.",
    ],
)
def test_decisions_preferences_procedures_and_named_facts_are_durable(text: str) -> None:
    """A decision, preference, procedure, ownership or a fact about a named thing stays."""
    assert is_durable_claim(text) is True


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Worked through the queue of small tasks and answered review comments.", "activity log"),
        ("Spent the afternoon on billing with Carol; it went fine overall.", "activity log"),
        ("Standup ran long today, 45 minutes of status.", "activity log"),
        ("Had lunch with Bob at the noodle place today.", "activity log"),
        ("- [ ] Need to follow up with Bob about the invoice export.", "activity log"),
        ("Log: Coffee machine broken again this morning.", "activity log"),
        ("the usual pile of small things to look at", "no claim"),
    ],
)
def test_activity_logs_and_chatter_are_filler(text: str, reason: str) -> None:
    """What someone did, what happened today, or nothing at all: filler, with the reason."""
    assert filler_reason(text) == reason
