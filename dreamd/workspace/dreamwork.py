"""Reading what the graph, the pattern library and the dream report need.

Rules: the graph ledger (``memory/.dreams/graph.json``) is read first; the notes it holds and
the notes inside the graph's lookback are read (their digests say which fragments the planner
can keep), older notes the graph never held are not. Topic files and
patterns (``memory/topics/*.md``, ``memory/patterns/*.md``: regular files only, 16 MiB at most)
and the three ``.learnings/`` files are read whole; so are the six export files, today's dream
report and ``memory/dream-log.md``, whose digests the writer checks. Reading never writes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, tzinfo
from pathlib import Path

from dreamd.engine.graph.export import EXPORT_FILES
from dreamd.engine.graph.ledger import decode_ledger
from dreamd.engine.phases.light import in_lookback
from dreamd.engine.snapshot import DreamworkFiles, NoteStat, TextFile
from dreamd.layout import (
    DREAM_LOG,
    DREAM_REPORTS_DIR,
    GRAPH_DIR,
    GRAPH_LEDGER,
    LEARNINGS_DIR,
    MAX_FILE_BYTES,
    MAX_NOTE_LINES,
    PATTERNS_DIR,
    TOPICS_DIR,
)
from dreamd.workspace.bank import markdown_files, read_bank_file

__all__ = ["LEARNINGS_FILES", "read_dreamwork", "read_pages", "read_report"]

LEARNINGS_FILES = ("LEARNINGS.md", "ERRORS.md", "FEATURE_REQUESTS.md")


def read_pages(root: Path, folder: str) -> dict[str, TextFile]:
    """The ``*.md`` regular files of ``folder`` (16 MiB at most), by path; none when the
    folder is a symbolic link (the writer refuses to write through one, too)."""
    if (root / folder).is_symlink():
        return {}
    return {path: read_bank_file(root, path) for path in markdown_files(root, folder)}


def read_dreamwork(
    root: Path,
    notes: Mapping[str, NoteStat],
    texts: Mapping[str, TextFile],
    *,
    lookback_days: float,
    now: datetime,
    zone: tzinfo,
    today: str,
) -> DreamworkFiles:
    """Everything :mod:`dreamd.engine.dreamwork` plans from (see the module rules)."""
    ledger = read_bank_file(root, GRAPH_LEDGER)
    known = decode_ledger(ledger.text).fragments
    stats = {path: (note.mtime_ms, note.size) for path, note in notes.items()}
    sources: dict[str, TextFile] = {}
    for path, note in sorted(notes.items()):
        if path not in known and not in_lookback(note.day, now=now, days=lookback_days, zone=zone):
            continue
        loaded = texts.get(path) or read_bank_file(root, path)
        pasted_log = loaded.text.count("\n") > MAX_NOTE_LINES  # the reader skips it too
        if loaded.exists and loaded.valid_utf8 and not pasted_log:
            sources[path] = loaded
    pages = {**read_pages(root, TOPICS_DIR), **read_pages(root, PATTERNS_DIR)}
    learnings = {}
    for name in LEARNINGS_FILES:
        path = f"{LEARNINGS_DIR}/{name}"
        found = root / path
        if found.is_file() and not found.is_symlink() and found.stat().st_size <= MAX_FILE_BYTES:
            learnings[path] = read_bank_file(root, path)
    exports = {
        f"{GRAPH_DIR}/{name}.json": read_bank_file(root, f"{GRAPH_DIR}/{name}.json")
        for name in EXPORT_FILES
    }
    return DreamworkFiles(
        ledger=ledger,
        sources=sources,
        stats=stats,
        exports=exports,
        pages=pages,
        learnings=learnings,
        report=read_bank_file(root, f"{DREAM_REPORTS_DIR}/{today}.md"),
        log=read_bank_file(root, DREAM_LOG),
    )


def read_report(root: Path, day: str | None = None) -> TextFile | None:
    """The dream report of ``day`` (``YYYY-MM-DD``), or the latest; ``None`` when there is none."""
    if day is not None:
        found = read_bank_file(root, f"{DREAM_REPORTS_DIR}/{day}.md")
        return found if found.exists else None
    if (root / DREAM_REPORTS_DIR).is_symlink():
        return None
    names = [
        name
        for name in markdown_files(root, DREAM_REPORTS_DIR)
        if re.fullmatch(rf"{DREAM_REPORTS_DIR}/\d{{4}}-\d{{2}}-\d{{2}}\.md", name)
    ]
    return read_bank_file(root, names[-1]) if names else None  # listed in name order
