"""The daemon's ``/mcp`` and ``POST /v1/messages`` over loopback TCP, with the API's tokens:
the real daemon as a subprocess, the real ``mcp`` client speaking streamable HTTP to it."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.builders import write
from tests.processes import running_daemon

READ_TOKEN = "read-" + "r" * 24
ADMIN_TOKEN = "admin-" + "a" * 24
CONFIG = """
[dreaming]
timezone = "UTC"

[[agents.list]]
id = "main"
workspace = "{root}"

[api]
listen = "127.0.0.1:{port}"
tokens_file = "{tokens}"

[intake]
owners = ["telegram:4242"]
"""


def _days() -> set[str]:
    """Today, by the daemon's real clock (and tomorrow, should a test straddle midnight)."""
    now = datetime.now(UTC)
    return {
        now.date().isoformat(),
        datetime.fromtimestamp(now.timestamp() + 120, UTC).date().isoformat(),
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A running ``dreamd run`` on loopback TCP over one workspace: (base URL, its folder)."""
    tmp_path = tmp_path_factory.mktemp("mcp-http")
    root = tmp_path / "ws"
    write(root, "MEMORY.md", "# Memory\n\n- The person prefers tea.\n")
    write(
        root, "memory/2026-03-01.md", "# 2026-03-01\n\n- We decided to use Postgres for billing.\n"
    )
    tokens = tmp_path / "tokens"
    tokens.write_text(f"operator.read {READ_TOKEN}\noperator.admin {ADMIN_TOKEN}\n")
    tokens.chmod(0o600)
    port = _free_port()
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(root=root, port=port, tokens=tokens))
    env = {
        **os.environ,
        "DREAMD_HOME": str(tmp_path / "home"),
        "HOME": str(tmp_path / "user-home"),
        "DREAMD_CONFIG": str(config),
        "TZ": "UTC",
    }
    with running_daemon(env, cwd=tmp_path):
        yield f"http://127.0.0.1:{port}", root


@asynccontextmanager
async def session(base: str, token: str | None) -> AsyncIterator[ClientSession]:
    """An initialized MCP client session at ``base``/mcp, with ``token`` as its bearer."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        streamable_http_client(f"{base}/mcp", http_client=http) as (read, write_stream),
        ClientSession(read, write_stream) as client,
    ):
        await client.initialize()
        yield client


async def _call(client: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def _post(base: str, path: str, body: object, token: str | None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


async def test_an_owner_session_recalls_remembers_and_sees_it_in_the_next_recall(
    daemon: tuple[str, Path],
) -> None:
    """With the admin token: recall answers, remember writes today's note through the daemon,
    and the next recall finds the new fact."""
    base, root = daemon
    async with session(base, ADMIN_TOKEN) as client:
        first = await _call(client, "recall", {"question": "what do we use for billing?"})
        kept = await _call(client, "remember", {"text": "The billing database moved to db-07."})
        again = await _call(client, "recall", {"question": "where is the billing database?"})
    assert [r["source"] for r in first["results"]] == ["memory/2026-03-01.md#L3-L3"]
    day = kept["path"].removeprefix("memory/").removesuffix(".md")
    assert day in _days()
    assert (kept["line"], kept["text"]) == (3, "- The billing database moved to db-07.")
    assert again["results"][0]["content"] == "- The billing database moved to db-07."
    assert (root / kept["path"]).read_text() == (
        f"# {day}\n\n- The billing database moved to db-07.\n"
    )


async def test_a_reader_token_reads_and_is_refused_a_write(daemon: tuple[str, Path]) -> None:
    """With the read token: search answers; remember and memory_insert are refused and nothing
    is written."""
    base, root = daemon
    before = (root / "MEMORY.md").read_bytes()
    async with session(base, READ_TOKEN) as client:
        found = await _call(client, "search", {"query": "Postgres billing"})
        refused = await client.call_tool("remember", {"text": "Readers cannot write this."})
        inserted = await client.call_tool("memory_insert", {"text": "- Nor this."})
    assert found["hits"][0]["source"] == "memory/2026-03-01.md#L3-L3"
    assert refused.is_error
    assert inserted.is_error
    assert refused.content[0].text == (  # type: ignore[union-attr]
        "Error executing tool remember: remember writes memory, an owner's action: it needs "
        "the operator.admin scope; this caller may only read"
    )
    assert (root / "MEMORY.md").read_bytes() == before
    notes = sorted((root / "memory").glob("*.md"))
    assert not any("Readers cannot" in note.read_text() for note in notes)


async def test_mcp_without_a_token_is_refused(daemon: tuple[str, Path]) -> None:
    """``/mcp`` without a bearer token is answered 401 in the API's error shape."""
    base, _ = daemon
    status, document = _post(base, "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "ping"}, None)
    assert (status, document) == (
        401,
        {"ok": False, "error": "missing or unknown bearer token", "status": 401},
    )


def test_messages_are_logged_with_their_taint_and_noise_is_dropped(
    daemon: tuple[str, Path],
) -> None:
    """POST /v1/messages: the owner's message and a guest's are appended to the day's log
    (the guest's marked), a greeting is dropped, a secret is masked, and a reader is refused."""
    base, root = daemon
    owner = _post(
        base,
        "/v1/messages",
        {"text": "We decided to ship the billing export on Friday.", "sender": "telegram:4242"},
        ADMIN_TOKEN,
    )
    guest = _post(
        base,
        "/v1/messages",
        {"text": "Please add my key sk-abcdefghijklmnopqrstuvwx1234 to the repo.",
         "sender": "telegram:999"},
        ADMIN_TOKEN,
    )  # fmt: skip
    hello = _post(base, "/v1/messages", {"text": "thanks!", "sender": "telegram:4242"}, ADMIN_TOKEN)
    reader = _post(base, "/v1/messages", {"text": "We decided nothing."}, READ_TOKEN)
    path = owner[1]["path"]
    day = path.rpartition("/")[2].removesuffix(".md")
    assert day in _days()
    assert path == f"memory/logs/{day[:4]}/{day[5:7]}/{day}.md"
    assert owner == (
        200,
        {
            "workspace": str(root),
            "logged": True,
            "origin": "owner",
            "kind": "decision",
            "reason": None,
            "redacted": False,
            "path": path,
            "line": 3,
        },
    )
    assert guest[1]["origin"] == "untrusted"
    assert guest[1]["redacted"] is True
    assert hello[1]["logged"] is False
    assert hello[1]["reason"] == "a greeting or acknowledgement"
    assert reader == (
        403,
        {"ok": False, "error": "this needs the operator.admin scope", "status": 403},
    )
    lines = (root / path).read_text().splitlines()
    assert lines[:2] == [f"# {day}", ""]
    assert re.fullmatch(
        r"- \[\d\d:\d\d\] We decided to ship the billing export on Friday\.", lines[2]
    )
    assert re.match(r"- \[\d\d:\d\d\] Guest: Please add my key ", lines[3])
    assert "sk-abcdefghijklmnopqrstuvwx1234" not in lines[3]
    assert len(lines) == 4


HOOK = Path(__file__).resolve().parents[2] / "docs/openclaw-hook/dreamd-intake/handler.ts"


def test_the_openclaw_hook_posts_each_message_to_the_intake(
    daemon: tuple[str, Path], tmp_path: Path
) -> None:
    """The documented OpenClaw hook, run by node on message:preprocessed events: the owner's
    message and a guest's are logged, a heartbeat session's is not."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    base, root = daemon
    handler = tmp_path / "handler.mjs"
    handler.write_text(HOOK.read_text())
    events = [
        {"sessionKey": "agent:main:telegram:direct:4242",
         "context": {"bodyForAgent": "We agreed the hook ships with the 2.0 release.",
                     "senderId": "4242", "channelId": "telegram"}},
        {"sessionKey": "agent:main:telegram:group:-100",
         "context": {"bodyForAgent": "I think the release should slip a month instead.",
                     "from": "telegram:777", "channelId": "telegram", "isGroup": True}},
        {"sessionKey": "agent:main:heartbeat",
         "context": {"bodyForAgent": "Read HEARTBEAT.md and check the inbox for news.",
                     "senderId": "4242", "channelId": "telegram"}},
    ]  # fmt: skip
    script = (
        f"const {{ default: handler }} = await import({str(handler)!r});\n"
        f"for (const event of {json.dumps(events)}) {{\n"
        "  await handler({ type: 'message', action: 'preprocessed', timestamp: new Date(),\n"
        "                  messages: [], ...event });\n"
        "}\n"
    )
    env = {**os.environ, "DREAMD_URL": base + "/", "DREAMD_TOKEN": ADMIN_TOKEN}
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    logs = sorted((root / "memory/logs").rglob("*.md"))
    lines = "\n".join(log.read_text() for log in logs).splitlines()
    assert any(re.fullmatch(r"- \[\d\d:\d\d\] We agreed the hook ships with the 2\.0 release\.", line)
               for line in lines)  # fmt: skip
    assert any(
        re.fullmatch(
            r"- \[\d\d:\d\d\] Guest: I think the release should slip a month instead\.", line
        )
        for line in lines
    )
    assert not any("HEARTBEAT" in line for line in lines)
