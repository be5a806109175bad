"""The dream report: ``memory/dreams/YYYY-MM-DD.md`` and its line in ``memory/dream-log.md``.

Rules: the report has the seed's sections, in its order (:data:`SECTIONS`); every line comes
from the night's material (the graph's counts and statistics, the recall store, the health
components, the candidates the screen refused, the night's high-weight lines, ``.learnings/``
requests, topic files, patterns); a section with nothing in it says ``- none``. Without a model
the lines are these facts; the report is written only when the sweep changed something, so a
second sweep over its own output writes nothing. :func:`report_sections` reads a report back
into ``{title: [lines]}``. Pure; redacted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dreamd.redaction import redact

__all__ = ["SECTIONS", "Night", "log_line", "render_report", "report_sections"]

SECTIONS = (
    "M-FLOW Graph Status",
    "RAG Status",
    "Health Insights",
    'Insights ("I Learned")',
    "Tomorrow's Focus",
    "Topic Files Written",
    "Graph Updates",
    "Analysis",
    "Patterns Updated",
)
_SECTION = re.compile(r"^##\s+(.+?)\s*$")


@dataclass(frozen=True)
class Night:
    """What one sweep found, as the report tells it."""

    day: str
    counts: Mapping[str, int]
    stats: Mapping[str, float]
    health: Mapping[str, Any]
    short_term: int
    retired: int
    promoted: Sequence[str]
    learned: Sequence[str]
    focus: Sequence[str]
    topics: Sequence[tuple[str, str]]
    updates: Mapping[str, int]
    recurring: Sequence[str]
    causes: Sequence[str]
    paths_evaluated: int
    patterns: Sequence[tuple[str, str]]
    notes: Sequence[str] = field(default_factory=tuple)
    refused: Mapping[str, int] = field(default_factory=dict)  # screen gate -> candidates
    skipped: int = 0  # new greetings and acknowledgements attention left out
    interpretation: Sequence[str] = ()  # a model's reading of the health numbers


def _or_none(lines: Sequence[str]) -> list[str]:
    return list(lines) or ["- none"]


def _health_lines(night: Night) -> list[str]:
    components = night.health["components"]
    lines = [f"- Health score: {night.health['score']}/100"]
    lines += [f"- {name}: {value:.2f}" for name, value in components.items()]
    weakest = min(components.items(), key=lambda item: (item[1], item[0]))
    if weakest[1] < 1.0:
        lines.append(f"- Weakest: {weakest[0]} ({weakest[1]:.2f})")
    refused = {gate: n for gate, n in sorted(night.refused.items()) if n}
    if refused:
        by_gate = ", ".join(f"{gate} {n}" for gate, n in refused.items())
        lines.append(f"- Junk refused: {sum(refused.values())} candidate(s) ({by_gate})")
    if night.skipped:
        lines.append(f"- Greetings and acknowledgements left out: {night.skipped}")
    return lines + [f"- {line}" for line in night.interpretation]


def render_report(night: Night) -> str:
    """The report's Markdown (see the module rules)."""
    c, s = night.counts, night.stats
    body: dict[str, list[str]] = {
        SECTIONS[0]: [
            f"- Entities: {c['entities']} | FacetPoints: {c['facetPoints']} | Facets: "
            f"{c['facets']} | Episodes: {c['episodes']} | Edges: {c['edges']}",
            f"- Graph Connectivity: {100 * s.get('connectivity', 0.0):.0f}% | Avg Path Cost: "
            f"{s.get('avgPathCost', 0.0):.3f} | Reachable episodes: "
            f"{100 * s.get('reachable', 0.0):.0f}%",
        ],
        SECTIONS[1]: [
            f"- Short-term recall: {night.short_term} entries | Long-term: {night.retired} "
            "retired this cycle",
            f"- Promoted today: {len(night.promoted)}",
            *(f"  - {text}" for text in night.promoted[:5]),
        ],
        SECTIONS[2]: _health_lines(night),
        SECTIONS[3]: _or_none([f"- {line}" for line in night.learned]),
        SECTIONS[4]: _or_none([f"- {line}" for line in night.focus]),
        SECTIONS[5]: _or_none([f"- {path}: {title}" for path, title in night.topics]),
        SECTIONS[6]: [
            f"- New episodes: {night.updates.get('episodes', 0)}",
            f"- New semantic edges: {night.updates.get('edges', 0)}",
            f"- Pruned nodes: {night.updates.get('pruned', 0)}",
        ],
        SECTIONS[7]: [
            f"- Recurring errors found: {', '.join(night.recurring) or 'none'}",
            *(f"- Root cause: {cause}" for cause in night.causes),
            f"- Bundle Search paths evaluated: {night.paths_evaluated}",
        ],
        SECTIONS[8]: _or_none([f"- {name}: {change}" for name, change in night.patterns]),
    }
    lines = [f"# 🌙 Dream Report — {night.day}", ""]
    for title in SECTIONS:
        lines += [f"## {title}", *body[title], ""]
    return redact("\n".join(lines).rstrip("\n") + "\n")


def log_line(night: Night, *, stamp: str, path: str) -> str:
    """The report's line in ``memory/dream-log.md``."""
    changed = [n for n, change in night.patterns if change not in ("unchanged",)]
    return redact(
        f"- {stamp}: health {night.health['score']}/100; {night.counts['episodes']} episodes "
        f"(+{night.updates.get('episodes', 0)}), {len(night.promoted)} promoted, "
        f"{len(changed)} pattern(s), {len(night.topics)} topic file(s); [{night.day}]({path})"
    )


def report_sections(text: str) -> dict[str, list[str]]:
    """A report read back: each ``##`` title with its non-blank lines."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.split("\n"):
        heading = _SECTION.match(line)
        if heading:
            current = found.setdefault(heading.group(1), [])
        elif current is not None and line.strip():
            current.append(line)
    return found
