"""The Dreams page: ``GET /`` (and ``/dreams``) and its assets under ``/static/``.

The page and its assets are files shipped in the package (``dreamd/daemon/static``): plain HTML, CSS
and JavaScript, nothing fetched from elsewhere. They hold no data, so serving them needs no
token; the page's script reads everything through the JSON API with the bearer token the
operator types in. A strict Content-Security-Policy keeps the page to its own origin.
"""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp import web

__all__ = ["STATIC_DIR", "add_page_routes", "is_page_path"]

STATIC_DIR = Path(__file__).parent / "static"
_ASSET = re.compile(r"^[a-z0-9][a-z0-9-]*\.(css|js|svg)$")
_TYPES = {"css": "text/css", "js": "text/javascript", "svg": "image/svg+xml", "html": "text/html"}
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def is_page_path(path: str) -> bool:
    """True for the page and its assets: they are served without a token."""
    return path in ("/", "/dreams") or path.startswith("/static/")


def _file(name: str) -> web.Response:
    kind = name.rpartition(".")[2]
    try:
        body = (STATIC_DIR / name).read_bytes()
    except OSError as exc:
        raise web.HTTPNotFound from exc
    return web.Response(body=body, content_type=_TYPES[kind], charset="utf-8", headers=_HEADERS)


def add_page_routes(app: web.Application) -> None:
    """Route ``/``, ``/dreams`` and ``/static/{name}`` on ``app``."""

    async def page(_: web.Request) -> web.Response:
        return _file("index.html")

    async def asset(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if not _ASSET.match(name):
            raise web.HTTPNotFound
        return _file(name)

    app.router.add_get("/", page)
    app.router.add_get("/dreams", page)
    app.router.add_get("/static/{name}", asset)
