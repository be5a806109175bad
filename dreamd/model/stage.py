"""The model stage of a sweep: ask for the diary entry and the consolidation, then finish the plan.

Runs only when ``[model]`` names an endpoint and a model; otherwise the plan already holds
the no-model outcome. The diary tries ``model.diary_name`` first and, when that model is
unavailable, ``model.name`` once; authorization failures are not retried. Consolidation asks
one JSON completion for the eligible candidates — with related memories from the long-term
layer as context — and checks the answer
(:mod:`dreamd.engine.phases.consolidate`); any failure — timeout, unavailable model, spent token
budget, an invalid plan — keeps the append-only promotion and says why in DREAMS.md. A failed
diary writes the fixed fallback entry and marks the sweep's diary ``degraded``. With
``model.facts``, the notes the bank's claim rule read are shown to the model, whose facts pass
the checks of :mod:`dreamd.engine.bank.proposals`; any failure keeps the deterministic facts.
With ``model.report``, the night's report and the patterns created or updated are shown to the
model, whose words pass the checks of :mod:`dreamd.engine.dreamwork.prose`; any failure keeps
the deterministic patterns and report.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from pathlib import Path

from dreamd.clock import parse_instant
from dreamd.config import ModelConfig
from dreamd.engine.bank.facts import Fact
from dreamd.engine.bank.proposals import RefusedFacts, fact_messages, finish_bank, parse_proposals
from dreamd.engine.dreamwork.prose import (
    RefusedProse,
    finish_dreamwork,
    parse_prose,
    prose_messages,
)
from dreamd.engine.dreamwork.request import DreamworkRequest, Prose
from dreamd.engine.phases.consolidate import (
    Consolidated,
    RejectedPlan,
    apply_operations,
    parse_operations,
    request_messages,
)
from dreamd.engine.phases.modelwork import DiaryAnswer, finish
from dreamd.engine.phases.narrative import clean_entry, diary_messages
from dreamd.engine.plan import BankRequest, ConsolidationInput, DiaryInput, SweepPlan
from dreamd.model.client import (
    ModelClient,
    ModelError,
    ModelUnavailableError,
    TokenBudget,
    client_from_config,
)
from dreamd.recall.longterm import query_longterm
from dreamd.store.longterm import read_longterm

__all__ = ["run_fact_stage", "run_model_stage"]

_log = logging.getLogger(__name__)


async def _diary(
    client: ModelClient, config: ModelConfig, diary: DiaryInput, date_line: str, budget: TokenBudget
) -> DiaryAnswer:
    messages = diary_messages(
        fragments=diary.fragments,
        themes=diary.themes,
        promotions=diary.promotions,
        recent=diary.recent,
        date_line=date_line,
    )
    models = [config.diary_name, client.name] if config.diary_name else [client.name]
    for index, model in enumerate(models):
        try:
            completion = await client.complete(messages, model=model, budget=budget)
        except ModelUnavailableError as exc:
            if index + 1 < len(models):
                continue  # the diary model is missing: the default model, once
            return DiaryAnswer(None, "degraded", str(exc))
        except ModelError as exc:  # authorization failures included: never retried
            return DiaryAnswer(None, "degraded", str(exc))
        text = clean_entry(completion.text)
        if text is None:
            return DiaryAnswer(None, "degraded", "the model's diary entry was not usable")
        return DiaryAnswer(text, "model")
    return DiaryAnswer(None, "degraded", "no model answered")


def _long_term_context(root: Path, work: ConsolidationInput, now: datetime) -> list[str]:
    """Retired memories related to the candidates (keywords of their concept tags)."""
    rows, _ = read_longterm(root)
    if not rows:
        return []
    query = " ".join(dict.fromkeys(tag for c in work.candidates for tag in c.entry.tags))
    return [hit.snippet for hit in query_longterm(rows.values(), query, k=5, now=now)]


async def _consolidate(
    client: ModelClient, work: ConsolidationInput, budget: TokenBudget, context: list[str]
) -> Consolidated | RejectedPlan:
    messages = request_messages(work.memory, work.candidates, context)
    try:
        completion = await client.complete(messages, json_mode=True, budget=budget)
    except ModelError as exc:
        return RejectedPlan(f"the model was not available ({exc})")
    keys = [candidate.key for candidate in work.candidates]
    operations = parse_operations(completion.text, keys)
    if isinstance(operations, RejectedPlan):
        return operations
    return apply_operations(
        work.memory,
        work.candidates,
        operations,
        day=work.day,
        max_chars=work.max_chars,
        max_loss=work.max_loss,
    )


async def _facts(
    client: ModelClient, request: BankRequest, budget: TokenBudget
) -> dict[str, tuple[Fact, ...]] | RefusedFacts:
    """The model's checked facts for the notes the claim rule read (or why there are none)."""
    try:
        completion = await client.complete(fact_messages(request), json_mode=True, budget=budget)
    except ModelError as exc:
        return RefusedFacts(f"the model was not available ({exc})")
    return parse_proposals(completion.text, request)


async def _prose(
    client: ModelClient, request: DreamworkRequest, budget: TokenBudget
) -> Prose | RefusedProse:
    """The model's checked words for the night's patterns and report (or why there are none)."""
    try:
        completion = await client.complete(prose_messages(request), json_mode=True, budget=budget)
    except ModelError as exc:
        return RefusedProse(f"the model was not available ({exc})")
    return parse_prose(completion.text, request)


async def _ask(plan: SweepPlan, client: ModelClient, config: ModelConfig, root: Path) -> SweepPlan:
    requests = plan.model
    assert requests is not None
    budget = TokenBudget(config.token_budget)
    consolidation: Consolidated | RejectedPlan | None = None
    work = requests.consolidation
    if work is not None and work.candidates and config.consolidation:
        now = parse_instant(requests.dreams.stamp) or datetime.now(UTC)
        context = await asyncio.to_thread(_long_term_context, root, work, now)
        consolidation = await _consolidate(client, work, budget, context)
    diary = DiaryAnswer(None, "fallback")
    if requests.diary is not None and config.diary:
        diary = await _diary(client, config, requests.diary, requests.dreams.date_line, budget)
    if isinstance(consolidation, RejectedPlan):
        _log.info("consolidation skipped: %s; using append-only promotion", consolidation.reason)
        budget.errors.append(consolidation.reason)
    if diary.reason:
        budget.errors.append(diary.reason)
    if requests.bank is not None and config.facts:
        plan = finish_bank(plan, requests.bank, await _facts(client, requests.bank, budget))
    if requests.dreamwork is not None and config.report:
        night = requests.dreamwork
        plan = finish_dreamwork(plan, night, await _prose(client, night, budget))
    return finish(plan, requests, diary=diary, consolidation=consolidation, usage=budget.as_json())


def run_fact_stage(
    request: BankRequest, config: ModelConfig
) -> dict[str, tuple[Fact, ...]] | RefusedFacts | None:
    """The model's checked facts for ``request`` (``memory reflect``); None without a model."""
    client = client_from_config(config)
    if client is None or not config.facts:
        return None
    return asyncio.run(_facts(client, request, TokenBudget(config.token_budget)))


def run_model_stage(plan: SweepPlan, config: ModelConfig, *, root: Path) -> SweepPlan:
    """``plan`` improved by the configured model, or unchanged when there is none."""
    client = client_from_config(config)
    if client is None or plan.model is None:
        return plan
    requests = plan.model
    asks = (requests.diary, requests.consolidation, requests.bank, requests.dreamwork)
    if all(ask is None for ask in asks):
        return plan
    return asyncio.run(_ask(plan, client, config, root))
