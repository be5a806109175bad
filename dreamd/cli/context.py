"""What every command needs, resolved once and lazily: clock, config, workspaces, timezone.

Config comes from ``--config``/``$DREAMD_CONFIG``/the default file; an OpenClaw install, when
found, contributes its dreaming settings where the dreamd file is silent, and its agents when
the dreamd file lists none. ``--workspace`` flags win over both.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import datetime, tzinfo
from functools import cached_property
from pathlib import Path

from dreamd.clock import resolve_now
from dreamd.errors import DreamdError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:  # imported where used: a command pays only for what it asks for
    from typing import Any, Protocol, TypeVar

    from dreamd.config import Config
    from dreamd.engine.snapshot import Snapshot
    from dreamd.host.resolved import Resolved
    from dreamd.host.runtime import Runtime
    from dreamd.host.state import EnabledState
    from dreamd.workspace.discovery import Discovery, Workspace

    class Place(Protocol):
        """A workspace folder and its agents (a discovered workspace, or a cached one)."""

        @property
        def root(self) -> Path: ...

        @property
        def agents(self) -> tuple[str, ...]: ...

    P = TypeVar("P", bound=Place)

__all__ = ["Context"]


class Context:
    """One command's resolved environment.

    A ``quick`` command (``memory search``, ``memory recall``: run on every agent turn) takes
    its workspace, timezone and on/off setting from :mod:`dreamd.host.resolved`, which resolves
    the configuration in full only when a file it came from changed.
    """

    def __init__(self, args: argparse.Namespace, *, quick: bool = False) -> None:
        self.args = args
        self.json: bool = bool(getattr(args, "json", False))
        self.now: datetime = resolve_now(args.now)
        self.quick = quick

    @cached_property
    def resolved(self) -> Resolved:
        """The workspaces, on/off setting and timezone, from the cache while it holds."""
        from dreamd.host.resolved import resolve

        return resolve(self.args.config, self.args.workspace, lambda: self.runtime)

    @cached_property
    def runtime(self) -> Runtime:
        """Config, OpenClaw install, workspaces and timezone."""
        from dreamd.host.runtime import load_runtime

        return load_runtime(self.args.config, self.args.workspace)

    @property
    def config(self) -> Config:
        """The effective configuration."""
        return self.runtime.config

    @property
    def discovery(self) -> Discovery:
        """The workspaces and agents to work on."""
        return self.runtime.discovery

    @cached_property
    def zone(self) -> tzinfo:
        """The dreaming timezone (config, else the host's)."""
        if self.quick:
            from dreamd.clock import resolve_timezone

            return resolve_timezone(self.resolved.timezone)
        return self.runtime.zone

    @cached_property
    def enabled(self) -> EnabledState:
        """Whether dreaming is on (host override over config)."""
        from dreamd.host.state import effective_enabled

        if self.quick:
            return effective_enabled(self.resolved.config_enabled)
        return effective_enabled(self.config.dreaming.enabled)

    def refresh_enabled(self) -> EnabledState:
        """Read the enabled state again (after ``dreaming on|off`` changed it)."""
        self.__dict__.pop("enabled", None)
        return self.enabled

    def root(self, agent: str | None = None) -> Path:
        """The folder of the one workspace a memory command works on (see :meth:`workspace`)."""
        if self.quick:
            return _choose(self.resolved.places, agent).root
        return self.workspace(agent).root

    def workspace(self, agent: str | None = None) -> Workspace:
        """The one workspace a memory command works on (``--agent`` picks among several)."""
        return _choose(self.discovery.workspaces, agent)

    def snapshot(self, *, readonly: bool = True) -> Snapshot:
        """A snapshot of the one workspace a memory command works on."""
        from dreamd.workspace.reader import read_snapshot

        workspace = self.workspace(getattr(self.args, "agent", None))
        return read_snapshot(
            workspace.root,
            dreaming=self.config.dreaming,
            now=self.now,
            zone=self.zone,
            agents=workspace.agents,
            readonly=readonly,
        )

    def emit(self, document: Any, text: str) -> None:
        """Print ``document`` as JSON with ``--json``, else ``text``."""
        if self.json:
            print(json.dumps(document, ensure_ascii=False, indent=2))
        elif text:
            print(text)

    def note(self, message: str) -> None:
        """A side remark for people, on stderr (never mixed into JSON output)."""
        print(f"dreamd: {message}", file=sys.stderr)


def _choose(spaces: Sequence[P], agent: str | None) -> P:
    """The workspace ``agent`` works in, or the only one; an error naming the choices else."""
    if agent:
        chosen = [ws for ws in spaces if agent.lower() in ws.agents]
        if not chosen:
            known = sorted({a for ws in spaces for a in ws.agents})
            raise DreamdError(f"no workspace for agent {agent!r}; agents: {', '.join(known)}")
        return chosen[0]
    if len(spaces) > 1:
        listing = ", ".join(f"{ws.root} ({'/'.join(ws.agents)})" for ws in spaces)
        raise DreamdError(
            f"several workspaces ({listing}); choose one with --agent ID or --workspace PATH"
        )
    return spaces[0]
