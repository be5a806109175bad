"""What chat commands say: usage, refusals and replies rendered from the service's documents.

Pure: documents in, text out. Replies are plain text (no Markdown), so a snippet of memory is
shown as written on every platform. Workspaces are named by their agents (``main``, or
``main, ops`` when agents share one), files relative to their workspace: a reply never carries
an absolute server path. :func:`outward` is the last step of every reply: workspace roots and
the home directory become names, and :func:`dreamd.redaction.redact` masks secrets and personal
data whatever was stored. :func:`split_text` fits a reply into a platform's message limit
(Discord 2,000 characters, Telegram 4,096): at line breaks where it can, at spaces where a line
is too long, and a reply too long for ``max_parts`` messages is trimmed with a note.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from datetime import tzinfo
from pathlib import Path, PurePath
from typing import Any

from dreamd.clock import parse_instant
from dreamd.engine.explain import verdict_lines
from dreamd.redaction import redact

__all__ = [
    "DISCORD_LIMIT",
    "GROUP_REFUSAL",
    "PHASES_TEXT",
    "STRANGER_REFUSAL",
    "TELEGRAM_LIMIT",
    "WELCOME",
    "adapter_lines",
    "label_of",
    "outward",
    "refusal",
    "render_about",
    "render_candidates",
    "render_dream_status",
    "render_explain",
    "render_rag",
    "render_reduced_status",
    "render_report",
    "render_search",
    "render_sweep",
    "show_time",
    "split_text",
    "usage",
]

DISCORD_LIMIT = 2000
TELEGRAM_LIMIT = 4096
SNIPPET_CHARS = 300
TRIMMED = "… (trimmed; see `dreamd` on the host for the rest)"

PHASES_TEXT = """Phases:
- implementation detail: each sweep runs light -> REM -> deep.
- deep is the only stage that writes durable entries to MEMORY.md.
- DREAMS.md is for human-readable dreaming summaries and diary entries."""

WELCOME = (
    "I consolidate the memory of this host's agents every night and keep a dream diary.\n"
    "Only this bot's owners and readers can search its memory; anyone can see whether "
    "dreaming is on."
)
STRANGER_REFUSAL = "Only this bot's owners and readers can search its memory."
GROUP_REFUSAL = "Ask me in a private chat: I never show memory in a group."

_USAGE: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "dreaming": (
        ("Usage: /dreaming status", ("dreaming status",)),
        ("Usage: /dreaming on|off", ("dreaming on", "dreaming off")),
    ),
    "dream": (
        ("Usage: /dream status", ("dream status",)),
        ("Usage: /dream search <query>", ("dream search",)),
        ("Usage: /dream about <entity>", ("dream about",)),
        ("Usage: /dream report", ("dream report",)),
        ("Usage: /dream rag status", ("dream rag status",)),
        ("Usage: /dream explain [selector]", ("dream explain",)),
        ("Usage: /dream now", ("dream now",)),
    ),
}
_REFUSALS = {
    "dreaming on": "Only the bot's owners can turn dreaming on.",
    "dreaming off": "Only the bot's owners can turn dreaming off.",
    "dream now": "Only the bot's owners can start a sweep.",
}


def usage(command: str, allowed: Iterable[str]) -> str:
    """The usage lines of ``command`` that the actor may run (``allowed`` policy keys)."""
    keys = set(allowed)
    return "\n".join(
        line for line, needs in _USAGE.get(command, ()) if any(key in keys for key in needs)
    )


def refusal(key: str) -> str:
    """What an actor who may not run ``key`` is told: one plain sentence, nothing else."""
    return _REFUSALS.get(key, STRANGER_REFUSAL)


def label_of(entry: Mapping[str, Any]) -> str:
    """A workspace's name in chat: its agents, else its folder's name."""
    agents = [str(agent) for agent in entry.get("agents") or ()]
    return ", ".join(agents) if agents else PurePath(str(entry.get("path", ""))).name or "?"


def outward(text: str, roots: Mapping[str, str] | None = None) -> str:
    """``text`` fit to leave the host: roots by name, home as ``~``, secrets masked."""
    roots = roots or {}
    for root in sorted(roots, key=len, reverse=True):
        name = roots[root]
        text = text.replace(root + os.sep, f"{name}:").replace(root, name)
    home = str(Path.home())
    if len(home) > 1:
        text = text.replace(home + os.sep, "~" + os.sep)
    return redact(text)


def show_time(stamp: object, zone: tzinfo) -> str:
    """An ISO instant as ``2026-12-02 03:00 CET`` in ``zone``; anything else as given."""
    moment = parse_instant(str(stamp)) if stamp else None
    if moment is None:
        return str(stamp) if stamp else "never"
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")


def _cut(text: str, limit: int) -> tuple[str, str]:
    """``text`` cut at the last line break (else space) before ``limit``: (head, rest)."""
    if len(text) <= limit:
        return text, ""
    for mark in ("\n", " "):
        at = text.rfind(mark, 0, limit + 1)
        if at > limit // 2:
            return text[:at].rstrip(), text[at + 1 :]
    return text[:limit], text[limit:]


def split_text(text: str, limit: int, *, max_parts: int = 4) -> list[str]:
    """``text`` as at most ``max_parts`` messages of at most ``limit`` characters each."""
    text = text.strip() or "(nothing to show)"
    parts: list[str] = []
    rest = text
    while rest and len(parts) < max_parts:
        head, rest = _cut(rest, limit)
        rest = rest.lstrip("\n")
        parts.append(head)
    if rest:
        room = limit - len(TRIMMED) - 1
        parts[-1] = _cut(parts[-1], room)[0] + "\n" + TRIMMED
    return parts


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SNIPPET_CHARS else flat[: SNIPPET_CHARS - 1].rstrip() + "…"


def render_search(document: Mapping[str, Any]) -> str:
    """Hits with their ``path#Lx-Ly`` citations, best first (agents named when several), each
    with what it replaced."""
    hits = document["hits"]
    query = document["query"]
    if not hits:
        return f'No results for "{query}".'
    several = len({hit["workspace"] for hit in hits}) > 1
    lines = [f'Results for "{query}":']
    for number, hit in enumerate(hits, start=1):
        label = f"[{label_of({'agents': hit.get('agents'), 'path': hit['workspace']})}] "
        lines.append(
            f"{number}. {label if several else ''}{hit['source']} (score {hit['score']:.2f})"
        )
        lines.append(f"   {_snippet(hit['snippet'])}")
        lines += [  # what the line replaced: "was …, until <day>"
            f"   was: {_snippet(earlier['snippet'])} (until {earlier['until']})"
            for earlier in hit.get("was", ())
        ]
    return "\n".join(lines)


def render_about(name: str, pages: Sequence[Mapping[str, Any]]) -> str:
    """What each readable workspace's bank page says about ``name``: summary, then facts."""
    if not pages:
        return f'Nothing in the memory bank about "{name}" yet.'
    several = len(pages) > 1
    blocks = []
    for page in pages:
        head = f"[{page['label']}] " if several else ""
        lines = [f"{head}{page['title']} ({page['path']})", _snippet(page["summary"])]
        lines += [f"- {_snippet(item)}" for item in page["items"]]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def adapter_lines(adapters: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One ``- chat <name>: <state>`` line per adapter, with its last error."""
    lines = []
    for name, state in sorted(adapters.items()):
        error = f" ({state['error']})" if state.get("error") else ""
        lines.append(f"- chat {name}: {state['state']}{error}")
    return lines


def render_reduced_status(status: Mapping[str, Any], *, zone: tzinfo) -> str:
    """What anyone may see: on or off, ok/blocked/degraded, and the next run."""
    lines = ["Dreaming status:", f"- enabled: {'on' if status['enabled'] else 'off'}"]
    if status["enabled"]:
        lines.append(f"- state: {status['status']}")
        lines.append(f"- next run: {show_time(status.get('nextRun'), zone)}")
    return "\n".join(lines)


def render_dream_status(status: Mapping[str, Any], *, zone: tzinfo) -> str:
    """Store, signal and diary counts per workspace, with the overall state."""
    on = "on" if status["enabled"] else "off"
    next_run = show_time(status.get("nextRun"), zone)
    lines = [f"Dream status: {on} ({status['status']}), next run {next_run}"]
    for ws in status["workspaces"]:
        where = f"- {label_of(ws)}"
        if "error" in ws:
            lines.append(f"{where}: error: {ws['error']}")
        elif ws.get("counting"):
            lines.append(f"{where}: still counting")
        else:
            lines.append(
                f"{where}: {ws['shortTerm']} short-term ({ws['grounded']} grounded), "
                f"{ws['signals']} phase signals, {ws['candidates']} ready, "
                f"{ws['promoted']} promoted ({ws['promotedToday']} today); diary "
                f"{ws['diaryEntries']} entries; MEMORY.md {ws['memoryChars']} chars; "
                f"last sweep {show_time(ws['lastSweep'], zone)}"
            )
        graph = ws.get("graph")
        if graph:
            c = graph["counts"]
            lines.append(
                f"  memory map: {c['entities']} names, {c['episodes']} note sections, "
                f"{c['edges']} links; health {graph['health'] or 'not scored yet'}; "
                f"{graph['patterns']} recurring mistake(s)"
            )
        lines += [f"  ! {message}" for message in (ws.get("health") or {}).values()]
    lines += adapter_lines((status.get("daemon") or {}).get("adapters") or {})
    return "\n".join(lines)


def render_report(reports: Sequence[Mapping[str, Any]], *, zone: tzinfo) -> str:
    """Each workspace's latest diary entry and its ``## Deep Sleep`` report."""
    blocks = []
    for report in reports:
        lines = [f"Report for {report['label']}"]
        outcome = report.get("lastOutcome")
        if outcome:
            today = report.get("promotedToday")  # the night's one count, as status shows it
            lines.append(
                f"Last sweep {show_time(outcome['at'], zone)}: {outcome['status']}, ranked "
                f"{outcome.get('ranked', 0)}; promoted today: "
                f"{today if today is not None else outcome.get('promoted', 0)}"
            )
        lines.append("Diary:")
        lines.append(report["diary"].strip() if report.get("diary") else "(no diary entry yet)")
        lines.append("Deep Sleep:")
        deep = (report.get("deep") or "").strip()
        lines.append(deep or "(no deep report yet)")
        if report.get("dream"):
            lines += ["Dream report:", report["dream"].strip()]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) or "No workspaces you may read."


def _longterm(audit: Mapping[str, Any]) -> str:
    """The long-term layer's size and why its rows left the store."""
    layer = audit.get("longTerm")
    if not isinstance(layer, Mapping):
        return "not available"
    reasons = ", ".join(f"{why} {count}" for why, count in (layer.get("reasons") or {}).items())
    return f"{layer.get('entryCount', 0)} entries" + (f" ({reasons})" if reasons else "")


def render_rag(audits: Sequence[Mapping[str, Any]]) -> str:
    """The recall store, index and long-term layer of each workspace."""
    blocks = []
    for audit in audits:
        index = audit.get("index")
        lines = [
            f"RAG status for {audit['label']}",
            f"- recall store: {audit['entryCount']} entries ({audit['promotedCount']} promoted, "
            f"{audit['spacedEntryCount']} spaced, {audit['groundedEntryCount']} grounded, "
            f"{audit['danglingEntryCount']} dangling)",
            f"- index: {index['files']} files, {index['chunks']} chunks"
            if index
            else "- index: not built yet",
            f"- long-term layer: {_longterm(audit)}",
            f"- session corpus: {audit['corpusFiles']} files",
        ]
        lines += [f"  ! {issue}" for issue in audit.get("issues") or ()]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) or "No workspaces you may read."


def _source(candidate: Mapping[str, Any]) -> str:
    return f"{candidate['path']}#L{candidate['startLine']}-L{candidate['endLine']}"


def render_explain(document: Mapping[str, Any]) -> str:
    """One entry's score, components, thresholds and verdict (``promote-explain``)."""
    c = document["candidate"]
    t = document["thresholds"]
    components = " ".join(f"{k}={v:.3f}" for k, v in c["components"].items())
    return "\n".join(
        [
            f"Promotion Explain ({document['label']})",
            f"{_source(c)}",
            _snippet(c["snippet"]),
            f"score={c['score']:.3f} signals={c['signalCount']} recallCount={c['recallCount']} "
            f"uniqueQueries={c['uniqueQueries']} ageDays={c['ageDays']:.2f} "
            f"phaseBoost={c['phaseBoost']:.3f}",
            f"components: {components}",
            f"thresholds: minScore={t['minScore']} minRecallCount={t['minRecallCount']} "
            f"minUniqueQueries={t['minUniqueQueries']} maxAgeDays={t['maxAgeDays']:g}",
            *(_snippet(line) for line in verdict_lines(document)),
        ]
    )


def render_candidates(documents: Sequence[Mapping[str, Any]]) -> str:
    """The candidates passing every gate, per workspace."""
    lines = []
    for document in documents:
        candidates = document["candidates"]
        lines.append(f"Ready to promote in {document['label']}: {len(candidates)}")
        for c in candidates[:10]:
            lines.append(f"- {_source(c)} (score {c['score']:.2f}): {_snippet(c['snippet'])}")
    lines.append("Use /dream explain <selector> for one entry's details.")
    return "\n".join(lines)


def render_sweep(document: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """What a sweep did in each workspace (counts only: the reply may be seen by a channel)."""
    lines = ["Sweep finished." if document["enabled"] else "Sweep finished (dreaming is off)."]
    for outcome in document["workspaces"]:
        name = str(outcome["workspace"])
        where = f"- {labels.get(name, PurePath(name).name)}"
        if outcome.get("error") or outcome["status"] != "ok":
            lines.append(f"{where}: {outcome['status']}")
            continue
        light, deep = outcome.get("light") or {}, outcome.get("deep") or {}
        lines.append(
            f"{where}: staged {light.get('staged', 0)}, promoted {deep.get('promoted', 0)}, "
            f"{len(outcome.get('changedFiles') or ())} file(s) changed"
        )
    return "\n".join(lines)
