"""Shadow trials: a report-only review of one candidate memory (SPEC §7). Pure.

A trial compares an outcome without the candidate memory (baseline) with one that could use it,
and records a verdict: ``helpful`` recommends ``promote``, ``neutral`` ``defer``, ``harmful``
``reject``. The report always says ``promotion action: report-only``: a trial never writes
MEMORY.md nor promotes anything by itself. Reports go to
``memory/dreaming/shadow-trials/<day>/<hash12>.md``, the hash taken over the normalised fields,
so distinct trials on one day never collide and the same trial lands on the same file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from dreamd.engine.text.snippets import collapse
from dreamd.errors import DreamdError
from dreamd.redaction import redact

__all__ = ["RECOMMENDATIONS", "ShadowTrial", "render_report", "report_path"]

RECOMMENDATIONS = {"helpful": "promote", "neutral": "defer", "harmful": "reject"}


@dataclass(frozen=True)
class ShadowTrial:
    """One trial's inputs, whitespace-collapsed and redacted."""

    candidate: str
    trial_prompt: str
    baseline_outcome: str
    candidate_outcome: str
    verdict: str
    reason: str
    risk_flags: tuple[str, ...] = ()
    evidence_refs: tuple[str, ...] = ()

    @classmethod
    def create(
        cls,
        *,
        candidate: str,
        trial_prompt: str,
        baseline_outcome: str,
        candidate_outcome: str,
        verdict: str,
        reason: str,
        risk_flags: Sequence[str] = (),
        evidence_refs: Sequence[str] = (),
    ) -> ShadowTrial:
        """Normalise and check the inputs; an empty required field is an error naming it."""
        fields = {
            "candidate": candidate,
            "trial prompt": trial_prompt,
            "baseline outcome": baseline_outcome,
            "candidate outcome": candidate_outcome,
            "reason": reason,
        }
        clean = {name: collapse(redact(value)) for name, value in fields.items()}
        for name, value in clean.items():
            if not value:
                raise DreamdError(f"a shadow trial needs a {name}")
        if verdict not in RECOMMENDATIONS:
            raise DreamdError(f"verdict must be helpful, neutral or harmful, not {verdict!r}")
        return cls(
            clean["candidate"],
            clean["trial prompt"],
            clean["baseline outcome"],
            clean["candidate outcome"],
            verdict,
            clean["reason"],
            tuple(collapse(redact(flag)) for flag in risk_flags if flag.strip()),
            tuple(collapse(redact(ref)) for ref in evidence_refs if ref.strip()),
        )

    @property
    def recommendation(self) -> str:
        """promote, defer or reject."""
        return RECOMMENDATIONS[self.verdict]

    def as_json(self) -> dict[str, object]:
        """The trial as ``--json`` prints it."""
        return {
            "candidate": self.candidate,
            "trialPrompt": self.trial_prompt,
            "baselineOutcome": self.baseline_outcome,
            "candidateOutcome": self.candidate_outcome,
            "verdict": self.verdict,
            "recommendation": self.recommendation,
            "reason": self.reason,
            "riskFlags": list(self.risk_flags),
            "evidenceRefs": list(self.evidence_refs),
            "promotionAction": "report-only",
        }


def report_path(trial: ShadowTrial, day: str) -> str:
    """``memory/dreaming/shadow-trials/<day>/<hash12>.md``."""
    digest = hashlib.sha256(msgspec.json.encode(trial.as_json())).hexdigest()[:12]
    return f"memory/dreaming/shadow-trials/{day}/{digest}.md"


def render_report(trial: ShadowTrial) -> str:
    """The Markdown report."""
    lines = [
        "# Dreaming Shadow Trial Report",
        "",
        f"candidate: {trial.candidate}",
        f"trial prompt: {trial.trial_prompt}",
        f"baseline outcome: {trial.baseline_outcome}",
        f"candidate outcome: {trial.candidate_outcome}",
        f"verdict: {trial.verdict}",
        f"recommendation: {trial.recommendation}",
        f"reason: {trial.reason}",
        "risk flags:",
        *([f"- {flag}" for flag in trial.risk_flags] or ["- none recorded"]),
        "evidence refs:",
        *([f"- {ref}" for ref in trial.evidence_refs] or ["- none supplied"]),
        "promotion action: report-only",
    ]
    return "\n".join(lines) + "\n"
