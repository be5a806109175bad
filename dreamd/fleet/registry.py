"""The fleet's shared records in Redis: host announcements, each workspace's last sweep.

A host announces itself every ``fleet.host_ttl_s / 6`` seconds: its record goes into the
``hosts`` hash (kept, so a lost host stays visible) and an ``alive:<host>`` key is set with
the time to live; a host whose key ran out is lost. A sweep's result is recorded by the
workspace's lock holder only, checked against its fencing token in the same script, so a host
that lost the lock cannot overwrite the newer holder's record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from dreamd.fleet.keys import Keys
from dreamd.fleet.view import decode_record, fleet_document

if TYPE_CHECKING:
    import redis
    import redis.asyncio

__all__ = [
    "announce",
    "read_document",
    "read_document_sync",
    "read_hosts",
    "record_sweep",
    "swept_for",
]


def _texts(found: Mapping[Any, Any]) -> dict[str, str]:
    """A hash as read with ``decode_responses``: text keys and values."""
    return {str(key): str(value) for key, value in found.items()}


_RECORD = """
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], ARGV[2], ARGV[4]) end
return 1
"""


async def announce(
    client: redis.asyncio.Redis, keys: Keys, record: Mapping[str, Any], *, ttl: float
) -> None:
    """Publish this host's record and (re)start its time to live."""
    host = str(record["id"])
    async with client.pipeline(transaction=False) as pipe:
        pipe.hset(keys.hosts, host, msgspec.json.encode(dict(record)).decode())
        pipe.set(keys.alive(host), "1", px=int(ttl * 1000))
        await pipe.execute()


async def record_sweep(
    client: redis.asyncio.Redis,
    keys: Keys,
    workspace: str,
    record: Mapping[str, Any],
    *,
    token: int | None,
    slot: str | None,
) -> bool:
    """Store ``workspace``'s last sweep (and ``slot`` as done), if ``token`` is still newest."""
    data = msgspec.json.encode(dict(record)).decode()
    fence = keys.fence(workspace)
    argv = ("" if token is None else str(token), workspace, data, slot or "")
    result = await client.eval(_RECORD, 3, fence, keys.sweeps, keys.slots, *argv)
    return bool(result)


async def swept_for(
    client: redis.asyncio.Redis, keys: Keys, workspace: str, slot: str
) -> dict[str, Any] | None:
    """The last sweep of ``workspace`` when it already covered ``slot``, else ``None``."""
    async with client.pipeline(transaction=False) as pipe:
        pipe.hget(keys.slots, workspace)
        pipe.hget(keys.sweeps, workspace)
        done, raw = await pipe.execute()
    if done is None or str(done) < slot:
        return None
    return decode_record(raw) or {"host": "another host", "at": "?", "status": "?"}


async def read_hosts(client: redis.asyncio.Redis, keys: Keys) -> list[dict[str, Any]]:
    """Every announced host's record with ``lost`` set, by id."""
    hosts = _texts(await client.hgetall(keys.hosts))
    async with client.pipeline(transaction=False) as pipe:
        for host in hosts:
            pipe.exists(keys.alive(host))
        flags = await pipe.execute()
    alive = {host: bool(flag) for host, flag in zip(hosts, flags, strict=True)}
    listed: list[dict[str, Any]] = fleet_document(keys.name, hosts, alive, {})["hosts"]
    return listed


async def read_document(
    client: redis.asyncio.Redis, keys: Keys, *, known: Iterable[str] = (), jobs_limit: int = 0
) -> dict[str, Any]:
    """The ``fleet status`` document, read now."""
    hosts = _texts(await client.hgetall(keys.hosts))
    sweeps = _texts(await client.hgetall(keys.sweeps))
    async with client.pipeline(transaction=False) as pipe:
        for host in hosts:
            pipe.exists(keys.alive(host))
        pipe.time()
        *flags, (seconds, micros) = await pipe.execute()
    now_ms = int(seconds) * 1000 + int(micros) // 1000
    alive = {host: bool(flag) for host, flag in zip(hosts, flags, strict=True)}
    in_use = int(await client.zcount(keys.jobs, f"({now_ms}", "+inf"))
    jobs = {"inUse": in_use, "limit": jobs_limit}
    return fleet_document(keys.name, hosts, alive, sweeps, known=known, jobs=jobs)


def read_document_sync(
    client: redis.Redis, keys: Keys, *, known: Iterable[str] = (), jobs_limit: int = 0
) -> dict[str, Any]:
    """:func:`read_document` for one-shot commands (a blocking client)."""
    hosts = _texts(client.hgetall(keys.hosts))
    sweeps = _texts(client.hgetall(keys.sweeps))
    pipe = client.pipeline(transaction=False)
    for host in hosts:
        pipe.exists(keys.alive(host))
    pipe.time()
    *flags, (seconds, micros) = pipe.execute()
    now_ms = int(seconds) * 1000 + int(micros) // 1000
    alive = {host: bool(flag) for host, flag in zip(hosts, flags, strict=True)}
    in_use = int(client.zcount(keys.jobs, f"({now_ms}", "+inf"))
    jobs = {"inUse": in_use, "limit": jobs_limit}
    return fleet_document(keys.name, hosts, alive, sweeps, known=known, jobs=jobs)
