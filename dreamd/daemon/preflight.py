"""What the daemon checks before it serves, beyond parsing: the one validation ``dreamd run``,
its reload and ``dreamd config check`` share.

Rules:

* Read-only: files are opened to read or their folder is checked, nothing is created.
* Each problem names the setting and the file, never a secret: the API tokens file (open to its
  owner only, ``<scope> <token of 16+ chars>`` lines: :func:`dreamd.daemon.api.load_tokens`),
  each chat adapter's token (its variable set, its file readable and not empty), ``log.file``
  (a file the daemon can append to, or a folder it can create it in), and the fleet's Redis
  URL variable.
* Workspaces are the runtime's: an unusable set fails :func:`dreamd.host.runtime.load_runtime`
  before this runs.
"""

from __future__ import annotations

import os
from pathlib import Path

from dreamd.errors import ConfigError, DreamdError
from dreamd.host.runtime import Runtime

__all__ = ["check_runtime", "preflight"]


def _log_file(path: Path) -> str | None:
    if path.exists():
        if path.is_dir() or not os.access(path, os.W_OK):
            return f"log.file {path}: the daemon cannot append to it"
        return None
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"log.file {path}: the daemon cannot create it (no write access to {folder})"
    return None


def check_runtime(runtime: Runtime) -> list[str]:
    """Every problem the daemon would refuse or fail on with this set-up (see the rules)."""
    from dreamd.chat.adapters import read_token
    from dreamd.daemon.api import load_tokens

    config = runtime.config
    problems: list[str] = []
    if config.api.tokens_file:
        try:
            load_tokens(Path(config.api.tokens_file).expanduser())
        except DreamdError as exc:
            problems.append(f"api.tokens_file: {exc}")
    config_dir = runtime.config_path.parent if runtime.config_path else None
    for name in ("discord", "telegram"):
        settings = getattr(config.adapters, name)
        if settings.enabled:
            try:
                read_token(name, settings, config_dir=config_dir)
            except DreamdError as exc:
                problems.append(str(exc))
    if config.log.file:
        problem = _log_file(Path(config.log.file).expanduser())
        if problem:
            problems.append(problem)
    if config.fleet is not None and config.fleet.redis_url_env:
        from dreamd.fleet.connection import redis_url

        try:
            redis_url(config.fleet)
        except DreamdError as exc:
            problems.append(str(exc))
    return problems


def preflight(runtime: Runtime) -> None:
    """Raise :class:`ConfigError` naming every problem :func:`check_runtime` finds."""
    problems = check_runtime(runtime)
    if problems:
        where = str(runtime.config_path) if runtime.config_path else "the configuration"
        raise ConfigError(f"{where}: " + "; ".join(problems))
