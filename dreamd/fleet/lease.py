"""Leases: a Redis key held by one host for a time to live that its holder keeps renewing.

A workspace's lock and a chat adapter's leadership are leases. Taking one is one script: if
the key is free, draw the next fencing token (``INCR`` on its counter), set the key to
``"<token> <host>"`` with the time to live, and (for a workspace) record the claim (host,
token, slot, when) while returning the claim it replaces, so a taker knows whose work it takes
over. Renewing and releasing compare the key's value first, so a holder whose lease ran out
can neither extend nor delete its successor's. The fence (:mod:`dreamd.fleet.fence`) asks
whether the key still holds this grant's value and the counter its token.

Why not a lock library: the token and the claim must be drawn in the same atomic step as the
grant, which neither redis-py's ``Lock`` nor portalocker's ``RedisLock`` does; and these leases
need only key commands and ``EVAL`` on the fleet's own keys (no pub/sub, no ``CLIENT KILL``),
so an ACL user limited to them runs a fleet (docs/fleet.md lists the rules).

Lost-host detection: a host that dies stops renewing; its leases run out after the time to
live (``fleet.host_ttl_s``) and the next taker gets them. Detection time is that time to live
after the last renewal; a shorter one takes over sooner, and drops the leases of a host that
stalls (swapping, a suspended VM) for longer than that: its writes are then fenced off.

The sync and asyncio wrappers share the pure parts: :func:`_take_args` and :func:`_taken`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dreamd.fleet.records import Claim, decode, valid_host_id

if TYPE_CHECKING:
    import redis
    import redis.asyncio

__all__ = [
    "Lease",
    "Taken",
    "is_current",
    "is_current_sync",
    "release",
    "release_sync",
    "renew",
    "renew_sync",
    "take",
    "take_sync",
]

_TAKE = """
local held = redis.call('GET', KEYS[1])
if held then return {0, held, ''} end
local token = redis.call('INCR', KEYS[2])
local value = token .. ' ' .. ARGV[1]
redis.call('SET', KEYS[1], value, 'PX', ARGV[2])
local before = ''
if ARGV[3] ~= '' then
  before = redis.call('HGET', KEYS[3], ARGV[3]) or ''
  local claim = {host = ARGV[1], token = token, slot = ARGV[4], at = ARGV[5]}
  redis.call('HSET', KEYS[3], ARGV[3], cjson.encode(claim))
end
return {token, value, before}
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(eq=False)
class Lease:
    """A held lease: its key, fencing counter, value and token, and until when it is surely
    ours (monotonic seconds; renewing moves it on)."""

    key: str
    counter: str
    value: str
    token: int
    ttl: float
    valid_until: float
    previous: Claim | None = None
    released: bool = field(default=False)

    @property
    def lost(self) -> bool:
        """True once the lease may have run out on the server (it was not renewed in time)."""
        return not self.released and time.monotonic() >= self.valid_until


@dataclass(frozen=True)
class Taken:
    """What a take found: the lease, or the host holding it (``None`` if not a valid id)."""

    lease: Lease | None
    holder: str | None = None


def _take_args(
    key: str, counter: str, host: str, ttl: float, claims: str, field_: str, slot: str, at: str
) -> tuple[Any, ...]:
    keys = (key, counter, claims) if claims else (key, counter)
    return (_TAKE, len(keys), *keys, host, str(int(ttl * 1000)), field_ if claims else "", slot, at)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _taken(result: Any, key: str, counter: str, ttl: float, started: float) -> Taken:
    token, value, before = int(result[0]), _text(result[1]), _text(result[2])
    if not token:
        holder = value.partition(" ")[2]
        return Taken(None, holder if valid_host_id(holder) else None)
    previous = decode(before, Claim) if before else None
    return Taken(Lease(key, counter, value, token, ttl, started + ttl, previous))


async def take(
    client: redis.asyncio.Redis,
    key: str,
    counter: str,
    host: str,
    *,
    ttl: float,
    claims: str = "",
    field_: str = "",
    slot: str = "",
    at: str = "",
) -> Taken:
    """Take the lease at ``key`` for ``ttl`` seconds if it is free (see the module rules)."""
    started = time.monotonic()
    args = _take_args(key, counter, host, ttl, claims, field_, slot, at)
    result = await client.eval(*args)
    return _taken(result, key, counter, ttl, started)


def take_sync(
    client: redis.Redis,
    key: str,
    counter: str,
    host: str,
    *,
    ttl: float,
    claims: str = "",
    field_: str = "",
    slot: str = "",
    at: str = "",
) -> Taken:
    """:func:`take` with a blocking client."""
    started = time.monotonic()
    args = _take_args(key, counter, host, ttl, claims, field_, slot, at)
    return _taken(client.eval(*args), key, counter, ttl, started)


async def renew(client: redis.asyncio.Redis, lease: Lease) -> bool:
    """Push the lease's end back by its time to live; False once it is no longer ours."""
    started = time.monotonic()
    kept = bool(await client.eval(_RENEW, 1, lease.key, lease.value, str(int(lease.ttl * 1000))))
    if kept:
        lease.valid_until = started + lease.ttl
    else:
        lease.valid_until = 0.0
    return kept


def renew_sync(client: redis.Redis, lease: Lease) -> bool:
    """:func:`renew` with a blocking client."""
    started = time.monotonic()
    kept = bool(client.eval(_RENEW, 1, lease.key, lease.value, str(int(lease.ttl * 1000))))
    lease.valid_until = started + lease.ttl if kept else 0.0
    return kept


async def release(client: redis.asyncio.Redis, lease: Lease) -> None:
    """Give the lease back (a no-op once it is someone else's)."""
    lease.released = True
    await client.eval(_RELEASE, 1, lease.key, lease.value)


def release_sync(client: redis.Redis, lease: Lease) -> None:
    """:func:`release` with a blocking client."""
    lease.released = True
    client.eval(_RELEASE, 1, lease.key, lease.value)


async def is_current(
    client: redis.asyncio.Redis, key: str, counter: str, value: str, token: int
) -> bool:
    """:func:`is_current_sync` with an asyncio client."""
    held, current = await client.mget(key, counter)
    return _current(held, current, value, token)


def _current(held: Any, current: Any, value: str, token: int) -> bool:
    return (
        held is not None
        and _text(held) == value
        and current is not None
        and _text(current) == str(token)
    )


def is_current_sync(client: redis.Redis, key: str, counter: str, value: str, token: int) -> bool:
    """Whether ``key`` still holds ``value`` and its counter ``token``: no newer grant exists."""
    held, current = client.mget(key, counter)
    return _current(held, current, value, token)
