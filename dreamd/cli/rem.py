"""``dreamd memory rem-harness`` (preview; writes nothing) and ``rem-backfill`` (reversible).

``rem-harness`` alone previews light, REM and deep over the live workspace. With ``--path``
(historical notes) or ``--grounded`` it replays the notes in a temporary copy
(:mod:`dreamd.runs.harness`); ``--grounded`` adds the grounded preview of each note and stages its
claims in the copy. ``rem-backfill --path`` writes grounded diary entries (and with
``--stage-short-term`` grounded recall rows); ``rem-backfill --rollback`` removes them
(:mod:`dreamd.runs.backfill`). Progress goes to stderr, never with ``--json``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamd.cli import shadow
from dreamd.cli.context import Context
from dreamd.clock import day_of
from dreamd.errors import DreamdError
from dreamd.layout import BACKFILL_FILE_LIMIT, NOTES_DIR

if TYPE_CHECKING:  # the engine and the backfill load when a verb runs, not to parse
    from dreamd.config import DreamingConfig
    from dreamd.engine.phases.deep import Ranking
    from dreamd.engine.phases.light import LightResult
    from dreamd.engine.phases.rem import RemResult
    from dreamd.runs.harness import HarnessRun

__all__ = ["register"]


def register(verbs: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the REM verbs under ``dreamd memory``."""
    harness = verbs.add_parser(
        "rem-harness", help="preview light, REM and deep (also over historical notes); no writes"
    )
    harness.add_argument(
        "--path", metavar="FILE_OR_DIR", help="historical notes to replay in a temporary copy"
    )
    harness.add_argument(
        "--grounded", action="store_true", help="add the grounded preview of each whole note"
    )
    harness.add_argument(
        "--include-promoted", action="store_true", help="also rank entries promoted before"
    )
    _limit_flag(harness)
    json_flag(harness)
    harness.set_defaults(handler=run_harness)

    backfill = verbs.add_parser(
        "rem-backfill", help="write grounded, reversible diary entries from historical notes"
    )
    backfill.add_argument("--path", metavar="FILE_OR_DIR", help="historical notes to backfill")
    backfill.add_argument(
        "--stage-short-term", action="store_true", help="also stage grounded recall rows"
    )
    backfill.add_argument("--rollback", action="store_true", help="remove every backfill entry")
    backfill.add_argument(
        "--rollback-short-term", action="store_true", help="with --rollback: grounded-only rows too"
    )
    _limit_flag(backfill)
    json_flag(backfill)
    backfill.set_defaults(handler=run_backfill_verb)
    shadow.register(verbs, json_flag)


def _limit_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--limit-files",
        type=int,
        default=BACKFILL_FILE_LIMIT,
        metavar="N",
        help=f"most notes per run, the newest (default {BACKFILL_FILE_LIMIT})",
    )


def _limit(ctx: Context) -> int:
    limit: int = ctx.args.limit_files
    if limit < 1:
        raise DreamdError(f"--limit-files must be at least 1, got {limit}")
    return limit


def _rem_config_json(dreaming: DreamingConfig) -> dict[str, Any]:
    """``remConfig`` as OpenClaw's ``rem-harness --json`` names it (the parts dreamd has)."""
    rem = dreaming.rem
    return {
        "enabled": dreaming.enabled and rem.limit > 0,
        "cron": dreaming.frequency,
        "timezone": dreaming.timezone,
        "lookbackDays": rem.lookback_days,
        "limit": rem.limit,
        "minPatternStrength": rem.min_pattern_strength,
        "storage": {"mode": dreaming.storage},
    }


def _phases_json(
    light: LightResult, rem: RemResult, ranking: Ranking, dreaming: DreamingConfig
) -> dict[str, Any]:
    from dreamd.cli.render import candidate_json
    from dreamd.engine.phases.reports import rem_body

    skipped = dreaming.rem.limit <= 0
    return {
        "remConfig": _rem_config_json(dreaming),
        "light": {"staged": len(light.staged), "ingestedChunks": light.ingested_chunks},
        "rem": {
            "skipped": skipped,
            "sourceEntryCount": rem.considered,
            "reflections": [
                {"tag": t.tag, "count": t.count, "strength": t.strength} for t in rem.themes
            ],
            "candidateTruths": [
                {"key": t.entry.key, "snippet": t.entry.snippet, "confidence": t.confidence}
                for t in rem.truths
            ],
            "candidateKeys": list(dict.fromkeys(t.entry.key for t in rem.truths)),
            "bodyLines": [] if skipped else rem_body(rem.themes, rem.truths).split("\n"),
        },
        "deep": {
            "candidateCount": len(ranking.candidates),
            "candidates": [candidate_json(s) for s in ranking.candidates],
            "rejected": dict(sorted(ranking.rejected.items())),
        },
    }


def _deep_lines(ranking: Ranking) -> list[str]:
    return [
        f"{min(1.0, s.score):.3f} {s.entry.snippet} "
        f"[{s.entry.path}:{s.entry.start_line}-{s.entry.end_line}]"
        for s in ranking.candidates[:10]
    ] or ["- No deep candidates."]


def _replay(
    ctx: Context, root: Path, agents: tuple[str, ...]
) -> tuple[HarnessRun, dict[str, Any], list[str]]:
    """Replay the notes of --path (else the workspace's) in a copy; extra JSON and text."""
    from dreamd.engine.grounded.preview import note_json, section_lines
    from dreamd.runs.backfill import Sources, analyse, find_sources, resolve_target
    from dreamd.runs.harness import preview_in_copy
    from dreamd.runs.progress import progress_on_stderr

    args = ctx.args
    target = resolve_target(args.path, root) if args.path else root / NOTES_DIR
    found = find_sources(target, root=root, limit=_limit(ctx)) if target.exists() else None
    sources = found or Sources(target, (), ())
    progress = progress_on_stderr("rem-harness", len(sources.files), quiet=ctx.json)
    notes, grounded, unread = analyse(sources, root, progress)
    run = preview_in_copy(
        root,
        notes,
        grounded,
        dreaming=ctx.config.dreaming,
        now=ctx.now,
        zone=ctx.zone,
        agents=agents,
        stage=args.grounded,
        seed=bool(args.path),
        include_promoted=args.include_promoted,
    )
    document: dict[str, Any] = {
        "sourcePath": str(sources.target),
        "sourceFiles": [note.label for note in notes],
        "skippedFiles": [*sources.skipped, *unread],
    }
    lines = [f"sourcePath={sources.target} historicalFiles={len(notes)}"]
    if args.path:
        document["historicalImport"] = {
            "importedFiles": run.imported_files,
            "importedSignals": run.imported_signals,
        }
        lines.append(f"importedFiles={run.imported_files} importedSignals={run.imported_signals}")
    if run.staging is not None and run.live_staging is not None:
        staging, live = run.staging, run.live_staging  # in the replay; as rem-backfill would
        document["grounded"] = {
            "files": [note_json(note) for note in grounded],
            "stagedShortTermEntries": len(live.staged),
            "skippedClaims": {"storeFull": live.over_budget, "refused": live.refused},
            "replayedShortTermEntries": len(staging.staged),
        }
        lines += ["", "Grounded REM"]
        for note in grounded:
            lines += [f"### {note.path} ({note.day})", *section_lines(note), ""]
        lines.append(
            f"stagedShortTermEntries={len(live.staged)} storeFull={live.over_budget} "
            f"replayedShortTermEntries={len(staging.staged)}"
        )
    return run, document, lines


def run_harness(ctx: Context) -> int:
    """Preview light, REM and deep without writing anything (see the module rules)."""
    from dreamd.engine.phases.cycle import plan_light_rem, preview_rem, thresholds_of
    from dreamd.engine.phases.reports import rem_body
    from dreamd.engine.phases.screen import rank_screened
    from dreamd.workspace.reader import check_workspace

    args = ctx.args
    _limit(ctx)
    workspace = ctx.workspace(getattr(args, "agent", None))
    root = check_workspace(workspace.root)
    dreaming = ctx.config.dreaming
    document: dict[str, Any] = {
        "workspaceDir": str(root),
        "day": day_of(ctx.now, ctx.zone),
        "sourcePath": None,
        "sourceFiles": [],
        "skippedFiles": [],
        "historicalImport": None,
        "deepConfig": thresholds_of(dreaming).as_json(),
        "grounded": None,
    }
    lines = [f"REM Harness ({root})"]
    if args.path or args.grounded:
        run, extra, more = _replay(ctx, root, workspace.agents)
        light, rem, ranking = run.light, run.rem, run.ranking
        document |= extra
        lines += more
    else:
        snapshot = ctx.snapshot()
        light, rem = plan_light_rem(snapshot, dreaming, now=ctx.now, zone=ctx.zone)
        ranking = rank_screened(
            light.store,
            rem.signals.rows,
            thresholds_of(dreaming),
            memory_text=snapshot.memory.text,
            now=ctx.now,
            include_promoted=args.include_promoted,
        ).ranking
        rem = preview_rem(snapshot, light, dreaming, now=ctx.now, zone=ctx.zone)
    document |= _phases_json(light, rem, ranking, dreaming)
    lines += [
        f"staged={len(light.staged)} deepCandidates={len(ranking.candidates)}",
        "",
        "REM Preview",
        *([] if dreaming.rem.limit <= 0 else [rem_body(rem.themes, rem.truths)]),
        "",
        "Deep Candidates",
        *_deep_lines(ranking),
    ]
    ctx.emit(document, "\n".join(lines))
    return 0


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def run_backfill_verb(ctx: Context) -> int:
    """Write grounded backfill entries, or with --rollback remove them (see the module rules)."""
    from dreamd.runs.backfill import find_sources, resolve_target, run_backfill, run_rollback
    from dreamd.runs.progress import progress_on_stderr
    from dreamd.workspace.reader import check_workspace

    args = ctx.args
    if args.rollback and (args.path or args.stage_short_term):
        raise DreamdError(
            "rem-backfill --rollback takes no --path or --stage-short-term; run them separately"
        )
    if not args.rollback and args.rollback_short_term:
        raise DreamdError("--rollback-short-term needs --rollback")
    if not args.rollback and not args.path:
        raise DreamdError("rem-backfill needs --path FILE_OR_DIR unless --rollback")
    workspace = ctx.workspace(getattr(args, "agent", None))
    root = check_workspace(workspace.root)
    dreaming, now, zone, agents = ctx.config.dreaming, ctx.now, ctx.zone, workspace.agents
    if args.rollback:
        short = args.rollback_short_term
        result = run_rollback(
            root, dreaming=dreaming, now=now, zone=zone, agents=agents, short_term=short
        )
        entries = _count(result["removedEntries"], "backfill entry", "backfill entries")
        lines = [f"REM Backfill Rollback ({root})", f"Removed {entries} from DREAMS.md."]
        if short:
            rows = _count(
                result["removedShortTermEntries"], "grounded-only row", "grounded-only rows"
            )
            signals = _count(result["removedPhaseSignals"], "phase-signal row", "phase-signal rows")
            lines.append(f"Removed {rows} and {signals}.")
        ctx.emit(result, "\n".join(lines))
        return 0
    sources = find_sources(resolve_target(args.path, root), root=root, limit=_limit(ctx))
    progress = progress_on_stderr("rem-backfill", len(sources.files), quiet=ctx.json)
    stage = args.stage_short_term
    result = run_backfill(
        root, sources, progress, dreaming=dreaming, now=now, zone=zone, agents=agents, stage=stage
    )
    entries = _count(result["writtenEntries"], "backfill entry", "backfill entries")
    lines = [
        f"REM Backfill ({root})",
        f"sourcePath={result['sourcePath']} sourceFiles={len(result['sourceFiles'])} "
        f"groundedFiles={result['groundedFiles']} skippedFiles={len(result['skippedFiles'])}",
        f"Wrote {entries} to DREAMS.md (replaced {result['replacedEntries']}).",
    ]
    if stage:
        skipped = result["skippedClaims"]
        rows = _count(result["stagedShortTermEntries"], "grounded row", "grounded rows")
        lines.append(
            f"Staged {rows} (replaced {result['replacedShortTermEntries']}; "
            f"store full: {skipped['storeFull']}; refused: {skipped['refused']})."
        )
        if not ctx.json and not ctx.enabled.enabled:
            ctx.note("dreaming is off; staged rows wait until a sweep runs")
    ctx.emit(result, "\n".join(lines))
    return 0
