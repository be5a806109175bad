"""The control API's listeners: how many connections each holds, and how long a silent one lives.

Every connection holds a file descriptor, and so does everything else the daemon opens
(workspace files, SQLite indexes, worker pipes, locks, logs). Running out of them blocks the
Unix socket too, so each listener has a cap sized from the process's soft ``RLIMIT_NOFILE``
limit ``N`` (:func:`connection_caps`)::

    reserve  = max(128, N // 4)          kept for everything that is not a connection
    spare    = N - reserve
    tcp      = clamp(spare // 2,  8, 1024)   admitted loopback TCP connections
    unix     = clamp(spare // 4,  8,  256)   admitted Unix-socket connections (its own cap)
    refusals = clamp(spare // 16, 4,   64)   connections per listener being told 503

so ``tcp + unix + 2 * refusals`` stays within ``spare`` (7/8 of it) and a TCP flood never takes
the owner's Unix socket with it. ``N = 256`` (the macOS default) gives tcp 64, unix 32,
refusals 8; ``N = 1024`` gives tcp 384, unix 192, refusals 48.

Rules:

* A connection beyond its listener's cap is answered ``503`` in the one error shape
  (``Connection: close``), its write side shut, and what it sends is discarded until it closes
  or :data:`LINGER_SECONDS` pass, so the client reads the answer instead of a reset. Beyond
  ``refusals`` such connections at once, a new one is closed right after the answer is queued.
* A connection must send a complete request head (up to its blank line) within
  ``head_seconds`` of being accepted, or it is closed: a socket that sends nothing or half a
  head costs a descriptor for that long only. aiohttp has no header-read timeout; only recent
  versions start its keep-alive timer when a connection opens, so this deadline is kept here,
  whatever the version.
* After a response, aiohttp's keep-alive timer (``keepalive_timeout=IDLE_SECONDS``, given to
  the runner) closes a connection that sends no next request, or only half of one: incoming
  bytes do not restart that timer. Request bodies have their own deadline in
  :mod:`dreamd.daemon.api`.
"""

from __future__ import annotations

import asyncio
import resource
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import msgspec
from aiohttp import web

__all__ = [
    "HEAD_SECONDS",
    "IDLE_SECONDS",
    "LINGER_SECONDS",
    "CappedSite",
    "Caps",
    "Gate",
    "connection_caps",
    "read_nofile",
]

HEAD_SECONDS = 10.0
"""A new connection has this long to send its first complete request head."""
IDLE_SECONDS = 15.0
"""aiohttp's ``keepalive_timeout``: an idle keep-alive connection is closed after this long."""
LINGER_SECONDS = 1.0
"""A refused connection is read (and the bytes dropped) this long at most before closing."""
UNLIMITED_NOFILE = 1 << 20
"""What ``RLIM_INFINITY`` counts as: far beyond every cap, so the caps' ceilings apply."""


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


@dataclass(frozen=True)
class Caps:
    """Connection caps sized from an open-files limit (see the module docstring)."""

    nofile: int
    reserve: int
    tcp: int
    unix: int
    refusals: int


def connection_caps(nofile: int) -> Caps:
    """The caps for a soft open-files limit of ``nofile`` (pure; the formula above)."""
    reserve = max(128, nofile // 4)
    spare = max(0, nofile - reserve)
    return Caps(
        nofile=nofile,
        reserve=reserve,
        tcp=_clamp(spare // 2, 8, 1024),
        unix=_clamp(spare // 4, 8, 256),
        refusals=_clamp(spare // 16, 4, 64),
    )


def read_nofile() -> int:
    """This process's soft ``RLIMIT_NOFILE`` (``RLIM_INFINITY`` as :data:`UNLIMITED_NOFILE`)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return UNLIMITED_NOFILE if soft == resource.RLIM_INFINITY else soft


def _refusal(limit: int) -> bytes:
    status = 503
    body = msgspec.json.encode(
        {
            "ok": False,
            "error": f"too many connections to the control API (limit {limit}); try again soon",
            "status": status,
        }
    )
    head = (
        f"HTTP/1.1 {status} Service Unavailable\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n"
        "Retry-After: 1\r\n\r\n"
    )
    return head.encode("ascii") + body


@dataclass
class Gate:
    """One listener's admission: its cap, its deadlines, and who is connected right now."""

    limit: int
    refusals: int
    head_seconds: float = HEAD_SECONDS
    linger_seconds: float = LINGER_SECONDS
    admitted: int = 0
    refused_total: int = 0
    refusing: set[asyncio.Transport] = field(default_factory=set)

    def statistics(self) -> dict[str, int]:
        """Open, refusing and refused-so-far connection counts, with the cap."""
        return {
            "limit": self.limit,
            "open": self.admitted,
            "refusing": len(self.refusing),
            "refused": self.refused_total,
        }

    def close_refusals(self) -> None:
        """Close every connection still being refused (the listener is stopping)."""
        for transport in list(self.refusing):
            transport.abort()


class _Connection(asyncio.Protocol):
    """aiohttp's request handler behind the gate: admitted, deadline-bound, or refused."""

    def __init__(self, gate: Gate, make_handler: Callable[[], asyncio.Protocol]) -> None:
        self._gate = gate
        self._make_handler = make_handler
        self._inner: asyncio.Protocol | None = None
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        gate, loop = self._gate, asyncio.get_running_loop()
        if gate.admitted >= gate.limit:
            self._refuse(transport, loop)
            return
        gate.admitted += 1
        self._inner = self._make_handler()
        self._timer = loop.call_later(gate.head_seconds, transport.close)
        self._inner.connection_made(transport)

    def _refuse(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        gate = self._gate
        gate.refused_total += 1
        transport.write(_refusal(gate.limit))
        if len(gate.refusing) >= gate.refusals:
            transport.close()
            return
        gate.refusing.add(transport)
        if transport.can_write_eof():
            transport.write_eof()
        self._timer = loop.call_later(gate.linger_seconds, transport.close)

    def data_received(self, data: bytes) -> None:
        if self._inner is None:
            return  # a refused connection: what it sends is dropped
        if self._timer is not None:
            # A head ends at its first blank line; two bytes carried over cover a split "\r\n\r\n".
            seen = self._tail + data
            if b"\n\r\n" in seen or b"\n\n" in seen:
                self._timer.cancel()
                self._timer = None
            self._tail = seen[-2:]
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self._inner is None:
            return False  # a refused client has read its answer and closed: close too
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._inner is None:
            if self._transport is not None:
                self._gate.refusing.discard(self._transport)
            return
        self._gate.admitted -= 1
        self._inner.connection_lost(exc)


class CappedSite(web.BaseSite):
    """A TCP (``host``/``port``) or Unix (``path``) listener whose connections pass a gate."""

    def __init__(
        self,
        runner: web.BaseRunner,
        gate: Gate,
        *,
        path: str | None = None,
        host: str | None = None,
        port: int = 0,
    ) -> None:
        super().__init__(runner)
        self.gate = gate
        self._path, self._host, self._port = path, host, port

    @property
    def name(self) -> str:
        if self._path is not None:
            return f"http://unix:{self._path}:"
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        factory = partial(_Connection, self.gate, server)
        loop = asyncio.get_running_loop()
        if self._path is not None:
            self._server = await loop.create_unix_server(factory, self._path)
        else:
            self._server = await loop.create_server(factory, self._host, self._port)

    async def stop(self) -> None:
        await super().stop()
        self.gate.close_refusals()
