"""Who a recall came from: the origin classes and session kinds a recall trace carries.

``owner`` and ``agent`` recalls count as the user's questions; ``system`` and ``untrusted`` ones
taint the row they touch (:mod:`dreamd.engine.traces`). Constants only, so the command line can
offer them as choices without importing the state files' types.
"""

from __future__ import annotations

__all__ = ["ORIGIN_CLASSES", "SESSION_KINDS"]

ORIGIN_CLASSES = ("owner", "agent", "system", "untrusted")
SESSION_KINDS = ("interactive", "cron", "heartbeat", "subagent", "unknown")
