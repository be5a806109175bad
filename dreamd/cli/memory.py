"""``dreamd memory search|index|promote|promote-explain|status`` (and the REM, undo, bank and
dream-report verbs)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable

from dreamd.cli.options import semantic_for
from dreamd.engine.bank.kinds import FACT_KINDS
from dreamd.engine.origins import ORIGIN_CLASSES, SESSION_KINDS
from dreamd.errors import DreamdError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:  # the verbs import what they use when they run: ``search`` starts fast
    from typing import Any

    from dreamd.cli.context import Context
    from dreamd.engine.phases.deep import Thresholds

__all__ = ["register", "register_quick", "register_search"]

JsonFlag = Callable[[argparse.ArgumentParser], None]
KINDS = ("daily", "memory", "note", "corpus", *FACT_KINDS)


def _memory(commands: Any) -> Any:
    """The ``memory`` parser; returns its verbs' subparsers."""
    memory = commands.add_parser("memory", help="search, index and promote workspace memory")
    memory.add_argument("--agent", help="the agent whose workspace to use, when there are several")
    return memory.add_subparsers(dest="verb", metavar="VERB", required=True)


def register_quick(commands: Any, json_flag: JsonFlag) -> None:
    """Only ``memory search`` and ``memory recall``: what an agent runs on every turn.

    :mod:`dreamd.cli.main` parses those two with this parser, so their process imports no other
    verb's module; their arguments, help and errors are the same as in the full parser.
    """
    from dreamd.cli import bank

    verbs = _memory(commands)
    register_search(verbs, json_flag)
    bank.register(verbs, json_flag)


def register(commands: Any, json_flag: JsonFlag) -> None:
    """Add ``memory`` and its subcommands."""
    verbs = _memory(commands)
    from dreamd.cli import (
        bank,
        dreamwork,
        handback,
        rem,
        undo,
    )  # a quick ``search`` never imports them

    register_search(verbs, json_flag)

    index = verbs.add_parser("index", help="update the recall index (incremental)")
    index.add_argument("--rebuild", action="store_true", help="rebuild it from scratch")
    json_flag(index)
    index.set_defaults(handler=run_index)

    promote = verbs.add_parser("promote", help="preview (or --apply) promotions into MEMORY.md")
    promote.add_argument("--apply", action="store_true", help="write the promotions")
    promote.add_argument("--limit", type=int, help="most candidates")
    promote.add_argument("--min-score", type=float, help="score a candidate needs (0-1)")
    promote.add_argument("--min-recall-count", type=int, help="signals a candidate needs")
    promote.add_argument(
        "--min-unique-queries", type=int, help="distinct queries a candidate needs"
    )
    promote.add_argument(
        "--include-promoted", action="store_true", help="also rank entries promoted before"
    )
    json_flag(promote)
    promote.set_defaults(handler=run_promote)

    explain = verbs.add_parser("promote-explain", help="why one entry would or would not promote")
    explain.add_argument("selector", help="a key, or text of its key, path or snippet")
    explain.add_argument(
        "--include-promoted", action="store_true", help="also match entries promoted before"
    )
    json_flag(explain)
    explain.set_defaults(handler=run_explain)

    rem.register(verbs, json_flag)
    bank.register(verbs, json_flag)
    undo.register(verbs, json_flag)
    dreamwork.register(verbs, json_flag)
    handback.register(verbs, json_flag)

    status = verbs.add_parser("status", help="recall store, index and diary health")
    status.add_argument(
        "--deep", action="store_true", help="also probe the index against the files it reads"
    )
    json_flag(status)
    status.set_defaults(handler=run_memory_status)


def register_search(verbs: Any, json_flag: JsonFlag) -> None:
    """Add ``memory search`` (also the quick parser of :mod:`dreamd.cli.main`)."""
    found = verbs.add_parser("search", help="search memory (records recall traces)")
    found.add_argument("query", nargs="?", help="the query (or --stdin)")
    found.add_argument("--k", type=int, default=5, help="hits to return (default 5)")
    found.add_argument("--since", help="only notes from this day or this far back: 2025-11-01, 30d")
    found.add_argument("--until", help="only notes up to this day or this far back: 2025-11-30, 7d")
    found.add_argument("--entity", help="only chunks tagged @ENTITY")
    found.add_argument(
        "--kind",
        action="append",
        choices=KINDS,
        help="only this kind (repeatable): a file kind or a Retain fact kind",
    )
    found.add_argument(
        "--long-term", action="store_true", help="search the long-term layer (records nothing)"
    )
    found.add_argument("--origin", choices=ORIGIN_CLASSES, default="agent", help="who is asking")
    found.add_argument(
        "--session-kind",
        choices=SESSION_KINDS,
        default="interactive",
        help="the kind of session asking (default interactive)",
    )
    found.add_argument("--no-record", action="store_true", help="do not record recall traces")
    found.add_argument(
        "--mode",
        choices=("hybrid", "lexical", "bundle"),
        default="hybrid",
        help="ranking: hybrid (default: lexical, then bundle search), lexical or bundle",
    )
    found.add_argument(
        "--explain",
        action="store_true",
        help="show why each hit is where it is: the ranking's terms, the route through the graph",
    )
    found.add_argument("--stdin", action="store_true", help="one query per input line")
    json_flag(found)
    found.set_defaults(handler=run_search)


def _queries(ctx: Context) -> Iterable[str]:
    if ctx.args.stdin:
        return (line.strip() for line in sys.stdin if line.strip())
    if not ctx.args.query:
        raise DreamdError("memory search needs a QUERY argument or --stdin")
    return [ctx.args.query]


def _bound(ctx: Context, flag: str) -> str | None:
    from dreamd.recall.dates import day_bound

    value = getattr(ctx.args, flag)
    if value is None:
        return None
    day = day_bound(value, ctx.now)
    if day is None:
        raise DreamdError(
            f"--{flag} {value!r}: expected a day like 2025-11-01 or a duration like 30d"
        )
    return day


def _ranked(index: Any, query: str, mode: str, options: dict[str, Any]) -> list[Any]:
    """The hits of ``query`` in ``mode``, each with its route (empty for lexical hits)."""
    from dreamd.recall.bundle import Routed, bundle_search, hybrid_search
    from dreamd.recall.search import search

    if mode == "lexical":
        return [Routed(hit) for hit in search(index, query, **options)]
    if mode == "bundle":
        return bundle_search(index, query, k=options["k"], now=options["now"])
    return hybrid_search(index, query, **options)


def run_search(ctx: Context) -> int:
    """Search, print hits, and record traces (when dreaming is on and not --no-record)."""
    from dreamd.engine.hits import hit_json
    from dreamd.recall.index import RecallIndex
    from dreamd.redaction import redact

    root = ctx.root(ctx.args.agent)
    first, last = _bound(ctx, "since"), _bound(ctx, "until")
    options: dict[str, Any] = {"k": ctx.args.k, "now": ctx.now, "first_day": first}
    options.update(last_day=last, kinds=ctx.args.kind, entity=ctx.args.entity)
    long_term = ctx.args.long_term
    record = ctx.enabled.enabled and not ctx.args.no_record and not long_term
    semantic = ctx.resolved.embeddings if ctx.args.mode == "hybrid" and not long_term else None
    with RecallIndex.open(root) as index, semantic_for(index, semantic) as vectors:
        if not long_term:
            index.update()
        retired: Any = ()
        if long_term:
            from dreamd.recall.longterm import query_longterm
            from dreamd.store.longterm import read_longterm

            retired = read_longterm(root)[0].values()
        for query in _queries(ctx):
            routes: list[Any] = []
            if long_term:  # the long-term layer is read, never recorded into
                hits = query_longterm(retired, query, **options)
            else:
                routes = _ranked(index, query, ctx.args.mode, options)
                hits = [routed.hit for routed in routes]
            if record and hits:
                from dreamd.recall.record import record_search

                record_search(
                    root,
                    query,
                    hits,
                    now=ctx.now,
                    zone=ctx.zone,
                    origin=ctx.args.origin,
                    session_kind=ctx.args.session_kind,
                    redacted=index.redaction_current and not long_term,
                )
            # Output is redacted, whatever is stored; text read from an index redacted under
            # the rules in force already is (redacting twice changes nothing).
            trusted = index.redaction_current and not long_term
            shown = [(h, h.snippet if trusted else redact(h.snippet)) for h in hits]
            document: dict[str, Any] = {
                "query": query,
                "hits": [{**hit_json(h), "snippet": snippet} for h, snippet in shown],
            }
            if not trusted:  # what a line replaced comes from the same index
                for item in document["hits"]:
                    for earlier in item["was"]:
                        earlier["snippet"] = redact(earlier["snippet"])
            if ctx.args.explain and not long_term:
                for item, routed in zip(document["hits"], routes, strict=True):
                    item["route"] = [redact(node) for node in routed.route]
            if long_term:
                document["layer"] = "long-term"
            if vectors is not None and vectors.error:
                ctx.note(f"semantic recall unavailable ({vectors.error}); lexical hits only")
                vectors.error = None
            if ctx.json:
                print(json.dumps(document, ensure_ascii=False), flush=True)
            else:
                lines = [
                    f"{h.score:.3f} {h.source}{' (context)' if h.context else ''}\n  {snippet}"
                    + (f"\n  also: {', '.join(item['also'])}" if item["also"] else "")
                    + "".join(
                        f"\n  was: {e['snippet']} ({e['source']}), until {e['until']}"
                        for e in item["was"]
                    )
                    + (f"\n  route: {' -> '.join(item['route'])}" if item.get("route") else "")
                    + (_why(h) if ctx.args.explain and not long_term else "")
                    for (h, snippet), item in zip(shown, document["hits"], strict=True)
                ]
                print("\n".join(lines) if lines else f"No results for {query!r}.", flush=True)
    return 0


def _why(hit: Any) -> str:
    """``--explain``'s line for a ranked hit (one bundle search placed has its route)."""
    why = dict(hit.why)
    if "rerank" not in why:
        return ""
    from dreamd.recall.rerank import explain

    return f"\n  why: {explain(why)}"


def run_index(ctx: Context) -> int:
    """Update or rebuild the recall index (and, with embeddings configured, its vectors)."""
    from dreamd.model.embeddings import settings_of
    from dreamd.recall.index import RecallIndex

    workspace = ctx.workspace(ctx.args.agent)
    settings = settings_of(ctx.config.embeddings)
    embedded = None
    with RecallIndex.open(workspace.root) as index:
        stats = index.rebuild() if ctx.args.rebuild else index.update(walk=True)
        with semantic_for(index, settings, budget=None) as vectors:
            if vectors is not None:
                embedded = vectors.sync()
    document = {
        "workspace": str(workspace.root),
        "scanned": stats.scanned,
        "changed": stats.changed,
        "removed": stats.removed,
        "chunks": stats.chunks,
        "bytesRead": stats.bytes_read,
        "embedded": embedded,
    }
    text = (
        f"{workspace.root}: {stats.scanned} file(s), {stats.changed} changed, "
        f"{stats.removed} removed, {stats.chunks} chunk(s)"
        + (f", {embedded} embedded" if embedded is not None else "")
    )
    ctx.emit(document, text)
    return 0


def _thresholds(ctx: Context) -> Thresholds:
    from dreamd.engine.phases.cycle import thresholds_of

    base = thresholds_of(ctx.config.dreaming)
    args = ctx.args
    values = {
        "limit": args.limit,
        "min_score": args.min_score,
        "min_recall_count": args.min_recall_count,
        "min_unique_queries": args.min_unique_queries,
    }
    for name, value in values.items():
        if value is not None and value < 0:
            raise DreamdError(f"--{name.replace('_', '-')} must not be negative, got {value}")
    chosen = {name: value for name, value in values.items() if value is not None}
    import dataclasses

    return dataclasses.replace(base, **chosen)


def _audit(snapshot: Any, store_path: str, lock_path: str) -> dict[str, Any]:
    """The recall store's audit, in the shape ``openclaw memory promote --json`` prints it,
    with ``sources``: where the rows came from (dreamd's files, OpenClaw's renamed files and
    SQLite state)."""
    rows = list(snapshot.store.rows.values())
    return {
        "storePath": store_path,
        "lockPath": lock_path,
        "updatedAt": snapshot.store.updated_at,
        "exists": bool(rows) or bool(snapshot.state_sources),
        "entryCount": len(rows),
        "promotedCount": sum(1 for row in rows if row.promoted_at),
        "spacedEntryCount": sum(1 for row in rows if len(row.recall_days) > 1),
        "conceptTaggedEntryCount": sum(1 for row in rows if row.concept_tags),
        "danglingEntryCount": sum(1 for row in rows if row.path not in snapshot.notes),
        "issues": list(snapshot.warnings),
        "sources": list(snapshot.state_sources),
    }


def run_promote(ctx: Context) -> int:
    """Preview the candidates that pass every gate; with --apply, write them."""
    from dreamd.cli.render import candidate_json
    from dreamd.engine.phases.cycle import plan_promote
    from dreamd.engine.state import RECALL_STORE
    from dreamd.layout import STATE_DIR
    from dreamd.runs.sweep import run_planned
    from dreamd.store.lock import LOCK_FILE

    thresholds = _thresholds(ctx)
    workspace = ctx.workspace(ctx.args.agent)
    include = ctx.args.include_promoted
    dreaming = ctx.config.dreaming
    snapshot = ctx.snapshot()
    ranking, promotion, _ = plan_promote(
        snapshot, dreaming, thresholds, now=ctx.now, zone=ctx.zone, include_promoted=include
    )
    apply_json = None
    if ctx.args.apply:
        if not ctx.enabled.enabled:
            ctx.note("dreaming is off; applying anyway because --apply was given")

        def planner(snapshot: Any) -> Any:
            nonlocal promotion
            _, promotion, fresh = plan_promote(
                snapshot, dreaming, thresholds, now=ctx.now, zone=ctx.zone, include_promoted=include
            )
            return fresh

        outcome = run_planned(
            workspace.root,
            planner,
            dreaming=dreaming,
            now=ctx.now,
            zone=ctx.zone,
            agents=workspace.agents,
        )
        if outcome.error:
            raise DreamdError(outcome.error)
        apply_json = {
            "applied": len(promotion.applied),
            "appended": len(promotion.applied),
            "reconciledExisting": len(promotion.reconciled),
            "memoryPath": str(workspace.root / "MEMORY.md"),
            "appliedCandidates": [s.entry.key for s in promotion.applied],
            "rejected": dict(promotion.rejected),
            "changedFiles": list(outcome.changed),
        }
    store_path = str(workspace.root / STATE_DIR / RECALL_STORE.name)
    lock_path = str(workspace.root / LOCK_FILE)
    document = {
        "workspaceDir": str(workspace.root),
        "storePath": store_path,
        "lockPath": lock_path,
        "audit": _audit(snapshot, store_path, lock_path),
        "thresholds": thresholds.as_json(),
        "ranked": _ranked_json(ranking),
        "candidates": [candidate_json(s) for s in ranking.candidates],
        "rejected": dict(sorted(ranking.rejected.items())),
        "apply": apply_json,
    }
    lines = [f"Short-Term Promotion Candidates ({workspace.root})"]
    for scored in ranking.candidates:
        entry = scored.entry
        lines.append(
            f"{min(1.0, scored.score):.3f} {entry.path}:{entry.start_line}-{entry.end_line}"
        )
        c = scored.components
        lines.append(
            f"  recalls={entry.recall_count} signals={scored.signals} avg={c.relevance:.3f} "
            f"queries={scored.unique_queries} age={scored.age_days:.1f}d "
            f"consolidate={c.consolidation:.2f} conceptual={c.conceptual:.2f}"
        )
        lines.append(f"  {entry.snippet}")
    if not ranking.candidates:
        lines.append("No short-term recall candidates.")
        if not snapshot.store.rows:
            lines.append("Recall store is empty.")
    if ranking.rejected:
        lines.append(
            "Not promoted: " + ", ".join(f"{k} {v}" for k, v in sorted(ranking.rejected.items()))
        )
    if apply_json is not None:
        lines.append(
            f"Processed {apply_json['applied']} candidate(s) for MEMORY.md "
            f"(appended={apply_json['appended']} "
            f"reconciledExisting={apply_json['reconciledExisting']})."
        )
    ctx.emit(document, "\n".join(lines))
    return 0


def _ranked_json(ranking: Any) -> list[dict[str, Any]]:
    """OpenClaw's candidates, score for score (the ranking before dreamd's gates after it), each
    with the gate after ranking that refused it, if one did."""
    from dreamd.cli.render import candidate_json

    verdicts = {v.scored.entry.key: v.rejection for v in ranking.verdicts}
    return [
        {**candidate_json(s), "refusedBy": verdicts.get(s.entry.key)}
        for s in ranking.passed[: ranking.room]
    ]


def run_explain(ctx: Context) -> int:
    """Show one entry's components, boost and the gate verdicts."""
    from dreamd.engine.explain import explain, verdict_lines
    from dreamd.engine.phases.cycle import thresholds_of

    thresholds = thresholds_of(ctx.config.dreaming)
    snapshot = ctx.snapshot()
    scored, document = explain(
        snapshot,
        thresholds,
        ctx.args.selector,
        now=ctx.now,
        include_promoted=ctx.args.include_promoted,
        zone=ctx.zone,
    )
    entry, c = scored.entry, scored.components
    text = "\n".join(
        [
            f"Promotion Explain ({snapshot.root})",
            entry.key,
            f"{entry.path}:{entry.start_line}-{entry.end_line}",
            entry.snippet,
            f"score={min(1.0, scored.score):.3f} signals={scored.signals} "
            f"recallCount={entry.recall_count} uniqueQueries={scored.unique_queries} "
            f"ageDays={scored.age_days:.2f} phaseBoost={scored.phase_boost:.3f}",
            "components: " + " ".join(f"{k}={v:.3f}" for k, v in c.as_dict().items()),
            f"thresholds: minScore={thresholds.min_score} "
            f"minRecallCount={thresholds.min_recall_count} "
            f"minUniqueQueries={thresholds.min_unique_queries} "
            f"maxAgeDays={thresholds.max_age_days:g}",
            f"concepts={', '.join(entry.concept_tags)}",
            *verdict_lines(document),
        ]
    )
    ctx.emit(document, text)
    return 0


def run_memory_status(ctx: Context) -> int:
    """Audit the recall store, long-term layer, index and diary of each workspace."""
    from dreamd.recall.audit import audit_report

    deep = bool(getattr(ctx.args, "deep", False))
    document, text = audit_report(ctx.discovery.workspaces, now=ctx.now, deep=deep)
    ctx.emit(document, text)
    return 0
