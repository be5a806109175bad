"""The append-only audit log ``memory/.dreams/events.jsonl``.

One JSON object per line. Appends open the file with ``O_APPEND`` and ``O_NOFOLLOW`` (a symlink
planted there is refused, not followed) and fsync. Reading skips malformed lines.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec

from dreamd.errors import StateError
from dreamd.layout import STATE_DIR

__all__ = ["EVENTS_FILE", "append_events", "read_events"]

EVENTS_FILE = f"{STATE_DIR}/events.jsonl"


def append_events(root: Path, events: Iterable[Mapping[str, Any]]) -> int:
    """Append ``events`` to the workspace's log; returns how many were written."""
    lines = b"".join(msgspec.json.encode(dict(event)) + b"\n" for event in events)
    if not lines:
        return 0
    path = root / EVENTS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        raise StateError(f"cannot append to {path}: {exc.strerror}") from exc
    try:
        os.write(fd, lines)
        os.fsync(fd)
    finally:
        os.close(fd)
    return lines.count(b"\n")


def read_events(root: Path) -> Iterator[dict[str, Any]]:
    """Every well-formed event in the log, oldest first."""
    path = root / EVENTS_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    for line in data.splitlines():
        try:
            event = msgspec.json.decode(line)
        except msgspec.DecodeError:
            continue
        if isinstance(event, dict):
            yield event
