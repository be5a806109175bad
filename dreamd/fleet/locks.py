"""Fleet locks: portalocker's ``RedisLock`` on a workspace (fenced) and on a chat adapter.

A ``RedisLock`` is held by a live pub/sub subscription, not by an expiring key: a host that dies
drops its connection and Redis frees the lock at once; a half-open connection is found by the
probes of the next taker (and, for leaders, by the holder's own self-checks). Every lock here is
built with ``interrupt_on_lost=False`` (the daemon is asyncio; a loss is read from
:attr:`Grant.lost` or the leader's ``lost`` event, never a ``KeyboardInterrupt``) and workspace
locks with ``fencing=True`` (see :mod:`dreamd.fleet.fence`).

``RedisLock`` blocks, so the asyncio side runs it in a thread; a taker cancelled while its
attempt is in flight gives the lock back as soon as the attempt ends, never leaking a holder.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dreamd.fleet.connection import redis_errors, sync_client
from dreamd.fleet.fence import Fence
from dreamd.fleet.keys import Keys

if TYPE_CHECKING:
    import redis
    from portalocker import RedisLock

__all__ = ["LEADER_RETRY_SECONDS", "Grant", "Leadership", "LockMaker"]

_log = logging.getLogger("dreamd.fleet")
LEADER_RETRY_SECONDS = 5.0
"""How often a standing-by host asks for an adapter's leader lock (takeover well within 30 s)."""
SELF_CHECK_SECONDS = 5.0
"""A leader pings itself through its channel this often, so a half-open link is noticed."""
_THREAD_SLEEP = 0.005  # the lock's keep-alive thread waits this long per read (release joins it)


@dataclass(frozen=True)
class Grant:
    """A held workspace lock and its fencing token."""

    lock: RedisLock
    workspace: str
    token: int

    @property
    def lost(self) -> bool:
        """True once the lock's connection died (the fence refuses writes from then on)."""
        return bool(self.lock.lost)


class LockMaker:
    """Builds, takes and gives back the fleet's locks on one Redis."""

    def __init__(self, url: str, keys: Keys) -> None:
        self.url, self.keys = url, keys
        self._client: redis.Redis | None = None

    def _connection(self) -> redis.Redis:
        if self._client is None:
            self._client = sync_client(self.url)
        return self._client

    def _lock(self, channel: str, **options: Any) -> RedisLock:
        from portalocker import RedisLock

        return RedisLock(
            channel,
            connection=self._connection(),
            timeout=0,
            fail_when_locked=True,
            interrupt_on_lost=False,
            thread_sleep_time=_THREAD_SLEEP,
            **options,
        )

    def fence(self, grant: Grant) -> Fence:
        """The check the writer runs before each rename under ``grant``."""
        return Fence(self.url, self.keys.fence(grant.workspace), grant.token, grant.workspace)

    def take_workspace(self, workspace: str, *, wait: float = 0.0) -> Grant | None:
        """The workspace's lock, or ``None`` when another holder keeps it for ``wait`` s."""
        from portalocker.exceptions import AlreadyLocked

        lock = self._lock(self.keys.lock(workspace), fencing=True)
        try:
            lock.acquire(timeout=wait, check_interval=0.25, fail_when_locked=wait <= 0)
        except AlreadyLocked:
            return None
        token = lock.fence_token
        if token is None:  # fencing is on: a held lock always has a token; be safe anyway
            release(lock)
            return None
        return Grant(lock, workspace, token)

    def take_leader(self, adapter: str, on_lost: Callable[[], None]) -> RedisLock | None:
        """The adapter's leader lock, or ``None`` while another host leads it."""
        from portalocker.exceptions import AlreadyLocked

        lock = self._lock(
            self.keys.leader(adapter),
            self_check_interval=SELF_CHECK_SECONDS,
            on_lost=lambda _lock: on_lost(),
        )
        try:
            lock.acquire()
        except AlreadyLocked:
            return None
        return lock


def release(lock: RedisLock) -> None:
    """Give ``lock`` back; a dead connection has already freed it on the server."""
    with contextlib.suppress(*redis_errors()):
        lock.release()


async def in_thread(take: Callable[[], Any], give_back: Callable[[Any], None]) -> Any:
    """``take()`` in a thread; if the caller is cancelled meanwhile, what it took goes back."""
    attempt = asyncio.ensure_future(asyncio.to_thread(take))
    try:
        return await asyncio.shield(attempt)
    except asyncio.CancelledError:

        def settle(done: asyncio.Future[Any]) -> None:
            if not done.cancelled() and done.exception() is None and done.result() is not None:
                give_back(done.result())

        attempt.add_done_callback(settle)
        raise


class Leadership:
    """One host runs each chat adapter: the holder of its leader lock (``chat.adapters``).

    :meth:`lead` waits until this host holds the adapter's lock, then yields an event that is
    set if the lock is lost (the adapter must stop); leaving the block gives the lock back.
    """

    def __init__(self, locks: LockMaker, *, retry: float = LEADER_RETRY_SECONDS) -> None:
        self.locks, self.retry = locks, retry
        self.leading: set[str] = set()

    @contextlib.asynccontextmanager
    async def lead(self, name: str) -> AsyncIterator[asyncio.Event]:
        """Hold ``name``'s leader lock for the block (see the class docstring)."""
        loop = asyncio.get_running_loop()
        while True:
            lost = asyncio.Event()

            def on_lost(lost: asyncio.Event = lost) -> None:
                loop.call_soon_threadsafe(lost.set)

            try:
                lock = await in_thread(
                    lambda: self.locks.take_leader(name, on_lost),
                    lambda taken: release(taken),
                )
            except redis_errors() as exc:
                _log.warning("fleet: cannot ask for the %s leader lock: %s", name, exc)
                lock = None
            if lock is not None:
                break
            await asyncio.sleep(self.retry)
        _log.info("fleet: this host now runs the %s adapter", name)
        self.leading.add(name)
        try:
            yield lost
        finally:
            self.leading.discard(name)
            await asyncio.to_thread(release, lock)
