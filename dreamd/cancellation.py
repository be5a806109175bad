"""A stop that a library swallowed, honoured at the next turn of a loop.

The daemon ends its long-running loops (the fleet heartbeat, the event relay, lease keepers,
chat adapter supervisors) by cancelling their tasks. On Python 3.11 ``asyncio.wait_for``
returns the awaited result and drops a cancel that arrives as that result lands, and redis-py
wraps each command it sends in it: a host asked to stop between a Redis write and the next
await kept looping until it was killed. The request is not lost, only unanswered, because
``Task.cancelling()`` still counts it; :func:`honour_cancel` at the top of each turn raises it.
"""

from __future__ import annotations

import asyncio

__all__ = ["honour_cancel"]


def honour_cancel() -> None:
    """Raise :class:`asyncio.CancelledError` if this task was asked to stop and still runs."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
