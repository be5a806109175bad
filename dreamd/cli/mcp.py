"""``dreamd mcp``: the MCP server over stdio, for an agent host that starts it.

It serves the workspaces this command would work on (``--workspace``, the config, an OpenClaw
install), answers until the host closes stdin, and prints nothing but the protocol on stdout.
The caller is the user who started it, so every tool is open, writes included, unless
``--read-only``. The clock is the real one, or ``--now``/``DREAMD_NOW`` when fixed (for tests
and replays). The ``mcp`` SDK is the optional ``mcp`` extra, imported only when this runs.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from datetime import UTC, datetime

from dreamd.errors import DreamdError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

    from dreamd.cli.context import Context

__all__ = ["register"]

INSTALL_HINT = "the MCP server needs the mcp extra: pip install 'dreamd[mcp]'"


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``mcp``."""
    del json_flag  # the protocol is the output
    mcp = commands.add_parser(
        "mcp", help="serve memory tools to an agent over MCP (stdio; see docs/mcp.md)"
    )
    mcp.add_argument("--agent", help="the workspace tools use when a call names none")
    mcp.add_argument(
        "--read-only", action="store_true", help="offer reading only: recall, search, get"
    )
    mcp.set_defaults(handler=run_mcp)


def run_mcp(ctx: Context) -> int:
    """Serve over stdio until the client closes the connection."""
    try:
        from dreamd.mcp.server import build_server
    except ImportError as exc:
        raise DreamdError(INSTALL_HINT) from exc
    from dreamd.mcp.access import Access, Place
    from dreamd.model.embeddings import settings_of
    from dreamd.runs.intake import owners_of

    owners = owners_of(ctx.config)
    places = tuple(Place(ws.root, ws.agents, owners) for ws in ctx.discovery.workspaces)
    if ctx.args.agent:
        ctx.workspace(ctx.args.agent)  # an unknown agent fails now, not at the first call
    fixed = ctx.args.now or os.environ.get("DREAMD_NOW")
    semantic = settings_of(ctx.config.embeddings)
    access = Access(
        places=lambda: places,
        zone=lambda: ctx.zone,
        now=(lambda: ctx.now) if fixed else (lambda: datetime.now(UTC)),
        recording=lambda: ctx.refresh_enabled().enabled,
        default=ctx.args.agent,
        embeddings=lambda: semantic,
    )
    build_server(access, writable=not ctx.args.read_only).run("stdio")
    return 0
