"""The fleet: several hosts that share workspaces, coordinated through one Redis.

Lives here: ``connection`` (the Redis URL, shown without its password; clients built lazily),
``keys`` (every Redis key a fleet uses), ``fence`` (the fencing-token check the writer runs
before each rename), ``locks`` (portalocker ``RedisLock`` per workspace and per chat adapter),
``budget`` (the fleet-wide job budget), ``registry`` (host announcements, last sweeps, the
``fleet status`` document), ``slots`` (which dreaming slot a sweep belongs to), ``coordinator``
(the daemon's side: sweeps claimed once per slot, leadership, the fleet-wide on/off value,
Redis down as a fault) and ``oneshot`` (the CLI's side: locks and reads for one command).

May import: :mod:`dreamd.host`, :mod:`dreamd.runs`, :mod:`dreamd.store`, :mod:`dreamd.engine`
and the shared top-level modules; never chat, the daemon or the CLI (they compose the fleet).
``redis`` (the ``[fleet]`` extra) is imported inside functions only: a host without ``[fleet]``
config never loads it.

The rules: without a reachable Redis nothing shared is written (no lock, no sweep); a sweep
writes only while its fencing token is the newest grant; every Redis key starts with
``dreamd:<fleet.name>:``; the URL's password never reaches a log line or a document.
"""
