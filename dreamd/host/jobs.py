"""The host-wide budget of background jobs: at most ``jobs.max_concurrent`` (3) at once.

Every background job — a workspace sweep, a diary or consolidation completion, adapter or plugin
work — runs inside :meth:`JobBudget.slot`. A slot is two things held together: a place in an
asyncio semaphore (this process) and a lock file of a portalocker bounded semaphore in the
runtime dir (every process on the host, so a CLI ``sweep`` or ``promote --apply`` shares it).
The cross-process slot is taken in short polls in a worker thread, so a waiting job can be
cancelled without leaking a slot and the event loop never blocks. Whoever only coordinates
(fans work out and waits) holds no slot. :meth:`JobBudget.hold` is the blocking variant for CLI
commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import portalocker

from dreamd import paths
from dreamd.errors import DreamdError

__all__ = ["JobBudget", "default_slot_dir"]

_NAME = "dreamd-jobs"
_POLL_SECONDS = 0.1


def _release_if_won(host: portalocker.NamedBoundedSemaphore, poll: asyncio.Future[Any]) -> None:
    """A poll that finished after its waiter was cancelled gives its slot straight back."""
    if not poll.cancelled() and poll.exception() is None and poll.result() is not None:
        host.release()


def default_slot_dir() -> Path:
    """Where the slot files live: a ``jobs`` folder in the runtime dir (never a tmp cleaner's)."""
    return paths.runtime_dir() / "jobs"


@dataclass(frozen=True)
class _Held:
    kind: str
    label: str
    since: float


class JobBudget:
    """At most ``limit`` jobs at once, in this process and across the host."""

    def __init__(self, limit: int = 3, directory: Path | None = None) -> None:
        self.limit = limit
        self.directory = directory or default_slot_dir()
        self._local: asyncio.Semaphore | None = None
        self._held: dict[int, _Held] = {}
        self._waiting = 0
        self._lock = threading.Lock()
        self._peak = 0

    def _semaphore(self) -> portalocker.NamedBoundedSemaphore:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.directory.chmod(0o700)
        return portalocker.NamedBoundedSemaphore(
            self.limit,
            name=_NAME,
            directory=str(self.directory),
            timeout=_POLL_SECONDS,
            check_interval=_POLL_SECONDS / 4,
            fail_when_locked=False,
        )

    def _record(self, token: int, kind: str, label: str) -> None:
        with self._lock:
            self._held[token] = _Held(kind, label, time.monotonic())
            self._peak = max(self._peak, len(self._held))

    def _forget(self, token: int) -> None:
        with self._lock:
            self._held.pop(token, None)

    @contextlib.asynccontextmanager
    async def slot(self, kind: str, label: str = "") -> AsyncIterator[None]:
        """Hold one slot for the ``async with`` body."""
        if self._local is None:
            self._local = asyncio.Semaphore(self.limit)
        self._waiting += 1
        try:
            await self._local.acquire()
            host = self._semaphore()
            try:
                await self._acquire_host(host)
            except BaseException:
                self._local.release()
                raise
        finally:
            self._waiting -= 1
        token = id(host)
        self._record(token, kind, label)
        try:
            yield
        finally:
            self._forget(token)
            await asyncio.to_thread(host.release)
            self._local.release()

    @staticmethod
    async def _acquire_host(host: portalocker.NamedBoundedSemaphore) -> None:
        while True:
            poll = asyncio.ensure_future(asyncio.to_thread(host.acquire))
            try:
                won = await asyncio.shield(poll)
            except asyncio.CancelledError:
                poll.add_done_callback(lambda done: _release_if_won(host, done))
                raise
            if won is not None:
                return

    @contextlib.contextmanager
    def hold(self, kind: str, label: str = "", *, timeout: float = 600.0) -> Iterator[None]:
        """Blocking variant for CLI commands: wait up to ``timeout`` seconds for a slot."""
        host = self._semaphore()
        deadline = time.monotonic() + timeout
        while host.acquire() is None:
            if time.monotonic() > deadline:
                raise DreamdError(
                    f"all {self.limit} background job slots stayed busy for {timeout:g}s "
                    "(the daemon or other dreamd commands are working); try again later"
                )
        token = id(host)
        self._record(token, kind, label)
        try:
            yield
        finally:
            self._forget(token)
            host.release()

    def statistics(self) -> dict[str, Any]:
        """Slots in use (by kind), waiting jobs, the limit and the peak seen by this process."""
        with self._lock:
            held = list(self._held.values())
            peak = self._peak
        now = time.monotonic()
        return {
            "limit": self.limit,
            "inUse": len(held),
            "waiting": self._waiting,
            "peak": peak,
            "byKind": dict(Counter(item.kind for item in held)),
            "jobs": [
                {"kind": item.kind, "label": item.label, "seconds": round(now - item.since, 1)}
                for item in held
            ],
        }
