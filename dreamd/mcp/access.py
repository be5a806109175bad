"""Which workspace a tool call acts on, and each operation run off the event loop.

A call names its workspace by an agent id or its folder; without one, the server's default
(``dreamd mcp --agent``), else the only workspace; several and none named is an error that
lists them. Work runs in a thread (``asyncio.to_thread``): files, SQLite and the workspace lock
never block the loop. Traces are recorded as ``agent`` recalls while dreaming is on
(``recording``), as ``memory search`` records them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from functools import partial
from pathlib import Path
from typing import Any

from dreamd.errors import DreamdError
from dreamd.runs import intake, reading, remember

__all__ = ["Access", "Place"]


@dataclass(frozen=True)
class Place:
    """A workspace a server may act on: its folder, its agents, its owners' sender ids."""

    root: Path
    agents: tuple[str, ...]
    owners: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Access:
    """The operations of the tools, over the workspaces ``places()`` returns now."""

    places: Callable[[], Sequence[Place]]
    zone: Callable[[], tzinfo]
    now: Callable[[], datetime]
    recording: Callable[[], bool]
    default: str | None = None
    embeddings: Callable[[], Mapping[str, Any] | None] = lambda: None

    def place(self, wanted: str | None) -> Place:
        """The workspace ``wanted`` names (see the module rules)."""
        spaces = list(self.places())
        chosen = wanted or self.default
        if chosen:
            for place in spaces:
                if chosen in (str(place.root), *place.agents):
                    return place
            raise DreamdError(f"no workspace {chosen!r}; known: {_listing(spaces)}")
        if len(spaces) == 1:
            return spaces[0]
        if not spaces:
            raise DreamdError("no workspace is configured")
        raise DreamdError(
            f"several workspaces; name one (an agent id or folder): {_listing(spaces)}"
        )

    async def _run(self, work: Callable[[], Any]) -> Any:
        return await asyncio.to_thread(work)

    async def recall(self, question: str, workspace: str | None, **options: Any) -> dict[str, Any]:
        """``memory recall``'s answer (see :func:`dreamd.runs.reading.recall_document`)."""
        place = self.place(workspace)
        work = partial(
            reading.recall_document,
            place.root,
            question,
            now=self.now(),
            zone=self.zone(),
            record=self.recording(),
            embeddings=self.embeddings(),
            **options,
        )
        return {"workspace": _name(place), **await self._run(work)}

    async def search(self, query: str, workspace: str | None, **options: Any) -> dict[str, Any]:
        """``memory search``'s hits (see :func:`dreamd.runs.reading.search_document`)."""
        place = self.place(workspace)
        work = partial(
            reading.search_document,
            place.root,
            query,
            now=self.now(),
            zone=self.zone(),
            record=self.recording(),
            embeddings=self.embeddings(),
            **options,
        )
        return {"workspace": _name(place), **await self._run(work)}

    async def get(
        self, path: str, workspace: str | None, *, start: int, end: int | None
    ) -> dict[str, Any]:
        """Lines of a readable file (see :func:`dreamd.runs.reading.read_lines`)."""
        place = self.place(workspace)
        work = partial(reading.read_lines, place.root, path, start=start, end=end)
        return {"workspace": _name(place), **await self._run(work)}

    async def text(self, path: str, workspace: str | None = None) -> str:
        """A readable file's whole text, redacted (empty when it does not exist yet)."""
        place = self.place(workspace)
        return str(await self._run(partial(reading.read_file, place.root, path)))

    async def pages(self, workspace: str | None = None) -> list[str]:
        """The bank's pages, workspace-relative (``bank/...``)."""
        place = self.place(workspace)
        return list(await self._run(partial(reading.bank_pages, place.root)))

    def today(self) -> str:
        """Today's note, workspace-relative."""
        return remember.today_note(self.now(), self.zone())

    async def remember(self, text: str, workspace: str | None, **options: Any) -> dict[str, Any]:
        """Append to today's note (see :func:`dreamd.runs.remember.remember`)."""
        place = self.place(workspace)
        work = partial(
            remember.remember, place.root, text, now=self.now(), zone=self.zone(), **options
        )
        return {"workspace": _name(place), **await self._run(work)}

    async def edit_memory(
        self, action: str, text: str, workspace: str | None, **options: Any
    ) -> dict[str, Any]:
        """Replace or insert a person's MEMORY.md line (see
        :func:`dreamd.runs.remember.edit_memory`)."""
        place = self.place(workspace)
        work = partial(remember.edit_memory, place.root, action, text, now=self.now(), **options)
        return {"workspace": _name(place), **await self._run(work)}

    async def take_message(
        self, text: str, workspace: str | None, *, sender: str | None, session_kind: str
    ) -> dict[str, Any]:
        """Log one message (see :func:`dreamd.runs.intake.take_message`)."""
        place = self.place(workspace)
        work = partial(
            intake.take_message,
            place.root,
            text,
            sender=sender,
            session_kind=session_kind,
            owners=place.owners,
            now=self.now(),
            zone=self.zone(),
        )
        return {"workspace": _name(place), **await self._run(work)}


def _name(place: Place) -> str:
    return place.agents[0] if len(place.agents) == 1 else str(place.root)


def _listing(spaces: Sequence[Place]) -> str:
    return ", ".join(f"{'/'.join(p.agents) or '-'} ({p.root})" for p in spaces) or "none"
