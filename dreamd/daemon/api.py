"""The control API: an aiohttp app over a :class:`Service` (the daemon); scopes; one error shape.

Routes (JSON unless noted): ``GET /v1/status``, ``GET /v1/workspaces``, ``GET /v1/candidates``
(``?workspace=&selector=``; without a selector: the candidates, today's promotions and the near
misses), ``GET /v1/diary`` (``?workspace=&limit=``), ``GET /v1/events``, ``GET /v1/history``
(sweep history and last phase summaries), ``GET /v1/fleet`` (hosts and every workspace's last
sweep, as ``dreamd fleet status --json``), ``GET /v1/grounded`` (``?workspace=``),
``GET /v1/whoami`` (the caller's scopes, so the page shows admin buttons to admins only),
``POST /v1/dreaming`` (``{"enabled": bool}``; ``null`` clears the host's override; admin),
``POST /v1/sweep`` (admin), ``POST /v1/messages`` (live intake: ``{"text", "sender",
"sessionKind", "workspace"}``, admin; see :mod:`dreamd.runs.intake`), ``/mcp`` (the MCP
server as streamable HTTP, when the daemon mounts it: reading with ``operator.read``, writing
with ``operator.admin``; see :mod:`dreamd.mcp.http`), ``POST /v1/grounded/clear``
(``{"workspace": ...}``, admin),
``POST /v1/backfill`` (``{"workspace", "action": "preview"|"write"|"rollback", "path",
"stage"}``, admin; only notes inside the chosen workspace, see
:mod:`dreamd.runs.backfill_steps`), ``GET /metrics`` (Prometheus text; ``operator.read``: open
on the Unix socket, a read token over TCP), and the Dreams page (``GET /``, ``/dreams``,
``/static/...``; see :mod:`dreamd.daemon.page`), which needs no token because it holds no data.

Who may do what: a request over the Unix socket (mode 0600: only its owner can connect) holds
``operator.read`` and ``operator.admin``; a request over loopback TCP needs
``Authorization: Bearer <token>`` for a token from ``api.tokens_file`` (``<scope> <token>``
lines; admin implies read). Every error is ``{"ok": false, "error": "...", "status": N}``.
Tokens are compared in constant time and never logged.

Rules:

* The tokens file must be its owner's alone (as ssh asks of its keys): a file any group or
  other user may read, write or run is refused with the ``chmod 600`` that fixes it.
* Over TCP, the ``Host`` header must name this daemon: ``127.0.0.1``, ``localhost``, ``::1``
  (``[::1]``) or the host of ``api.listen``, with any port; else ``421``. A web page whose name
  was re-pointed at 127.0.0.1 (DNS rebinding) sends its own name and is refused. The Unix socket
  is not checked.
* A JSON body is read within :data:`BODY_SECONDS` (else ``408``), holds at most
  :data:`MAX_BODY_BYTES` (else ``413``) and nests at most :data:`MAX_JSON_DEPTH` deep (else
  ``400``): a hostile body is answered in the error shape, never with a 500.
* Every JSON document sent passes :func:`dreamd.redaction.redact` over its string values (keys
  are kept), pre-encoded ``msgspec.Raw`` parts included: defence in depth for anything a
  workspace note slipped into a document. Results are cached, so a repeated status costs a walk,
  not a redaction.
* A caller holding ``operator.read`` only (a read token over TCP) sees no absolute path: a
  workspace's path becomes its label (its first agent id, which ``?workspace=`` accepts), a
  file in it ``<label>:<relative path>``, the home directory ``~``, any other absolute path
  ``…/<its last part>`` (:func:`relabel`), in every string of the answer, errors included.
* Connection caps and header-read deadlines live in :mod:`dreamd.daemon.listener`.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import os
import re
import stat
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import msgspec
from aiohttp import web

from dreamd.control import ADMIN, READ, BusyError, Service
from dreamd.daemon.metrics import CONTENT_TYPE
from dreamd.daemon.page import add_page_routes, is_page_path
from dreamd.errors import ConfigError, DreamdError, SelectorError
from dreamd.redaction import redact

__all__ = [
    "BODY_SECONDS",
    "LOOPBACK_HOSTS",
    "MAX_BODY_BYTES",
    "MAX_JSON_DEPTH",
    "McpRoute",
    "RefusedError",
    "Tokens",
    "build_app",
    "host_of",
    "load_tokens",
    "relabel",
]

MAX_BODY_BYTES = 1024 * 1024
"""The largest request body read (1 MiB); a larger one is answered 413."""
MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects a JSON body may have; deeper is answered 400."""
BODY_SECONDS = 10.0
"""A request body must arrive within this long of its head; a slower one is answered 408."""
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""``Host`` names always accepted over TCP (``[::1]`` is ``::1`` once its brackets are off)."""
_log = logging.getLogger(__name__)


class McpRoute(Protocol):
    """What serves ``/mcp`` (:class:`dreamd.daemon.mcp_route.McpMount`)."""

    async def handle(self, request: web.Request, scopes: frozenset[str]) -> web.StreamResponse: ...

    async def close(self) -> None: ...


class RefusedError(DreamdError):
    """The request is refused with its own HTTP status (408, 413, 421)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Tokens:
    """Bearer tokens and the scopes each grants."""

    scopes: Mapping[str, frozenset[str]]

    def lookup(self, presented: str) -> frozenset[str]:
        """The scopes of ``presented`` (empty when unknown), in constant time per token."""
        found: frozenset[str] = frozenset()
        for token, scopes in self.scopes.items():
            if hmac.compare_digest(token.encode(), presented.encode()):
                found = scopes
        return found


def _open_to_others(mode: int) -> str:
    if mode & 0o044:
        return "readable"
    return "writable" if mode & 0o022 else "usable"


def load_tokens(path: Path) -> Tokens:
    """Read ``<scope> <token>`` lines (``#`` comments); errors name the line, never the token.

    The file must be open to its owner only (``mode & 0o077 == 0``), checked on the open file.
    """
    try:
        with path.open(encoding="utf-8") as handle:
            mode = stat.S_IMODE(os.fstat(handle.fileno()).st_mode)
            if mode & 0o077:
                raise ConfigError(
                    f"{path}: the API tokens file is {_open_to_others(mode)} by other users "
                    f"(mode {mode:04o}); run chmod 600 {path}"
                )
            text = handle.read()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the API tokens file: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: the API tokens file is not UTF-8 text") from exc
    scopes: dict[str, frozenset[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2 or parts[0] not in (READ, ADMIN) or len(parts[1]) < 16:
            raise ConfigError(
                f"{path}:{number}: expected '<operator.read|operator.admin> <token of 16+ chars>'"
            )
        scope, token = parts
        scopes[token] = frozenset({READ, ADMIN}) if scope == ADMIN else frozenset({READ})
    return Tokens(scopes)


_redact_text = functools.lru_cache(maxsize=32768)(redact)
"""Documents repeat their strings (paths, agents, snippets) from one request to the next."""


_PLAIN = (int, float, bool, type(None))


def _redacted(value: Any) -> Any:
    """``value`` with :func:`redact` applied to every string value (keys are kept)."""
    kind = type(value)
    if kind is str:
        return _redact_text(value)
    if kind is dict:
        return {
            key: item if type(item) in _PLAIN else _redacted(item) for key, item in value.items()
        }
    if kind is list or kind is tuple:
        return [item if type(item) in _PLAIN else _redacted(item) for item in value]
    if kind is msgspec.Raw:
        return msgspec.Raw(_redacted_raw(bytes(value)))
    if kind in _PLAIN:
        return value
    # A Struct, dataclass, enum, datetime or subclass: as plain JSON values, then walked.
    return _redacted(msgspec.to_builtins(value))


@functools.lru_cache(maxsize=4)
def _redacted_raw(encoded: bytes) -> bytes:
    """A pre-encoded part redacted. The daemon reuses its status part until a workspace changes,
    and then only that workspace's element differs, so a list is redacted element by element."""
    try:
        elements = msgspec.json.decode(encoded, type=list[msgspec.Raw])
    except msgspec.ValidationError:
        return _redacted_element(encoded)
    return b"[" + b",".join(_redacted_element(bytes(element)) for element in elements) + b"]"


@functools.lru_cache(maxsize=8192)
def _redacted_element(encoded: bytes) -> bytes:
    return msgspec.json.encode(_redacted(msgspec.json.decode(encoded)))


def _json(document: Any, status: int = 200) -> web.Response:
    """JSON encoded by msgspec, every string value redacted (``msgspec.Raw`` parts too)."""
    return web.Response(
        body=msgspec.json.encode(_redacted(document)),
        status=status,
        content_type="application/json",
    )


def _error(status: int, message: str) -> web.Response:
    return _json({"ok": False, "error": message, "status": status}, status)


def _too_deep(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` deep in ``value`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


async def _body(request: web.Request, example: str) -> dict[str, Any]:
    """The request's JSON object body (an empty body reads as ``{}``; see the module rules)."""
    if not request.can_read_body:
        return {}
    try:
        async with asyncio.timeout(BODY_SECONDS):
            raw = await request.read()
    except TimeoutError as exc:
        raise RefusedError(
            408, f"the request body did not arrive within {BODY_SECONDS:g} seconds"
        ) from exc
    except web.HTTPRequestEntityTooLarge as exc:
        raise RefusedError(
            413, f"the request body is larger than {MAX_BODY_BYTES} bytes (1 MiB)"
        ) from exc
    try:
        body = msgspec.json.decode(raw)
    except RecursionError as exc:
        raise DreamdError(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels") from exc
    except msgspec.DecodeError as exc:
        raise DreamdError(f"expected a JSON body like {example}") from exc
    if not isinstance(body, dict):
        raise DreamdError(f"expected a JSON body like {example}")
    if _too_deep(body, MAX_JSON_DEPTH):
        raise DreamdError(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels")
    return body


def host_of(header: str) -> str | None:
    """The host part of a ``Host`` header, lower case, brackets and port off (None: malformed)."""
    text = header.strip().lower()
    if text.startswith("["):
        host, bracket, port = text[1:].partition("]")
        if not bracket or (port and not (port.startswith(":") and port[1:].isdigit())):
            return None
        return host
    if text.count(":") == 1:
        host, _, port = text.partition(":")
        return host if port.isdigit() else None
    return text or None  # a name, an IPv4 address, or a bare IPv6 address such as ::1


def _over_unix(request: web.Request) -> bool:
    """Whether ``request`` came over the Unix socket (file permissions already decided)."""
    transport = request.transport
    sockname = transport.get_extra_info("sockname") if transport is not None else None
    return isinstance(sockname, str | bytes)


def _misdirected(request: web.Request, hosts: frozenset[str]) -> str | None:
    """Why a TCP request's ``Host`` does not name this daemon (None when it does)."""
    header = request.headers.get("Host")
    if header is None:
        return "misdirected request: no Host header"
    if host_of(header) in hosts:
        return None
    return (
        f"misdirected request: Host {header[:100]!r} is not a name of this daemon "
        "(use 127.0.0.1, localhost or [::1])"
    )


def _scopes_of(request: web.Request, tokens: Tokens) -> frozenset[str]:
    if _over_unix(request):
        return frozenset({READ, ADMIN})
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return frozenset()
    return tokens.lookup(header.removeprefix("Bearer ").strip())


_ABSOLUTE = re.compile(r"(?<![\w.~/:@-])/(?:[^\s/\"'<>|`]+/)+[^\s/\"'<>|`]*")


def _relabel_text(text: str, roots: Sequence[tuple[str, str]], home: str) -> str:
    for root, label in roots:
        if root in text:
            text = text.replace(root + os.sep, f"{label}:").replace(root, label)
    if len(home) > 1 and home in text:
        text = text.replace(home + os.sep, "~" + os.sep).replace(home, "~")

    def tail(found: re.Match[str]) -> str:
        parts = [part for part in found.group(0).split("/") if part]
        return "…/" + parts[-1] if parts else "…"

    return _ABSOLUTE.sub(tail, text)


def relabel(value: Any, labels: Mapping[str, str], home: str | None = None) -> Any:
    """``value`` (decoded JSON) with every absolute path replaced (see the module rules)."""
    roots = sorted(labels.items(), key=lambda item: len(item[0]), reverse=True)
    where = home if home is not None else str(Path.home())

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return _relabel_text(item, roots, where)
        if isinstance(item, dict):
            return {key: walk(child) for key, child in item.items()}
        if isinstance(item, list):
            return [walk(child) for child in item]
        return item

    return walk(value)


def _for_readers(response: web.StreamResponse, labels: Mapping[str, str]) -> web.StreamResponse:
    """A JSON answer fit for a caller with ``operator.read`` only."""
    if not isinstance(response, web.Response) or response.content_type != "application/json":
        return response
    body = response.body
    if not isinstance(body, bytes):
        return response
    document = relabel(msgspec.json.decode(body), labels)
    return web.Response(
        body=msgspec.json.encode(document),
        status=response.status,
        content_type="application/json",
    )


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_ADMIN_ROUTES = {
    ("POST", "/v1/dreaming"),
    ("POST", "/v1/sweep"),
    ("POST", "/v1/grounded/clear"),
    ("POST", "/v1/backfill"),
    ("POST", "/v1/messages"),
}


def _guard(tokens: Tokens, hosts: frozenset[str], service: Service) -> Any:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not _over_unix(request) and (misdirected := _misdirected(request, hosts)):
            return _error(421, misdirected)
        if not is_page_path(request.path):
            scopes = _scopes_of(request, tokens)
            needed = ADMIN if (request.method, request.path) in _ADMIN_ROUTES else READ
            if not scopes:
                return _error(401, "missing or unknown bearer token")
            if needed not in scopes:
                return _error(403, f"this needs the {needed} scope")
            if ADMIN not in scopes:
                answer = await _answer(request, handler)
                return _for_readers(answer, service.workspace_labels())
        return await _answer(request, handler)

    return middleware


async def _answer(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The handler's answer, every failure in the one error shape."""
    try:
        return await handler(request)
    except web.HTTPNotFound:
        return _error(404, f"no route {request.method} {request.path}")
    except web.HTTPException as exc:
        return _error(exc.status, exc.reason)
    except SelectorError as exc:
        return _error(404, str(exc))
    except BusyError as exc:
        return _error(409, str(exc))
    except RefusedError as exc:
        return _error(exc.status, str(exc))
    except DreamdError as exc:
        return _error(400, str(exc))
    except Exception:  # noqa: BLE001 - a bug answers 500 in the one error shape
        _log.exception("control API request %s %s failed", request.method, request.path)
        return _error(500, "internal error; see the daemon log")


def build_app(
    service: Service,
    tokens: Tokens | None = None,
    *,
    listen: str | None = None,
    mcp: McpRoute | None = None,
) -> web.Application:
    """The aiohttp application serving ``service``; ``listen`` is ``api.listen`` (its host is
    accepted in ``Host`` headers besides the loopback names); ``mcp`` serves ``/mcp``."""
    hosts = LOOPBACK_HOSTS
    if listen:
        named = host_of(listen)
        hosts = hosts | {named} if named else hosts
    app = web.Application(
        middlewares=[_guard(tokens or Tokens({}), hosts, service)],
        client_max_size=MAX_BODY_BYTES,
    )

    async def status(_: web.Request) -> web.Response:
        return _json(await service.status())

    async def workspaces(_: web.Request) -> web.Response:
        return _json({"workspaces": await service.workspaces()})

    async def candidates(request: web.Request) -> web.Response:
        query = request.query
        return _json(await service.explain(query.get("workspace"), query.get("selector")))

    async def diary(request: web.Request) -> web.Response:
        raw = request.query.get("limit", "10")
        if not raw.isdigit():
            raise DreamdError(f"limit must be a whole number, got {raw!r}")
        return _json(await service.diary(request.query.get("workspace"), int(raw)))

    async def events(_: web.Request) -> web.Response:
        return _json({"events": service.events()})

    async def history(_: web.Request) -> web.Response:
        return _json(await service.history())

    async def grounded(request: web.Request) -> web.Response:
        return _json(await service.grounded(request.query.get("workspace")))

    async def clear_grounded(request: web.Request) -> web.Response:
        body = await _body(request, '{"workspace": "/path"}')
        chosen = body.get("workspace")
        if chosen is not None and not isinstance(chosen, str):
            raise DreamdError('expected a JSON body like {"workspace": "/path"}')
        return _json(await service.clear_grounded(chosen))

    async def backfill(request: web.Request) -> web.Response:
        example = '{"action": "preview", "path": "memory", "stage": false}'
        body = await _body(request, example)
        action, path, stage = body.get("action"), body.get("path"), body.get("stage", False)
        chosen = body.get("workspace")
        if (
            action not in ("preview", "write", "rollback")
            or not isinstance(stage, bool)
            or not isinstance(path, str | None)
            or not isinstance(chosen, str | None)
        ):
            raise DreamdError(f"expected a JSON body like {example}")
        return _json(await service.backfill(chosen, action, path, stage=stage))

    async def dreaming(request: web.Request) -> web.Response:
        body = await _body(request, '{"enabled": true}')
        if "enabled" not in body or not isinstance(body["enabled"], bool | None):
            raise DreamdError('expected a JSON body like {"enabled": true}')
        return _json(await service.set_enabled(body["enabled"]))

    async def whoami(request: web.Request) -> web.Response:
        scopes = _scopes_of(request, tokens or Tokens({}))
        return _json({"scopes": sorted(scopes), "admin": ADMIN in scopes})

    async def sweep(_: web.Request) -> web.Response:
        return _json(await service.sweep_now())

    async def fleet(_: web.Request) -> web.Response:
        return _json(await service.fleet())

    async def messages(request: web.Request) -> web.Response:
        example = '{"text": "...", "sender": "telegram:123", "sessionKind": "interactive"}'
        body = await _body(request, example)
        text, sender = body.get("text"), body.get("sender")
        kind, chosen = body.get("sessionKind", "interactive"), body.get("workspace")
        if (
            not isinstance(text, str)
            or not isinstance(sender, str | None)
            or not isinstance(kind, str)
            or not isinstance(chosen, str | None)
        ):
            raise DreamdError(f"expected a JSON body like {example}")
        return _json(await service.take_message(chosen, text, sender=sender, session_kind=kind))

    async def metrics(_: web.Request) -> web.Response:
        return web.Response(body=service.metrics().encode(), headers={"Content-Type": CONTENT_TYPE})

    app.router.add_get("/v1/status", status)
    app.router.add_get("/v1/workspaces", workspaces)
    app.router.add_get("/v1/candidates", candidates)
    app.router.add_get("/v1/diary", diary)
    app.router.add_get("/v1/events", events)
    app.router.add_get("/v1/history", history)
    app.router.add_get("/v1/fleet", fleet)
    app.router.add_get("/v1/grounded", grounded)
    app.router.add_get("/v1/whoami", whoami)
    app.router.add_post("/v1/grounded/clear", clear_grounded)
    app.router.add_post("/v1/backfill", backfill)
    app.router.add_post("/v1/dreaming", dreaming)
    app.router.add_post("/v1/sweep", sweep)
    app.router.add_post("/v1/messages", messages)
    app.router.add_get("/metrics", metrics)
    if mcp is not None:
        route = mcp

        async def serve_mcp(request: web.Request) -> web.StreamResponse:
            return await route.handle(request, _scopes_of(request, tokens or Tokens({})))

        async def close_mcp(_: web.Application) -> None:
            await route.close()

        app.router.add_route("*", "/mcp", serve_mcp)
        app.on_cleanup.append(close_mcp)
    add_page_routes(app)
    return app
