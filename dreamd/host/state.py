"""Host-wide state in ``host.json`` (state dir): the on/off override, the schedule, sweep history.

``{"version": 1, "updatedAt", "enabledOverride": true|false|null, "schedule": {"scheduledSince",
"lastFireAt", "lastRunAt", "pending": [{"id", "owner", "reason", "enqueuedAt"}]}}``.

``/dreaming on|off`` and ``dreamd dreaming on|off`` set the override; it wins over
``dreaming.enabled`` until cleared. The daemon owns ``schedule`` (sweep history is kept apart,
in ``history.json``: see :mod:`dreamd.host.history`). Every change
goes through :func:`update_host_state`: read, change, atomic write, under a sidecar lock, so the
CLI and the daemon never lose each other's fields; unknown fields are kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from dreamd import paths
from dreamd.clock import format_instant
from dreamd.errors import StateError
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any, Final

__all__ = [
    "EnabledState",
    "effective_enabled",
    "load_host_state",
    "set_enabled_override",
    "update_host_state",
]

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
        document = json.loads(data)
    except (ValueError, RecursionError):  # stdlib json: every command reads this small file
        stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
        path.rename(path.with_name(f"{HOST_FILE}.corrupt-{stamp}"))
        return {}
    return document if isinstance(document, dict) else {}


def update_host_state(change: Callable[[dict[str, Any]], None], *, now: datetime) -> dict[str, Any]:
    """Apply ``change`` to the host state and save it atomically; returns the new document."""
    import portalocker  # here: reading the state (every command does) needs no lock library

    from dreamd.store.writer import write_atomic

    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with portalocker.Lock(path.with_name("host.lock"), mode="a", timeout=10):
        document = load_host_state()
        change(document)
        document.update({"version": 1, "updatedAt": format_instant(now)})
        encoded = json.dumps(document, ensure_ascii=False, indent=2).encode() + b"\n"
        write_atomic(path, encoded, mode=0o600)
    return document


def set_enabled_override(value: bool | None, *, now: datetime) -> None:
    """Persist the on/off override (``None`` clears it)."""
    update_host_state(lambda document: document.update({"enabledOverride": value}), now=now)


class EnabledState(Value):
    """Whether dreaming is on, and which setting decided it."""

    __match_args__ = ("enabled", "source")
    __slots__ = __match_args__
    enabled: Final[bool]
    source: Final[str]

    def __init__(self, enabled: bool, source: str) -> None:
        self.enabled = enabled
        self.source = source


def effective_enabled(config_enabled: bool) -> EnabledState:
    """The override when one is set, else the config value."""
    override = load_host_state().get("enabledOverride")
    if isinstance(override, bool):
        return EnabledState(override, "override")
    return EnabledState(config_enabled, "config")
