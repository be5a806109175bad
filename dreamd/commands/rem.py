"""``dreamd memory rem-harness``: preview light, REM and deep without writing anything."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from dreamd.clock import day_of
from dreamd.commands.context import Context
from dreamd.commands.render import candidate_json
from dreamd.phases.cycle import plan_light_rem, thresholds_of
from dreamd.phases.deep import rank
from dreamd.phases.reports import rem_body

__all__ = ["register"]


def register(verbs: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the REM verbs under ``dreamd memory``."""
    harness = verbs.add_parser("rem-harness", help="preview light, REM and deep; writes nothing")
    harness.add_argument("--include-promoted", action="store_true")
    json_flag(harness)
    harness.set_defaults(handler=run_harness)


def run_harness(ctx: Context) -> int:
    """Preview light, REM and deep over the live workspace without writing anything."""
    snapshot = ctx.snapshot()
    dreaming = ctx.config.dreaming
    light, rem = plan_light_rem(snapshot, dreaming, now=ctx.now, zone=ctx.zone)
    ranking = rank(
        light.store.rows,
        rem.signals.rows,
        thresholds_of(dreaming),
        now=ctx.now,
        include_promoted=ctx.args.include_promoted,
    )
    body = rem_body(rem.themes, rem.truths)
    document = {
        "workspaceDir": str(snapshot.root),
        "day": day_of(ctx.now, ctx.zone),
        "light": {"staged": len(light.staged), "ingestedChunks": light.ingested_chunks},
        "rem": {
            "sourceEntryCount": rem.considered,
            "reflections": [
                {"tag": t.tag, "count": t.count, "strength": t.strength} for t in rem.themes
            ],
            "candidateTruths": [
                {"key": t.entry.key, "snippet": t.entry.snippet, "confidence": t.confidence}
                for t in rem.truths
            ],
            "bodyLines": body.split("\n"),
        },
        "deep": {
            "candidateCount": len(ranking.candidates),
            "candidates": [candidate_json(s) for s in ranking.candidates],
            "rejected": dict(sorted(ranking.rejected.items())),
        },
    }
    lines = [
        f"REM Harness ({snapshot.root})",
        f"staged={len(light.staged)}",
        "",
        "REM Preview",
        body,
        "",
        "Deep Candidates",
    ]
    lines += [
        f"{min(1.0, s.score):.3f} {s.entry.snippet} "
        f"[{s.entry.path}:{s.entry.start_line}-{s.entry.end_line}]"
        for s in ranking.candidates[:10]
    ] or ["- No deep candidates."]
    ctx.emit(document, "\n".join(lines))
    return 0
