"""Host-wide state: the dreaming on/off override (and, later, schedule state).

``host.json`` in the state directory: ``{"version": 1, "enabledOverride": true|false|null,
"updatedAt": ...}``. ``/dreaming on|off`` and ``dreamd dreaming on|off`` set the override; it wins
over ``dreaming.enabled`` in the config until cleared. Writes are atomic and serialised by a
sidecar lock; unknown fields written by newer versions are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec
import portalocker

from dreamd import paths
from dreamd.clock import format_instant
from dreamd.errors import StateError
from dreamd.writer import write_atomic

__all__ = ["EnabledState", "effective_enabled", "load_host_state", "set_enabled_override"]

HOST_FILE = "host.json"


def _path() -> Path:
    return paths.state_dir() / HOST_FILE


def load_host_state() -> dict[str, Any]:
    """The host state document (empty when absent; a corrupt file is set aside)."""
    path = _path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        document = msgspec.json.decode(data)
    except msgspec.DecodeError:
        stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
        path.rename(path.with_name(f"{HOST_FILE}.corrupt-{stamp}"))
        return {}
    return document if isinstance(document, dict) else {}


def set_enabled_override(value: bool | None, *, now: datetime) -> None:
    """Persist the on/off override (``None`` clears it)."""
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with portalocker.Lock(path.with_name("host.lock"), mode="a", timeout=10):
        document = load_host_state()
        document.update({"version": 1, "enabledOverride": value, "updatedAt": format_instant(now)})
        encoded = msgspec.json.format(msgspec.json.encode(document), indent=2) + b"\n"
        write_atomic(path, encoded, mode=0o600)


@dataclass(frozen=True)
class EnabledState:
    """Whether dreaming is on, and which setting decided it."""

    enabled: bool
    source: str  # "override" or "config"


def effective_enabled(config_enabled: bool) -> EnabledState:
    """The override when one is set, else the config value."""
    override = load_host_state().get("enabledOverride")
    if isinstance(override, bool):
        return EnabledState(override, "override")
    return EnabledState(config_enabled, "config")
