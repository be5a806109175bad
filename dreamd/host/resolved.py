"""What a per-turn command needs of the configuration, kept between processes.

``memory search`` and ``memory recall`` run as a new process on every agent turn, and need four
things from the configuration: the workspaces with their agents, whether the config turns
dreaming on, the dreaming timezone, and the ``[embeddings]`` settings when semantic recall is
configured. Working them out reads and validates the config file
(TOML into msgspec structs, cron expressions), an OpenClaw install and the workspace folders:
most of such a process's imports, for an answer that changes only when one of those files does.
So the answer is kept in ``<state dir>/resolved.json`` (mode 0600, written atomically) under a
key, and used again while the key holds. Rules:

* The key is dreamd's version, the working directory, the environment variables that steer the
  resolution (``DREAMD_*``, ``OPENCLAW_*``, ``HOME``, ``XDG_*``, systemd's directories), the
  ``--config`` and ``--workspace`` arguments as given, and the size, modification time and inode
  of every file the answer came from, absent ones included: the config file wherever it was
  looked for, OpenClaw's config wherever it was looked for, and each workspace folder found or
  skipped. Any difference, an unreadable cache, or a cached workspace folder that is gone, and
  the configuration is resolved in full (which reports its errors as usual) and cached again.
* The host's on/off override (``dreaming on|off``) is not cached: it is read from the host state
  file each time, and wins over the config as it does everywhere.
* Only the answer is cached, never memory text; a command that needs the configuration itself
  resolves it in full.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from dreamd import __version__, paths
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any, Final

    from dreamd.host.runtime import Runtime

__all__ = ["CACHE_FILE", "Place", "Resolved", "resolve"]

CACHE_FILE = "resolved.json"
_ENV_PREFIXES = ("DREAMD_", "OPENCLAW_", "XDG_")
_ENV_NAMES = ("HOME", "STATE_DIRECTORY", "CONFIGURATION_DIRECTORY", "RUNTIME_DIRECTORY", "TZ")


class Place(Value):
    """A workspace folder and the agents that share it."""

    __match_args__ = ("root", "agents")
    __slots__ = __match_args__
    root: Final[Path]
    agents: Final[tuple[str, ...]]

    def __init__(self, root: Path, agents: tuple[str, ...]) -> None:
        self.root = root
        self.agents = agents


class Resolved(Value):
    """The workspaces, the config's on/off setting, the dreaming timezone's name and the
    ``[embeddings]`` values (``None``: semantic recall is off)."""

    __match_args__ = ("places", "config_enabled", "timezone", "embeddings")
    __slots__ = __match_args__
    places: Final[tuple[Place, ...]]
    config_enabled: Final[bool]
    timezone: Final[str | None]
    embeddings: Final[dict[str, Any] | None]

    def __init__(
        self,
        places: tuple[Place, ...],
        config_enabled: bool,
        timezone: str | None,
        embeddings: dict[str, Any] | None = None,
    ) -> None:
        self.places = places
        self.config_enabled = config_enabled
        self.timezone = timezone
        self.embeddings = embeddings


def _stamp(path: Path) -> str:
    """A file by size, time and inode; a folder by inode only (its time moves with every file
    written in it)."""
    try:
        status = path.stat()
    except OSError:
        return f"{path}:-"
    if stat.S_ISDIR(status.st_mode):
        return f"{path}:dir:{status.st_ino}"
    return f"{path}:{status.st_size}:{status.st_mtime_ns}:{status.st_ino}"


def _watched(config_arg: Path | None, workspaces: Sequence[Path]) -> list[Path]:
    """Every file the answer may come from, before anything is read."""
    found = [config_arg.expanduser()] if config_arg is not None else []
    env = os.environ.get("DREAMD_CONFIG", "").strip()
    found += [Path(env).expanduser()] if env else []
    found.append(paths.default_config_path())
    if not workspaces:
        oc_env = os.environ.get("OPENCLAW_CONFIG_PATH", "").strip()
        found += [Path(oc_env).expanduser()] if oc_env else []
        found.append(Path.home() / ".openclaw" / "openclaw.json")
    return found + [path.expanduser() for path in workspaces]


def _key(config_arg: Path | None, workspaces: Sequence[Path], extra: Sequence[Path]) -> str:
    environment = sorted(
        (name, value)
        for name, value in os.environ.items()
        if name.startswith(_ENV_PREFIXES) or name in _ENV_NAMES
    )
    parts = [__version__, str(Path.cwd()), repr(environment), repr(config_arg), repr(workspaces)]
    parts += [_stamp(path) for path in (*_watched(config_arg, workspaces), *extra)]
    return "\n".join(parts)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        document = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def _cached(document: dict[str, Any], key: str) -> Resolved | None:
    if document.get("key") != key:
        return None
    try:
        places = tuple(
            Place(Path(str(item["root"])), tuple(str(a) for a in item["agents"]))
            for item in document["places"]
        )
        enabled, zone = document["configEnabled"], document["timezone"]
        embeddings = document["embeddings"]
    except (KeyError, TypeError):
        return None
    if not isinstance(enabled, bool) or not (zone is None or isinstance(zone, str)):
        return None
    if not (embeddings is None or isinstance(embeddings, dict)):
        return None
    if not places or not all(place.root.is_dir() for place in places):
        return None
    return Resolved(places, enabled, zone, embeddings)


def _answer(runtime: Runtime) -> tuple[Resolved, list[Path]]:
    """The answer of a full resolution, and the further files it came from."""
    places = tuple(Place(ws.root, ws.agents) for ws in runtime.discovery.workspaces)
    config = runtime.config
    semantic = config.embeddings
    embeddings = (
        {
            "endpoint": semantic.endpoint,
            "model": semantic.model,
            "timeout_s": semantic.timeout_s,
            "api_key_env": semantic.api_key_env,
            "batch": semantic.batch,
            "min_similarity": semantic.min_similarity,
        }
        if semantic.endpoint and semantic.model
        else None
    )
    resolved = Resolved(places, config.dreaming.enabled, config.dreaming.timezone, embeddings)
    extra = [runtime.config_path] if runtime.config_path is not None else []
    extra += [runtime.openclaw.path] if runtime.openclaw is not None else []
    extra += [agent.workspace for agent in runtime.discovery.agents]
    return resolved, extra


def resolve(
    config_arg: Path | None, workspaces: Sequence[Path], full: Callable[[], Runtime]
) -> Resolved:
    """The cached answer while its key holds, else ``full()``'s (cached for next time)."""
    path = paths.state_dir() / CACHE_FILE
    document = _read(path)
    if document is not None:
        extra = [Path(str(each)) for each in document.get("extra", ()) if isinstance(each, str)]
        hit = _cached(document, _key(config_arg, workspaces, extra))
        if hit is not None:
            return hit
    resolved, extra = _answer(full())
    fresh = {
        "key": _key(config_arg, workspaces, extra),
        "extra": [str(each) for each in extra],
        "places": [{"root": str(p.root), "agents": list(p.agents)} for p in resolved.places],
        "configEnabled": resolved.config_enabled,
        "timezone": resolved.timezone,
        "embeddings": resolved.embeddings,
    }
    _write(path, json.dumps(fresh, ensure_ascii=False).encode())
    return resolved


def _write(path: Path, data: bytes) -> None:
    from dreamd.store.writer import write_cache  # only when the answer was worked out again

    write_cache(path, data)
