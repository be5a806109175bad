"""One resolved set-up: config (with OpenClaw's values merged), workspaces, timezone, owner.

The CLI builds one per command; the daemon builds one at start and a new one on every reload
(``SIGHUP``), keeping the old one when the new config is bad. Loading reads files; everything
derived afterwards is pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path

from dreamd import paths
from dreamd.clock import resolve_timezone
from dreamd.config import Config, load_config, merge_openclaw, parse_duration
from dreamd.host.owner import Readiness, assess
from dreamd.workspace.discovery import Discovery, discover
from dreamd.workspace.openclaw import OpenClawInstall, find_openclaw_config, read_openclaw_config

__all__ = ["Runtime", "load_runtime", "socket_path"]


@dataclass(frozen=True)
class Runtime:
    """Everything a command or the daemon needs to know about this host's dreaming."""

    config: Config
    config_path: Path | None
    openclaw: OpenClawInstall | None
    discovery: Discovery
    zone: tzinfo

    @property
    def readiness(self) -> Readiness:
        """The sweep owner and whether its heartbeat can run sweeps."""
        return assess(self.discovery)

    @property
    def heartbeat_seconds(self) -> float | None:
        """The owner's heartbeat interval; ``None`` when sweeps are blocked."""
        readiness = self.readiness
        if readiness.blocked or readiness.owner is None:
            return None
        agent = next(a for a in self.discovery.agents if a.id == readiness.owner)
        return parse_duration(agent.heartbeat_every)


def load_config_and_install(
    config_arg: Path | None, *, use_openclaw: bool
) -> tuple[Config, Path | None, OpenClawInstall | None]:
    """The dreamd config, merged with an OpenClaw install's dreaming values when one is found."""
    config, path = load_config(config_arg)
    install = None
    if use_openclaw:
        found = find_openclaw_config(config, config_dir=path.parent if path else None)
        install = read_openclaw_config(found) if found else None
    if install is not None:
        config = merge_openclaw(config, install.dreaming)
    return config, path, install


def load_runtime(config_arg: Path | None, workspaces: Sequence[Path] = ()) -> Runtime:
    """Read config, OpenClaw install and workspaces (``--workspace`` flags win)."""
    config, path, install = load_config_and_install(config_arg, use_openclaw=not workspaces)
    discovery = discover(
        config,
        cli_workspaces=workspaces,
        openclaw=install,
        config_dir=path.parent if path else None,
    )
    zone = resolve_timezone(config.dreaming.timezone)
    return Runtime(config, path, install, discovery, zone)


def socket_path(config: Config) -> Path:
    """The control socket: ``api.socket`` or ``<runtime dir>/dreamd.sock``."""
    if config.api.socket:
        return Path(config.api.socket).expanduser()
    return paths.runtime_dir() / "dreamd.sock"
