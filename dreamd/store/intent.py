"""Events held ahead of the files they describe, so a crash mid-apply loses no audit line.

Rules (the writer, :func:`dreamd.store.writer.apply_plan`, does the I/O):

* Before the first rename of a plan, ``memory/.dreams/events-intent.json`` is saved (atomic,
  0600): for each write that will change a file and carries events, its path, the digest of its
  new bytes and its event lines, with the size of ``events.jsonl`` at that moment.
* Once the plan is applied and its events appended, the intent is removed.
* A writer that finds an intent (its author crashed, was fenced off, or stopped on a conflict)
  settles it before anything else: the lines of each write whose file now holds the planned
  bytes are appended, except those already in the log after the recorded size (a crash between
  the append and the removal), and the intent is removed. The lines of a write that never
  landed go with it: the next sweep plans that write again, with events of its own.
* An intent that cannot be read (cut short, not ours) is removed and costs only its own lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from dreamd.layout import STATE_DIR
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["INTENT_FILE", "HeldWrite", "Intent", "decode_intent", "encode_intent", "lines_due"]

INTENT_FILE = f"{STATE_DIR}/events-intent.json"
_VERSION = 1


class HeldWrite(Value):
    """One planned write: its path, the digest of its new bytes, and its event lines."""

    __match_args__ = ("path", "digest", "lines")
    __slots__ = __match_args__
    path: Final[str]
    digest: Final[str]
    lines: Final[bytes]

    def __init__(self, path: str, digest: str, lines: bytes) -> None:
        self.path, self.digest, self.lines = path, digest, lines


class Intent(Value):
    """The events of a plan being applied, and where the log ended when it began."""

    __match_args__ = ("writes", "log_size")
    __slots__ = __match_args__
    writes: Final[tuple[HeldWrite, ...]]
    log_size: Final[int]

    def __init__(self, writes: tuple[HeldWrite, ...], log_size: int) -> None:
        self.writes, self.log_size = writes, log_size


def encode_intent(writes: Sequence[HeldWrite], log_size: int) -> bytes:
    """The intent file's bytes."""
    document = {
        "version": _VERSION,
        "logSize": log_size,
        "writes": [
            {"path": w.path, "digest": w.digest, "lines": w.lines.decode("utf-8")} for w in writes
        ],
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"


def decode_intent(data: bytes) -> Intent | None:
    """The intent in ``data``, or ``None`` when it is not one this version wrote whole."""
    try:
        document = json.loads(data)
        if document.get("version") != _VERSION:
            return None
        writes = tuple(
            HeldWrite(str(w["path"]), str(w["digest"]), str(w["lines"]).encode("utf-8"))
            for w in document["writes"]
        )
        size = document["logSize"]
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
    if not isinstance(size, int) or size < 0:
        return None
    return Intent(writes, size)


def lines_due(intent: Intent, digest_of: Callable[[str], str | None], logged: bytes) -> bytes:
    """The lines to append for ``intent``: those of writes that landed (``digest_of(path)`` is
    the planned digest) and are not in ``logged``, the log's bytes after ``intent.log_size``."""
    present = set(logged.splitlines())
    due = []
    for write in intent.writes:
        if digest_of(write.path) != write.digest:
            continue
        due += [line for line in write.lines.splitlines() if line and line not in present]
    return b"".join(line + b"\n" for line in due)
