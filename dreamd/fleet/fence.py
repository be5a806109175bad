"""The fencing check the writer runs before each rename: is this grant still the newest?

A workspace lock is a lease (:mod:`dreamd.fleet.lease`) whose grant drew a token from the
workspace's fencing counter. A host that lost its lease (a partition, a long pause) may still
be sweeping; before each rename the writer calls the :class:`Fence`, which reads the lease key
and the counter and refuses (:class:`~dreamd.errors.FencedError`) unless the key still holds
this grant's value and the counter its token: the lease ran out, a newer holder exists, or
Redis cannot be asked. Comparing for equality, not order, also refuses after a Redis that lost
its data restarted the counter. What Redis holds is never quoted in the error: it is text an
outsider may have written.

The check narrows the window to the rename itself; it cannot close it, because files and
Redis are not written in one transaction. The workspace's own file lock (``store.lock``) still
serialises writers on a file system whose locks reach every host.

A :class:`Fence` is plain data, so it travels to the daemon's worker processes; each process
keeps one client per URL.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dreamd.errors import FencedError
from dreamd.fleet.connection import redis_errors, sync_client
from dreamd.fleet.lease import is_current_sync

if TYPE_CHECKING:
    import redis

__all__ = ["Fence"]

_CLIENTS: dict[str, redis.Redis] = {}


@dataclass(frozen=True)
class Fence:
    """A grant on a workspace: calling it raises unless the grant is still the newest."""

    url: str = field(repr=False)
    key: str
    counter: str
    value: str
    token: int
    workspace: str = ""

    def __call__(self) -> None:
        client = _CLIENTS.get(self.url)
        if client is None:
            client = _CLIENTS[self.url] = sync_client(self.url)
        try:
            current = is_current_sync(client, self.key, self.counter, self.value, self.token)
        except redis_errors() as exc:
            raise FencedError(
                f"{self.workspace}: the fleet's Redis cannot be asked whether this host still "
                "holds the workspace lock; nothing more is written"
            ) from exc
        if not current:
            raise FencedError(
                f"{self.workspace}: this host's fleet lock (token {self.token}) ran out or "
                "passed to another holder; this host writes nothing more there"
            )
