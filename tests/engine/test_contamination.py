"""Contamination: dreaming echoes and trace noise are rejected, real notes are kept (SPEC §6.5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.contamination import contamination_reason

STAGED = "confidence: 0.62 evidence: memory/2026-11-20.md:3-4 recalls: 2 status: staged"


@pytest.mark.parametrize(
    ("snippet", "reason"),
    [
        ("<!-- dreamd-memory-promotion:memory:memory/a.md:1:1 -->", "promotion marker"),
        ("x <!-- openclaw-memory-promotion:k --> y z", "promotion marker"),
        ("User: Write a dream diary entry from these memory fragments: ...", "diary prompt echo"),
        (f"- Candidate: The queue runs on Postgres. {STAGED}", "staging output"),
        (f"[@@ -1,3 +1,4 @@ - Candidate: foo bar baz {STAGED}", "staging output"),
        (f"> Reflections: themes of the week {STAGED}", "staging output"),
        ("Fact [score=0.873 recalls=4 avg=0.812 source=memory/a.md:3-5]", "score metadata"),
        ("git status --short", "command listing"),
        ("$ ls -la /tmp", "command listing"),
        ("?? dreamd/new_file.py", "command listing"),
        ("- `npm install`", "command listing"),
        ("ok then", "half sentence"),
        ("- Done.", "half sentence"),
    ],
)
def test_contaminated(snippet: str, reason: str) -> None:
    """Each kind of echo or noise is named."""
    assert contamination_reason(snippet) == reason


@pytest.mark.parametrize(
    "snippet",
    [
        "We reviewed the Candidate: list for hiring and agreed on three names.",
        "- Decision: use Postgres 16 for the queue.",
        "make sure the backups run nightly",
        "node is our runtime of choice for the bot",
        "数据库备份在周五失败了",
        "- Index note 102.5: latency and postgres checked.",
    ],
)
def test_clean(snippet: str) -> None:
    """Ordinary notes, including prose that mentions 'Candidate', are clean."""
    assert contamination_reason(snippet) is None


@given(st.text())
def test_never_crashes(text: str) -> None:
    """Any text gets a reason or None."""
    reason = contamination_reason(text)
    assert reason is None or isinstance(reason, str)
