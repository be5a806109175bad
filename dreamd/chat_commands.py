"""The chat commands themselves: each asks the daemon's service and renders the answer.

Only :class:`dreamd.chat.Router` calls these, after it has authorized the command. Answers come
from the :class:`~dreamd.web.Service` (the same documents the control API serves); the two
read-only views the API has no route for — the recall audit (``/dream rag status``) and the
``## Deep Sleep`` report (``/dream report``) — are read here, in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec

from dreamd.blocks import read_block
from dreamd.chat_text import (
    PHASES_TEXT,
    adapter_lines,
    render_candidates,
    render_dream_status,
    render_explain,
    render_rag,
    render_report,
    render_search,
    render_sweep,
    usage,
)
from dreamd.clock import parse_instant
from dreamd.commands.audit import audit_workspace
from dreamd.errors import SelectorError
from dreamd.layout import DREAMS_FILE, DREAMS_FILE_LOWER
from dreamd.status import render_status
from dreamd.web import Service

__all__ = [
    "dream_explain",
    "dream_report",
    "dream_search",
    "dream_status",
    "dreaming_help",
    "dreaming_status",
    "explain_choices",
    "rag_status",
    "set_dreaming",
    "sweep_now",
]

SEARCH_HITS = 5
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


def _status_block(status: dict[str, Any]) -> str:
    """The ``Dreaming status:`` block; workspaces the daemon is still counting say so."""
    counted = [ws for ws in status["workspaces"] if not ws.get("counting")]
    extra = [
        f"- workspace {ws['path']}: still counting"
        for ws in status["workspaces"]
        if ws.get("counting")
    ]
    extra += adapter_lines((status.get("daemon") or {}).get("adapters") or {})
    return render_status({**status, "workspaces": counted}, zone=_zone(status), extra=extra)


async def dreaming_status(service: Service) -> str:
    """``/dreaming status``: the ``Dreaming status:`` block."""
    return _status_block(await _status(service))


async def dreaming_help(service: Service, allowed: Iterable[str]) -> str:
    """``/dreaming`` and ``/dreaming help``: usage, the status block and the phase summary."""
    status = await _status(service)
    return f"{usage('dreaming', allowed)}\n\n{_status_block(status)}\n\n{PHASES_TEXT}"


async def set_dreaming(service: Service, *, enabled: bool) -> str:
    """``/dreaming on|off``: persist the host override, then show the new status."""
    await service.set_enabled(enabled)
    status = await _status(service)
    said = "Dreaming enabled." if enabled else "Dreaming disabled."
    return f"{said}\n\n{_status_block(status)}"


async def dream_status(service: Service) -> str:
    """``/dream status``: store, signal and diary counts."""
    return render_dream_status(await _status(service))


async def dream_search(service: Service, query: str, *, origin: str | None) -> str:
    """``/dream search <query>``: cited hits over every workspace."""
    return render_search(await service.search(None, query, SEARCH_HITS, origin=origin))


def _deep_block(root: Path) -> str | None:
    for name in (DREAMS_FILE, DREAMS_FILE_LOWER):
        path = root / name
        if path.is_file() and not path.is_symlink():
            return read_block(path.read_text(encoding="utf-8", errors="replace"), "deep")
    return None


async def dream_report(service: Service) -> str:
    """``/dream report``: the latest diary entry and deep report of each workspace."""
    reports = []
    for entry in await service.workspaces():
        path = entry["path"]
        diary = await service.diary(path, 1)
        reports.append(
            {
                "path": path,
                "lastOutcome": entry.get("lastOutcome"),
                "diary": diary["entries"][-1] if diary["entries"] else None,
                "deep": await asyncio.to_thread(_deep_block, Path(path)),
            }
        )
    return render_report(reports)


async def rag_status(service: Service) -> str:
    """``/dream rag status``: recall store, index and long-term layer counts."""
    status = await service.status()
    now = parse_instant(status.get("now") or "") or datetime.now(UTC)
    paths = [Path(entry["path"]) for entry in await service.workspaces()]

    def work() -> list[dict[str, Any]]:
        return [audit_workspace(path, now=now) for path in paths]

    return render_rag(await asyncio.to_thread(work))


async def dream_explain(service: Service, selector: str) -> str:
    """``/dream explain [selector]``: one entry explained, or the ready candidates."""
    paths = [entry["path"] for entry in await service.workspaces()]
    if not selector:
        return render_candidates([await service.explain(path, None) for path in paths])
    for path in paths:
        try:
            return render_explain(await service.explain(path, selector))
        except SelectorError:
            continue
    raise SelectorError(f'No promotion candidate matched "{selector}".')


async def explain_choices(service: Service, partial: str) -> tuple[str, ...]:
    """Selectors of ready candidates whose path or snippet contains ``partial``."""
    wanted = partial.lower()
    found: list[str] = []
    for entry in await service.workspaces():
        document = await service.explain(entry["path"], None)
        for c in document["candidates"]:
            if wanted in c["path"].lower() or wanted in c["snippet"].lower():
                found.append(c["key"])
    return tuple(found[:CHOICES])


async def sweep_now(service: Service) -> str:
    """``/dream now``: sweep every workspace now."""
    return render_sweep(await service.sweep_now())
