"""``plan_dreamwork``: the graph, patterns, topic files, health and report of one sweep.

Steps, all pure:

1. the graph ledger's fragments are kept for the notes whose text did not change (same
   digest); the others are rebuilt (every line that holds a secret blanked first, on the whole
   note: :func:`dreamd.redaction.blank_secret_lines`); notes that are gone leave the graph;
2. patterns (:mod:`~dreamd.engine.dreamwork.patterns`) and topic files
   (:mod:`~dreamd.engine.dreamwork.topics`) are planned from the tagged lines of the daily
   notes and ``.learnings/``; their pages join the graph as they will be once written;
3. the merged graph (:mod:`dreamd.engine.graph.cone`) is exported
   (:mod:`dreamd.engine.graph.export`); the health score
   (:mod:`~dreamd.engine.dreamwork.health`) goes into the report;
4. when anything above changes a file, or the sweep found something new (``fresh``), the dream
   report of the day is written and a line appended to ``memory/dream-log.md``. Its "I
   learned" lines are the night's material only: the high-weight lines this sweep read for the
   first time (lines of a note whose text the ledger's fragment of it did not hold), and those
   the day's report already listed (a second sweep of the day keeps the first one's).

Writes are of kind ``graph`` (ledger, export, patterns, topic files) and ``report``; a second
sweep over the output plans none.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from dreamd.engine.dreamwork.health import health_components, health_score
from dreamd.engine.dreamwork.learnings import Learning, read_learnings
from dreamd.engine.dreamwork.patterns import PatternPage, plan_patterns
from dreamd.engine.dreamwork.recurrence import (
    Group,
    fix_lines,
    group_occasions,
    occasions_of,
)
from dreamd.engine.dreamwork.report import (
    LESSONS,
    Night,
    Recurring,
    log_line,
    render_report,
    report_sections,
)
from dreamd.engine.dreamwork.request import DreamworkRequest, PatternAsk, Prose, Tonight
from dreamd.engine.dreamwork.topics import TopicPage, plan_topics
from dreamd.engine.facts.lasting import lasting
from dreamd.engine.facts.render import fact_text
from dreamd.engine.facts.statement import read_statement
from dreamd.engine.graph.cone import Graph, merge_fragments
from dreamd.engine.graph.episodes import source_kind
from dreamd.engine.graph.export import export_documents
from dreamd.engine.graph.fragments import Fragment, Tagged, build_fragment
from dreamd.engine.graph.ledger import GraphLedger, decode_ledger, encode_ledger
from dreamd.engine.phases.promotion import Leaving
from dreamd.engine.plan import FileWrite
from dreamd.engine.snapshot import DreamworkFiles, TextFile
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.text.instructions import instruction_reason
from dreamd.engine.text.memory_entries import claim_of, memory_entries
from dreamd.engine.text.snippets import content_hash
from dreamd.layout import DREAM_LOG, DREAM_REPORTS_DIR, GRAPH_DIR, GRAPH_LEDGER
from dreamd.redaction import blank_secret_lines, redact

__all__ = ["DreamworkPlan", "Tonight", "memory_changes", "plan_dreamwork"]

MAX_OCCASIONS = 400  # the newest; grouping compares each with every group

_LOG_HEADER = "# Dream log\n\n"


@dataclass(frozen=True)
class DreamworkPlan:
    """The writes of the graph's part of a sweep and what it found."""

    writes: tuple[FileWrite, ...] = ()
    graph: Graph = field(default_factory=Graph)
    patterns: tuple[PatternPage, ...] = ()
    topics: tuple[TopicPage, ...] = ()
    health: Mapping[str, Any] = field(default_factory=dict)
    report: str | None = None
    request: DreamworkRequest | None = None  # what a model could phrase (None: nothing)

    def summary(self) -> dict[str, Any]:
        """The sweep summary's ``graph`` entry."""
        return {
            **self.graph.counts(),
            "health": self.health.get("score"),
            "patterns": len(self.patterns),
            "patternsChanged": [p.path for p in self.patterns if p.change not in _STILL],
            "topics": [t.path for t in self.topics if not t.edited],
            "editedByHand": [p.path for p in self.patterns if p.change.startswith("kept")]
            + [t.path for t in self.topics if t.edited],
            "report": self.report,
        }


_STILL = ("unchanged", "kept: edited by hand")


def _fragments(files: DreamworkFiles, ledger: GraphLedger) -> dict[str, Fragment]:
    kept = {}
    for path, loaded in files.sources.items():
        digest = content_hash(loaded.text.encode("utf-8"))
        old = ledger.fragments.get(path)
        if old is not None and old.digest == digest:
            kept[path] = old
        else:
            kept[path] = build_fragment(path, blank_secret_lines(loaded.text), digest)
    return kept


def _write(path: str, text: str, current: TextFile | None, kind: str) -> list[FileWrite]:
    if current is not None and current.exists and current.text == text:
        return []
    return [FileWrite(path, text, current.digest if current is not None else None, kind)]


def _ids(fragments: Sequence[Fragment]) -> tuple[set[str], set[tuple[str, str]]]:
    nodes = {n.id for f in fragments for n in f.nodes}
    return nodes, {(e.src, e.dst) for f in fragments for e in f.edges}


_LESSON_WORDS = {"correction": "Corrected", "insight": "Learned", "decision": "Decided"}
LESSON_KINDS = frozenset(_LESSON_WORDS)


def _learned_line(t: Tagged) -> str:
    return f"{_LESSON_WORDS[t.kind]}: {_words(t.text)} ({t.path}:{t.line})"


def _new_lines(daily: Mapping[str, Fragment], ledger: GraphLedger) -> list[Tagged]:
    """The tagged lines this sweep reads for the first time (see the module rules)."""
    found = []
    for path, fragment in daily.items():
        old = ledger.fragments.get(path)
        if old is fragment:
            continue  # kept: nothing new in it
        held = {t.text for t in old.tagged} if old is not None else set()
        found += [t for t in fragment.tagged if t.text not in held]
    return found


def _skipped(daily: Mapping[str, Fragment], ledger: GraphLedger) -> int:
    """Greetings and acknowledgements attention left out of the lines read for the first time."""
    total = 0
    for path, fragment in daily.items():
        old = ledger.fragments.get(path)
        total += max(0, fragment.dropped - (old.dropped if old is not None else 0))
    return total


def _own(text: str) -> bool:
    """A line dreamd wrote (its blocks, its staging), an order, or someone else's words quoted
    in the note ("> Hola, me interesa la lancha …"): never a lesson."""
    quoted = text.lstrip().startswith(">")
    return quoted or is_contaminated(text) or instruction_reason(text) is not None


def _learned(
    tagged: Sequence[Tagged],
    new: Sequence[Tagged],
    report: TextFile | None,
    learnings: Sequence[Learning],
    day: str,
) -> list[str]:
    """The night's lessons and corrections: its new lines that correct, teach or decide, the
    ``.learnings/`` entries of the night, and those the day's report already lists."""
    listed: set[str] = set()
    if report is not None and report.exists:
        section = report_sections(report.text).get(LESSONS, [])
        listed = {line.removeprefix("- ") for line in section}
    fresh = {(t.path, t.line) for t in new}
    chosen = [
        t
        for t in tagged
        if t.kind in LESSON_KINDS
        and not _own(t.text)
        and ((t.path, t.line) in fresh or redact(_learned_line(t)) in listed)
    ]
    chosen.sort(key=lambda t: (t.day or "", t.path, t.line), reverse=True)
    lines = [_learned_line(t) for t in chosen[:5]]
    days = {t.day for t in new if t.day} | {day, _day_before(day)}
    for entry in learnings:
        if entry.kind in ("correction", "insight") and entry.day in days and not _own(entry.text):
            lines.append(f"Noted in {entry.path.rsplit('/', 1)[-1]}: {entry.text}")
    return lines[:8]


def _day_before(day: str) -> str:
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


def _words(text: str) -> str:
    return " ".join(text.lstrip("-*+ ").split())


def _focus(
    tagged: Sequence[Tagged], learnings: Sequence[Learning], patterns: Sequence[PatternPage]
) -> list[str]:
    """Tomorrow's follow-ups: errors not marked done, requests, patterns without a fix."""
    done = {t.topic: t.day or "" for t in tagged if t.kind == "completed" and t.topic}
    known = {str(e) for p in patterns for e in p.meta.get("examples") or ()}
    open_errors = [
        t
        for t in tagged
        if t.kind == "error"
        and t.topic
        and done.get(t.topic, "") < (t.day or "")
        and _words(t.text) not in known
        and not _own(t.text)
    ]
    open_errors.sort(key=lambda t: (t.day or "", t.line), reverse=True)
    focus = [f"follow up the error: {_words(t.text)} ({t.path}:{t.line})" for t in open_errors[:2]]
    requests = sorted((e for e in learnings if e.kind == "request"), key=lambda e: e.day)
    focus += [f"requested: {e.text} ({e.path}:{e.line})" for e in requests[-2:]]
    focus += [
        f"find a fix for what keeps going wrong: {p.name}"
        for p in patterns
        if not p.fix and not p.change.startswith("kept")
    ][:2]
    return focus


def memory_changes(memory_text: str, leaving: Sequence[Leaving]) -> dict[str, Any]:
    """What tonight's promotion did to MEMORY.md's lasting facts, for the report and health:
    ``replaced`` (old entry, what replaced it), ``archived`` (left to make room), ``durable``
    (lasting facts held before), ``lost`` (lasting facts archived without a replacement)."""
    durable = sum(1 for e in memory_entries(memory_text) if _lasting(e.text))
    replaced = [
        (claim_of(item.line), claim_of(item.by_text or "") or "a newer entry")
        for item in leaving
        if item.reason == "superseded"
    ]
    archived = [claim_of(item.line) for item in leaving if item.reason == "budget"]
    lost = sum(1 for text in archived if _lasting(text))
    return {"replaced": replaced, "archived": archived, "durable": durable, "lost": lost}


def _lasting(text: str) -> bool:
    return lasting(fact_text(text), read_statement(text)).durable


def _previous_counts(files: DreamworkFiles) -> bool:
    index = files.exports.get(f"{GRAPH_DIR}/index.json")
    if index is None or not index.exists:
        return False
    try:
        return isinstance(json.loads(index.text), dict)
    except ValueError:
        return False


def plan_dreamwork(
    files: DreamworkFiles, tonight: Tonight, *, prose: Prose | None = None
) -> DreamworkPlan:
    """Plan the graph's part of one sweep (see the module rules); with ``prose`` (a model's
    checked answer, :mod:`~dreamd.engine.dreamwork.prose`), its words where it gave them."""
    ledger = decode_ledger(files.ledger.text)
    daily = _fragments(files, ledger)
    tagged = [t for f in daily.values() for t in f.tagged if source_kind(t.path) == "daily"]
    tagged.sort(key=lambda t: (t.day or "", t.path, t.line))
    learnings = [e for p, tf in sorted(files.learnings.items()) for e in read_learnings(p, tf.text)]
    texts = {path: loaded.text for path, loaded in files.sources.items()}
    occasions = occasions_of(tagged, learnings, texts)[-MAX_OCCASIONS:]
    groups = group_occasions(occasions, fix_lines(tagged, texts))
    phrasing = prose.patterns if prose is not None else {}
    patterns = plan_patterns(groups, files.pages, ledger.written, phrasing=phrasing)
    topics = plan_topics(tagged, files.pages, ledger.written)
    writes: list[FileWrite] = []
    written = {p: d for p, d in ledger.written.items() if p in files.pages}
    page_texts = {path: tf.text for path, tf in files.pages.items() if tf.exists}
    chosen = [(p.path, p.text) for p in patterns if not p.change.startswith("kept")]
    chosen += [(t.path, t.text) for t in topics if not t.edited]
    for path, text in chosen:
        writes += _write(path, text, files.pages.get(path), "graph")
        written[path] = content_hash(text.encode("utf-8"))
        page_texts[path] = text
    pages = {
        path: build_fragment(path, blank_secret_lines(text), content_hash(text.encode("utf-8")))
        for path, text in sorted(page_texts.items())
    }
    everything = [*daily.values(), *pages.values()]
    graph = merge_fragments(everything)
    stats = graph.stats()
    days = sorted(t.day for t in tagged if t.day)
    since = (date.fromisoformat(tonight.day) - date.fromisoformat(days[-1])).days if days else None
    components = health_components(
        stats=stats,
        days_since_note=since,
        promoted=len(tonight.promoted),
        ranked=tonight.ranked,
        store_rows=tonight.store_rows,
        store_cap=tonight.store_cap,
        refused=sum(tonight.refused.values()),
        durable=tonight.durable,
        lost=tonight.lost,
    )
    health = health_score(components)
    if not graph.episodes and not ledger.fragments and not _previous_counts(files):
        return DreamworkPlan(graph=graph, health=health)  # nothing to draw: no files at all
    for path, text in export_documents(graph, stats=stats).items():
        writes += _write(path, text, files.exports.get(path), "graph")
    fresh_ledger = GraphLedger(fragments=daily, written=written)
    encoded = encode_ledger(fresh_ledger)
    if encoded != files.ledger.text:
        writes.append(FileWrite(GRAPH_LEDGER, encoded, files.ledger.digest, "graph"))
    report_path = None
    night = None
    new = _new_lines(daily, ledger)
    if writes or tonight.fresh:
        old_nodes, old_edges = _ids(list(ledger.fragments.values()))
        new_nodes, new_edges = _ids(everything)
        night = Night(
            day=tonight.day,
            counts=graph.counts(),
            stats=stats,
            health=health,
            short_term=tonight.store_rows,
            retired=tonight.retired,
            promoted=tonight.promoted,
            learned=_learned(tagged, new, files.report, learnings, tonight.day),
            refused=tonight.refused,
            skipped=_skipped(daily, ledger),
            focus=_focus(tagged, learnings, patterns),
            topics=[(t.path, t.title) for t in topics if not t.edited],
            updates={
                "episodes": sum(1 for n in new_nodes - old_nodes if n.startswith("ep:")),
                "edges": len(new_edges - old_edges),
                "pruned": len(old_nodes - new_nodes),
            },
            recurring=[Recurring(p.name, p.days, p.fix, p.change, p.occurrences) for p in patterns],
            replaced=tonight.replaced,
            archived=tonight.archived,
            durable=tonight.durable,
            lost=tonight.lost,
            bank=tonight.bank,
            ranked=tonight.ranked,
            days_since_note=since,
        )
        report_path = f"{DREAM_REPORTS_DIR}/{tonight.day}.md"
        material = render_report(night)
        if prose is not None:
            night = _with_prose(night, prose)
        writes += _write(report_path, render_report(night), files.report, "report")
        log = files.log.text if files.log is not None and files.log.exists else _LOG_HEADER
        line = log_line(night, stamp=tonight.stamp, path=f"dreams/{tonight.day}.md")
        log = log if log.endswith("\n") else log + "\n"
        writes += _write(DREAM_LOG, log + line + "\n", files.log, "report")
    asks = _asks(patterns, groups)
    request = None
    if night is not None or asks:
        lines = [*(material.split("\n") if night is not None else ()), *(t.text for t in new)]
        request = DreamworkRequest(
            files, tonight, frozenset(w.path for w in writes), asks, night, tuple(lines)
        )
    return DreamworkPlan(
        tuple(writes), graph, tuple(patterns), tuple(topics), health, report_path, request
    )


def _asks(patterns: Sequence[PatternPage], groups: Sequence[Group]) -> tuple[PatternAsk, ...]:
    """The patterns created or updated tonight, which a model may phrase."""
    asks = []
    for page in patterns:
        if page.change in _STILL:
            continue
        kind = str(page.meta.get("facets", ["error."])[0]).split(".", 1)[0]
        subject = str(page.meta.get("trigger", "")).removeprefix("work on ")
        topic = subject.split(", ", 1)[0].split(" and ", 1)[0] or page.name
        examples = tuple(str(e) for e in page.meta.get("examples") or ())
        asks.append(PatternAsk(str(page.meta.get("episode_id")), kind, topic, examples))
    return tuple(asks)


def _with_prose(night: Night, prose: Prose) -> Night:
    """The night as the model's checked lines tell it (a section it left out keeps its own)."""
    return dataclasses.replace(
        night,
        learned=night.learned if prose.learned is None else prose.learned,
        focus=night.focus if prose.focus is None else prose.focus,
        interpretation=prose.health or (),
    )
