"""The control contract: what a front end (the control API, chat) may ask of the daemon.

:class:`Service` is the daemon's side of every route and chat command; front ends depend on
this protocol, never on the daemon itself, so the daemon composes them without a cycle. The
two scopes an API client may hold, and :class:`BusyError` (work in progress: HTTP 409, a chat
"try again"), are part of the contract too.
"""

from __future__ import annotations

from typing import Any, Protocol

from dreamd.errors import DreamdError

__all__ = ["ADMIN", "READ", "BusyError", "Service"]

READ = "operator.read"
"""API scope: read status, candidates, diaries and memory."""
ADMIN = "operator.admin"
"""API scope: everything ``operator.read`` may, and turn dreaming on or off, sweep, backfill."""


class BusyError(DreamdError):
    """The request conflicts with work in progress (a sweep is already running)."""


class Service(Protocol):
    """What the control API and chat need from the daemon."""

    async def status(self) -> dict[str, Any]: ...

    async def workspaces(self) -> list[dict[str, Any]]: ...

    async def explain(self, workspace: str | None, selector: str | None) -> dict[str, Any]: ...

    async def diary(self, workspace: str | None, limit: int) -> dict[str, Any]: ...

    async def history(self) -> dict[str, Any]: ...

    async def grounded(self, workspace: str | None) -> dict[str, Any]: ...

    async def clear_grounded(self, workspace: str | None) -> dict[str, Any]: ...

    async def backfill(
        self, workspace: str | None, action: str, path: str | None, *, stage: bool
    ) -> dict[str, Any]: ...

    async def set_enabled(self, enabled: bool | None) -> dict[str, Any]: ...

    async def sweep_now(self) -> dict[str, Any]: ...

    async def fleet(self) -> dict[str, Any]: ...

    async def search(
        self, workspace: str | None, query: str, k: int, *, origin: str | None = None
    ) -> dict[str, Any]: ...

    async def take_message(
        self, workspace: str | None, text: str, *, sender: str | None, session_kind: str
    ) -> dict[str, Any]: ...

    def metrics(self) -> str: ...

    def events(self) -> list[dict[str, Any]]: ...

    def workspace_labels(self) -> dict[str, str]:
        """Each workspace's path -> its label (its first agent id), for read-only callers."""
        ...
