"""`/dream explain` says what the CLI says: already promoted with its line, or the gate."""

from __future__ import annotations

from typing import Any

from dreamd.chat.text import render_explain

CANDIDATE = {
    "path": "memory/2026-11-20.md",
    "startLine": 4,
    "endLine": 4,
    "snippet": "- Decision: billing moves to Postgres 16.",
    "score": 0.81,
    "signalCount": 4,
    "recallCount": 4,
    "uniqueQueries": 4,
    "ageDays": 2.0,
    "phaseBoost": 0.0,
    "components": {"relevance": 0.9},
}
THRESHOLDS = {"minScore": 0.75, "minRecallCount": 3, "minUniqueQueries": 3, "maxAgeDays": 30}


def _document(**fields: Any) -> dict[str, Any]:
    base = {"label": "main", "candidate": CANDIDATE, "thresholds": THRESHOLDS, "rejection": None}
    return base | {"promoted": None, "stoppedBy": None, "backedBy": []} | fields


def test_a_promoted_entry_is_shown_with_its_day_and_line() -> None:
    """The reply ends with the day it was promoted and the MEMORY.md line."""
    promoted = {"at": "x", "day": "2026-11-25", "inMemory": True, "line": 8, "entry": "- Decision"}
    lines = render_explain(_document(rejection="already promoted", promoted=promoted))
    assert lines.splitlines()[-2:] == [
        "verdict: already promoted on 2026-11-25",
        "MEMORY.md:8: - Decision",
    ]


def test_a_gated_entry_names_its_gate() -> None:
    """An instruction-shaped entry says which gate stopped it and what it saw."""
    stopped = {"gate": "instruction", "detail": "override"}
    lines = render_explain(_document(rejection="instruction", stoppedBy=stopped))
    assert lines.splitlines()[-1] == "verdict: not promoted: instruction (override)"
