"""The fleet-wide job budget: at most ``fleet.max_concurrent`` jobs at once on all hosts.

It sits beside each host's own budget (:mod:`dreamd.host.jobs`), never instead of it: a job
takes its host slot first, then a fleet lease. A lease is a member of the ``jobs`` sorted set,
scored by when it expires (Redis' clock, so hosts' clocks may differ); taking one is a script
that first drops expired leases, so a host that died gives its leases back within its lease
time (``fleet.host_ttl_s``, as its locks). The holder renews its leases every heartbeat while
the jobs run. The limit defaults to ``jobs.max_concurrent`` for every live host.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from dreamd.fleet.keys import Keys

if TYPE_CHECKING:
    import redis.asyncio

__all__ = ["FleetBudget"]

_WAIT_SECONDS = 0.25
_TAKE = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[1]), ARGV[2])
  return 1
end
return 0
"""
_RENEW = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
for i, member in ipairs(ARGV) do
  if i > 1 then redis.call('ZADD', KEYS[1], 'XX', ms + tonumber(ARGV[1]), member) end
end
return 1
"""
_COUNT = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
return redis.call('ZCARD', KEYS[1])
"""


class FleetBudget:
    """Leases of the fleet-wide budget held by this host (see the module rules)."""

    def __init__(
        self,
        client: redis.asyncio.Redis,
        keys: Keys,
        host: str,
        *,
        limit: Callable[[], int],
        lease_seconds: float = 30.0,
    ) -> None:
        self.client, self.keys, self.host = client, keys, host
        self.limit = limit
        self.lease_seconds = lease_seconds
        self.held: dict[str, str] = {}  # member -> label

    async def _script(self, source: str, *args: Any) -> int:
        result = await self.client.eval(source, 1, self.keys.jobs, *args)
        return int(result)

    @contextlib.asynccontextmanager
    async def lease(self, label: str) -> AsyncIterator[None]:
        """Hold one fleet-wide slot for the block (waits while the fleet is at its limit)."""
        member = f"{self.host}:{uuid.uuid4().hex[:12]}"
        ttl = str(int(self.lease_seconds * 1000))
        while not await self._script(_TAKE, ttl, member, str(self.limit())):
            await asyncio.sleep(_WAIT_SECONDS)
        self.held[member] = label
        try:
            yield
        finally:
            self.held.pop(member, None)
            with contextlib.suppress(Exception):  # an unreachable Redis expires it anyway
                await self.client.zrem(self.keys.jobs, member)

    async def renew(self) -> None:
        """Push back the expiry of every lease this host holds (its jobs still run)."""
        if self.held:
            await self._script(_RENEW, str(int(self.lease_seconds * 1000)), *self.held)

    async def in_use(self) -> int:
        """Leases held across the fleet now."""
        return await self._script(_COUNT)
