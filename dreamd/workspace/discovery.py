"""Workspace discovery: which directories to dream, and which agents share each one (SPEC §1).

Rules:

* One source wins, in order: ``--workspace`` flags (each a sole agent ``main``), the dreamd
  config's ``[[agents.list]]``, an OpenClaw install, else the default workspace in the data dir.
* A workspace is keyed by its real path and by ``(st_dev, st_ino)``, so a symlink or a bind mount
  of the same directory is one workspace; it keeps the union of the agents that share it.
* A missing ``--workspace`` is an error. A missing configured workspace is skipped with a warning,
  unless none is left, which is an error.
* Only the default workspace is ever created (with its ``memory/`` directory).
"""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from dreamd import paths
from dreamd.config import Config, HeartbeatConfig
from dreamd.errors import WorkspaceError
from dreamd.workspace.openclaw import OpenClawInstall

__all__ = ["AgentInfo", "Discovery", "Origin", "Workspace", "discover"]

Origin = Literal["cli", "config", "openclaw", "default"]


@dataclass(frozen=True)
class AgentInfo:
    """An agent after defaults: its workspace (real path once found), transcripts, heartbeat."""

    id: str
    workspace: Path
    sessions: Path | None
    heartbeat_every: str
    heartbeat_target: str
    own_heartbeat: bool = False  # the agent has its own heartbeat block, not only the default
    trust_unmarked: bool = False  # its transcripts' unmarked direct turns count as the owner's


@dataclass(frozen=True)
class Workspace:
    """One workspace directory and the agents that share it."""

    root: Path
    agents: tuple[str, ...]
    sessions: tuple[tuple[str, Path], ...] = ()
    configured_paths: tuple[str, ...] = ()
    owners: frozenset[str] = (
        frozenset()
    )  # chat owner ids (see dreamd.engine.transcripts.turn_origin)
    trusted_unmarked: frozenset[str] = frozenset()  # agents with trust_unmarked_turns on


@dataclass(frozen=True)
class Discovery:
    """The result of :func:`discover`."""

    workspaces: tuple[Workspace, ...]
    origin: Origin
    warnings: tuple[str, ...] = ()
    agents: tuple[AgentInfo, ...] = ()
    system_agent: str | None = None

    @property
    def owner(self) -> str | None:
        """The agent that owns the sweep job: the system agent, else the only agent, else None."""
        ids = {agent.id for agent in self.agents}
        if self.system_agent is not None:
            return self.system_agent if self.system_agent in ids else None
        return ids.pop() if len(ids) == 1 else None


@dataclass(frozen=True)
class _Entry:
    """One agent's claim on a workspace, before checking and grouping."""

    agent: AgentInfo
    written: str  # the path as written, for messages
    fix: str  # how to fix a bad path, for messages


@dataclass
class _Group:
    root: Path
    agents: set[str] = field(default_factory=set)
    sessions: set[tuple[str, Path]] = field(default_factory=set)
    written: list[str] = field(default_factory=list)


def _path(text: str, base: Path | None) -> Path:
    path = Path(text).expanduser()
    return base / path if base is not None and not path.is_absolute() else path


def _agent(
    agent_id: str,
    workspace: Path,
    sessions: Path | None,
    beat: HeartbeatConfig,
    *,
    own: bool,
    trust: bool = False,
) -> AgentInfo:
    return AgentInfo(agent_id, workspace, sessions, beat.every, beat.target, own, trust)


def _from_config(config: Config, base: Path | None, oc: OpenClawInstall | None) -> list[_Entry]:
    oc_sessions = {agent.id: agent.sessions for agent in oc.agents} if oc else {}
    entries = []
    for index, agent in enumerate(config.agents.list):
        sessions = _path(agent.sessions, base) if agent.sessions else oc_sessions.get(agent.id)
        beat = agent.heartbeat or config.agents.heartbeat
        own = agent.heartbeat is not None
        trust = agent.trust_unmarked_turns
        info = _agent(
            agent.id,
            _path(agent.workspace, base),
            sessions,
            beat,
            own=own,
            trust=config.agents.trust_unmarked_turns if trust is None else trust,
        )
        fix = f"fix agents.list[{index}].workspace in the dreamd config"
        entries.append(_Entry(info, agent.workspace, fix))
    return entries


def _from_openclaw(config: Config, install: OpenClawInstall) -> list[_Entry]:
    default = config.agents.heartbeat
    entries = []
    for agent in install.agents:
        info = AgentInfo(
            id=agent.id,
            workspace=agent.workspace,
            sessions=agent.sessions,
            heartbeat_every=agent.heartbeat_every or default.every,
            heartbeat_target=agent.heartbeat_target or default.target,
            own_heartbeat=agent.own_heartbeat,
            trust_unmarked=config.agents.trust_unmarked_turns,
        )
        fix = f"set agent {agent.id!r}'s workspace in {install.path}"
        entries.append(_Entry(info, str(agent.workspace), fix))
    return entries


def _problem(path: Path) -> str | None:
    """Why ``path`` cannot be a workspace, or None when it can."""
    try:
        mode = path.stat().st_mode  # follows symlinks
    except (FileNotFoundError, NotADirectoryError):
        return f"workspace {path} does not exist"
    except OSError as exc:
        return f"workspace {path} cannot be read: {exc.strerror}"
    return None if stat.S_ISDIR(mode) else f"workspace {path} is not a directory"


def _group(
    entries: Sequence[_Entry], *, strict: bool
) -> tuple[list[_Group], list[AgentInfo], list[str]]:
    groups: list[_Group] = []
    by_real: dict[str, _Group] = {}
    by_inode: dict[tuple[int, int], _Group] = {}
    agents: list[AgentInfo] = []
    problems: list[str] = []
    for entry in entries:
        problem = _problem(entry.agent.workspace)
        if problem is not None:
            if strict:
                raise WorkspaceError(f"{problem}; create it or {entry.fix}")
            problems.append(f"{problem}; create it or {entry.fix}")
            agents.append(entry.agent)
            continue
        real = os.path.realpath(entry.agent.workspace)
        status = Path(real).stat()
        inode = (status.st_dev, status.st_ino)
        group = by_inode.get(inode) or by_real.get(real)
        if group is None:
            group = _Group(root=Path(real))
            groups.append(group)
        by_real[real], by_inode[inode] = group, group
        group.agents.add(entry.agent.id)
        if entry.agent.sessions is not None:
            group.sessions.add((entry.agent.id, entry.agent.sessions))
        if entry.written not in group.written:
            group.written.append(entry.written)
        agents.append(dataclasses.replace(entry.agent, workspace=group.root))
    if not groups:
        raise WorkspaceError("no usable workspace: " + "; ".join(problems))
    return groups, agents, problems


def _default_entry(config: Config) -> _Entry:
    root = paths.default_workspace()
    try:
        (root / "memory").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkspaceError(f"cannot create the default workspace {root}: {exc.strerror}") from exc
    trust = config.agents.trust_unmarked_turns
    info = _agent("main", root, None, config.agents.heartbeat, own=False, trust=trust)
    return _Entry(info, str(root), "set DREAMD_HOME or name a workspace")


def discover(
    config: Config,
    *,
    cli_workspaces: Sequence[Path] = (),
    openclaw: OpenClawInstall | None = None,
    config_dir: Path | None = None,
) -> Discovery:
    """Find the workspaces to dream; relative config paths are relative to ``config_dir``."""
    origin: Origin
    if cli_workspaces:
        origin = "cli"
        beat = config.agents.heartbeat
        trust = config.agents.trust_unmarked_turns
        entries = [
            _Entry(
                _agent("main", p.expanduser(), None, beat, own=False, trust=trust),
                str(p),
                "fix --workspace",
            )
            for p in cli_workspaces
        ]
    elif config.agents.list:
        origin, entries = "config", _from_config(config, config_dir, openclaw)
    elif openclaw is not None:
        origin, entries = "openclaw", _from_openclaw(config, openclaw)
    else:
        origin, entries = "default", [_default_entry(config)]
    groups, agents, problems = _group(entries, strict=origin == "cli")
    warnings = [f"skipped: {problem}" for problem in problems]
    system_agent = None  # with --workspace or the default workspace, ``main`` is the only agent
    if origin in ("config", "openclaw"):
        system_agent = config.agents.system_agent or (openclaw.system_agent if openclaw else None)
    known = {agent.id for agent in agents}
    if system_agent is not None and system_agent not in known:
        warnings.append(f"system agent {system_agent!r} is not one of the agents {sorted(known)}")
    adapters = config.adapters
    owners = frozenset(str(i) for i in adapters.telegram.owners | adapters.discord.owners)
    workspaces = tuple(
        Workspace(
            root=group.root,
            agents=tuple(sorted(group.agents)),
            sessions=tuple(sorted(group.sessions)),
            configured_paths=tuple(group.written),
            owners=owners,
            trusted_unmarked=frozenset(a.id for a in agents if a.trust_unmarked) & group.agents,
        )
        for group in groups
    )
    unique_agents = tuple(dict.fromkeys(agents))  # several --workspace flags repeat ``main``
    return Discovery(workspaces, origin, tuple(warnings), unique_agents, system_agent)
