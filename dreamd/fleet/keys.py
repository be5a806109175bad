"""Every Redis key a fleet uses, in one place (pure).

All keys start with ``dreamd:<fleet.name>:``, so several fleets can share one Redis:

``hosts`` (hash)         host id -> its last announcement (JSON; kept after the host is lost)
``alive:<host>``         a key with a time to live: present while the host announces itself
``sweeps`` (hash)        workspace path -> its last sweep ``{"host", "at", "status", "slot",
                         "takeover"}``
``slots`` (hash)         workspace path -> the last dreaming slot it was swept for
``claims`` (hash)        workspace path -> who took its lock last (host, token, slot, at)
``takeovers`` (list)     the newest takeovers of a lost host's workspaces, newest first
``lock:<ws>``            the workspace's lease ``"<token> <host>"``; ``lock:<ws>-fence`` its tokens
``leader:<adapter>``     a chat adapter's lease: its holder runs the bot; ``-fence`` its tokens
``jobs`` (sorted set)    fleet-wide job leases, scored by when they expire
``enabled``              the fleet-wide ``/dreaming on|off`` value (``1``/``0``), absent if unset
``events`` (stream)      health events for owners, from every host (typed fields only)

No pub/sub channel is used: an ACL user needs the key pattern ``dreamd:<fleet.name>:*`` and the
commands docs/fleet.md lists, nothing more.

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

    @property
    def claims(self) -> str:
        return f"{self.prefix}:claims"

    @property
    def takeovers(self) -> str:
        return f"{self.prefix}:takeovers"

    def lock(self, workspace: str) -> str:
        """The workspace's lease key (a digest of the path keeps key names short)."""
        digest = hashlib.sha256(workspace.encode("utf-8")).hexdigest()[:24]
        return f"{self.prefix}:lock:{digest}"

    def fence(self, workspace: str) -> str:
        """The workspace's fencing counter, beside its lease key."""
        return f"{self.lock(workspace)}-fence"

    def leader(self, adapter: str) -> str:
        return f"{self.prefix}:leader:{adapter}"

    def leader_counter(self, adapter: str) -> str:
        return f"{self.leader(adapter)}-fence"

    @property
    def jobs(self) -> str:
        return f"{self.prefix}:jobs"

    @property
    def enabled(self) -> str:
        return f"{self.prefix}:enabled"

    @property
    def events(self) -> str:
        return f"{self.prefix}:events"
