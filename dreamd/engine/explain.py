"""Explaining a ranking: one entry's components, boost and gate verdicts, as JSON documents.

Shared by ``dreamd memory promote``/``promote-explain``, chat's ``/dream explain`` and the
control API, so every surface prints the same shape (OpenClaw's ``promote --json`` /
``promote-explain --json`` fields, plus ``phaseBoost``, ``rejection``, per-gate results, where
the entry stands in MEMORY.md and the gate that stopped it).

Which entry a selector means: the row whose key *is* the selector; else, among rows whose key,
path or snippet contains it (case-insensitively), a key match first, then an entry already
promoted, then one the sweep would pick tonight, then one stopped after ranking, then the rest,
each by score. So ``billing`` explains the promoted billing line, not a chunk that happens to
mention billing. Pure: a snapshot and a time in, data out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any

from dreamd.clock import day_of, parse_instant
from dreamd.engine.phases.deep import GATES, Thresholds, Verdict, rank, rejection
from dreamd.engine.phases.scoring import Scored
from dreamd.engine.phases.screen import SCREEN_GATES, human_ref, rank_screened
from dreamd.engine.snapshot import Snapshot
from dreamd.engine.state import RecallEntry
from dreamd.engine.text.contamination import contamination_reason
from dreamd.engine.text.memory_entries import MemoryEntry, claim_of, memory_entries
from dreamd.engine.transcripts import ORIGIN_RULES
from dreamd.errors import SelectorError

__all__ = ["candidate_json", "explain", "locate", "select", "verdict_lines"]


def candidate_json(scored: Scored) -> dict[str, Any]:
    """One scored entry as ``promote``/``promote-explain`` print it."""
    entry = scored.entry
    signals = scored.signals
    return {
        "key": entry.key,
        "path": entry.path,
        "startLine": entry.start_line,
        "endLine": entry.end_line,
        "source": entry.source,
        "snippet": entry.snippet,
        "recallCount": entry.recall_count,
        "dailyCount": entry.daily_count,
        "groundedCount": entry.grounded_count,
        "signalCount": signals,
        "avgScore": entry.total_score / signals if signals else 0.0,
        "maxScore": entry.max_score,
        "uniqueQueries": scored.unique_queries,
        "firstRecalledAt": entry.first_recalled_at,
        "lastRecalledAt": entry.last_recalled_at,
        "ageDays": scored.age_days,
        "score": min(1.0, scored.score),
        "recallDays": list(entry.recall_days),
        "conceptTags": list(entry.concept_tags),
        "components": scored.components.as_dict(),
        "phaseBoost": scored.phase_boost,
        "promotedAt": entry.promoted_at,
        "provenance": {
            "originClass": entry.provenance.origin_class if entry.provenance else "agent",
            "sessionKind": entry.provenance.session_kind if entry.provenance else "interactive",
            "originRule": entry.provenance.origin_rule if entry.provenance else None,
        },
    }


def _tier(
    scored: Scored, present: frozenset[str], picked: frozenset[str], stopped: frozenset[str]
) -> int:
    key = scored.entry.key
    if key in present:
        return 0
    if scored.entry.promoted_at:
        return 1
    if key in picked:
        return 2
    return 3 if key in stopped else 4


def _present(verdicts: Iterable[Verdict], entries: Sequence[MemoryEntry]) -> frozenset[str]:
    """Promoted rows whose own marker is in MEMORY.md, else those written under another key."""
    promoted = [v.scored.entry for v in verdicts if v.scored.entry.promoted_at]
    own = frozenset(e.key for e in promoted if locate(e.key, entries) is not None)
    return own or frozenset(e.key for e in promoted if _written_as(e, entries) is not None)


def select(
    candidates: Iterable[Scored],
    selector: str,
    *,
    present: frozenset[str] = frozenset(),
    picked: frozenset[str] = frozenset(),
    stopped: frozenset[str] = frozenset(),
) -> Scored:
    """The entry ``selector`` means (see the module rules). ``present``: promoted rows whose
    entry is in MEMORY.md, ``picked``: tonight's candidates, ``stopped``: entries refused after
    ranking."""
    ordered = list(candidates)
    for scored in ordered:
        if scored.entry.key == selector:
            return scored
    wanted = selector.lower()
    found = []
    for scored in ordered:
        entry = scored.entry
        if wanted in entry.key.lower():
            kind = 0
        elif wanted in entry.path.lower() or wanted in entry.snippet.lower():
            kind = 1
        else:
            continue
        rank_key = (kind, _tier(scored, present, picked, stopped), -scored.score, entry.key)
        found.append((rank_key, scored))
    if not found:
        raise SelectorError(f'No promotion candidate matched "{selector}".')
    return min(found, key=lambda item: item[0])[1]


def locate(ref: str, entries: Sequence[MemoryEntry]) -> MemoryEntry | None:
    """The MEMORY.md entry a reference names: a promotion key, or a person's line by its hash."""
    for item in entries:
        if item.key == ref or (item.key is None and human_ref(item.text) == ref):
            return item
    return None


def _entry_json(item: MemoryEntry | None) -> dict[str, Any] | None:
    return None if item is None else {"line": item.line, "entry": item.raw}


def _written_as(entry: RecallEntry, entries: Sequence[MemoryEntry]) -> MemoryEntry | None:
    """Where a promoted row stands in MEMORY.md: its own entry, the one it repeats, or a
    promotion of the same text under another key (a claim staged again from a newer note)."""
    found = locate(entry.duplicate_of or entry.key, entries)
    if found is None:
        text = claim_of(entry.snippet)
        found = next((e for e in entries if e.generated and e.text == text), None)
    return found


def _promoted(entry: RecallEntry, entries: Sequence[MemoryEntry], zone: tzinfo) -> Any:
    moment = parse_instant(entry.promoted_at) if entry.promoted_at else None
    if moment is None:
        return None
    found = _written_as(entry, entries)
    return {
        "at": entry.promoted_at,
        "day": day_of(moment, zone),
        "inMemory": found is not None,
        **(_entry_json(found) or {"line": None, "entry": None}),
    }


def _gate(
    entry: RecallEntry,
    verdict: str | None,
    detail: str | None,
    entries: Sequence[MemoryEntry],
) -> dict[str, Any] | None:
    """The gate that stopped ``entry`` and what it saw."""
    if entry.forgotten_at:
        return {"gate": "forgotten", "detail": f"forgotten at {entry.forgotten_at}"}
    if entry.duplicate_of:
        found = locate(entry.duplicate_of, entries)
        return {"gate": "duplicate", "detail": entry.duplicate_of, "of": _entry_json(found)}
    if verdict is None or verdict == "already promoted":
        return None
    if verdict == "origin":
        origin = entry.provenance.origin_class if entry.provenance else "agent"
        rule = entry.provenance.origin_rule if entry.provenance else None
        if rule is None or rule not in ORIGIN_RULES:
            return {"gate": verdict, "detail": f"recalled from an {origin} origin"}
        detail = f"recalled from an {origin} origin: {ORIGIN_RULES[rule]}"
        return {"gate": verdict, "detail": detail, "rule": rule}
    if verdict == "contamination":
        return {"gate": verdict, "detail": contamination_reason(entry.snippet)}
    if verdict == "duplicate" and detail is not None:
        return {"gate": verdict, "detail": detail, "of": _entry_json(locate(detail, entries))}
    return {"gate": verdict, "detail": detail}


def _backers(key: str, rows: Mapping[str, RecallEntry]) -> list[str]:
    return sorted(
        f"{row.path}:{row.start_line}-{row.end_line}"
        for row in rows.values()
        if row.duplicate_of == key
    )


def explain(
    snapshot: Snapshot,
    thresholds: Thresholds,
    selector: str,
    *,
    now: datetime,
    include_promoted: bool = False,
    zone: tzinfo = UTC,
) -> tuple[Scored, dict[str, Any]]:
    """The entry ``selector`` picks (ranked with every gate open) and its explain document."""
    rows, signals = snapshot.store.rows, snapshot.signals.rows
    everything = Thresholds(
        0, 0, 0, -1, 10**9, thresholds.half_life_days, salience_boost=thresholds.salience_boost
    )
    loose = rank(rows, signals, everything, now=now, include_promoted=True)
    memory_text = snapshot.memory.text
    screened = rank_screened(
        snapshot.store,
        signals,
        thresholds,
        memory_text=memory_text,
        now=now,
        include_promoted=include_promoted,
    )
    strict: dict[str, Verdict] = {v.scored.entry.key: v for v in screened.ranking.verdicts}
    picked = frozenset(s.entry.key for s in screened.ranking.candidates)
    stopped = frozenset(
        key for key, v in strict.items() if v.rejection in SCREEN_GATES and key not in picked
    )
    entries = memory_entries(memory_text)
    present = _present(loose.verdicts, entries)
    scored = select(
        (v.scored for v in loose.verdicts),
        selector,
        present=present,
        picked=picked,
        stopped=stopped,
    )
    key = scored.entry.key
    verdict = rejection(scored, thresholds, include_promoted=include_promoted)
    if verdict is None:
        found = strict.get(key)
        verdict = None if key in picked else (found.rejection if found else None)
        verdict = verdict or (None if key in picked else "selection limit")
    failed_at = _failed_at(verdict)
    passes = {
        "score": scored.score >= thresholds.min_score,
        "recallCount": scored.signals >= thresholds.min_recall_count,
        "uniqueQueries": scored.unique_queries >= thresholds.min_unique_queries,
        "maxAge": thresholds.max_age_days < 0 or scored.age_days <= thresholds.max_age_days,
    }
    document = {
        "workspaceDir": str(snapshot.root),
        "thresholds": thresholds.as_json(),
        "candidate": candidate_json(scored),
        "passes": passes,
        "rejection": verdict,
        "gates": [
            {"gate": gate, "passed": index < failed_at}
            for index, gate in enumerate((*GATES, *SCREEN_GATES))
        ],
        "promoted": _promoted(scored.entry, entries, zone),
        "stoppedBy": _gate(scored.entry, verdict, screened.details.get(key), entries),
        "backedBy": _backers(key, rows),
    }
    return scored, document


def _failed_at(verdict: str | None) -> int:
    """Where ``verdict`` sits in the gates, the rank gates first, then the screen."""
    order = (*GATES, *SCREEN_GATES)
    if verdict in order:
        return order.index(verdict)
    return len(GATES) if verdict == "selection limit" else len(order)


def verdict_lines(document: Mapping[str, Any]) -> list[str]:
    """The verdict in words: promotable, already promoted (with its line), or what stopped it."""
    promoted = document.get("promoted")
    stopped = document.get("stoppedBy")
    lines = []
    if stopped is not None:
        gate, detail = stopped["gate"], stopped.get("detail")
        text = f"verdict: not promoted: {gate}"
        if gate == "duplicate" and stopped.get("of"):
            text += f" of the entry at MEMORY.md:{stopped['of']['line']}"
        elif detail:
            text += f" ({detail})"
        lines.append(text)
        if gate == "duplicate" and stopped.get("of"):
            lines.append(f"  {stopped['of']['entry']}")
        if promoted is not None and gate == "duplicate":
            lines.append(f"  reinforces it since {promoted['day']}")
        return lines
    if promoted is not None:
        if promoted["inMemory"]:
            lines.append(f"verdict: already promoted on {promoted['day']}")
            lines.append(f"  MEMORY.md:{promoted['line']}: {promoted['entry']}")
        else:
            lines.append(
                f"verdict: already promoted on {promoted['day']} "
                "(its entry is no longer in MEMORY.md)"
            )
        if document.get("backedBy"):
            lines.append(f"  also backed by: {', '.join(document['backedBy'])}")
        return lines
    verdict = document["rejection"]
    return [f"verdict: {'promotable' if verdict is None else 'not promoted: ' + verdict}"]
