"""The MCP tools and resources over an :class:`~dreamd.mcp.access.Access`, on the ``mcp`` SDK.

Tools (each takes an optional ``workspace``: an agent id or folder):

* ``recall`` — answer a question by its shape (entity, time, opinion) from the bank and the
  notes, cited; ``since``/``until`` bound it, ``k`` caps it. ``search`` — the ranked hits of a
  query. ``get`` — lines of one Markdown file (MEMORY.md, notes, logs, bank pages).
* ``remember`` — append a line to today's note, or a typed ``## Retain`` fact (``kind``,
  ``entities``, an opinion's ``confidence``). ``memory_replace`` / ``memory_insert`` — change
  or add a person's line of MEMORY.md (never dreaming's promotions; backed up first, so
  ``dreamd memory revert --last --apply`` undoes it). ``log_message`` — live intake of one
  chat message (:mod:`dreamd.runs.intake`).

Resources: ``memory://MEMORY.md``, ``memory://today`` (today's note), ``memory://bank`` (the
list of pages) and ``memory://bank/{+page}`` (one page).

Who may do what: a write is an owner's action. Over HTTP the caller's scopes come from the
control API's token (:mod:`dreamd.mcp.http` puts them in the request's ASGI ``state``); a
write needs ``operator.admin``, reading ``operator.read``; a request that carries no scopes may
do nothing (fail closed). Over stdio the caller is the user who started the process: every
tool, unless the server was started read-only. Every text a tool hands back was redacted.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from pydantic import Field

from dreamd import __version__
from dreamd.control import ADMIN, READ
from dreamd.errors import DreamdError, LockError
from dreamd.mcp.access import Access

__all__ = ["SCOPES_KEY", "build_server"]

SCOPES_KEY = "dreamd.scopes"
"""The key of the caller's scopes in an HTTP request's ASGI ``state``."""

INSTRUCTIONS = (
    "Long-term memory of this agent's workspace, kept as Markdown by dreamd. Before answering "
    "about the person, past decisions or earlier work, call recall (or search) and cite what "
    "it returns. When you learn something worth keeping, call remember: a typed fact "
    "(kind world, experience, opinion with a confidence, observation; entities like Peter) "
    "becomes part of the memory bank at the next sweep. MEMORY.md holds the person's durable "
    "facts: change one of their lines with memory_replace (get it first) or add one with "
    "memory_insert; dreaming's own promoted entries are not edited here."
)

Workspace = Annotated[
    str | None, Field(description="agent id or workspace folder; default: the only one")
]


def _scopes(ctx: Context, local: frozenset[str]) -> frozenset[str]:
    request = ctx.request_context.request
    if request is None:
        return local  # stdio: the process's own user
    state = getattr(request, "scope", {}).get("state") or {}
    found = state.get(SCOPES_KEY)
    return found if isinstance(found, frozenset) else frozenset()


def _need(ctx: Context, local: frozenset[str], scope: str, tool: str) -> None:
    scopes = _scopes(ctx, local)
    if scope in scopes:
        return
    if scope == ADMIN:
        raise ToolError(
            f"{tool} writes memory, an owner's action: it needs the {ADMIN} scope; this "
            "caller may only read"
        )
    raise ToolError(f"{tool} needs the {READ} scope")


async def _call(work: Any) -> dict[str, Any]:
    try:
        return dict(await work)
    except LockError as exc:
        raise ToolError(f"the workspace is busy (a sweep holds it); try again: {exc}") from exc
    except DreamdError as exc:
        raise ToolError(str(exc)) from exc


def build_server(access: Access, *, writable: bool = True) -> MCPServer:
    """The server; over stdio the caller holds every scope, or only reading when not
    ``writable`` (over HTTP the token decides)."""
    local = frozenset({READ, ADMIN}) if writable else frozenset({READ})
    server: MCPServer = MCPServer(
        "dreamd", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )

    @server.tool(
        description="Answer a question from memory, cited: 'tell me about Peter', "
        "'what happened since last week', 'what does Peter prefer?'."
    )
    async def recall(
        ctx: Context,
        question: str,
        k: Annotated[int, Field(ge=1, le=100, description="results at most")] = 10,
        since: Annotated[str | None, Field(description="a day (2025-11-01) or 30d")] = None,
        until: Annotated[str | None, Field(description="a day (2025-11-30) or 7d")] = None,
        entity: Annotated[str | None, Field(description="only results about this name")] = None,
        kind: Annotated[
            list[str] | None, Field(description="world, experience, opinion or observation")
        ] = None,
        workspace: Workspace = None,
    ) -> dict[str, Any]:
        _need(ctx, local, READ, "recall")
        options = {"k": k, "since": since, "until": until, "entity": entity, "kinds": kind}
        return await _call(access.recall(question, workspace, **options))

    @server.tool(description="Search memory's notes and MEMORY.md; the best hits, cited.")
    async def search(
        ctx: Context,
        query: str,
        k: Annotated[int, Field(ge=1, le=100, description="hits at most")] = 5,
        since: Annotated[str | None, Field(description="a day (2025-11-01) or 30d")] = None,
        until: Annotated[str | None, Field(description="a day (2025-11-30) or 7d")] = None,
        workspace: Workspace = None,
    ) -> dict[str, Any]:
        _need(ctx, local, READ, "search")
        return await _call(access.search(query, workspace, k=k, since=since, until=until))

    @server.tool(description="Read lines of MEMORY.md, a note (memory/...) or a bank page.")
    async def get(
        ctx: Context,
        path: Annotated[str, Field(description="MEMORY.md, memory/2026-03-01.md, bank/...")],
        start_line: Annotated[int, Field(ge=1)] = 1,
        end_line: Annotated[int | None, Field(ge=1, description="default: 400 lines on")] = None,
        workspace: Workspace = None,
    ) -> dict[str, Any]:
        _need(ctx, local, READ, "get")
        return await _call(access.get(path, workspace, start=start_line, end=end_line))

    @server.tool(
        description="Remember something in today's note: a plain line, or with a "
        "kind a typed fact for the memory bank."
    )
    async def remember(
        ctx: Context,
        text: str,
        kind: Annotated[
            str | None, Field(description="world, experience, opinion or observation")
        ] = None,
        entities: Annotated[list[str] | None, Field(description="names like Peter")] = None,
        confidence: Annotated[
            float | None, Field(ge=0.0, le=1.0, description="an opinion's, 0 to 1")
        ] = None,
        workspace: Workspace = None,
    ) -> dict[str, Any]:
        _need(ctx, local, ADMIN, "remember")
        options = {"kind": kind, "entities": tuple(entities or ()), "confidence": confidence}
        return await _call(access.remember(text, workspace, **options))

    @server.tool(
        description="Replace one of the person's lines of MEMORY.md; expected is the "
        "line as get returned it."
    )
    async def memory_replace(
        ctx: Context,
        line: Annotated[int, Field(ge=1)],
        expected: str,
        text: str,
        workspace: Workspace = None,
    ) -> dict[str, Any]:
        _need(ctx, local, ADMIN, "memory_replace")
        work = access.edit_memory("replace", text, workspace, line=line, expected=expected)
        return await _call(work)

    @server.tool(
        description="Add a line to MEMORY.md after one of the person's lines "
        "(0: at the top; default: after their last)."
    )
    async def memory_insert(
        ctx: Context,
        text: str,
        after_line: Annotated[int | None, Field(ge=0)] = None,
        workspace: Workspace = None,
    ) -> dict[str, Any]:
        _need(ctx, local, ADMIN, "memory_insert")
        return await _call(access.edit_memory("insert", text, workspace, line=after_line))

    @server.tool(
        description="Log one chat message to the day's log as it arrives; "
        "greetings and acknowledgements are dropped."
    )
    async def log_message(
        ctx: Context,
        text: str,
        sender: Annotated[str | None, Field(description="sender id, e.g. telegram:123")] = None,
        session_kind: str = "interactive",
        workspace: Workspace = None,
    ) -> dict[str, Any]:
        _need(ctx, local, ADMIN, "log_message")
        work = access.take_message(text, workspace, sender=sender, session_kind=session_kind)
        return await _call(work)

    async def _text(path: str) -> str:
        try:
            return await access.text(path)
        except DreamdError as exc:
            raise ResourceError(str(exc)) from exc

    @server.resource(
        "memory://MEMORY.md",
        name="MEMORY.md",
        mime_type="text/markdown",
        description="The person's durable memory.",
    )
    async def memory_file() -> str:
        return await _text("MEMORY.md")

    @server.resource(
        "memory://today",
        name="today",
        mime_type="text/markdown",
        description="Today's note (memory/YYYY-MM-DD.md).",
    )
    async def today() -> str:
        return await _text(access.today())

    @server.resource(
        "memory://bank",
        name="bank",
        mime_type="text/plain",
        description="The memory bank's pages, one URI a line.",
    )
    async def bank() -> str:
        try:
            pages = await access.pages()
        except DreamdError as exc:
            raise ResourceError(str(exc)) from exc
        return "".join(f"memory://{page}\n" for page in pages)

    @server.resource(
        "memory://bank/{+page}",
        name="bank page",
        mime_type="text/markdown",
        description="A bank page: world.md, entities/Peter.md...",
    )
    async def bank_page(page: str) -> str:
        return await _text(f"bank/{page}")

    del recall, search, get, remember, memory_replace, memory_insert, log_message
    del memory_file, today, bank, bank_page
    return server
