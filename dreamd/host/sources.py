"""Where each effective setting came from, for ``dreamd config show``. Pure.

Every dotted key of :class:`dreamd.config.Config` gets its value and one source, the first that
applies: ``override`` (the host's ``dreaming on|off``, or a command-line flag such as
``--log-level``), ``env`` (an environment variable: ``DREAMD_LOG_LEVEL`` over the file,
``OPENCLAW_CONFIG_PATH`` where the file is silent), ``config`` (the dreamd config file set
it), ``openclaw`` (taken from ``openclaw.json`` where the dreamd file is silent, with ``from``
naming OpenClaw's key; only a value the merge really took: OpenClaw's ``dreaming.enabled``
without ``openclaw.follow_enabled``, or its model beside a dreamd ``[model]``, is not), else
``default``. Arrays of tables
(``agents.list``) are one value; a missing ``[fleet]`` is ``fleet: null``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

from dreamd.config import Config, ImportedDreaming, openclaw_keys

__all__ = ["ENV_KEYS", "ENV_WINS", "config_sources"]

ENV_KEYS = {"log.level": "DREAMD_LOG_LEVEL", "openclaw.config": "OPENCLAW_CONFIG_PATH"}
"""Settings an environment variable supplies when the config file is silent."""
ENV_WINS = frozenset({"log.level"})
"""Settings whose environment variable wins over the config file (a one-off debug run)."""


def _leaves(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            if name != "explicit":
                yield from _leaves(getattr(value, name), f"{prefix}{name}.")
    else:
        yield prefix.rstrip("."), msgspec.to_builtins(value)


def config_sources(
    config: Config,
    *,
    imported: ImportedDreaming | None = None,
    overrides: Mapping[str, object] | None = None,
    env: Mapping[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    """``{"<dotted.key>": {"value": …, "source": …}}`` for the effective ``config``."""
    overrides = overrides or {}
    env = env or {}
    # only what the merge really took: OpenClaw's `enabled` and model may be set and unused
    from_openclaw = openclaw_keys(config, imported) if imported is not None else frozenset()
    origins = imported.origins if imported is not None else {}
    values: dict[str, dict[str, Any]] = {}
    for key, value in _leaves(config):
        named = env.get(ENV_KEYS.get(key, ""), "").strip()
        if key in overrides:
            values[key] = {"value": overrides[key], "source": "override"}
        elif named and (key in ENV_WINS or key not in config.explicit):
            values[key] = {"value": named.lower() if key == "log.level" else named, "source": "env"}
        elif key in config.explicit:
            values[key] = {"value": value, "source": "config"}
        elif key in from_openclaw:
            values[key] = {"value": value, "source": "openclaw", "from": origins.get(key)}
        else:
            values[key] = {"value": value, "source": "default"}
    return values
