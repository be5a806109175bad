"""The fencing check the writer runs before each rename: is this grant still the newest?

portalocker's ``RedisLock`` (``fencing=True``) draws a token for every exclusive grant with
``INCR`` on the lock's fence key. A host that lost its lock (a partition, a long pause) may
still be sweeping; before each rename the writer calls the :class:`Fence`, which reads the
counter and refuses (:class:`~dreamd.errors.FencedError`) unless it still equals this grant's
token: a newer holder exists, or Redis cannot be asked. Comparing for equality, not order,
also refuses after a Redis that lost its data restarted the counter.

The check narrows the window to the rename itself; it cannot close it, because files and
Redis are not written in one transaction. The workspace's own file lock (``store.lock``) still
serialises writers on a file system whose locks reach every host.

A :class:`Fence` is plain data, so it travels to the daemon's worker processes; each process
keeps one client per URL.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from dreamd.errors import FencedError
from dreamd.fleet.connection import redis_errors, sync_client

if TYPE_CHECKING:
    import redis

__all__ = ["Fence"]

_CLIENTS: dict[str, redis.Redis] = {}


@dataclass(frozen=True)
class Fence:
    """A grant's token on a workspace: calling it raises unless the grant is still the newest."""

    url: str = field(repr=False)
    key: str
    token: int
    workspace: str = ""

    def __call__(self) -> None:
        client = _CLIENTS.get(self.url)
        if client is None:
            client = _CLIENTS[self.url] = sync_client(self.url)
        try:
            current = cast("str | None", client.get(self.key))
        except redis_errors() as exc:
            raise FencedError(
                f"{self.workspace}: the fleet's Redis cannot be asked whether this host still "
                "holds the workspace lock; nothing more is written"
            ) from exc
        if current is None or str(current) != str(self.token):
            raise FencedError(
                f"{self.workspace}: the fleet lock passed to another holder (token {current}, "
                f"this host's {self.token}); this host writes nothing more there"
            )
