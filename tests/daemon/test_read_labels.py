"""A read-only token sees workspace labels, never absolute paths; an admin sees paths."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from dreamd.daemon.api import build_app, load_tokens, relabel
from dreamd.daemon.backend import DaemonService
from tests.daemon.test_api import ADMIN_TOKEN, READ_TOKEN
from tests.fakes.host import make_daemon, make_host

ROUTES = ("/v1/status", "/v1/workspaces", "/v1/history", "/v1/candidates", "/v1/diary")


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[str, Path]]:
    """A real workspace's daemon service on loopback TCP with both tokens: (base URL, root)."""
    config, root, _ = make_host(tmp_path)
    tokens = tmp_path / "tokens"
    tokens.write_text(f"operator.read {READ_TOKEN}\noperator.admin {ADMIN_TOKEN}\n")
    tokens.chmod(0o600)
    daemon = make_daemon(config)
    runner = web.AppRunner(build_app(DaemonService(daemon), load_tokens(tokens)))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
    try:
        yield f"http://127.0.0.1:{port}", root
    finally:
        await runner.cleanup()
        daemon.workers.shutdown()


async def _get(url: str, token: str) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        return response.status, await response.json()


async def test_a_read_token_sees_labels_not_paths(served: tuple[str, Path], tmp_path: Path) -> None:
    """Every answer to a read token names the workspace ``main`` and holds no absolute path
    (the config file shows as its name); the same answers to an admin hold the real path."""
    base, root = served
    for route in ROUTES:
        status, document = await _get(base + route, READ_TOKEN)
        text = json.dumps(document, ensure_ascii=False)
        assert (status, str(tmp_path) in text) == (200, False), (route, text)
    _, workspaces = await _get(base + "/v1/workspaces", READ_TOKEN)
    assert [w["path"] for w in workspaces["workspaces"]] == ["main"]
    _, status = await _get(base + "/v1/status", READ_TOKEN)
    assert status["files"]["config"] == "…/config.toml"
    _, chosen = await _get(base + "/v1/diary?workspace=main", READ_TOKEN)
    assert chosen["workspace"] == "main"
    _, admin = await _get(base + "/v1/workspaces", ADMIN_TOKEN)
    assert [w["path"] for w in admin["workspaces"]] == [str(root)]


def test_relabel_names_files_in_a_workspace_and_keeps_other_text() -> None:
    """A file in a workspace becomes ``label:relative``, home ``~``, other absolute paths their
    last part; URLs, dates, fractions and chat commands are left alone."""
    document = {
        "error": "cannot read /srv/agents/ws/memory/2026-12-01.md: denied",
        "list": ["/home/ana/notes/x.md", "/etc/dreamd/config.toml", "/srv/agents/ws"],
        "kept": "see https://example.org/a/b on 2026/12/01, jobs 1/3, send /dreaming on",
        "n": 3,
    }
    assert relabel(document, {"/srv/agents/ws": "main"}, home="/home/ana") == {
        "error": "cannot read main:memory/2026-12-01.md: denied",
        "list": ["~/notes/x.md", "…/config.toml", "main"],
        "kept": "see https://example.org/a/b on 2026/12/01, jobs 1/3, send /dreaming on",
        "n": 3,
    }
