"""Serving a fake's aiohttp application on an ephemeral loopback port, for one block."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web


@asynccontextmanager
async def serve_app(app: web.Application) -> AsyncIterator[int]:
    """``app`` on ``127.0.0.1:<port>`` for the ``async with`` body; yields the port.

    Handlers are cancelled when a client goes away (as a real server drops them), and no access
    log is written.
    """
    runner = web.AppRunner(app, handler_cancellation=True, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield next(address[1] for address in runner.addresses if isinstance(address, tuple))
    finally:
        await runner.cleanup()
