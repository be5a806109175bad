"""``dreamd memory reflect`` and ``dreamd memory recall``: the memory bank, for people and agents.

``reflect [--since 7d|DAY] [--apply]`` previews (or writes, through the one writer) the bank
pages reflected from the notes: every note by default, or those from ``--since`` on (the others
keep the facts read before). ``recall QUERY`` answers a natural question (entity, time,
opinion) from the bank and the index with cited results, and records its search hits as recall
traces like ``memory search``. Registering is cheap: the implementation is imported when a verb
runs, so an agent's ``recall`` on every turn pays only for what it uses.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date, datetime

from dreamd.engine.bank.kinds import FACT_KINDS

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

    from dreamd.cli.context import Context
    from dreamd.config import DreamingConfig
    from dreamd.engine.bank.reflect import BankPlan
    from dreamd.engine.snapshot import Snapshot

__all__ = ["register"]

JsonFlag = Callable[[argparse.ArgumentParser], None]
_ORIGINS = ("owner", "agent", "untrusted", "system")


def register(verbs: Any, json_flag: JsonFlag) -> None:
    """Add ``memory reflect`` and ``memory recall``."""
    reflect = verbs.add_parser("reflect", help="preview (or --apply) the memory bank under bank/")
    reflect.add_argument(
        "--since", help="read facts afresh only from notes of this day or this far back: 7d"
    )
    reflect.add_argument("--apply", action="store_true", help="write the pages")
    json_flag(reflect)
    reflect.set_defaults(handler=run_reflect)

    recall = verbs.add_parser("recall", help="answer a question from the bank and the notes")
    recall.add_argument("query", help="a question: 'tell me about Peter', 'since last week'...")
    recall.add_argument("--k", type=int, default=25, help="results to return (default 25)")
    recall.add_argument("--since", help="only from this day or this far back: 2025-11-01, 30d")
    recall.add_argument("--until", help="only up to this day or this far back: 2025-11-30, 7d")
    recall.add_argument("--entity", help="only results about NAME")
    recall.add_argument("--kind", choices=FACT_KINDS, action="append", help="only this kind")
    recall.add_argument("--origin", choices=_ORIGINS, default="agent", help="who is asking")
    recall.add_argument("--no-record", action="store_true", help="do not record recall traces")
    json_flag(recall)
    recall.set_defaults(handler=run_recall)


def _day(ctx: Context, flag: str) -> str | None:
    from dreamd.errors import DreamdError
    from dreamd.recall.dates import day_bound

    value = getattr(ctx.args, flag)
    if value is None:
        return None
    day = day_bound(value, ctx.now)
    if day is None:
        raise DreamdError(f"--{flag} {value!r}: expected a day like 2025-11-01 or a duration: 7d")
    return day


def _reflecting(dreaming: DreamingConfig, since: str | None, now: datetime) -> DreamingConfig:
    """``dreaming`` with reflection on, reading notes from ``since`` (None: every note)."""
    from msgspec.structs import replace

    first = date.fromisoformat(since) if since else date(1970, 1, 1)
    days = max(0, (now.date() - first).days) + 1
    return replace(dreaming, reflect=replace(dreaming.reflect, enabled=True, lookback_days=days))


def _plan(snapshot: Snapshot, ctx: Context) -> BankPlan:
    """The reflection of ``snapshot``, with the model's facts when one is configured."""
    from dreamd.engine.bank.reflect import plan_reflect
    from dreamd.engine.plan import BankRequest

    assert snapshot.bank is not None  # read with reflection on
    plan = plan_reflect(snapshot.bank, snapshot.notes)
    model = ctx.config.model
    if not (plan.claims and model.facts and model.endpoint and model.name):
        return plan
    from dreamd.model.stage import run_fact_stage

    request = BankRequest(snapshot.bank, snapshot.notes, dict(plan.claims))
    answer = run_fact_stage(request, model)
    if isinstance(answer, dict) and answer:
        return plan_reflect(snapshot.bank, snapshot.notes, proposals=answer)
    return plan


def run_reflect(ctx: Context) -> int:
    """Preview the bank pages; with --apply, write them."""
    from dreamd.engine.plan import SweepPlan
    from dreamd.errors import DreamdError
    from dreamd.runs.sweep import run_planned
    from dreamd.workspace.reader import read_snapshot

    workspace = ctx.workspace(ctx.args.agent)
    dreaming = _reflecting(ctx.config.dreaming, _day(ctx, "since"), ctx.now)
    planned: list[BankPlan] = []
    if ctx.args.apply:  # planned once, under the lock, from a fresh read

        def planner(fresh: Snapshot) -> SweepPlan:
            planned[:] = [_plan(fresh, ctx)]
            return SweepPlan(writes=planned[0].writes, summary={"reflect": planned[0].summary()})

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
        plan, changed = planned[0], list(outcome.changed)
    else:
        snapshot = read_snapshot(
            workspace.root,
            dreaming=dreaming,
            now=ctx.now,
            zone=ctx.zone,
            agents=workspace.agents,
            readonly=True,
        )
        plan = _plan(snapshot, ctx)
        changed = [write.path for write in plan.writes]
    document = {
        "workspace": str(workspace.root),
        "applied": bool(ctx.args.apply),
        "facts": len(plan.facts),
        "pages": [page.as_json() for page in plan.pages],
        "opinions": [opinion.as_json() for opinion in plan.opinions],
        "changedFiles": changed,
        "editedByHand": [page.path for page in plan.pages if page.edited],
        "warnings": list(plan.warnings),
    }
    ctx.emit(document, _reflect_text(plan, changed, applied=bool(ctx.args.apply)))
    return 0


def _reflect_text(plan: BankPlan, changed: list[str], *, applied: bool) -> str:
    lines = [f"Memory bank: {len(plan.facts)} fact(s), {len(plan.pages)} page(s)"]
    for page in plan.pages:
        mark = " (your edits kept)" if page.edited else ""
        lines.append(f"  {page.path}: {page.kind}, {len(page.facts)} fact(s){mark}")
    if plan.opinions:
        lines.append("Opinions:")
        for opinion in plan.opinions:
            move = "rose" if opinion.confidence > opinion.start else "fell"
            move = move if opinion.confidence != opinion.start else "held"
            lines.append(
                f"  c={opinion.confidence:.2f} ({move} from {opinion.start:.2f}, "
                f"updated {opinion.updated}) {opinion.statement}"
            )
    lines += [f"warning: {warning}" for warning in plan.warnings]
    if applied:
        lines.append(f"Wrote {len(changed)} file(s)." if changed else "Nothing to write.")
    elif changed:
        lines.append(f"Would write {len(changed)} file(s); run with --apply to write them.")
    else:
        lines.append("The bank is up to date.")
    return "\n".join(lines)


def run_recall(ctx: Context) -> int:
    """Answer the question, print cited results, record the search hits as recall traces."""
    import json

    from dreamd.cli.options import semantic_for
    from dreamd.recall.answers import recall
    from dreamd.recall.index import RecallIndex
    from dreamd.store.cleantext import redact_known

    root = ctx.root(ctx.args.agent)
    first, last = _day(ctx, "since"), _day(ctx, "until")
    with RecallIndex.open(root) as index, semantic_for(index, ctx.resolved.embeddings) as vectors:
        index.update()
        answer = recall(
            index,
            root,
            ctx.args.query,
            k=ctx.args.k,
            now=ctx.now,
            first_day=first,
            last_day=last,
            entity=ctx.args.entity,
            kinds=ctx.args.kind,
        )
        current = index.redaction_current
        if vectors is not None and vectors.error:
            ctx.note(f"semantic recall unavailable ({vectors.error}); lexical hits only")
    if answer.hits and not ctx.args.no_record and ctx.enabled.enabled:
        from dreamd.recall.record import record_search

        record_search(
            root,
            ctx.args.query,
            answer.hits,
            now=ctx.now,
            zone=ctx.zone,
            origin=ctx.args.origin,
            redacted=current,
        )
    # Lines read from an index redacted under the rules in force are shown as stored; bank
    # pages (a person may edit them) are redacted on the way out, unless known clean.
    from_index = {(h.source, h.snippet) for h in answer.lines} if current else set()
    paged = [r.content for r in answer.results if (r.source, r.content) not in from_index]
    shown = iter(redact_known(root, paged))
    results = [
        {
            **r.as_json(),
            "content": r.content if (r.source, r.content) in from_index else next(shown),
        }
        for r in answer.results
    ]
    if not current:  # what a line replaced comes from the index too
        from dreamd.redaction import redact

        for result in results:
            for earlier in result.get("was", ()):
                earlier["content"] = redact(earlier["content"])
    document = {"query": ctx.args.query, "results": results}
    if ctx.json:
        print(json.dumps(document, ensure_ascii=False), flush=True)
        return 0
    lines = [
        f"{r['kind']:<11} {r['timestamp'] or '-':<10} {r['source']}"
        + (f" (c={r['confidence']:.2f})" if "confidence" in r else "")
        + (" (context)" if r.get("context") else "")
        + f"\n  {r['content']}"
        + (f"\n  also: {', '.join(r['also'])}" if r.get("also") else "")
        + "".join(
            f"\n  was: {e['content']} ({e['source']}), until {e['until']}" for e in r.get("was", ())
        )
        for r in results
    ]
    print("\n".join(lines) if lines else f"Nothing recalled for {ctx.args.query!r}.", flush=True)
    return 0
