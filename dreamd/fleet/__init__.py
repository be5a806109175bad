"""The fleet: several hosts that share workspaces, coordinated through one Redis.

Lives here: ``connection`` (the Redis URL, shown without its password; clients built lazily;
what a failed call means), ``keys`` (every Redis key a fleet uses), ``lease`` (keys held for a
time to live, renewed every heartbeat, with a fencing token and a claim), ``fence`` (the check
the writer runs before each rename), ``locks`` (workspace locks and chat adapter leadership,
both leases), ``budget`` (the fleet-wide job budget), ``records`` (what is read back from
Redis, as checked types), ``events`` (health events between hosts: typed, worded on delivery),
``registry`` and ``view`` (host announcements, last sweeps, takeovers, the ``fleet status``
document), ``slots`` (which dreaming slot a sweep belongs to), ``coordinator`` (the daemon's
side: sweeps claimed once per slot, takeovers, leadership, the fleet-wide on/off value, Redis
down as a fault) and ``oneshot`` (the CLI's side: locks and reads for one command).

May import: :mod:`dreamd.host`, :mod:`dreamd.runs`, :mod:`dreamd.store`, :mod:`dreamd.engine`
and the shared top-level modules; never chat, the daemon or the CLI (they compose the fleet).
``redis`` (the ``[fleet]`` extra) is imported inside functions only: a host without ``[fleet]``
config never loads it.

The rules: without a reachable Redis nothing shared is written (no lock, no sweep); a sweep
writes only while its grant is the newest; every Redis key starts with ``dreamd:<fleet.name>:``
and no pub/sub channel is used; the URL's password never reaches a log line or a document;
Redis is an untrusted peer: what is read back is checked, never shown to chat as text, never
kept as a local setting.
"""
