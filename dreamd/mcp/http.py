"""The MCP server as streamable HTTP inside the daemon's control API (``/mcp``).

The SDK serves streamable HTTP as an ASGI application; the control API is aiohttp. Each request
to ``/mcp`` has already passed the API's guard (``Host`` check, bearer token, at least
``operator.read``); :meth:`Endpoint.handle` hands it to the SDK's session manager as one ASGI
call, with the caller's scopes in the ASGI ``state`` (:data:`dreamd.mcp.server.SCOPES_KEY`),
which is where the tools look them up (a write needs ``operator.admin``).

The manager runs *stateless* with JSON responses: every POST is answered whole, with one JSON
document, and no MCP session or open stream outlives its request. So a token is checked on every
message (no session started under one token can be used under another), nothing waits on a
client that went away, and the bridge below needs only what a plain request and response need
(aiohttp has the body; ASGI ``receive`` yields it once, then waits until the request is done).
The ``Host`` header is checked by the API's guard, so the SDK's own DNS-rebinding check is off.

The manager's task group lives in one task, started on the first request and stopped by
:meth:`Endpoint.close` when the API shuts down. The SDK logs a line per request at INFO; unless
the daemon logs at debug, only its warnings reach the daemon's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import MutableMapping
from typing import Any

from aiohttp import web
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from dreamd.mcp.access import Access
from dreamd.mcp.server import SCOPES_KEY, build_server

__all__ = ["MAX_BODY_BYTES", "Endpoint"]

MAX_BODY_BYTES = 1024 * 1024
"""The largest MCP request body the SDK reads (the control API's own limit)."""


class Endpoint:
    """``/mcp``: the tools over ``access``, as streamable HTTP (see the module rules)."""

    def __init__(self, access: Access) -> None:
        if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
            logging.getLogger("mcp").setLevel(logging.WARNING)
        server = build_server(access)
        server.streamable_http_app(
            stateless_http=True,
            json_response=True,
            max_request_body_size=MAX_BODY_BYTES,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self._manager: StreamableHTTPSessionManager = server.session_manager
        self._running: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()

    async def _serve(self) -> None:
        async with self._manager.run():
            self._ready.set()
            await self._stop.wait()

    async def _started(self) -> None:
        if self._running is None:
            self._running = asyncio.create_task(self._serve(), name="dreamd-mcp")
        ready = asyncio.create_task(self._ready.wait())
        done, _ = await asyncio.wait({ready, self._running}, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            self._running.result()  # the manager failed to start: its error, not a hang

    async def close(self) -> None:
        """Stop the session manager (the API is shutting down)."""
        if self._running is not None:
            self._stop.set()
            with contextlib.suppress(asyncio.CancelledError):
                await self._running

    async def handle(self, request: web.Request, scopes: frozenset[str]) -> web.StreamResponse:
        """Answer one MCP request whose caller holds ``scopes``."""
        await self._started()
        body = await request.read()
        delivered = False
        finished = asyncio.Event()
        response: web.StreamResponse | None = None

        async def receive() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await finished.wait()
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            nonlocal response
            if message["type"] == "http.response.start":
                response = web.StreamResponse(status=int(message["status"]))
                for name, value in message.get("headers", ()):
                    response.headers.add(bytes(name).decode("latin-1"), bytes(value).decode())
                await response.prepare(request)
            elif message["type"] == "http.response.body" and response is not None:
                await response.write(bytes(message.get("body", b"")))
                if not message.get("more_body", False):
                    await response.write_eof()

        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": f"{request.version.major}.{request.version.minor}",
            "method": request.method,
            "scheme": "http",
            "path": request.path,
            "raw_path": request.raw_path.encode(),
            "root_path": "",
            "query_string": request.query_string.encode(),
            "headers": [(bytes(k).lower(), bytes(v)) for k, v in request.raw_headers],
            "client": ("127.0.0.1", 0),
            "server": ("127.0.0.1", 0),
            "state": {SCOPES_KEY: scopes},
        }
        try:
            await self._manager.handle_request(scope, receive, send)
        finally:
            finished.set()
        if response is None:
            raise web.HTTPInternalServerError(reason="the MCP server sent no response")
        return response
