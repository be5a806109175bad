"""Every Redis key a fleet uses, in one place (pure).

All keys start with ``dreamd:<fleet.name>:``, so several fleets can share one Redis:

``hosts`` (hash)         host id -> its last announcement (JSON; kept after the host is lost)
``alive:<host>``         a key with a time to live: present while the host announces itself
``sweeps`` (hash)        workspace path -> its last sweep ``{"host", "at", "status", "slot"}``
``slots`` (hash)         workspace path -> the last dreaming slot it was swept for
``lock:<ws>``            the workspace's ``RedisLock`` channel; ``lock:<ws>-fence`` its tokens
``leader:<adapter>``     a chat adapter's ``RedisLock`` channel: its holder runs the bot
``jobs`` (sorted set)    fleet-wide job leases, scored by when they expire
``enabled``              the fleet-wide ``/dreaming on|off`` value (``1``/``0``), absent if unset
``events`` (stream)      health events for owners, from every host

Workspaces are named by their path: hosts that share a workspace mount it at the same path.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

__all__ = ["Keys"]


@dataclass(frozen=True)
class Keys:
    """The keys of the fleet called ``name``."""

    name: str

    @property
    def prefix(self) -> str:
        return f"dreamd:{self.name}"

    @property
    def hosts(self) -> str:
        return f"{self.prefix}:hosts"

    def alive(self, host: str) -> str:
        return f"{self.prefix}:alive:{host}"

    @property
    def sweeps(self) -> str:
        return f"{self.prefix}:sweeps"

    @property
    def slots(self) -> str:
        return f"{self.prefix}:slots"

    def lock(self, workspace: str) -> str:
        """The workspace's lock channel (a digest of the path keeps channel names short)."""
        digest = hashlib.sha256(workspace.encode("utf-8")).hexdigest()[:24]
        return f"{self.prefix}:lock:{digest}"

    def fence(self, workspace: str) -> str:
        """The fencing counter portalocker's ``RedisLock`` keeps beside the lock channel."""
        return f"{self.lock(workspace)}-fence"

    def leader(self, adapter: str) -> str:
        return f"{self.prefix}:leader:{adapter}"

    @property
    def jobs(self) -> str:
        return f"{self.prefix}:jobs"

    @property
    def enabled(self) -> str:
        return f"{self.prefix}:enabled"

    @property
    def events(self) -> str:
        return f"{self.prefix}:events"
