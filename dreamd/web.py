"""The control API: an aiohttp app over a :class:`Service` (the daemon); scopes; one error shape.

Routes (JSON unless noted): ``GET /v1/status``, ``GET /v1/workspaces``, ``GET /v1/candidates``
(``?workspace=&selector=``), ``GET /v1/diary`` (``?workspace=&limit=``), ``GET /v1/events``,
``GET /v1/history`` (sweep history and last phase summaries), ``GET /v1/grounded``
(``?workspace=``), ``POST /v1/dreaming`` (``{"enabled": bool}``, admin), ``POST /v1/sweep``
(admin), ``POST /v1/grounded/clear`` (``{"workspace": ...}``, admin), ``POST /v1/backfill``
(``{"workspace", "action": "preview"|"write"|"rollback", "path", "stage"}``, admin: it reads
notes anywhere the daemon can), ``GET /metrics``
(Prometheus text), and the Dreams page (``GET /``, ``/dreams``, ``/static/...``; see
:mod:`dreamd.page`), which needs no token because it holds no data.

Who may do what: a request over the Unix socket (mode 0600: only its owner can connect) holds
``operator.read`` and ``operator.admin``; a request over loopback TCP needs
``Authorization: Bearer <token>`` for a token from ``api.tokens_file`` (``<scope> <token>``
lines; admin implies read). Every error is ``{"ok": false, "error": "...", "status": N}``.
Tokens are compared in constant time and never logged.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import msgspec
from aiohttp import web

from dreamd.errors import ConfigError, DreamdError, SelectorError
from dreamd.page import add_page_routes, is_page_path

__all__ = ["ADMIN", "READ", "BusyError", "Service", "Tokens", "build_app", "load_tokens"]

READ = "operator.read"
ADMIN = "operator.admin"
_log = logging.getLogger(__name__)


class BusyError(DreamdError):
    """The request conflicts with work in progress (a sweep is already running)."""


class Service(Protocol):
    """What the API needs from the daemon."""

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

    async def set_enabled(self, enabled: bool) -> dict[str, Any]: ...

    async def sweep_now(self) -> dict[str, Any]: ...

    async def search(
        self, workspace: str | None, query: str, k: int, *, origin: str | None = None
    ) -> dict[str, Any]: ...

    def metrics(self) -> str: ...

    def events(self) -> list[dict[str, Any]]: ...


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


def load_tokens(path: Path) -> Tokens:
    """Read ``<scope> <token>`` lines (``#`` comments); errors name the line, never the token."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the API tokens file: {exc.strerror}") from exc
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


def _json(document: Any, status: int = 200) -> web.Response:
    """JSON encoded by msgspec: fast, and pre-encoded ``msgspec.Raw`` parts pass through."""
    return web.Response(
        body=msgspec.json.encode(document), status=status, content_type="application/json"
    )


def _error(status: int, message: str) -> web.Response:
    return _json({"ok": False, "error": message, "status": status}, status)


async def _body(request: web.Request, example: str) -> dict[str, Any]:
    """The request's JSON object body (an empty body reads as ``{}``)."""
    if not request.can_read_body:
        return {}
    try:
        body = await request.json()
    except ValueError as exc:
        raise DreamdError(f"expected a JSON body like {example}") from exc
    if not isinstance(body, dict):
        raise DreamdError(f"expected a JSON body like {example}")
    return body


def _scopes_of(request: web.Request, tokens: Tokens) -> frozenset[str]:
    transport = request.transport
    sockname = transport.get_extra_info("sockname") if transport is not None else None
    if isinstance(sockname, str | bytes):  # a Unix socket: file permissions already decided
        return frozenset({READ, ADMIN})
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return frozenset()
    return tokens.lookup(header.removeprefix("Bearer ").strip())


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_ADMIN_ROUTES = {
    ("POST", "/v1/dreaming"),
    ("POST", "/v1/sweep"),
    ("POST", "/v1/grounded/clear"),
    ("POST", "/v1/backfill"),
}


def _guard(tokens: Tokens) -> Any:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not is_page_path(request.path):
            scopes = _scopes_of(request, tokens)
            needed = ADMIN if (request.method, request.path) in _ADMIN_ROUTES else READ
            if not scopes:
                return _error(401, "missing or unknown bearer token")
            if needed not in scopes:
                return _error(403, f"this needs the {needed} scope")
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
        except DreamdError as exc:
            return _error(400, str(exc))
        except Exception:  # noqa: BLE001 - a bug answers 500 in the one error shape
            _log.exception("control API request %s %s failed", request.method, request.path)
            return _error(500, "internal error; see the daemon log")

    return middleware


def build_app(service: Service, tokens: Tokens | None = None) -> web.Application:
    """The aiohttp application serving ``service``."""
    app = web.Application(middlewares=[_guard(tokens or Tokens({}))])

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
        if not isinstance(body.get("enabled"), bool):
            raise DreamdError('expected a JSON body like {"enabled": true}')
        return _json(await service.set_enabled(body["enabled"]))

    async def sweep(_: web.Request) -> web.Response:
        return _json(await service.sweep_now())

    async def metrics(_: web.Request) -> web.Response:
        return web.Response(text=service.metrics(), content_type="text/plain", charset="utf-8")

    app.router.add_get("/v1/status", status)
    app.router.add_get("/v1/workspaces", workspaces)
    app.router.add_get("/v1/candidates", candidates)
    app.router.add_get("/v1/diary", diary)
    app.router.add_get("/v1/events", events)
    app.router.add_get("/v1/history", history)
    app.router.add_get("/v1/grounded", grounded)
    app.router.add_post("/v1/grounded/clear", clear_grounded)
    app.router.add_post("/v1/backfill", backfill)
    app.router.add_post("/v1/dreaming", dreaming)
    app.router.add_post("/v1/sweep", sweep)
    app.router.add_get("/metrics", metrics)
    add_page_routes(app)
    return app
