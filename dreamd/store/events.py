"""The append-only audit log ``memory/.dreams/events.jsonl``.

One JSON object per line, appended by :func:`dreamd.store.appendlog.append_lines` (``O_APPEND``
and ``O_NOFOLLOW``: a symlink planted there is refused, not followed; fsynced; a torn last line
ended first). Reading skips malformed lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from dreamd.layout import STATE_DIR
from dreamd.store.appendlog import append_lines

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

__all__ = ["EVENTS_FILE", "append_events", "event_lines", "read_events", "read_events_since"]

EVENTS_FILE = f"{STATE_DIR}/events.jsonl"


def _builtins(value: Any) -> Any:
    import msgspec  # a struct inside an event: rare, and not worth importing on every search

    return msgspec.to_builtins(value)


def _line(event: Mapping[str, Any]) -> bytes:
    """One event as a compact JSON line (stdlib ``json``: recording a search stays light)."""
    text = json.dumps(dict(event), ensure_ascii=False, separators=(",", ":"), default=_builtins)
    return text.encode() + b"\n"


def event_lines(events: Iterable[Mapping[str, Any]]) -> bytes:
    """``events`` as the log's lines, exactly as :func:`append_events` writes them."""
    return b"".join(_line(event) for event in events)


def append_events(root: Path, events: Iterable[Mapping[str, Any]]) -> int:
    """Append ``events`` to the workspace's log; returns how many were written."""
    lines = event_lines(events)
    if not lines:
        return 0
    append_lines(root / EVENTS_FILE, lines)
    return lines.count(b"\n")


def read_events(root: Path, *, tail_bytes: int | None = None) -> Iterator[dict[str, Any]]:
    """Every well-formed event in the log, oldest first (only the last ``tail_bytes`` if set)."""
    path = root / EVENTS_FILE
    try:
        with path.open("rb") as handle:
            if tail_bytes is not None:
                size = handle.seek(0, 2)
                handle.seek(max(0, size - tail_bytes))
            data = handle.read()
    except FileNotFoundError:
        return
    lines = data.splitlines()
    if tail_bytes is not None and len(data) == tail_bytes:
        lines = lines[1:]  # the first line may be cut
    for line in lines:
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(event, dict):
            yield event


def read_events_since(root: Path, since: datetime) -> list[dict[str, Any]]:
    """The events from ``since`` on (by their ``timestamp``), read back from the end of the log
    in growing pieces: a day's events, however many searches came after them, without reading
    months of log."""
    from dreamd.clock import parse_instant

    path = root / EVENTS_FILE
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return []
    piece = 65_536
    while True:
        events = list(read_events(root, tail_bytes=piece if piece < size else None))
        first = parse_instant(str(events[0].get("timestamp") or "")) if events else None
        if piece >= size or (first is not None and first < since):
            break
        piece *= 4
    return [
        event
        for event in events
        if (moment := parse_instant(str(event.get("timestamp") or ""))) is not None
        and moment >= since
    ]
