"""The chat commands themselves: each asks the daemon's service and renders the answer.

Only :class:`dreamd.chat.router.Router` calls these, after it has authorized the command.
Answers come from the :class:`~dreamd.control.Service` (the same documents the control API
serves); the two
read-only views the API has no route for — the recall audit (``/dream rag status``) and the
``## Deep Sleep`` report (``/dream report``) — are read here, in a worker thread.

Every memory view takes ``readable`` (:mod:`dreamd.chat.access`): only workspaces one of whose
agents the asker reads are searched, counted or shown. ``readable=None`` asks for what anyone
may see: the reduced status.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec

from dreamd.chat.access import Agents, may_read
from dreamd.chat.text import (
    PHASES_TEXT,
    WELCOME,
    adapter_lines,
    label_of,
    render_about,
    render_candidates,
    render_dream_status,
    render_explain,
    render_rag,
    render_reduced_status,
    render_report,
    render_search,
    render_sweep,
    show_time,
    usage,
)
from dreamd.clock import parse_instant
from dreamd.control import Service
from dreamd.engine.bank.pages import read_page
from dreamd.engine.text.blocks import read_block
from dreamd.errors import SelectorError
from dreamd.host.status import render_status
from dreamd.layout import DREAMS_FILE, DREAMS_FILE_LOWER
from dreamd.recall.answers import entity_page_of
from dreamd.recall.audit import audit_workspace

__all__ = [
    "dream_about",
    "dream_explain",
    "dream_report",
    "dream_search",
    "dream_status",
    "dreaming_help",
    "dreaming_status",
    "explain_choices",
    "labels",
    "rag_status",
    "set_dreaming",
    "sweep_now",
    "welcome",
]

SEARCH_HITS = 5
ABOUT_ITEMS = 8
CHOICES = 25  # Discord shows at most 25 autocomplete choices


def _zone(status: dict[str, Any]) -> tzinfo:
    try:
        return ZoneInfo(status["timezone"])
    except (ZoneInfoNotFoundError, ValueError, KeyError):
        return UTC


async def _status(service: Service) -> dict[str, Any]:
    """The status document with its workspaces decoded (the daemon pre-encodes them)."""
    status = await service.status()
    if isinstance(status.get("workspaces"), msgspec.Raw):
        status = {**status, "workspaces": msgspec.json.decode(status["workspaces"])}
    return status


def _readable(entries: Iterable[dict[str, Any]], readable: Agents) -> list[dict[str, Any]]:
    """The workspace entries whose agents ``readable`` covers."""
    return [entry for entry in entries if may_read(readable, entry.get("agents") or ())]


async def labels(service: Service) -> dict[str, str]:
    """Each workspace root's name in chat (see :func:`dreamd.chat.text.label_of`)."""
    return {str(entry["path"]): label_of(entry) for entry in await service.workspaces()}


def _shown(status: dict[str, Any], readable: Agents) -> dict[str, Any]:
    """``status`` cut to the workspaces the asker reads, warnings of the others left out."""
    entries = status["workspaces"]
    kept = _readable(entries, readable)
    hidden = [str(entry["path"]) for entry in entries if entry not in kept]
    warnings = [
        warning
        for warning in status["warnings"]
        if not any(warning.startswith(path + ":") for path in hidden)
    ]
    return {**status, "workspaces": kept, "warnings": warnings}


def _status_block(status: dict[str, Any], readable: Agents | None) -> str:
    """The ``Dreaming status:`` block; reduced for ``readable=None``."""
    zone = _zone(status)
    if readable is None:
        return render_reduced_status(status, zone=zone)
    status = _shown(status, readable)
    counted = [
        {**ws, "path": label_of(ws), "lastSweep": show_time(ws.get("lastSweep"), zone)}
        for ws in status["workspaces"]
        if not ws.get("counting")
    ]
    extra = [
        f"- workspace {label_of(ws)}: still counting"
        for ws in status["workspaces"]
        if ws.get("counting")
    ]
    extra += adapter_lines((status.get("daemon") or {}).get("adapters") or {})
    # Config files by name only: a chat never learns the host's paths.
    files = {kind: Path(path).name for kind, path in (status.get("files") or {}).items() if path}
    return render_status({**status, "workspaces": counted, "files": files}, zone=zone, extra=extra)


async def welcome(service: Service, allowed: Iterable[str]) -> str:
    """``/start`` and ``/help``: what the bot is and what the asker may run."""
    lines = [usage("dreaming", allowed), usage("dream", allowed)]
    return "\n\n".join([WELCOME, "\n".join(line for line in lines if line)])


async def dreaming_status(service: Service, readable: Agents | None) -> str:
    """``/dreaming status``: the ``Dreaming status:`` block."""
    return _status_block(await _status(service), readable)


async def dreaming_help(service: Service, allowed: Iterable[str], readable: Agents | None) -> str:
    """``/dreaming`` and ``/dreaming help``: usage, the status block and the phase summary."""
    status = await _status(service)
    return f"{usage('dreaming', allowed)}\n\n{_status_block(status, readable)}\n\n{PHASES_TEXT}"


async def set_dreaming(service: Service, *, enabled: bool, readable: Agents | None) -> str:
    """``/dreaming on|off``: persist the host override; the new status only in private."""
    await service.set_enabled(enabled)
    said = "Dreaming enabled." if enabled else "Dreaming disabled."
    if readable is None:
        return said
    return f"{said}\n\n{_status_block(await _status(service), readable)}"


def _graph(root: Path) -> dict[str, Any] | None:
    """The graph's counts, the latest report's health score and the number of patterns."""
    from dreamd.engine.dreamwork.report import HEALTH, report_sections
    from dreamd.layout import GRAPH_DIR, PATTERNS_DIR
    from dreamd.workspace.dreamwork import read_pages, read_report

    index = root / GRAPH_DIR / "index.json"
    try:
        counts = json.loads(index.read_text(encoding="utf-8"))["counts"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    report = read_report(root)
    lines = report_sections(report.text).get(HEALTH, []) if report else []
    score = next((line.split(": ", 1)[1] for line in lines if "score" in line), None)
    patterns = len(read_pages(root, PATTERNS_DIR))
    return {"counts": counts, "health": score, "patterns": patterns}


async def dream_status(service: Service, readable: Agents) -> str:
    """``/dream status``: store, signal and diary counts; the graph, health and patterns."""
    status = _shown(await _status(service), readable)
    spaces = []
    for ws in status["workspaces"]:
        graph = await asyncio.to_thread(_graph, Path(str(ws["path"]))) if "path" in ws else None
        spaces.append({**ws, "graph": graph} if graph else ws)
    return render_dream_status({**status, "workspaces": spaces}, zone=_zone(status))


async def dream_search(
    service: Service, query: str, readable: Agents, *, origin: str | None
) -> str:
    """``/dream search <query>``: cited hits over the workspaces the asker reads."""
    spaces = _readable(await service.workspaces(), readable)
    hits: list[dict[str, Any]] = []
    for entry in spaces:
        found = await service.search(str(entry["path"]), query, SEARCH_HITS, origin=origin)
        hits += found["hits"]
    hits.sort(key=lambda hit: -hit["score"])
    return render_search({"query": query, "hits": hits[:SEARCH_HITS]})


def _about(root: Path, name: str) -> dict[str, Any] | None:
    """The entity page of ``name`` in the workspace at ``root``: title, summary, a few items."""
    path = entity_page_of(root, name)
    if path is None:
        return None
    items = read_page(path, (root / path).read_text(encoding="utf-8", errors="replace"))
    summary = next((item.content for item in items if item.key == "summary"), "")
    facts = [
        f"{item.content} (c={item.confidence:.2f})"
        if item.confidence is not None
        else f"{item.content} [{item.source}]"
        for item in items
        if item.key != "summary"
    ]
    title = path.rsplit("/", 1)[1].removesuffix(".md").replace("-", " ")
    return {"title": title, "path": path, "summary": summary, "items": facts[:ABOUT_ITEMS]}


async def dream_about(service: Service, name: str, readable: Agents) -> str:
    """``/dream about <entity>``: the entity page's summary and facts, in the asker's agents."""
    pages = []
    for entry in _readable(await service.workspaces(), readable):
        root = Path(str(entry["path"]))
        page = await asyncio.to_thread(_about, root, name)
        if page is not None:
            pages.append({**page, "label": label_of(entry)})
    return render_about(name, pages)


def _deep_block(root: Path) -> str | None:
    for name in (DREAMS_FILE, DREAMS_FILE_LOWER):
        path = root / name
        if path.is_file() and not path.is_symlink():
            return read_block(path.read_text(encoding="utf-8", errors="replace"), "deep")
    return None


def _dream_report(root: Path, agents: Sequence[str]) -> str | None:
    """The latest dream report, short (the whole report is for ``dreamd memory report``)."""
    from dreamd.engine.dreamwork.report import short_report
    from dreamd.workspace.dreamwork import read_report

    found = read_report(root)
    if found is None:
        return None
    agent = f" --agent {agents[0]}" if len(agents) == 1 else ""
    return short_report(found.text, more=f"dreamd memory report{agent}")


async def dream_report(service: Service, readable: Agents) -> str:
    """``/dream report``: the latest diary entry, deep report and dream report of each
    workspace."""
    zone = _zone(await _status(service))
    reports = []
    for entry in _readable(await service.workspaces(), readable):
        path = entry["path"]
        diary = await service.diary(path, 1)
        reports.append(
            {
                "label": label_of(entry),
                "lastOutcome": entry.get("lastOutcome"),
                "promotedToday": entry.get("promotedToday"),
                "diary": diary["entries"][-1] if diary["entries"] else None,
                "deep": await asyncio.to_thread(_deep_block, Path(path)),
                "dream": await asyncio.to_thread(
                    _dream_report, Path(path), [str(a) for a in entry.get("agents") or ()]
                ),
            }
        )
    return render_report(reports, zone=zone)


async def rag_status(service: Service, readable: Agents) -> str:
    """``/dream rag status``: recall store, index and long-term layer counts."""
    status = await service.status()
    now = parse_instant(status.get("now") or "") or datetime.now(UTC)
    spaces = [
        (Path(e["path"]), label_of(e)) for e in _readable(await service.workspaces(), readable)
    ]

    def work() -> list[dict[str, Any]]:
        return [{**audit_workspace(path, now=now), "label": label} for path, label in spaces]

    return render_rag(await asyncio.to_thread(work))


async def _explained(service: Service, readable: Agents, selector: str | None) -> list[Any]:
    """Each readable workspace's explain document (``selector`` None: its candidates)."""
    documents = []
    for entry in _readable(await service.workspaces(), readable):
        try:
            document = await service.explain(str(entry["path"]), selector)
        except SelectorError:
            continue
        documents.append({**document, "label": label_of(entry)})
    return documents


async def dream_explain(service: Service, selector: str, readable: Agents) -> str:
    """``/dream explain [selector]``: one entry explained, or the ready candidates."""
    if not selector:
        return render_candidates(await _explained(service, readable, None))
    for document in await _explained(service, readable, selector):
        return render_explain(document)
    raise SelectorError(f'No promotion candidate matched "{selector}".')


async def explain_choices(service: Service, partial: str, readable: Agents) -> tuple[str, ...]:
    """Selectors of ready candidates whose path or snippet contains ``partial``."""
    wanted = partial.lower()
    found: list[str] = []
    for document in await _explained(service, readable, None):
        for c in document["candidates"]:
            if wanted in c["path"].lower() or wanted in c["snippet"].lower():
                found.append(c["key"])
    return tuple(found[:CHOICES])


async def sweep_now(service: Service) -> str:
    """``/dream now``: sweep every workspace now."""
    names = await labels(service)
    return render_sweep(await service.sweep_now(), names)
