"""Where dreamd's service definition goes on a host, how it is managed, what it may touch. Pure.

One :class:`Target` per platform and scope: the systemd system unit in ``/etc/systemd/system``,
the systemd user unit in ``$XDG_CONFIG_HOME/systemd/user``, or the LaunchAgent in
``~/Library/LaunchAgents`` (launchd domain ``gui/<uid>``). Commands are argv tuples; a step of
several commands is run, or printed, joined by ``&&``. :func:`plan_access` turns a loaded config
and its workspaces into what the sandboxed system unit must be able to write and read.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from dreamd.config import Config
from dreamd.errors import DreamdError
from dreamd.service.launchd import LABEL
from dreamd.service.systemd import HOME_ROOTS, UNIT_NAME
from dreamd.workspace.discovery import Discovery

__all__ = [
    "SYSTEM_UNIT_DIR",
    "Access",
    "Command",
    "Scope",
    "Target",
    "plan_access",
    "plan_target",
    "shell_line",
]

Scope = Literal["user", "system"]
Command = tuple[str, ...]
SYSTEM_UNIT_DIR = Path("/etc/systemd/system")  # /usr/lib/systemd/system is the package's


@dataclass(frozen=True)
class Target:
    """One place a service definition lives, and how its manager is driven."""

    manager: Literal["systemd", "launchd"]
    scope: Scope
    path: Path
    enable: tuple[Command, ...]  # enable and start: what `service install` prints
    restart: tuple[Command, ...]  # make a running service use a changed file
    disable: tuple[Command, ...]  # stop and disable
    reload: tuple[Command, ...]  # make the manager re-read its files (systemd)
    inspect: Command  # the manager's view of the service

    @property
    def kind(self) -> str:
        """``system unit``, ``user unit`` or ``LaunchAgent``."""
        return "LaunchAgent" if self.manager == "launchd" else f"{self.scope} unit"


def shell_line(commands: Sequence[Command]) -> str:
    """``commands`` as one line for a POSIX shell."""
    return " && ".join(shlex.join(command) for command in commands)


def _systemd(scope: Scope, directory: Path) -> Target:
    ctl: Command = ("systemctl",) if scope == "system" else ("systemctl", "--user")
    return Target(
        manager="systemd",
        scope=scope,
        path=directory / UNIT_NAME,
        enable=((*ctl, "enable", "--now", UNIT_NAME),),
        restart=((*ctl, "restart", UNIT_NAME),),
        disable=((*ctl, "disable", "--now", UNIT_NAME),),
        reload=((*ctl, "daemon-reload"),),
        inspect=(
            *ctl,
            "show",
            UNIT_NAME,
            "--property=LoadState,UnitFileState,ActiveState,SubState,MainPID,StatusText",
        ),
    )


def _launchd(uid: int, home: Path) -> Target:
    domain = f"gui/{uid}"
    path = home / "Library" / "LaunchAgents" / f"{LABEL}.plist"
    bootstrap: Command = ("launchctl", "bootstrap", domain, str(path))
    bootout: Command = ("launchctl", "bootout", f"{domain}/{LABEL}")
    return Target(
        manager="launchd",
        scope="user",
        path=path,
        enable=(bootstrap,),
        restart=(bootout, bootstrap),  # kickstart would keep the old plist
        disable=(bootout,),
        reload=(),
        inspect=("launchctl", "print", f"{domain}/{LABEL}"),
    )


def plan_target(
    *,
    platform: str,
    scope: Scope | None,
    uid: int,
    home: Path,
    config_home: Path | None,
    system_dir: Path = SYSTEM_UNIT_DIR,
) -> Target:
    """The target for ``platform`` (``sys.platform``); no ``scope``: system for root on Linux."""
    if platform == "darwin":
        if scope == "system":
            raise DreamdError(
                "on macOS dreamd runs as your LaunchAgent; drop --system (or use --user)"
            )
        return _launchd(uid, home)
    if not platform.startswith("linux"):
        raise DreamdError(f"no service manager support for {platform!r}; run `dreamd run` yourself")
    chosen: Scope = scope or ("system" if uid == 0 else "user")
    if chosen == "system":
        return _systemd("system", system_dir)
    return _systemd("user", (config_home or home / ".config") / "systemd" / "user")


@dataclass(frozen=True)
class Access:
    """What the system service must write (workspaces) and read, and what to tell the admin."""

    writable: tuple[str, ...]
    readable: tuple[str, ...]
    notes: tuple[str, ...]
    workspaces: tuple[str, ...] = ()  # the workspaces the service will dream


_PRIVATE_TMP = ("/tmp/", "/var/tmp/")  # noqa: S108 (names them, never writes there)
_READ_SETTINGS = ("api.tokens_file", "adapters.discord.token_file", "adapters.telegram.token_file")


def _in_tmp(path: str) -> bool:
    """Whether the system unit's private /tmp hides ``path``."""
    return path.startswith(_PRIVATE_TMP) or path in ("/tmp", "/var/tmp")  # noqa: S108


def _setting(config: Config, dotted: str) -> str | None:
    value: Any = config
    for name in dotted.split("."):
        value = getattr(value, name, None)
    return value if isinstance(value, str) else None


def _absolute(text: str, base: Path | None) -> str:
    path = Path(text).expanduser()
    return str(path if path.is_absolute() or base is None else base / path)


def plan_access(
    config: Config,
    *,
    executable: str,
    config_path: Path | None,
    openclaw_path: Path | None,
    discovery: Discovery | None,
    user: str,
) -> Access:
    """The paths the system unit must reach, given what the service will load.

    Writable: the workspaces and the control socket's folder when ``api.socket`` moves it out
    of the runtime directory. Readable: the program, the config, OpenClaw's config, session
    transcripts and token files (they decide whether home directories can be hidden).
    """
    base = config_path.parent if config_path is not None else None
    spaces = [str(ws.root) for ws in discovery.workspaces] if discovery else []
    writable = list(spaces)
    readable = [executable, *(str(p) for p in (config_path, openclaw_path) if p is not None)]
    notes = list(discovery.warnings) if discovery else []
    if discovery is not None:
        readable += [str(path) for ws in discovery.workspaces for _, path in ws.sessions]
        notes.append(f"the user {user!r} needs read and write access to {', '.join(writable)}")
    if config.api.socket:
        writable.append(str(Path(_absolute(config.api.socket, base)).parent))
    settings = (_setting(config, dotted) for dotted in _READ_SETTINGS)
    readable += [_absolute(value, base) for value in settings if value]
    hidden = [path for path in dict.fromkeys((*writable, *readable)) if _in_tmp(path)]
    if hidden:
        notes.append(
            f"PrivateTmp= gives the service its own /tmp: it cannot see {', '.join(hidden)}"
        )
    if any(executable.startswith(f"{root}/") for root in HOME_ROOTS):
        notes.append(
            f"{executable} is in a home directory, which the user {user!r} usually cannot read: "
            "install dreamd system-wide (the .deb, or pipx/uv tool with a system-wide prefix)"
        )
    return Access(tuple(writable), tuple(readable), tuple(notes), tuple(spaces))
