"""Recall traces written ahead: the searches recorded since the recall store was last saved.

An agent searches on every turn, each time as a new process. Rewriting the whole recall store
(half a megabyte of JSON at 512 rows) for every search would be most of that process's time,
so a search appends what it recorded to ``memory/.dreams/recall-pending.jsonl`` and the store
catches up when it is next read. Rules:

* One JSON object per line: ``{"id", "timestamp", "day", "queryHash", "origin", "sessionKind",
  "redacted", "hits": [{"path", "startLine", "endLine", "snippet", "score"}]}``: the query's
  hash, never its text; only hits that passed :func:`dreamd.engine.recordable.skip_reason`.
  Appended under the workspace lock with ``O_APPEND`` and ``O_NOFOLLOW``, mode 0600, fsynced;
  a line a crash cut short is ended before the next one is written and is skipped on reading.
* Reading the store (:func:`dreamd.store.statefiles.load_table`) replays the lines after the
  last one already applied (:func:`dreamd.engine.traces.replay_pending`), in order, exactly as
  each search would have recorded itself, and marks the last line applied in the store's
  top-level ``dreamdPendingApplied``: a line is never counted twice, whatever crashes when.
  The 512-row cap is left to whoever saves the store (a sweep retires what is over it, and so
  does :func:`dreamd.store.writer.apply_plan`).
* Saving the store (:func:`dreamd.store.writer.save_table`) removes the file once its last line
  is the one marked; a line appended meanwhile keeps it. A recording process replays and saves
  the store itself once the file passes :data:`FOLD_BYTES`, so it stays small between sweeps.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from dreamd.engine.hits import Hit
from dreamd.engine.recordable import PendingSearch
from dreamd.errors import StateError
from dreamd.layout import STATE_DIR
from dreamd.store.appendlog import append_lines

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "APPLIED",
    "FOLD_BYTES",
    "PENDING_FILE",
    "append_pending",
    "discard_applied",
    "encode_search",
    "read_pending",
    "unapplied",
]

PENDING_FILE = f"{STATE_DIR}/recall-pending.jsonl"
APPLIED = "dreamdPendingApplied"
FOLD_BYTES = 1024 * 1024


def encode_search(
    hits: Sequence[Hit],
    *,
    timestamp: str,
    day: str,
    query_digest: str,
    origin: str,
    session_kind: str,
    redacted: bool,
) -> dict[str, Any]:
    """One line of the file, for ``hits`` recorded now."""
    return {
        "id": os.urandom(8).hex(),
        "timestamp": timestamp,
        "day": day,
        "queryHash": query_digest,
        "origin": origin,
        "sessionKind": session_kind,
        "redacted": redacted,
        "hits": [
            {
                "path": hit.path,
                "startLine": hit.start_line,
                "endLine": hit.end_line,
                "snippet": hit.snippet,
                "score": hit.score,
            }
            for hit in hits
        ],
    }


def append_pending(root: Path, line: Mapping[str, Any]) -> int:
    """Append ``line`` (caller holds the workspace lock); returns the file's size after it."""
    data = json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
    return append_lines(root / PENDING_FILE, data)


def _hit(raw: Any) -> Hit | None:
    if not isinstance(raw, dict):
        return None
    path, start, end = raw.get("path"), raw.get("startLine"), raw.get("endLine")
    snippet, score = raw.get("snippet"), raw.get("score")
    if not (isinstance(path, str) and isinstance(snippet, str)):
        return None
    if not (type(start) is int and type(end) is int and 1 <= start <= end):
        return None
    if not isinstance(score, int | float) or isinstance(score, bool):
        return None
    return Hit(path, start, end, snippet, float(score))


def _search(raw: Any) -> PendingSearch | None:
    """A line as a search to replay, or ``None`` when it is not one."""
    if not isinstance(raw, dict):
        return None
    fields = [raw.get(name) for name in ("id", "timestamp", "day", "queryHash", "origin")]
    kind, redacted, hits = raw.get("sessionKind"), raw.get("redacted"), raw.get("hits")
    if not all(isinstance(value, str) for value in (*fields, kind)):
        return None
    if not isinstance(redacted, bool) or not isinstance(hits, list):
        return None
    try:
        now = datetime.fromisoformat(str(fields[1]).replace("Z", "+00:00"))
    except ValueError:
        return None
    if now.tzinfo is None:
        return None
    parsed = [_hit(each) for each in hits]
    if any(hit is None for hit in parsed):
        return None
    ident, _, day, digest, origin = (str(value) for value in fields)
    found = tuple(hit for hit in parsed if hit is not None)
    return PendingSearch(ident, now, day, digest, origin, str(kind), redacted, found)


def read_pending(root: Path) -> tuple[list[PendingSearch], list[str]]:
    """The searches recorded ahead, oldest first, and what was skipped as unreadable."""
    path = root / PENDING_FILE
    if path.is_symlink():
        raise StateError(f"{path} is a symlink; refusing to use it as state")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], []
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror}") from exc
    searches: list[PendingSearch] = []
    issues: list[str] = []
    lines = data.split(b"\n")
    if lines and lines[-1]:  # still being written, or cut short by a crash
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            search = _search(json.loads(line))
        except (ValueError, RecursionError):
            search = None
        if search is None:
            issues.append(f"{PENDING_FILE} line {number} is not a recorded search; skipped")
        else:
            searches.append(search)
    return searches, issues


def unapplied(searches: Sequence[PendingSearch], top: Mapping[str, Any]) -> Sequence[PendingSearch]:
    """The searches after the last one the store marks as applied (all when it marks none of
    them: the file was started again since)."""
    applied = top.get(APPLIED)
    for index, search in enumerate(searches):
        if search.id == applied:
            return searches[index + 1 :]
    return searches


def discard_applied(root: Path, top: Mapping[str, Any]) -> None:
    """Remove the file once the store just saved (its top-level ``top``) applied its last line.

    The caller holds the workspace lock, so no search appends meanwhile.
    """
    applied = top.get(APPLIED)
    if not applied:
        return
    searches, _ = read_pending(root)
    if searches and searches[-1].id == applied:
        try:
            (root / PENDING_FILE).unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StateError(f"cannot remove {root / PENDING_FILE}: {exc.strerror}") from exc
