"""``dreamd service install|uninstall|status``: dreamd under the host's service manager.

``install`` writes the systemd unit (Linux: system for root, else user) or the LaunchAgent
(macOS) with absolute paths: the dreamd program running now, resolved at run time so that a
pipx, uv tool, venv, Homebrew or Debian install each gets its own; the ``--config`` and
``--workspace`` flags given before ``service``; and, in the system unit, one ``ReadWritePaths=``
per configured workspace. It runs only the manager's reload, then prints the one command that
enables and starts the service. ``uninstall`` stops, disables and removes what install wrote
(never a file dreamd did not write, unless ``--force``). ``status`` compares the file with what
install would write now and asks the manager. ``--dry-run`` writes and runs nothing.

``install`` says which config file and workspaces the service will load (a user service and a
LaunchAgent load what this shell loads; the system unit its own config, ``/etc/dreamd/config.toml``
or ``--config``, and ``--workspace`` flags, never the installing user's), refuses to write one
that would dream no workspace, and warns about every path it needs that the unit's sandbox hides
(``PrivateTmp=`` gives the system service its own ``/tmp`` and ``/var/tmp``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamd import paths
from dreamd.cli.context import Context
from dreamd.errors import DreamdError

if TYPE_CHECKING:  # the config, the unit templates and the writer load when a verb runs
    from dreamd.service.target import Access, Command, Target

__all__ = ["SYSTEMD_RUNNING", "SYSTEM_CONFIG", "program", "register"]

SYSTEM_CONFIG = Path("/etc/dreamd/config.toml")  # $CONFIGURATION_DIRECTORY of the system unit
SYSTEMD_RUNNING = Path("/run/systemd/system")  # exists only when systemd is PID 1 (sd_booted)
SYSTEM_USER = "dreamd"
PASSED_ENV = ("DREAMD_HOME", "DREAMD_CONFIG", "DREAMD_LOG_LEVEL", "OPENCLAW_CONFIG_PATH")
_SYSTEM_HELP = f"a system unit run by the user {SYSTEM_USER!r} (the default for root)"
_RUNNING = ("active", "activating", "reloading")
_CREATE_USER = "useradd --system --user-group --home-dir /var/lib/dreamd --shell /usr/sbin/nologin"


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``service`` and its verbs."""
    service = commands.add_parser("service", help="run dreamd as a systemd or launchd service")
    verbs = service.add_subparsers(dest="verb", metavar="VERB", required=True)
    for name, handler, text in (
        ("install", run_install, "write the service definition for this host"),
        ("uninstall", run_uninstall, "stop and disable the service, remove its definition"),
        ("status", run_status, "show the installed definition and the service manager's view"),
    ):
        verb = verbs.add_parser(name, help=text)
        scope = verb.add_mutually_exclusive_group()
        for flag, about in (("user", "a user service"), ("system", _SYSTEM_HELP)):
            scope.add_argument(
                f"--{flag}", dest="scope", action="store_const", const=flag, help=about
            )
        if name != "status":
            verb.add_argument("--dry-run", action="store_true", help="show, change nothing")
            verb.add_argument(
                "--force", action="store_true", help="even a file dreamd did not write"
            )
        json_flag(verb)
        verb.set_defaults(handler=handler)


def _target(ctx: Context) -> Target:
    from dreamd.service.target import SYSTEM_UNIT_DIR, plan_target

    config_home = os.environ.get("XDG_CONFIG_HOME", "").strip()
    return plan_target(
        platform=sys.platform,
        scope=ctx.args.scope,
        uid=os.geteuid(),
        home=Path.home(),
        config_home=Path(config_home) if config_home else None,
        system_dir=SYSTEM_UNIT_DIR,
    )


def program() -> list[str]:
    """The dreamd that is running now, as an absolute command (a Homebrew keg via its opt link)."""
    beside = Path(sys.executable).absolute().parent / "dreamd"
    which = shutil.which("dreamd")
    if beside.is_file() and os.access(beside, os.X_OK):
        found = str(beside)
    elif which is not None:
        found = str(Path(which).absolute())
    else:
        return [str(Path(sys.executable).absolute()), "-m", "dreamd"]
    stable = re.sub(r"/Cellar/dreamd/[^/]+/", "/opt/dreamd/", found)  # survives brew upgrade
    return [stable if Path(stable).exists() else found]


def _service_argv(ctx: Context) -> list[str]:
    argv = program()
    if ctx.args.config:
        argv += ["--config", str(ctx.args.config.expanduser().resolve())]
    for workspace in ctx.args.workspace:
        argv += ["--workspace", str(workspace.expanduser().resolve())]
    return [*argv, "run"]


def _environment() -> dict[str, str]:
    """The variables of this shell that change what the daemon does, for a user service."""
    found = {name: os.environ.get(name, "").strip() for name in PASSED_ENV}
    return {
        name: value if name == "DREAMD_LOG_LEVEL" else str(Path(value).expanduser().absolute())
        for name, value in found.items()
        if value
    }


def _system_access(ctx: Context, executable: str) -> tuple[Access, str | None]:
    """What the system service must write and read, from what it will see itself: the system
    config (or ``--config``) and ``--workspace`` flags, never this shell's OpenClaw install or
    default workspace."""
    from dreamd.config import Config, load_config
    from dreamd.service.target import plan_access
    from dreamd.workspace.discovery import discover
    from dreamd.workspace.openclaw import find_openclaw_config, read_openclaw_config

    given = ctx.args.config or (SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None)
    config, found = load_config(given) if given is not None else (Config(), None)
    base = found.parent if found is not None else None
    located = find_openclaw_config(config, config_dir=base) if config.openclaw.config else None
    install = read_openclaw_config(located) if located is not None else None
    discovery = None
    if ctx.args.workspace or config.agents.list or install is not None:
        discovery = discover(
            config, cli_workspaces=ctx.args.workspace, openclaw=install, config_dir=base
        )
    access = plan_access(
        config,
        executable=executable,
        config_path=found,
        openclaw_path=located,
        discovery=discovery,
        user=SYSTEM_USER,
    )
    return access, str(found) if found is not None else None


@dataclass(frozen=True)
class Seen:
    """What the service will load: its config file (None: defaults) and its workspaces."""

    config: str | None
    workspaces: tuple[str, ...]

    def line(self) -> str:
        """One sentence for the person installing it."""
        spaces = ", ".join(self.workspaces) or "none"
        read = f"reads {self.config}" if self.config else "reads no config file (defaults)"
        return f"the service {read} and dreams {len(self.workspaces)} workspace(s): {spaces}"


def _seen_here(ctx: Context) -> Seen:
    """A user service or LaunchAgent loads what this shell loads (the same home and variables)."""
    runtime = ctx.runtime
    spaces = tuple(str(ws.root) for ws in runtime.discovery.workspaces)
    return Seen(str(runtime.config_path) if runtime.config_path else None, spaces)


def service_file(ctx: Context, target: Target) -> tuple[bytes, list[str], Seen]:
    """The unit or plist ``install`` would write for ``target`` now, notes for the user, and
    what the service will load."""
    from dreamd.service.launchd import render_launch_agent
    from dreamd.service.systemd import render_system_unit, render_user_unit, systemd_command

    argv = _service_argv(ctx)
    if target.manager == "launchd":
        document = render_launch_agent(
            argv, home=str(Path.home()), log_dir=str(paths.log_dir()), environment=_environment()
        )
        return document, [], _seen_here(ctx)
    if target.scope == "user":
        hint = f"to keep it running after you log out: loginctl enable-linger {_user_name()}"
        unit = render_user_unit(systemd_command(argv), environment=_environment())
        return unit.encode(), [hint], _seen_here(ctx)
    access, config = _system_access(ctx, argv[0])
    unit = render_system_unit(
        systemd_command(argv), writable=access.writable, readable=access.readable
    )
    return unit.encode(), list(access.notes), Seen(config, access.workspaces)


def _refuse_blind(target: Target, seen: Seen) -> None:
    """A service that would dream nothing is not installed: say what it would read instead."""
    if seen.workspaces:
        return
    if target.scope != "system":
        raise DreamdError(f"{seen.line()}; set up a workspace first (dreamd status shows why)")
    read = seen.config or f"{SYSTEM_CONFIG}, which does not exist"
    read += " and" if seen.config is None else ", and"
    mine = paths.default_config_path()
    yours = f"; your own {mine} is not what it reads" if mine.is_file() else ""
    raise DreamdError(
        f"the system service would dream no workspace: it reads {read} was given no "
        f"--workspace{yours}. Pass --config FILE (listing [[agents.list]] workspaces) or "
        f"--workspace PATH before `service`, or write {SYSTEM_CONFIG}"
    )


def _manager_running(target: Target) -> bool:
    """Whether the service manager is there to talk to (not in a container or build root)."""
    if target.manager == "launchd":
        return shutil.which("launchctl") is not None
    return shutil.which("systemctl") is not None and SYSTEMD_RUNNING.is_dir()


def _run_all(commands: Sequence[Command]) -> tuple[str, str | None]:
    """Run ``commands`` in order: (the last one's output, the first failure or None)."""
    from dreamd.service.target import shell_line

    output = ""
    for command in commands:
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return "", f"`{shell_line([command])}` failed: {exc}"
        output = done.stdout
        if done.returncode != 0:
            why = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
            return output, f"`{shell_line([command])}` failed: {why}"
    return output, None


def _state(target: Target) -> dict[str, str]:
    """The manager's view: systemd's properties, or launchd's state and pid; {} when unknown."""
    if not _manager_running(target):
        return {}
    output, failure = _run_all([target.inspect])
    if target.manager == "launchd":
        if failure is not None:
            return {"state": "not loaded"}
        return {"state": "loaded"} | dict(re.findall(r"^\t(state|pid) = (.+)$", output, re.M))
    lines = output.splitlines() if failure is None else []
    return dict(line.split("=", 1) for line in lines if "=" in line)


def _enable_line(target: Target) -> str:
    """The one command to run next: enable and start it, or restart it to apply a change."""
    from dreamd.service.target import shell_line

    state = _state(target)
    loaded = (
        state.get("ActiveState") in _RUNNING or state.get("state", "not loaded") != "not loaded"
    )
    line = shell_line(target.restart if loaded else target.enable)
    if target.scope == "system" and not _user_exists(SYSTEM_USER):
        line = f"{_CREATE_USER} {SYSTEM_USER} && {line}"
    return line


def _user_name() -> str:
    with contextlib.suppress(KeyError):  # a uid without a passwd entry, in a container
        return os.environ.get("USER") or pwd.getpwuid(os.geteuid()).pw_name
    return str(os.geteuid())


def _user_exists(name: str) -> bool:
    with contextlib.suppress(KeyError):
        return bool(pwd.getpwnam(name))
    return False


def _existing(target: Target, *, force: bool) -> bytes | None:
    """The file at the target now; an error when it is not dreamd's and not ``force``."""
    from dreamd.service.systemd import MARKER

    try:
        content = target.path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DreamdError(f"cannot read {target.path}: {exc.strerror}") from exc
    if target.manager == "systemd" and not content.startswith(MARKER.encode()) and not force:
        raise DreamdError(f"{target.path} was not written by dreamd; move it away or use --force")
    return content


def _check_root(target: Target) -> None:
    from dreamd.service.target import shell_line

    if target.scope == "system" and os.geteuid() != 0:
        raise DreamdError(f"the system unit needs root: sudo {shell_line([tuple(sys.argv)])}")


def _describe(target: Target) -> dict[str, Any]:
    return {"manager": target.manager, "scope": target.scope, "path": str(target.path)}


def run_install(ctx: Context) -> int:
    """Write the service definition (only show it with --dry-run); print how to enable it."""
    from dreamd.store.writer import write_atomic

    target = _target(ctx)
    content, notes, seen = service_file(ctx, target)
    if not ctx.args.dry_run:
        _check_root(target)
    _refuse_blind(target, seen)
    loads = {"config": seen.config, "workspaces": list(seen.workspaces)}
    notes = [seen.line(), *notes]
    if ctx.args.dry_run:
        enable = _enable_line(target)
        document = {**_describe(target), "content": content.decode(), "enable": enable}
        document |= {"written": False, "notes": notes, "loads": loads}
        ctx.emit(document, content.decode().rstrip("\n"))
        for note in [*notes, f"dry run: would write {target.path}, then: {enable}"]:
            ctx.note(note)
        return 0
    existing = _existing(target, force=ctx.args.force)
    if existing != content:
        if target.manager == "launchd":
            paths.log_dir().mkdir(parents=True, exist_ok=True)  # launchd creates no folders
        write_atomic(target.path, content, mode=0o644)
    if target.reload and _manager_running(target):
        notes += [failure for failure in [_run_all(target.reload)[1]] if failure]
    enable = _enable_line(target)
    for note in notes:
        ctx.note(note)
    done = "written" if existing != content else "already up to date"
    text = f"{target.kind} {target.path}: {done}.\nEnable and start it with:\n  {enable}"
    document = {**_describe(target), "written": existing != content, "enable": enable}
    ctx.emit(document | {"notes": notes, "loads": loads}, text)
    return 0


def run_uninstall(ctx: Context) -> int:
    """Stop and disable the service, then remove its definition."""
    from dreamd.service.target import shell_line

    target = _target(ctx)
    existing = _existing(target, force=ctx.args.force)
    if existing is None:
        ctx.emit(_describe(target) | {"removed": False}, f"no {target.kind} at {target.path}")
        return 0
    steps = [shell_line(target.disable), shell_line([("rm", str(target.path))])]
    steps += [shell_line(target.reload)] if target.reload else []
    if ctx.args.dry_run:
        text = "dry run: would run\n" + "\n".join(f"  {step}" for step in steps)
        ctx.emit(_describe(target) | {"removed": False, "steps": steps}, text)
        return 0
    _check_root(target)
    if _manager_running(target):
        failure = _run_all(target.disable)[1]
        if failure is not None:
            ctx.note(f"{failure} (it may not have been running)")
    target.path.unlink()
    if target.reload and _manager_running(target):
        _run_all(target.reload)
    ctx.emit(_describe(target) | {"removed": True}, f"removed the {target.kind} {target.path}")
    return 0


def run_status(ctx: Context) -> int:
    """Whether the definition is installed and current, and what the manager says."""
    target = _target(ctx)
    existing = _existing(target, force=True)
    current: bool | None = None
    if existing is not None:
        try:
            current = existing == service_file(ctx, target)[0]
        except DreamdError as exc:
            ctx.note(f"cannot tell whether it is up to date: {exc}")
    state = _state(target)
    document = _describe(target) | {"installed": existing is not None, "upToDate": current}
    if existing is None:
        summary = f"not installed (dreamd service install --{target.scope})"
    elif current is None:
        summary = "installed"
    else:
        summary = "installed, " + ("up to date" if current else "not what install writes now")
    lines = [f"{target.kind}: {target.path}", f"  file:  {summary}"]
    if state:
        lines.append("  state: " + ", ".join(f"{key}={value}" for key, value in state.items()))
    else:
        why = "did not answer" if _manager_running(target) else "is not running here"
        lines.append(f"  state: unknown ({target.manager} {why})")
    ctx.emit(document | {"state": state}, "\n".join(lines))
    return 0
