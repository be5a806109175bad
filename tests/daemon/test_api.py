"""The control API: scopes over TCP, full access over the Unix socket, one JSON error shape."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from dreamd.control import BusyError
from dreamd.daemon.api import build_app, load_tokens
from dreamd.errors import ConfigError, SelectorError

READ_TOKEN = "r" * 24
ADMIN_TOKEN = "a" * 24


class RecordingService:
    """A fake daemon that answers fixed documents and records what it was asked to do."""

    def __init__(self) -> None:
        self.enabled: list[bool] = []
        self.sweeps = 0
        self.busy = False
        self.cleared: list[str | None] = []
        self.backfills: list[tuple[str | None, str, str | None, bool]] = []

    async def status(self) -> dict[str, Any]:
        return {"enabled": True, "status": "ok"}

    def workspace_labels(self) -> dict[str, str]:
        return {"/srv/agents/ws": "main"}

    async def workspaces(self) -> list[dict[str, Any]]:
        return [{"path": "/ws"}]

    async def explain(self, workspace: str | None, selector: str | None) -> dict[str, Any]:
        if selector == "missing":
            raise SelectorError('No promotion candidate matched "missing".')
        return {"workspace": workspace, "selector": selector}

    async def diary(self, workspace: str | None, limit: int) -> dict[str, Any]:
        return {"entries": ["one", "two"][-limit:]}

    async def history(self) -> dict[str, Any]:
        return {"workspaces": [{"path": "/ws", "history": [{"promoted": 1}]}]}

    async def grounded(self, workspace: str | None) -> dict[str, Any]:
        return {"workspace": workspace, "entries": []}

    async def clear_grounded(self, workspace: str | None) -> dict[str, Any]:
        if self.busy:
            raise BusyError("/ws is busy")
        self.cleared.append(workspace)
        return {"removedShortTermEntries": 2}

    async def backfill(
        self, workspace: str | None, action: str, path: str | None, *, stage: bool
    ) -> dict[str, Any]:
        self.backfills.append((workspace, action, path, stage))
        return {"action": action}

    async def set_enabled(self, enabled: bool) -> dict[str, Any]:
        self.enabled.append(enabled)
        return {"enabled": enabled}

    async def sweep_now(self) -> dict[str, Any]:
        if self.busy:
            raise BusyError("a sweep is already running")
        self.sweeps += 1
        return {"workspaces": []}

    def metrics(self) -> str:
        return "# HELP dreamd_enabled x\n# TYPE dreamd_enabled gauge\ndreamd_enabled 1\n"

    def events(self) -> list[dict[str, Any]]:
        return []


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[RecordingService, str, Path]]:
    """The API on loopback TCP (with tokens) and on a Unix socket."""
    tokens_file = tmp_path / "tokens"
    tokens_file.write_text(
        f"# operators\noperator.read {READ_TOKEN}\noperator.admin {ADMIN_TOKEN}\n"
    )
    tokens_file.chmod(0o600)
    service = RecordingService()
    runner = web.AppRunner(build_app(service, load_tokens(tokens_file)))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    sock = tmp_path / "api.sock"
    await web.UnixSite(runner, str(sock)).start()
    port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
    yield service, f"http://127.0.0.1:{port}", sock
    await runner.cleanup()


async def _call(
    url: str, method: str = "GET", token: str | None = None, body: Any = None
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, url, json=body, headers=headers) as response,
    ):
        if response.content_type == "application/json":
            return response.status, await response.json()
        return response.status, await response.text()


async def test_read_token_reads_but_cannot_change_anything(
    api: tuple[RecordingService, str, Path],
) -> None:
    """operator.read may GET status but gets 403 on enable/disable and sweep."""
    service, base, _ = api
    assert await _call(f"{base}/v1/status", token=READ_TOKEN) == (
        200,
        {"enabled": True, "status": "ok"},
    )
    status, body = await _call(f"{base}/v1/dreaming", "POST", READ_TOKEN, {"enabled": False})
    assert (status, body) == (
        403,
        {"ok": False, "error": "this needs the operator.admin scope", "status": 403},
    )
    assert (await _call(f"{base}/v1/sweep", "POST", READ_TOKEN))[0] == 403
    assert service.enabled == []
    assert service.sweeps == 0


async def test_admin_token_can_toggle_and_sweep(api: tuple[RecordingService, str, Path]) -> None:
    """operator.admin may enable/disable and sweep."""
    service, base, _ = api
    assert await _call(f"{base}/v1/dreaming", "POST", ADMIN_TOKEN, {"enabled": False}) == (
        200,
        {"enabled": False},
    )
    assert await _call(f"{base}/v1/sweep", "POST", ADMIN_TOKEN) == (200, {"workspaces": []})
    assert (service.enabled, service.sweeps) == ([False], 1)


async def test_missing_or_unknown_token_is_401(api: tuple[RecordingService, str, Path]) -> None:
    """TCP without a valid bearer token gets 401 in the error shape."""
    _, base, _ = api
    expected = {"ok": False, "error": "missing or unknown bearer token", "status": 401}
    assert await _call(f"{base}/v1/status") == (401, expected)
    assert await _call(f"{base}/v1/status", token="x" * 24) == (401, expected)


async def test_unix_socket_has_full_access(api: tuple[RecordingService, str, Path]) -> None:
    """The owner-only Unix socket needs no token and may administer."""
    service, _, sock = api
    connector = aiohttp.UnixConnector(path=str(sock))
    async with (
        aiohttp.ClientSession(connector=connector) as session,
        session.post("http://dreamd/v1/dreaming", json={"enabled": True}) as response,
    ):
        assert response.status == 200
    assert service.enabled == [True]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "error"),
    [
        ("GET", "/nope", None, 404, "no route GET /nope"),
        ("GET", "/v1/sweep", None, 405, "Method Not Allowed"),
        (
            "POST",
            "/v1/dreaming",
            {"enabled": "yes"},
            400,
            'expected a JSON body like {"enabled": true}',
        ),
        (
            "GET",
            "/v1/candidates?selector=missing",
            None,
            404,
            'No promotion candidate matched "missing".',
        ),
        ("GET", "/v1/diary?limit=many", None, 400, "limit must be a whole number, got 'many'"),
        (
            "POST",
            "/v1/grounded/clear",
            {"workspace": 3},
            400,
            'expected a JSON body like {"workspace": "/path"}',
        ),
        (
            "POST",
            "/v1/grounded/clear",
            ["/ws"],
            400,
            'expected a JSON body like {"workspace": "/path"}',
        ),
        ("GET", "/static/missing.js", None, 404, "no route GET /static/missing.js"),
        ("GET", "/static/..%2Fweb.py", None, 404, "no route GET /static/../web.py"),
        ("GET", "/static/.hidden.js", None, 404, "no route GET /static/.hidden.js"),
    ],
)
async def test_errors_share_one_shape(
    api: tuple[RecordingService, str, Path],
    method: str,
    path: str,
    body: Any,
    status: int,
    error: str,
) -> None:
    """Every error is {ok: false, error, status}."""
    _, base, _ = api
    assert await _call(f"{base}{path}", method, ADMIN_TOKEN, body) == (
        status,
        {"ok": False, "error": error, "status": status},
    )


async def test_busy_sweep_is_409(api: tuple[RecordingService, str, Path]) -> None:
    """Asking for a sweep while one runs is a conflict."""
    service, base, _ = api
    service.busy = True
    status, body = await _call(f"{base}/v1/sweep", "POST", ADMIN_TOKEN)
    assert (status, body["error"]) == (409, "a sweep is already running")


async def test_metrics_are_prometheus_text(api: tuple[RecordingService, str, Path]) -> None:
    """/metrics answers text/plain in the exposition format."""
    _, base, _ = api
    status, text = await _call(f"{base}/metrics", token=READ_TOKEN)
    assert status == 200
    assert text.endswith("dreamd_enabled 1\n")


async def test_page_history_and_grounded_read(api: tuple[RecordingService, str, Path]) -> None:
    """A read token reads the history and the grounded lane; no token reads neither."""
    _, base, _ = api
    assert await _call(f"{base}/v1/history", token=READ_TOKEN) == (
        200,
        {"workspaces": [{"path": "/ws", "history": [{"promoted": 1}]}]},
    )
    assert await _call(f"{base}/v1/grounded?workspace=main", token=READ_TOKEN) == (
        200,
        {"workspace": "main", "entries": []},
    )
    assert (await _call(f"{base}/v1/history"))[0] == 401
    assert (await _call(f"{base}/v1/grounded"))[0] == 401


async def test_clearing_grounded_rows_needs_admin(api: tuple[RecordingService, str, Path]) -> None:
    """Clearing grounded-only rows is refused to a read token; admin clears; busy is 409."""
    service, base, _ = api
    url = f"{base}/v1/grounded/clear"
    status, body = await _call(url, "POST", READ_TOKEN, {"workspace": "/ws"})
    assert (status, body["error"]) == (403, "this needs the operator.admin scope")
    assert service.cleared == []
    assert await _call(url, "POST", ADMIN_TOKEN, {"workspace": "/ws"}) == (
        200,
        {"removedShortTermEntries": 2},
    )
    assert (await _call(url, "POST", ADMIN_TOKEN))[0] == 200  # no body: the only workspace
    assert service.cleared == ["/ws", None]
    service.busy = True
    assert await _call(url, "POST", ADMIN_TOKEN, {}) == (
        409,
        {"ok": False, "error": "/ws is busy", "status": 409},
    )


BACKFILL_SHAPE = 'expected a JSON body like {"action": "preview", "path": "memory", "stage": false}'


@pytest.mark.parametrize(
    "body",
    [
        {"action": "delete", "path": "memory"},
        {"action": "write", "path": 3},
        {"action": "write", "path": "memory", "stage": "yes"},
        {"action": "preview", "workspace": ["/ws"]},
        None,
    ],
)
async def test_backfill_body_is_checked(api: tuple[RecordingService, str, Path], body: Any) -> None:
    """A malformed backfill request is a 400 in the one shape; nothing runs."""
    service, base, _ = api
    assert await _call(f"{base}/v1/backfill", "POST", ADMIN_TOKEN, body) == (
        400,
        {"ok": False, "error": BACKFILL_SHAPE, "status": 400},
    )
    assert service.backfills == []


async def test_backfill_needs_admin(api: tuple[RecordingService, str, Path]) -> None:
    """Even a preview reads the workspace's notes: a read token is refused."""
    service, base, _ = api
    url = f"{base}/v1/backfill"
    preview = {"action": "preview", "path": "memory"}
    assert (await _call(url, "POST", READ_TOKEN, preview))[0] == 403
    assert service.backfills == []
    assert await _call(url, "POST", ADMIN_TOKEN, preview) == (200, {"action": "preview"})
    write = {"workspace": "/ws", "action": "write", "path": "notes", "stage": True}
    assert (await _call(url, "POST", ADMIN_TOKEN, write))[0] == 200
    assert (await _call(url, "POST", ADMIN_TOKEN, {"action": "rollback"}))[0] == 200
    assert service.backfills == [
        (None, "preview", "memory", False),
        ("/ws", "write", "notes", True),
        (None, "rollback", None, False),
    ]


@pytest.mark.parametrize("path", ["/", "/dreams"])
async def test_page_is_served_without_a_token(
    api: tuple[RecordingService, str, Path], path: str
) -> None:
    """The page and its assets hold no data: no token needed; a strict CSP keeps it local."""
    _, base, _ = api
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}{path}") as response:
            assert response.status == 200
            assert response.content_type == "text/html"
            page = await response.text()
            policy = response.headers["Content-Security-Policy"]
        assert "default-src 'none'" in policy
        assert "script-src 'self'" in policy
        assert "connect-src 'self'" in policy
        assert '<script src="/static/dreams.js" defer></script>' in page
        assert "http://" not in page
        assert "https://" not in page
        for asset, kind in (("dreams.js", "text/javascript"), ("dreams.css", "text/css")):
            async with session.get(f"{base}/static/{asset}") as response:
                assert (response.status, response.content_type) == (200, kind)
                assert response.headers["X-Content-Type-Options"] == "nosniff"
                text = await response.text()
            assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
            assert "https://" not in text


def test_page_assets_ship_in_the_package() -> None:
    """The page's files live inside the ``dreamd`` package, so the wheel carries them."""
    from dreamd.daemon.page import STATIC_DIR

    assert STATIC_DIR.parent.parent.name == "dreamd"
    assert {p.name for p in STATIC_DIR.iterdir()} >= {"index.html", "dreams.js", "dreams.css"}


def test_token_file_errors_name_the_line_not_the_token(tmp_path: Path) -> None:
    """A bad tokens line is reported by number, without echoing a secret."""
    path = tmp_path / "tokens"
    path.write_text("operator.read short\n")
    path.chmod(0o600)
    with pytest.raises(ConfigError, match=r"tokens:1: expected") as caught:
        load_tokens(path)
    assert "short" not in str(caught.value)
