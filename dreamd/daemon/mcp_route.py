"""The control API's ``/mcp`` route: the MCP server, loaded when an agent first calls it.

The ``mcp`` SDK is an optional extra and a heavy import, so a daemon that no agent talks MCP to
never loads it: the first request imports :mod:`dreamd.mcp.http` in a worker thread (the event
loop never waits on it) and builds the endpoint over the daemon's workspaces, clock and on/off
state (read at each call, so a reloaded config is followed). Without the extra, ``/mcp``
answers 501 with the command that installs it.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

from aiohttp import web

from dreamd.daemon.backend import DaemonState

__all__ = ["McpMount"]

INSTALL_HINT = "the MCP server needs the mcp extra: pip install 'dreamd[mcp]'"


class McpMount:
    """The ``/mcp`` handler of a running daemon (see the module rules)."""

    def __init__(self, daemon: DaemonState) -> None:
        self.daemon = daemon
        self._endpoint: Any = None
        self._lock = asyncio.Lock()

    async def _loaded(self) -> Any:
        async with self._lock:
            if self._endpoint is None:
                try:
                    http = await asyncio.to_thread(importlib.import_module, "dreamd.mcp.http")
                except ImportError as exc:
                    raise web.HTTPNotImplemented(reason=INSTALL_HINT) from exc
                from dreamd.mcp.access import Access, Place
                from dreamd.model.embeddings import settings_of
                from dreamd.runs.intake import owners_of

                daemon = self.daemon

                def places() -> list[Place]:
                    runtime = daemon.runtime
                    owners = owners_of(runtime.config)
                    return [
                        Place(ws.root, ws.agents, owners) for ws in runtime.discovery.workspaces
                    ]

                access = Access(
                    places=places,
                    zone=lambda: daemon.runtime.zone,
                    now=daemon.clock.now,
                    recording=daemon.enabled,
                    embeddings=lambda: settings_of(daemon.runtime.config.embeddings),
                )
                self._endpoint = http.Endpoint(access)
            return self._endpoint

    async def handle(self, request: web.Request, scopes: frozenset[str]) -> web.StreamResponse:
        """Answer one MCP request whose caller holds ``scopes``."""
        endpoint = await self._loaded()
        response: web.StreamResponse = await endpoint.handle(request, scopes)
        return response

    async def close(self) -> None:
        """Stop the MCP server, if it was ever started."""
        if self._endpoint is not None:
            await self._endpoint.close()
