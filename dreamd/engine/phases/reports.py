"""Report bodies of the three phases, for managed blocks and ``memory/dreaming/<phase>/<day>.md``.

Reports say what happened without copying rejected text: the deep report gives counts by
rejection category only. Promotions of the day that were *grounded-led* (most of their signals
came from historical replay, ``rem-backfill --stage-short-term``) are counted and named by
source range, so a reviewer can tell them from promotions earned by organic recall. Bodies
never contain the time of day, so a repeated sweep on the same dreaming day renders the same
report. Every body passes the one redaction (:mod:`dreamd.redaction`): a row that reached the
store from elsewhere (OpenClaw, a hand edit) is masked here, and a theme whose tag could be a
fragment of a secret is left out. Pure string building.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dreamd.engine.phases.light import Staged
from dreamd.engine.phases.rem import Theme, Truth
from dreamd.engine.text.salience import HIGH, kind_of
from dreamd.redaction import is_secret_tag, redact

__all__ = ["deep_body", "light_body", "rem_body", "report_document"]

MAX_GROUNDED_REFS = 5
REPORT_TITLES = {"light": "# Light Sleep", "rem": "# REM Sleep", "deep": "# Deep Sleep"}


def light_body(staged: Sequence[Staged]) -> str:
    """One ``Candidate`` item per staged entry, or ``- No notable updates.``."""
    if not staged:
        return "- No notable updates."
    lines = []
    for item in staged:
        entry = item.entry
        lines += [
            f"- Candidate: {entry.snippet}",
            f"  - confidence: {item.confidence:.2f}",
            f"  - evidence: {entry.path}:{entry.start_line}-{entry.end_line}",
            f"  - recalls: {item.recall_count}",
        ]
        kind = kind_of(entry.snippet)
        if kind in HIGH:
            lines.append(f"  - kind: {kind}")
        lines.append("  - status: staged")
    return redact("\n".join(lines))


def rem_body(themes: Sequence[Theme], truths: Sequence[Truth]) -> str:
    """``### Reflections`` with themes, then ``### Possible Lasting Truths``."""
    lines = ["### Reflections"]
    themes = [theme for theme in themes if not is_secret_tag(theme.tag)]
    if not themes:
        lines.append("- No strong patterns surfaced.")
    for theme in themes:
        lines += [
            f"- Theme: `{theme.tag}` kept surfacing across {theme.count} memories.",
            f"  - confidence: {theme.strength:.2f}",
            f"  - evidence: {', '.join(theme.evidence)}",
            "  - note: reflection",
        ]
    lines += ["", "### Possible Lasting Truths"]
    if not truths:
        lines.append("- No strong candidate truths surfaced.")
    for truth in truths:
        entry = truth.entry
        ref = f"{entry.path}:{entry.start_line}-{entry.end_line}"
        lines.append(f"- {entry.snippet} [confidence={truth.confidence:.2f} evidence={ref}]")
    return redact("\n".join(lines))


def deep_body(
    *,
    ranked: int,
    promoted: int,
    rejected: Mapping[str, int],
    compacted: Sequence[str],
    repairs: Sequence[str],
    grounded_led: Sequence[str] = (),
) -> str:
    """Counts of the day's deep phase; rejected entries by category only."""
    lines = [f"- Repaired recall artifacts: {'; '.join(repairs)}."] if repairs else []
    lines += [
        f"- Ranked {ranked} candidate(s) for durable promotion.",
        f"- Promoted {promoted} candidate(s) into MEMORY.md.",
    ]
    if grounded_led:
        shown = list(grounded_led[:MAX_GROUNDED_REFS])
        if len(grounded_led) > MAX_GROUNDED_REFS:
            shown.append(f"+{len(grounded_led) - MAX_GROUNDED_REFS} more")
        lines.append(
            f"- Grounded-led promotions (mostly historical replay): {len(grounded_led)} "
            f"({', '.join(shown)})."
        )
    if compacted:
        lines.append(
            f"- Compacted promotion sections to stay within budget: {', '.join(compacted)}."
        )
    if rejected:
        counts = ", ".join(f"{name} {count}" for name, count in sorted(rejected.items()))
        lines.append(f"- Not promoted: {counts}.")
    return redact("\n".join(lines))


def report_document(phase: str, body: str) -> str:
    """A separate report file: the phase title, a blank line, the body."""
    return f"{REPORT_TITLES[phase]}\n\n{body}\n"
