"""Talking to a running daemon over its Unix socket (for the CLI).

:func:`call_daemon` returns ``None`` when no daemon answers (no socket file, or nobody listening),
so the CLI falls back to doing the work itself; an answer with an error status becomes a
:class:`DreamdError` carrying the daemon's message.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from dreamd.errors import DreamdError

__all__ = ["call_daemon"]


async def _call(socket: Path, method: str, path: str, body: Any, timeout: float) -> Any:
    import aiohttp  # only a CLI that finds a daemon pays for importing it

    connector = aiohttp.UnixConnector(path=str(socket))
    limits = aiohttp.ClientTimeout(total=timeout)
    async with (
        aiohttp.ClientSession(connector=connector, timeout=limits) as session,
        session.request(method, f"http://dreamd{path}", json=body) as response,
    ):
        document = await response.json(content_type=None)
        if response.status >= 400:
            message = document.get("error") if isinstance(document, dict) else None
            raise DreamdError(f"the daemon refused: {message or response.reason}")
        return document


def call_daemon(
    socket: Path, method: str, path: str, body: Any = None, *, timeout: float = 3600.0
) -> Any | None:
    """The daemon's JSON answer, or ``None`` when no daemon is listening on ``socket``."""
    if not socket.exists():
        return None
    import aiohttp  # see _call

    try:
        return asyncio.run(_call(socket, method, path, body, timeout))
    except (aiohttp.ClientConnectorError, ConnectionRefusedError, FileNotFoundError):
        return None
