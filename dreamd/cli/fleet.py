"""``dreamd fleet status [--json]``: this host's fleet, its hosts, each workspace's last sweep.

It asks the fleet's Redis directly (no daemon needed), so it answers the same on every host;
without ``[fleet]`` config, or with Redis away, it says so and exits 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from dreamd.cli.context import Context

__all__ = ["register"]


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``fleet status``."""
    fleet = commands.add_parser("fleet", help="the hosts that share these workspaces")
    actions = fleet.add_subparsers(dest="fleet_action", metavar="ACTION", required=True)
    status = actions.add_parser("status", help="hosts, lost ones, and each workspace's last sweep")
    json_flag(status)
    status.set_defaults(handler=run_fleet_status)


def run_fleet_status(ctx: Context) -> int:
    """Print the fleet status document (as text, or with ``--json`` as JSON)."""
    from dreamd.fleet.oneshot import FleetSession  # Redis loads when a fleet verb runs
    from dreamd.fleet.view import render_fleet

    document = FleetSession(ctx.config).document()
    ctx.emit(document, render_fleet(document))
    return 0
