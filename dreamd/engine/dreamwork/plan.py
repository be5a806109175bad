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
from datetime import date
from typing import Any

from dreamd.engine.dreamwork.health import health_components, health_score
from dreamd.engine.dreamwork.learnings import Learning, read_learnings
from dreamd.engine.dreamwork.patterns import (
    Occasion,
    PatternPage,
    occasions_of,
    pattern_id,
    plan_patterns,
)
from dreamd.engine.dreamwork.report import (
    SECTIONS,
    Night,
    log_line,
    render_report,
    report_sections,
)
from dreamd.engine.dreamwork.request import DreamworkRequest, PatternAsk, Prose, Tonight
from dreamd.engine.dreamwork.topics import TopicPage, plan_topics
from dreamd.engine.graph.cone import Graph, merge_fragments
from dreamd.engine.graph.episodes import source_kind
from dreamd.engine.graph.export import export_documents
from dreamd.engine.graph.fragments import Fragment, Tagged, build_fragment
from dreamd.engine.graph.ledger import GraphLedger, decode_ledger, encode_ledger
from dreamd.engine.plan import FileWrite
from dreamd.engine.snapshot import DreamworkFiles, TextFile
from dreamd.engine.text.salience import HIGH
from dreamd.engine.text.snippets import content_hash
from dreamd.layout import DREAM_LOG, DREAM_REPORTS_DIR, GRAPH_DIR, GRAPH_LEDGER
from dreamd.redaction import blank_secret_lines, redact

__all__ = ["DreamworkPlan", "Tonight", "plan_dreamwork"]

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


def _learned_line(t: Tagged) -> str:
    return f"{t.kind}: {_words(t.text)} ({t.path}:{t.line})"


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


def _learned(tagged: Sequence[Tagged], new: Sequence[Tagged], report: TextFile | None) -> list[str]:
    """The night's "I learned" lines: its new high-weight lines and those the day's report
    already lists."""
    listed: set[str] = set()
    if report is not None and report.exists:
        section = report_sections(report.text).get(SECTIONS[3], [])
        listed = {line.removeprefix("- ") for line in section}
    fresh = {(t.path, t.line) for t in new}
    chosen = [
        t
        for t in tagged
        if t.kind in HIGH
        and t.kind != "completed"
        and ((t.path, t.line) in fresh or redact(_learned_line(t)) in listed)
    ]
    chosen.sort(key=lambda t: (t.day or "", t.path, t.line), reverse=True)
    return [_learned_line(t) for t in chosen[:5]]


def _words(text: str) -> str:
    return " ".join(text.lstrip("-*+ ").split())


def _focus(
    tagged: Sequence[Tagged], learnings: Sequence[Learning], health: Mapping[str, Any]
) -> list[str]:
    done = {t.topic: t.day or "" for t in tagged if t.kind == "completed" and t.topic}
    open_errors = [
        t for t in tagged if t.kind == "error" and t.topic and done.get(t.topic, "") < (t.day or "")
    ]
    open_errors.sort(key=lambda t: (t.day or "", t.line), reverse=True)
    focus = [f"follow up the error: {_words(t.text)} ({t.path}:{t.line})" for t in open_errors[:2]]
    requests = sorted((e for e in learnings if e.kind == "request"), key=lambda e: e.day)
    focus += [f"requested: {e.text} ({e.path}:{e.line})" for e in requests[-2:]]
    components = health["components"]
    name, value = min(components.items(), key=lambda item: (item[1], item[0]))
    if value < 0.5:
        focus.append(f"raise {name}: {value:.2f}")
    return focus


def _analysis(tagged: Sequence[Tagged]) -> tuple[list[str], list[str]]:
    errors: dict[str, list[Tagged]] = {}
    for t in tagged:
        if t.kind == "error" and t.topic:
            errors.setdefault(t.topic, []).append(t)
    recurring = sorted(((len(v), k) for k, v in errors.items() if len(v) >= 2), reverse=True)
    causes = []
    for count, topic in recurring[:3]:
        names: dict[str, int] = {}
        for t in errors[topic]:
            for name in t.entities:
                names[name] = names.get(name, 0) + 1
        if names:
            name, seen = max(names.items(), key=lambda item: (item[1], item[0]))
            causes.append(f"{topic} errors name {name} in {seen} of {count} occasions")
    return [f"{topic} ({count})" for count, topic in recurring[:5]], causes


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
    occasions = occasions_of(tagged, learnings)
    phrasing = prose.patterns if prose is not None else {}
    patterns = plan_patterns(occasions, files.pages, ledger.written, phrasing=phrasing)
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
        recurring, causes = _analysis(tagged)
        night = Night(
            day=tonight.day,
            counts=graph.counts(),
            stats=stats,
            health=health,
            short_term=tonight.store_rows,
            retired=tonight.retired,
            promoted=tonight.promoted,
            learned=_learned(tagged, new, files.report),
            refused=tonight.refused,
            skipped=_skipped(daily, ledger),
            focus=_focus(tagged, learnings, health),
            topics=[(t.path, t.title) for t in topics if not t.edited],
            updates={
                "episodes": sum(1 for n in new_nodes - old_nodes if n.startswith("ep:")),
                "edges": len(new_edges - old_edges),
                "pruned": len(old_nodes - new_nodes),
            },
            recurring=recurring,
            causes=causes,
            paths_evaluated=round(stats.get("reachable", 0.0) * len(graph.episodes)),
            patterns=[(p.path.rsplit("/", 1)[1].removesuffix(".md"), p.change) for p in patterns],
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
    asks = _asks(patterns, occasions)
    request = None
    if night is not None or asks:
        lines = [*(material.split("\n") if night is not None else ()), *(t.text for t in new)]
        request = DreamworkRequest(
            files, tonight, frozenset(w.path for w in writes), asks, night, tuple(lines)
        )
    return DreamworkPlan(
        tuple(writes), graph, tuple(patterns), tuple(topics), health, report_path, request
    )


def _asks(patterns: Sequence[PatternPage], occasions: Sequence[Occasion]) -> tuple[PatternAsk, ...]:
    """The patterns created or updated tonight, which a model may phrase."""
    changing = {p.meta.get("episode_id") for p in patterns if p.change not in _STILL}
    groups: dict[str, list[Occasion]] = {}
    for o in occasions:
        groups.setdefault(pattern_id(o.kind, o.topic), []).append(o)
    return tuple(
        PatternAsk(key, group[-1].kind, group[-1].topic, tuple(o.text for o in group[-8:]))
        for key, group in sorted(groups.items())
        if key in changing
    )


def _with_prose(night: Night, prose: Prose) -> Night:
    """The night as the model's checked lines tell it (a section it left out keeps its own)."""
    return dataclasses.replace(
        night,
        learned=night.learned if prose.learned is None else prose.learned,
        focus=night.focus if prose.focus is None else prose.focus,
        interpretation=prose.health or (),
    )
