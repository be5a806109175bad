"""The control API: scopes over TCP, full access over the Unix socket, one JSON error shape."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from dreamd.errors import ConfigError, SelectorError
from dreamd.web import BusyError, build_app, load_tokens

READ_TOKEN = "r" * 24
ADMIN_TOKEN = "a" * 24


class RecordingService:
    """A fake daemon that answers fixed documents and records what it was asked to do."""

    def __init__(self) -> None:
        self.enabled: list[bool] = []
        self.sweeps = 0
        self.busy = False

    async def status(self) -> dict[str, Any]:
        return {"enabled": True, "status": "ok"}

    async def workspaces(self) -> list[dict[str, Any]]:
        return [{"path": "/ws"}]

    async def explain(self, workspace: str | None, selector: str | None) -> dict[str, Any]:
        if selector == "missing":
            raise SelectorError('No promotion candidate matched "missing".')
        return {"workspace": workspace, "selector": selector}

    async def diary(self, workspace: str | None, limit: int) -> dict[str, Any]:
        return {"entries": ["one", "two"][-limit:]}

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


def test_token_file_errors_name_the_line_not_the_token(tmp_path: Path) -> None:
    """A bad tokens line is reported by number, without echoing a secret."""
    path = tmp_path / "tokens"
    path.write_text("operator.read short\n")
    with pytest.raises(ConfigError, match=r"tokens:1: expected") as caught:
        load_tokens(path)
    assert "short" not in str(caught.value)
