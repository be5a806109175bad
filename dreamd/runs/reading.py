"""What an agent reads of its memory through a tool: recall, search, a file's lines, the pages.

The same answers as ``dreamd memory recall`` and ``memory search`` (hybrid ranking, with
semantic recall fused in when ``embeddings`` are given), as JSON documents; a search's hits are
recorded as recall traces like theirs when ``record`` is set (dreaming on), with the origin
given. Every text handed out passes :func:`dreamd.redaction.redact` (redacting twice changes
nothing).

Which files may be read (:func:`readable`): ``MEMORY.md``, the notes and logs under
``memory/`` (not dreaming's machine state in ``memory/.dreams/``), the bank's pages under
``bank/`` and ``DREAMS.md``; Markdown only, inside the workspace, never through a symlink.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from dreamd.engine.hits import hit_json
from dreamd.errors import DreamdError, LockError, UnsafePathError
from dreamd.layout import (
    BANK_DIR,
    DREAMS_FILE,
    DREAMS_FILE_LOWER,
    MEMORY_FILE,
    MEMORY_FILE_LOWER,
    NOTES_DIR,
    STATE_DIR,
    normalize_relpath,
    resolve_inside,
)
from dreamd.model.embeddings import semantic_recall
from dreamd.recall.dates import day_bound
from dreamd.recall.index import RecallIndex
from dreamd.recall.record import record_search
from dreamd.redaction import redact
from dreamd.workspace.reader import memory_file, read_text

__all__ = [
    "MAX_LINES",
    "bank_pages",
    "read_file",
    "read_lines",
    "readable",
    "recall_document",
    "search_document",
]

MAX_LINES = 400
"""The most lines one ``get`` returns."""


def _bound(value: str | None, now: datetime, flag: str) -> str | None:
    if value is None or value == "":
        return None
    day = day_bound(value, now)
    if day is None:
        raise DreamdError(f"{flag} {value!r}: expected a day like 2025-11-01 or a duration: 30d")
    return day


def _record(
    root: Path, query: str, hits: Sequence[Any], *, now: datetime, zone: tzinfo, origin: str
) -> None:
    # A sweep holding the workspace: the answer stands, its traces are skipped.
    with contextlib.suppress(LockError):
        if hits:
            record_search(root, query, hits, now=now, zone=zone, origin=origin)


def recall_document(
    root: Path,
    question: str,
    *,
    now: datetime,
    zone: tzinfo,
    k: int = 10,
    since: str | None = None,
    until: str | None = None,
    entity: str | None = None,
    kinds: Sequence[str] | None = None,
    record: bool = False,
    origin: str = "agent",
    embeddings: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``memory recall --json``'s document for ``question``."""
    from dreamd.recall.answers import recall

    first, last = _bound(since, now, "since"), _bound(until, now, "until")
    with RecallIndex.open(root) as index, semantic_recall(index, embeddings):
        index.update()
        answer = recall(
            index,
            root,
            question,
            k=k,
            now=now,
            first_day=first,
            last_day=last,
            entity=entity or None,
            kinds=list(kinds) if kinds else None,
        )
    if record:
        _record(root, question, answer.hits, now=now, zone=zone, origin=origin)
    results = [{**r.as_json(), "content": redact(r.content)} for r in answer.results]
    return {"query": question, "results": results}


def search_document(
    root: Path,
    query: str,
    *,
    now: datetime,
    zone: tzinfo,
    k: int = 5,
    since: str | None = None,
    until: str | None = None,
    record: bool = False,
    origin: str = "agent",
    embeddings: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``memory search --json``'s document for ``query`` (hybrid ranking)."""
    from dreamd.recall.bundle import hybrid_search

    first, last = _bound(since, now, "since"), _bound(until, now, "until")
    with RecallIndex.open(root) as index, semantic_recall(index, embeddings):
        index.update()
        routed = hybrid_search(index, query, k=k, now=now, first_day=first, last_day=last)
    hits = [r.hit for r in routed]
    if record:
        _record(root, query, hits, now=now, zone=zone, origin=origin)
    shown = [{**hit_json(h), "snippet": redact(h.snippet)} for h in hits]
    return {"query": query, "hits": shown}


def readable(relpath: str) -> str:
    """``relpath`` normalized when a tool may read it (see the module rules), else an error."""
    rel = normalize_relpath(relpath.strip())
    top = rel.split("/", 1)[0]
    allowed = (
        rel in (MEMORY_FILE, MEMORY_FILE_LOWER, DREAMS_FILE, DREAMS_FILE_LOWER)
        or (top in (NOTES_DIR, BANK_DIR) and rel.endswith(".md"))
    ) and not (rel + "/").startswith(STATE_DIR + "/")
    if not allowed or any(part in ("", ".", "..") for part in rel.split("/")):
        raise UnsafePathError(
            f"{relpath!r}: only MEMORY.md, DREAMS.md and Markdown under memory/ or bank/ "
            "are read (memory/.dreams/ is dreaming's machine state)"
        )
    return rel


def _named(root: Path, relpath: str) -> str:
    """``readable(relpath)``, with ``MEMORY.md`` the workspace's own spelling of it."""
    rel = readable(relpath)
    return memory_file(root) if rel in (MEMORY_FILE, MEMORY_FILE_LOWER) else rel


def read_lines(
    root: Path, relpath: str, *, start: int = 1, end: int | None = None
) -> dict[str, Any]:
    """Lines ``start``..``end`` (1-based, inclusive; at most :data:`MAX_LINES`) of a readable
    file, redacted."""
    rel = _named(root, relpath)
    target = resolve_inside(root, rel)
    if target.is_symlink():
        raise UnsafePathError(f"{rel} is a symlink; dreamd does not read through links")
    loaded = read_text(root, rel)
    if not loaded.exists:
        raise DreamdError(f"{rel} does not exist")
    lines = loaded.text.splitlines()
    first = max(1, start)
    last = min(len(lines), end if end is not None else first + MAX_LINES - 1)
    last = min(last, first + MAX_LINES - 1)
    chosen = lines[first - 1 : last] if first <= last else []
    return {
        "path": rel,
        "startLine": first,
        "endLine": first + len(chosen) - 1 if chosen else first - 1,
        "totalLines": len(lines),
        "text": redact("\n".join(chosen)),
    }


def read_file(root: Path, relpath: str) -> str:
    """A readable file's whole text, redacted (``""`` when it does not exist yet)."""
    rel = _named(root, relpath)
    if resolve_inside(root, rel).is_symlink():
        raise UnsafePathError(f"{rel} is a symlink; dreamd does not read through links")
    return redact(read_text(root, rel).text)


def bank_pages(root: Path) -> list[str]:
    """The bank's Markdown pages, workspace-relative, sorted (none through a symlink)."""
    bank = root / BANK_DIR
    if not bank.is_dir() or bank.is_symlink():
        return []
    found = []
    for path in bank.rglob("*.md"):
        rel = path.relative_to(root).as_posix()
        if not any(
            p.is_symlink() for p in (path, *path.parents) if p != root and root in p.parents
        ):
            found.append(rel)
    return sorted(found)
