"""``dreamd memory report|patterns|graph``: the dream report, the pattern library, the graph.

``report [--day D]`` prints the day's dream report (the latest by default), ``--json``:
``{"day", "path", "health", "sections": {title: [lines]}}``. ``patterns`` lists
``memory/patterns/*.md`` with their frontmatter, ``--json``: ``{"patterns": [{"path", "name",
"trigger", "response", "examples", "created", "updated"}]}``. ``graph`` counts the inverted-cone
graph as a sweep would build it now and scores its health, ``--json``: ``{"entities",
"facetPoints", "facets", "episodes", "edges", "stats", "health": {"score", "components"}}``.
Reading only; registering is cheap (each verb imports what it uses when it runs).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dreamd.cli.context import Context
    from dreamd.engine.dreamwork.plan import DreamworkPlan

__all__ = ["register"]

JsonFlag = Callable[[argparse.ArgumentParser], None]
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def register(verbs: Any, json_flag: JsonFlag) -> None:
    """Add ``memory report``, ``memory patterns`` and ``memory graph``."""
    report = verbs.add_parser("report", help="show the dream report (the latest, or --day)")
    report.add_argument("--day", help="the report of this day (YYYY-MM-DD)")
    json_flag(report)
    report.set_defaults(handler=run_report)
    patterns = verbs.add_parser("patterns", help="list the pattern library (memory/patterns/)")
    json_flag(patterns)
    patterns.set_defaults(handler=run_patterns)
    graph = verbs.add_parser("graph", help="count the inverted-cone graph and score its health")
    json_flag(graph)
    graph.set_defaults(handler=run_graph)


def run_report(ctx: Context) -> int:
    """Print a dream report."""
    from dreamd.engine.dreamwork.report import report_sections
    from dreamd.errors import DreamdError
    from dreamd.redaction import redact
    from dreamd.workspace.dreamwork import read_report

    day = ctx.args.day
    if day is not None and not _DAY.match(day):
        raise DreamdError(f"--day {day!r}: expected a day like 2026-03-02")
    workspace = ctx.workspace(ctx.args.agent)
    found = read_report(workspace.root, day)
    if found is None:
        which = f"for {day}" if day else "yet"
        raise DreamdError(f"no dream report {which} in {workspace.root}; a sweep writes one")
    text = redact(found.text)
    sections = report_sections(text)
    score = next((line for line in sections.get("Health Insights", []) if "score" in line), "")
    number = re.search(r"(\d+)/100", score)
    document = {
        "day": found.path.rsplit("/", 1)[1].removesuffix(".md"),
        "path": found.path,
        "health": int(number.group(1)) if number else None,
        "sections": sections,
    }
    ctx.emit(document, text.rstrip("\n"))
    return 0


def run_patterns(ctx: Context) -> int:
    """List the pattern library."""
    from dreamd.engine.dreamwork.patterns import read_pattern
    from dreamd.layout import PATTERNS_DIR
    from dreamd.workspace.dreamwork import read_pages

    workspace = ctx.workspace(ctx.args.agent)
    pages = read_pages(workspace.root, PATTERNS_DIR)
    found = [read_pattern(path, page.text) for path, page in sorted(pages.items())]
    document = {"patterns": found}
    lines = [f"{p['name']} ({p['path']}): {p['trigger']} -> {p['response']}" for p in found]
    ctx.emit(document, "\n".join(lines) if lines else "No patterns yet.")
    return 0


def _planned(ctx: Context) -> DreamworkPlan:
    from dreamd.engine.dreamwork.plan import Tonight, plan_dreamwork
    from dreamd.engine.snapshot import DreamworkFiles, TextFile
    from dreamd.engine.traces import MAX_STORE_ENTRIES
    from dreamd.layout import GRAPH_LEDGER

    snapshot = ctx.snapshot(readonly=True)
    files = snapshot.dreamwork or DreamworkFiles(TextFile(GRAPH_LEDGER, "", None))
    day = ctx.now.astimezone(ctx.zone).date().isoformat()
    tonight = Tonight(day, "", False, len(snapshot.store.rows), MAX_STORE_ENTRIES, 0, (), 0)
    return plan_dreamwork(files, tonight)


def run_graph(ctx: Context) -> int:
    """Count the graph and score its health."""
    planned = _planned(ctx)
    counts = planned.graph.counts()
    document = {**counts, "stats": planned.graph.stats(), "health": dict(planned.health)}
    components = planned.health["components"]
    text = "\n".join(
        [
            " | ".join(f"{name}: {value}" for name, value in counts.items()),
            f"health: {planned.health['score']}/100",
            *(f"  {name}: {value:.2f}" for name, value in components.items()),
        ]
    )
    ctx.emit(json.loads(json.dumps(document)), text)
    return 0
