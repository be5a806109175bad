"""Recall traces folded while the daemon idles, so an agent's search seldom pays for a fold.

A search appends its recall traces to ``memory/.dreams/recall-pending.jsonl``
(:mod:`dreamd.store.pending`) and folds them into the recall store itself only once the file
passes :data:`~dreamd.store.pending.FOLD_BYTES` (hundreds to thousands of searches, by how many
hits each records; the fold then costs that search most of a second). Rules:

* Every ``jobs.fold_every_s`` seconds (:data:`CHECK_SECONDS`; 0 turns it off) the daemon
  looks at the size of each workspace's pending file (a ``stat``; nothing is read) and folds
  those past :data:`IDLE_FOLD_BYTES`, one at a time, in a worker process, each inside a slot
  of the host's job budget. A fold that fails is logged and tried again next round.
* Never beside a sweep (a sweep folds anyway), and never waiting for a workspace: one whose
  lock another writer holds is left to the next round. The fold is the search's own
  (:func:`dreamd.recall.record.fold_pending`): a kill mid-fold leaves the store and the
  pending file as a crashed search would, each line counted once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamd.errors import DreamdError
from dreamd.store.pending import PENDING_FILE

__all__ = ["CHECK_SECONDS", "IDLE_FOLD_BYTES", "due_for_fold", "fold_if_due", "fold_while_idle"]

_log = logging.getLogger(__name__)
CHECK_SECONDS = 60.0
IDLE_FOLD_BYTES = 64 * 1024


def _pending_bytes(root: Path) -> int:
    try:
        return (root / PENDING_FILE).stat().st_size
    except OSError:
        return 0


def due_for_fold(roots: Iterable[Path], *, threshold: int = IDLE_FOLD_BYTES) -> list[Path]:
    """The workspaces whose pending recall traces have reached ``threshold`` bytes."""
    return [root for root in roots if _pending_bytes(root) >= threshold]


def fold_if_due(root: Path, now: datetime, threshold: int = IDLE_FOLD_BYTES) -> bool:
    """Fold ``root``'s pending traces if still due and its lock is free (in a worker process);
    whether it folded."""
    from dreamd.recall.record import fold_pending
    from dreamd.store.lock import workspace_lock

    if _pending_bytes(root) < threshold:
        return False  # a search or a sweep folded it since it was found due
    try:
        with workspace_lock(root, timeout=0):
            fold_pending(root, now=now)
    except DreamdError as exc:
        _log.debug("fold of %s left to the next round: %s", root, exc)
        return False
    return True


async def fold_while_idle(
    roots: Callable[[], Sequence[Path]],
    *,
    busy: Callable[[], bool],
    slot: Callable[[str, str], Any],
    run: Callable[..., Awaitable[bool]],
    now: Callable[[], datetime],
    every: float = CHECK_SECONDS,
    threshold: int = IDLE_FOLD_BYTES,
) -> None:
    """Fold what is due every ``every`` s until cancelled (see the module rules).

    ``roots`` lists the workspaces, ``busy`` says a sweep runs, ``slot(kind, label)`` is the job
    budget's async context manager and ``run(job, *args)`` runs a job in a worker process.
    """
    while True:
        await asyncio.sleep(every)
        if busy():
            continue
        for root in await asyncio.to_thread(due_for_fold, roots(), threshold=threshold):
            if busy():
                break
            try:
                async with slot("fold", f"folding the recall traces of {root}"):
                    await run(fold_if_due, root, now(), threshold)
            except Exception as exc:  # noqa: BLE001 - the loop outlives any one fold's trouble
                _log.warning("could not fold the recall traces of %s: %s", root, exc)
