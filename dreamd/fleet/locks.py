"""Fleet locks: a workspace's lock (fenced) and a chat adapter's leadership, both leases.

Each is a :mod:`dreamd.fleet.lease` on the fleet's Redis, renewed every heartbeat
(``fleet.heartbeat_s``) by its holder and lost ``fleet.host_ttl_s`` after the last renewal: a
host that dies (or stalls, or is cut off) frees its workspaces and its adapters then, and the
next taker gets a newer fencing token, so the old holder's late writes are refused.

* :class:`WorkspaceLocks` is the blocking side, for one CLI command (``dreamd sweep``): it takes a
  workspace within a wait, renews what it holds in a thread, and gives it back.
* :class:`Leadership` is the asyncio side of the chat adapters: :meth:`Leadership.lead` waits
  until this host holds an adapter's lease, keeps renewing it, and sets the yielded event when
  the lease is lost (the adapter must stop) before another host can take it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dreamd.cancellation import honour_cancel
from dreamd.fleet.connection import redis_errors, sync_client
from dreamd.fleet.fence import Fence
from dreamd.fleet.keys import Keys
from dreamd.fleet.lease import (
    Lease,
    Taken,
    release,
    release_sync,
    renew,
    renew_sync,
    take,
    take_sync,
)

if TYPE_CHECKING:
    import redis
    import redis.asyncio

__all__ = ["Grant", "Leadership", "WorkspaceLocks", "fence_of"]

_log = logging.getLogger("dreamd.fleet")
_POLL_SECONDS = 0.25


@dataclass(frozen=True, eq=False)
class Grant:
    """A held workspace lock: its lease (token, value, the claim it replaced)."""

    lease: Lease
    workspace: str

    @property
    def token(self) -> int:
        return self.lease.token

    @property
    def lost(self) -> bool:
        """True once the lease may have run out (the fence refuses writes from then on)."""
        return self.lease.lost


def fence_of(url: str, grant: Grant) -> Fence:
    """The check the writer runs before each rename under ``grant``."""
    lease = grant.lease
    return Fence(url, lease.key, lease.counter, lease.value, lease.token, grant.workspace)


class WorkspaceLocks:
    """Workspace locks for one blocking command (see the module rules)."""

    def __init__(self, url: str, keys: Keys, host: str, *, ttl: float, heartbeat: float) -> None:
        self.url, self.keys, self.host = url, keys, host
        self.ttl, self.heartbeat = ttl, heartbeat
        self._client: redis.Redis | None = None
        self._held: set[Grant] = set()
        self._guard = threading.Lock()
        self._renewer: threading.Thread | None = None

    def _connection(self) -> redis.Redis:
        if self._client is None:
            self._client = sync_client(self.url)
        return self._client

    def take(self, workspace: str, *, wait: float = 0.0, at: str = "") -> Grant | None:
        """``workspace``'s lock, or ``None`` when another holder keeps it for ``wait`` s."""
        keys = self.keys
        deadline = time.monotonic() + wait
        while True:
            taken = take_sync(
                self._connection(), keys.lock(workspace), keys.fence(workspace), self.host,
                ttl=self.ttl, claims=keys.claims, field_=workspace, at=at,
            )  # fmt: skip
            if taken.lease is not None:
                grant = Grant(taken.lease, workspace)
                with self._guard:
                    self._held.add(grant)
                    if self._renewer is None:
                        self._renewer = threading.Thread(
                            target=self._renew, name="dreamd-fleet-leases", daemon=True
                        )
                        self._renewer.start()
                return grant
            if time.monotonic() >= deadline:
                return None
            time.sleep(_POLL_SECONDS)

    def fence(self, grant: Grant) -> Fence:
        return fence_of(self.url, grant)

    def release(self, grant: Grant) -> None:
        """Give ``grant`` back (a lease that ran out is someone else's: left alone)."""
        with self._guard:
            self._held.discard(grant)
        with contextlib.suppress(*redis_errors()):
            release_sync(self._connection(), grant.lease)

    def _renew(self) -> None:
        """Renew what is held every heartbeat; end once nothing is (the next take restarts)."""
        while True:
            time.sleep(self.heartbeat)
            with self._guard:
                held = list(self._held)
                if not held:
                    self._renewer = None
                    return
            for grant in held:
                try:
                    if not renew_sync(self._connection(), grant.lease):
                        _log.warning("fleet: the lock on %s ran out", grant.workspace)
                except redis_errors() as exc:
                    _log.warning("fleet: cannot renew the lock on %s: %s", grant.workspace, exc)


class Leadership:
    """One host runs each chat adapter: the holder of its lease (``chat.adapters``).

    :meth:`lead` waits until this host holds the adapter's lease, then yields an event that is
    set if the lease is lost (the adapter must stop); leaving the block gives the lease back.
    The holder counts its lease lost a heartbeat before it could run out on the server, so the
    adapter stops before any other host may start it.
    """

    def __init__(
        self,
        client: redis.asyncio.Redis,
        keys: Keys,
        host: str,
        *,
        ttl: float,
        heartbeat: float,
    ) -> None:
        self.client, self.keys, self.host = client, keys, host
        self.ttl, self.heartbeat = ttl, heartbeat
        self.leading: set[str] = set()
        self._late: set[asyncio.Future[None]] = set()

    async def _take(self, name: str) -> Lease | None:
        keys = self.keys
        attempt = asyncio.ensure_future(
            take(self.client, keys.leader(name), keys.leader_counter(name), self.host, ttl=self.ttl)
        )
        try:
            taken = await asyncio.shield(attempt)
        except asyncio.CancelledError:
            attempt.add_done_callback(self._give_back_late)
            raise
        return taken.lease

    def _give_back_late(self, done: asyncio.Future[Taken]) -> None:
        """A take that finished after its waiter was cancelled gives the lease straight back."""
        if done.cancelled() or done.exception() is not None:
            return
        lease = done.result().lease
        if lease is not None:
            late = asyncio.ensure_future(self._release(lease))
            self._late.add(late)
            late.add_done_callback(self._late.discard)

    async def _release(self, lease: Lease) -> None:
        with contextlib.suppress(*redis_errors()):
            await release(self.client, lease)

    async def _keep(self, lease: Lease, lost: asyncio.Event) -> None:
        """Renew ``lease`` every heartbeat; set ``lost`` once it may run out before the next."""
        while True:
            honour_cancel()
            await asyncio.sleep(self.heartbeat)
            with contextlib.suppress(*redis_errors()):
                await renew(self.client, lease)
            if time.monotonic() + self.heartbeat >= lease.valid_until:
                lost.set()
                return

    @contextlib.asynccontextmanager
    async def lead(self, name: str) -> AsyncIterator[asyncio.Event]:
        """Hold ``name``'s lease for the block (see the class docstring)."""
        while True:
            honour_cancel()
            try:
                lease = await self._take(name)
            except redis_errors() as exc:
                _log.warning("fleet: cannot ask for the %s leader lock: %s", name, exc)
                lease = None
            if lease is not None:
                break
            await asyncio.sleep(self.heartbeat)
        _log.info("fleet: this host now runs the %s adapter", name)
        lost = asyncio.Event()
        keeper = asyncio.create_task(self._keep(lease, lost))
        self.leading.add(name)
        try:
            yield lost
        finally:
            self.leading.discard(name)
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            await self._release(lease)
