"""Host locations: config, state, data, runtime and log directories.

Resolution order: ``DREAMD_HOME`` (everything under one directory; tests point it at a temporary
directory so they never touch the real home), then systemd's ``$STATE_DIRECTORY`` /
``$RUNTIME_DIRECTORY`` / ``$CONFIGURATION_DIRECTORY`` / ``$LOGS_DIRECTORY`` when running as a
service, then platformdirs' per-user locations. Without ``$XDG_RUNTIME_DIR`` on Linux (a cron
job, a root shell), the runtime dir is ``<state dir>/run`` rather than a folder in ``/tmp``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "config_dir",
    "data_dir",
    "default_config_path",
    "default_workspace",
    "log_dir",
    "runtime_dir",
    "state_dir",
]

_APP = "dreamd"


def _dirs() -> Any:
    """``platformdirs``, imported when a path is first worked out from it."""
    import platformdirs

    return platformdirs


def _home() -> Path | None:
    value = os.environ.get("DREAMD_HOME", "").strip()
    return Path(value).expanduser() if value else None


def _systemd(var: str) -> Path | None:
    value = os.environ.get(var, "").strip()
    # systemd may list several directories separated by ':'; the first is ours.
    return Path(value.split(":")[0]) if value else None


def config_dir() -> Path:
    """Where ``config.toml`` lives."""
    home = _home()
    if home is not None:
        return home / "config"
    return _systemd("CONFIGURATION_DIRECTORY") or Path(
        _dirs().user_config_dir(_APP, appauthor=False)
    )


def state_dir() -> Path:
    """Host-wide state: the enabled override, schedule state, job-slot files."""
    home = _home()
    if home is not None:
        return home / "state"
    return _systemd("STATE_DIRECTORY") or Path(_dirs().user_state_dir(_APP, appauthor=False))


def data_dir() -> Path:
    """User data: the default workspace when nothing else names one."""
    home = _home()
    if home is not None:
        return home / "data"
    return _systemd("STATE_DIRECTORY") or Path(_dirs().user_data_dir(_APP, appauthor=False))


def runtime_dir() -> Path:
    """Sockets and other files that must not outlive a boot."""
    home = _home()
    if home is not None:
        return home / "run"
    systemd = _systemd("RUNTIME_DIRECTORY")
    if systemd is not None:
        return systemd
    if sys.platform.startswith("linux") and not os.environ.get("XDG_RUNTIME_DIR"):
        # platformdirs would fall back to /tmp, where cleaners delete sockets and lock files.
        return state_dir() / "run"
    return Path(_dirs().user_runtime_dir(_APP, appauthor=False))


def log_dir() -> Path:
    """Crash tracebacks and other logs."""
    home = _home()
    if home is not None:
        return home / "log"
    return _systemd("LOGS_DIRECTORY") or Path(_dirs().user_log_dir(_APP, appauthor=False))


def default_config_path() -> Path:
    """``<config dir>/config.toml``."""
    return config_dir() / "config.toml"


def default_workspace() -> Path:
    """The workspace used when no flag, config or OpenClaw install names one."""
    return data_dir() / "workspace"
