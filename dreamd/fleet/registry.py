"""The fleet's shared records in Redis: host announcements, each workspace's last sweep.

A host announces itself every ``fleet.host_ttl_s / 6`` seconds: its record goes into the
``hosts`` hash (kept, so a lost host stays visible) and an ``alive:<host>`` key is set with
the time to live; a host whose key ran out is lost. A sweep's result is recorded by the
workspace's lock holder only, checked against its lease in the same script, so a host that lost
the lock cannot overwrite the newer holder's record; a takeover is also pushed on the
``takeovers`` list. Every record read back is checked (:mod:`dreamd.fleet.records`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from dreamd.fleet.keys import Keys
from dreamd.fleet.lease import Lease
from dreamd.fleet.records import MAX_HOSTS, SweepRecord, decode, valid_host_id, valid_instant
from dreamd.fleet.view import fleet_document

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
if redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('GET', KEYS[2]) ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[4], ARGV[3], ARGV[5]) end
if ARGV[6] ~= '' then
  redis.call('LPUSH', KEYS[5], ARGV[6])
  redis.call('LTRIM', KEYS[5], 0, 99)
end
return 1
"""
TAKEOVERS_SHOWN = 20


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
    record: SweepRecord,
    *,
    lease: Lease,
    slot: str | None,
) -> bool:
    """Store ``workspace``'s last sweep (and ``slot`` as done, and a takeover), if ``lease``
    is still the newest grant."""
    data = msgspec.json.encode(record).decode()
    taken = msgspec.json.encode(record.takeover).decode() if record.takeover else ""
    argv = (lease.value, str(lease.token), workspace, data, slot or "", taken)
    touched = (lease.key, lease.counter, keys.sweeps, keys.slots, keys.takeovers)
    result = await client.eval(_RECORD, len(touched), *touched, *argv)
    return bool(result)


def record_manual(
    client: redis.Redis, keys: Keys, workspace: str, record: SweepRecord, *, lease: Lease
) -> bool:
    """:func:`record_sweep` for a manual sweep of one command (a blocking client, no slot)."""
    data = msgspec.json.encode(record).decode()
    argv = (lease.value, str(lease.token), workspace, data, "", "")
    touched = (lease.key, lease.counter, keys.sweeps, keys.slots, keys.takeovers)
    return bool(client.eval(_RECORD, len(touched), *touched, *argv))


async def swept_for(
    client: redis.asyncio.Redis, keys: Keys, workspace: str, slot: str
) -> SweepRecord | None:
    """The last sweep of ``workspace`` when it already covered ``slot``, else ``None``.

    A ``slots`` mark that is not an instant is ignored (as if unset); a mark without a valid
    sweep record counts as done by an unnamed host.
    """
    async with client.pipeline(transaction=False) as pipe:
        pipe.hget(keys.slots, workspace)
        pipe.hget(keys.sweeps, workspace)
        done, raw = await pipe.execute()
    mark = str(done) if done is not None else ""
    if not valid_instant(mark) or mark < slot:
        return None
    found = decode(raw, SweepRecord)
    if found is None or found.slot != mark:
        return SweepRecord(host="unknown", at=mark, status="ok", slot=mark)
    return found


def _hosts(found: Mapping[Any, Any]) -> dict[str, str]:
    """The ``hosts`` hash, keeping only fields that are host ids (at most :data:`MAX_HOSTS`)."""
    hosts = {key: value for key, value in _texts(found).items() if valid_host_id(key)}
    return dict(sorted(hosts.items())[:MAX_HOSTS])


async def read_hosts(client: redis.asyncio.Redis, keys: Keys) -> list[dict[str, Any]]:
    """Every announced host's record with ``lost`` set, by id."""
    hosts = _hosts(await client.hgetall(keys.hosts))
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
    hosts = _hosts(await client.hgetall(keys.hosts))
    sweeps = _texts(await client.hgetall(keys.sweeps))
    async with client.pipeline(transaction=False) as pipe:
        for host in hosts:
            pipe.exists(keys.alive(host))
        pipe.lrange(keys.takeovers, 0, TAKEOVERS_SHOWN - 1)
        pipe.time()
        *flags, takeovers, (seconds, micros) = await pipe.execute()
    now_ms = int(seconds) * 1000 + int(micros) // 1000
    alive = {host: bool(flag) for host, flag in zip(hosts, flags, strict=True)}
    in_use = int(await client.zcount(keys.jobs, f"({now_ms}", "+inf"))
    jobs = {"inUse": in_use, "limit": jobs_limit}
    return fleet_document(
        keys.name, hosts, alive, sweeps, known=known, jobs=jobs, takeovers=takeovers
    )


def read_document_sync(
    client: redis.Redis, keys: Keys, *, known: Iterable[str] = (), jobs_limit: int = 0
) -> dict[str, Any]:
    """:func:`read_document` for one-shot commands (a blocking client)."""
    hosts = _hosts(client.hgetall(keys.hosts))
    sweeps = _texts(client.hgetall(keys.sweeps))
    pipe = client.pipeline(transaction=False)
    for host in hosts:
        pipe.exists(keys.alive(host))
    pipe.lrange(keys.takeovers, 0, TAKEOVERS_SHOWN - 1)
    pipe.time()
    *flags, takeovers, (seconds, micros) = pipe.execute()
    now_ms = int(seconds) * 1000 + int(micros) // 1000
    alive = {host: bool(flag) for host, flag in zip(hosts, flags, strict=True)}
    in_use = int(client.zcount(keys.jobs, f"({now_ms}", "+inf"))
    jobs = {"inUse": in_use, "limit": jobs_limit}
    return fleet_document(
        keys.name, hosts, alive, sweeps, known=known, jobs=jobs, takeovers=takeovers
    )
