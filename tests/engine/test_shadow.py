"""Shadow trials: verdicts map to recommendations; only the report file is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.engine.phases.shadow import ShadowTrial, render_report
from dreamd.errors import DreamdError


def trial(verdict: str = "helpful", **fields: object) -> ShadowTrial:
    """A trial with fixed texts."""
    base: dict[str, object] = {
        "candidate": "Billing runs on Postgres 16.",
        "trial_prompt": "Which database does billing use?",
        "baseline_outcome": "I am not sure.",
        "candidate_outcome": "Postgres 16 on db-02.",
        "verdict": verdict,
        "reason": "The answer became correct.",
    }
    base.update(fields)
    return ShadowTrial.create(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("verdict", "recommendation"),
    [("helpful", "promote"), ("neutral", "defer"), ("harmful", "reject")],
)
def test_verdicts_map_to_recommendations(verdict: str, recommendation: str) -> None:
    """helpful -> promote, neutral -> defer, harmful -> reject."""
    assert trial(verdict).recommendation == recommendation


def test_report_contract() -> None:
    """The report lists every field, placeholders for empty lists, and report-only."""
    assert render_report(trial(risk_flags=["  "], evidence_refs=[])) == (
        "# Dreaming Shadow Trial Report\n\n"
        "candidate: Billing runs on Postgres 16.\n"
        "trial prompt: Which database does billing use?\n"
        "baseline outcome: I am not sure.\n"
        "candidate outcome: Postgres 16 on db-02.\n"
        "verdict: helpful\nrecommendation: promote\nreason: The answer became correct.\n"
        "risk flags:\n- none recorded\nevidence refs:\n- none supplied\n"
        "promotion action: report-only\n"
    )


def test_empty_fields_and_bad_verdicts_are_refused() -> None:
    """A required field left empty, or an unknown verdict, is an error naming it."""
    with pytest.raises(DreamdError, match="needs a reason"):
        trial(reason="   ")
    with pytest.raises(DreamdError, match="verdict must be"):
        trial(verdict="great")


def test_cli_writes_only_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI writes one report under shadow-trials/<day>/ and nothing else; secrets redacted."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    argv = [
        "--json",
        "--workspace",
        str(root),
        "--now",
        "2026-11-29T12:00:00Z",
        "memory",
        "shadow-trial",
        "--candidate",
        "Deploy key is ghp_" + "a1" * 18,
        "--trial-prompt",
        "p",
        "--baseline-outcome",
        "b",
        "--candidate-outcome",
        "c",
        "--verdict",
        "harmful",
        "--reason",
        "leaks",
        "--risk-flag",
        "secret",
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["recommendation"] == "reject" and out["promotionAction"] == "report-only"
    written = [
        p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and p.name != "lock"
    ]
    assert written == [out["reportPath"]]
    assert out["reportPath"].startswith("memory/dreaming/shadow-trials/2026-11-29/")
    assert "ghp_a1a1a1a1" not in (root / out["reportPath"]).read_text()
    assert not (root / "MEMORY.md").exists()
