"""The exception tree. Every error dreamd raises on purpose is a :class:`DreamdError`.

::

    DreamdError                 anything the user can act on; the CLI prints it and exits 1
     +-- ConfigError            a config file, key or value is wrong (names file, key, form)
     +-- WorkspaceError         a workspace is missing, unreadable, or a path would leave it
     |    +-- UnsafePathError   a symlinked MEMORY.md/DREAMS.md or folder dreamd writes into,
     |                          or a path escaping the workspace
     +-- StateError             a state file cannot be read or written
     +-- LockError              the per-workspace lock could not be taken in time
     +-- ConflictError          a file changed between planning and writing (compare-and-swap)
     +-- SelectorError          a selector (promote-explain) matched nothing
     +-- ListenError            the control API cannot listen where it was told (port in use)
     +-- FleetError             the fleet's Redis is unreachable or misconfigured
          +-- FencedError       the fleet lock on a workspace passed on before a write

Anything else reaching the CLI is a bug: it writes a traceback log and exits 3.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "ConflictError",
    "DreamdError",
    "FencedError",
    "FleetError",
    "ListenError",
    "LockError",
    "SelectorError",
    "StateError",
    "UnsafePathError",
    "WorkspaceError",
]


class DreamdError(Exception):
    """An error the user can act on. The message says what, where and how to fix it."""


class ConfigError(DreamdError):
    """A configuration file, key or value is invalid."""


class WorkspaceError(DreamdError):
    """A workspace is missing or unusable."""


class UnsafePathError(WorkspaceError):
    """A path would leave the workspace, or a protected file or folder is a symlink."""


class StateError(DreamdError):
    """A state file could not be read or written."""


class LockError(DreamdError):
    """The per-workspace lock could not be acquired."""


class ConflictError(DreamdError):
    """A file changed on disk after it was read for planning; nothing was overwritten."""


class SelectorError(DreamdError):
    """A candidate selector matched nothing."""


class ListenError(DreamdError):
    """The control API's socket or ``api.listen`` address could not be opened."""


class FleetError(DreamdError):
    """The fleet's coordinator (Redis) cannot be reached or is misconfigured."""


class FencedError(FleetError):
    """This host no longer holds a workspace's fleet lock: it must not write there."""
