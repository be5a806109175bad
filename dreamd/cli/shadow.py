"""``dreamd memory shadow-trial``: write a report-only review of one candidate memory."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from dreamd.cli.context import Context
from dreamd.clock import day_of

__all__ = ["register"]


def register(verbs: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``shadow-trial`` under ``dreamd memory``."""
    trial = verbs.add_parser("shadow-trial", help="write a report-only review of a candidate")
    trial.add_argument("--candidate", required=True, help="the candidate memory text")
    trial.add_argument("--trial-prompt", required=True, help="what was asked in the trial")
    trial.add_argument("--baseline-outcome", required=True, help="the answer without the memory")
    trial.add_argument("--candidate-outcome", required=True, help="the answer with the memory")
    trial.add_argument(
        "--verdict",
        required=True,
        choices=("helpful", "neutral", "harmful"),
        help="how the candidate did in the trial",
    )
    trial.add_argument("--reason", required=True, help="why this verdict")
    trial.add_argument("--risk-flag", action="append", default=[], help="repeatable")
    trial.add_argument("--evidence-ref", action="append", default=[], help="repeatable")
    json_flag(trial)
    trial.set_defaults(handler=run_shadow_trial)


def run_shadow_trial(ctx: Context) -> int:
    """Write the report (never MEMORY.md) and print where it went."""
    # the engine and the writer load when the verb runs, not to parse
    from dreamd.engine.phases.shadow import ShadowTrial, render_report, report_path
    from dreamd.engine.plan import FileWrite, SweepPlan
    from dreamd.store.lock import workspace_lock
    from dreamd.store.writer import apply_plan
    from dreamd.workspace.reader import read_text

    args = ctx.args
    trial = ShadowTrial.create(
        candidate=args.candidate,
        trial_prompt=args.trial_prompt,
        baseline_outcome=args.baseline_outcome,
        candidate_outcome=args.candidate_outcome,
        verdict=args.verdict,
        reason=args.reason,
        risk_flags=args.risk_flag,
        evidence_refs=args.evidence_ref,
    )
    root = ctx.workspace(getattr(args, "agent", None)).root
    path = report_path(trial, day_of(ctx.now, ctx.zone))
    with workspace_lock(root):
        current = read_text(root, path)
        write = FileWrite(path, render_report(trial), current.digest, "report")
        apply_plan(root, SweepPlan(writes=(write,)))
    document = {**trial.as_json(), "reportPath": path}
    ctx.emit(document, f"{trial.recommendation} (report-only): {root / path}")
    return 0
