"""The control API under hostile or careless clients: deadlines, connection caps, backfill paths,
hostile bodies, bind errors, the tokens file's mode, Host headers and redacted answers."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import msgspec
import pytest
from aiohttp import web

from dreamd.control import Service
from dreamd.daemon import api as web_module
from dreamd.daemon.api import build_app, load_tokens
from dreamd.daemon.backend import DaemonService
from dreamd.daemon.listener import (
    IDLE_SECONDS,
    LINGER_SECONDS,
    CappedSite,
    Caps,
    Gate,
    connection_caps,
)
from dreamd.errors import ConfigError
from tests.daemon.test_api import ADMIN_TOKEN, READ_TOKEN, RecordingService
from tests.fakes.host import make_daemon, make_host
from tests.processes import run_cli, running_daemon, scaled, wait_until

OLD_NOTE = "# {day}\n\n## Decisions\n- Decided to keep the deploy window on Tuesdays.\n"


def _tokens(tmp_path: Path) -> Path:
    path = tmp_path / "tokens"
    path.write_text(f"operator.read {READ_TOKEN}\noperator.admin {ADMIN_TOKEN}\n")
    path.chmod(0o600)
    return path


@contextlib.asynccontextmanager
async def _serving(
    service: Service,
    tmp_path: Path,
    *,
    tcp: Gate | None = None,
    unix: Gate | None = None,
    keepalive: float = IDLE_SECONDS,
    listen: str | None = None,
) -> AsyncIterator[tuple[int, Path, Gate]]:
    """The app on loopback TCP and a Unix socket, each behind its gate: (port, socket, TCP gate)."""
    app = build_app(service, load_tokens(_tokens(tmp_path)), listen=listen)
    runner = web.AppRunner(app, keepalive_timeout=keepalive, lingering_time=LINGER_SECONDS)
    await runner.setup()
    tcp = tcp or Gate(limit=16, refusals=4)
    sock = tmp_path / "api.sock"
    await CappedSite(runner, tcp, host="127.0.0.1", port=0).start()
    await CappedSite(runner, unix or Gate(limit=8, refusals=4), path=str(sock)).start()
    port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
    try:
        yield port, sock, tcp
    finally:
        await runner.cleanup()


def _request(path: str = "/v1/status", host: str = "127.0.0.1", token: str = READ_TOKEN) -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()


def _parse(response: bytes) -> tuple[int, Any]:
    head, _, body = response.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


async def _exchange(target: int | Path, request: bytes) -> bytes:
    """Send ``request`` over TCP (a port) or the Unix socket (a path); read until EOF."""
    if isinstance(target, Path):
        reader, writer = await asyncio.open_unix_connection(str(target))
    else:
        reader, writer = await asyncio.open_connection("127.0.0.1", target)
    try:
        writer.write(request)
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()
        await writer.wait_closed()


async def _seconds_until_closed(reader: asyncio.StreamReader) -> float:
    started = time.monotonic()
    await asyncio.wait_for(reader.read(), 10)
    return time.monotonic() - started


class SlowService(RecordingService):
    """Answers status after a pause, so a request outlives the head deadline."""

    async def status(self) -> dict[str, Any]:
        await asyncio.sleep(0.6)
        return {"enabled": True, "status": "ok"}


# Header-read and idle deadlines


async def test_silent_or_half_sent_connections_close_at_the_head_deadline(tmp_path: Path) -> None:
    """A connection that sends nothing, or half a request head, is closed at the head deadline."""
    gate = Gate(limit=16, refusals=4, head_seconds=0.3)
    async with _serving(RecordingService(), tmp_path, tcp=gate) as (port, _, _):
        silent_reader, silent = await asyncio.open_connection("127.0.0.1", port)
        half_reader, half = await asyncio.open_connection("127.0.0.1", port)
        half.write(b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        waited = await asyncio.gather(
            _seconds_until_closed(silent_reader), _seconds_until_closed(half_reader)
        )
        for writer in (silent, half):
            writer.close()
            await writer.wait_closed()
        assert all(0.2 < seconds < 2 for seconds in waited), waited
        assert gate.statistics() == {"limit": 16, "open": 0, "refusing": 0, "refused": 0}


async def test_a_complete_head_is_not_cut_by_the_head_deadline(tmp_path: Path) -> None:
    """Once the head is in, a request slower than the head deadline still gets its answer."""
    gate = Gate(limit=16, refusals=4, head_seconds=0.2)
    async with _serving(SlowService(), tmp_path, tcp=gate) as (port, _, _):
        answer = await _exchange(port, _request())
    assert _parse(answer) == (200, {"enabled": True, "status": "ok"})


async def test_idle_keepalive_connection_closes_after_the_idle_timeout(tmp_path: Path) -> None:
    """After an answer, a connection that sends nothing or half a next head is closed when idle."""
    async with _serving(RecordingService(), tmp_path, keepalive=0.4) as (port, _, gate):
        keep = _request().replace(b"Connection: close", b"Connection: keep-alive")
        waited = []
        for follow_up in (b"", b"GET /v1/status HTTP/1.1\r\nHost: 127"):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(keep)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            assert json.loads(await reader.readexactly(length)) == {
                "enabled": True,
                "status": "ok",
            }
            writer.write(follow_up)
            waited.append(await _seconds_until_closed(reader))
            writer.close()
            await writer.wait_closed()
        assert all(0.2 < seconds < 3 for seconds in waited), waited
        assert gate.statistics()["open"] == 0


# Connection caps


def test_caps_are_sized_from_the_open_files_limit() -> None:
    """The caps fit 256 open files (macOS), 1024 (Linux), and stop growing past their ceilings."""
    assert connection_caps(256) == Caps(nofile=256, reserve=128, tcp=64, unix=32, refusals=8)
    assert connection_caps(1024) == Caps(nofile=1024, reserve=256, tcp=384, unix=192, refusals=48)
    assert connection_caps(1 << 20) == Caps(
        nofile=1 << 20, reserve=1 << 18, tcp=1024, unix=256, refusals=64
    )
    for nofile in (256, 512, 1024, 4096, 65536):
        caps = connection_caps(nofile)
        assert caps.tcp + caps.unix + 2 * caps.refusals <= nofile - caps.reserve


async def test_connection_beyond_the_cap_gets_503_in_the_error_shape(tmp_path: Path) -> None:
    """With the TCP cap taken, a client gets 503 in the one shape; once a slot frees, 200."""
    gate = Gate(limit=2, refusals=2)
    async with _serving(RecordingService(), tmp_path, tcp=gate) as (port, _, _):
        holders = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
        headers = {"Authorization": f"Bearer {READ_TOKEN}"}
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/v1/status", headers=headers) as r:
                refused = (r.status, await r.json(), r.headers["Connection"])
            for _, writer in holders:
                writer.close()
                await writer.wait_closed()
            await asyncio.sleep(0.1)
            async with session.get(f"http://127.0.0.1:{port}/v1/status", headers=headers) as r:
                admitted = (r.status, await r.json())
    assert refused == (
        503,
        {
            "ok": False,
            "error": "too many connections to the control API (limit 2); try again soon",
            "status": 503,
        },
        "close",
    )
    assert admitted == (200, {"enabled": True, "status": "ok"})


async def test_idle_flood_on_tcp_leaves_the_unix_socket_answering(tmp_path: Path) -> None:
    """Caps+50 idle TCP sockets: 50 get 503, the rest close at the deadline, the owner gets in."""
    caps = connection_caps(256)
    gate = Gate(limit=caps.tcp, refusals=caps.refusals, head_seconds=1.5)
    unix = Gate(limit=caps.unix, refusals=caps.refusals)
    async with _serving(RecordingService(), tmp_path, tcp=gate, unix=unix) as (port, sock, _):
        flood = []
        for number in range(caps.tcp + 50):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            if number < caps.tcp and number % 2:
                writer.write(b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            flood.append((reader, writer))
        started = time.monotonic()
        owner = _parse(await _exchange(sock, _request(host="dreamd")))
        owner_seconds = time.monotonic() - started
        during = gate.statistics()
        answers = await asyncio.gather(*(asyncio.wait_for(r.read(), 10) for r, _ in flood))
        for _, writer in flood:
            writer.close()
            await writer.wait_closed()
        await asyncio.sleep(0.1)
        after = _parse(await _exchange(port, _request()))
    refusal = answers[-1]
    assert refusal.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    assert _parse(refusal)[1] == {
        "ok": False,
        "error": "too many connections to the control API (limit 64); try again soon",
        "status": 503,
    }
    assert answers == [b""] * caps.tcp + [refusal] * 50
    assert owner == (200, {"enabled": True, "status": "ok"})
    assert owner_seconds < 1.0
    assert during["open"] == caps.tcp
    assert gate.statistics() == {"limit": 64, "open": 0, "refusing": 0, "refused": 50}
    assert after == (200, {"enabled": True, "status": "ok"})


# Daemon subprocesses

DAEMON_CONFIG = """
[dreaming]
timezone = "UTC"

[[agents.list]]
id = "main"
workspace = "{root}"

[api]
listen = "127.0.0.1:{port}"
tokens_file = "{tokens}"
{extra}
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _daemon_env(tmp_path: Path, home: Path, port: int, extra: str = "") -> dict[str, str]:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True, exist_ok=True)
    config = tmp_path / "config.toml"
    config.write_text(
        DAEMON_CONFIG.format(root=root, port=port, tokens=_tokens(tmp_path), extra=extra)
    )
    env = {**os.environ, "DREAMD_HOME": str(home), "DREAMD_CONFIG": str(config), "TZ": "UTC"}
    env.pop("DREAMD_NOW", None)
    return env


LOW_LIMIT = (
    "import os, resource, sys\n"
    "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]\n"
    "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))\n"
    "os.execv(sys.executable, [sys.executable, '-m', 'dreamd', 'run'])\n"
)


def _blocking_exchange(family: int, address: Any, request: bytes) -> bytes:
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(address)
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


@pytest.fixture
def low_limit_daemon(tmp_path: Path, isolated_home: Path) -> Iterator[tuple[int, int, Path, Path]]:
    """``dreamd run`` with a soft open-files limit of 256: (pid, port, socket, log file)."""
    port = _free_port()
    env = _daemon_env(tmp_path, isolated_home, port)
    command = (sys.executable, "-c", LOW_LIMIT)
    with running_daemon(env, cwd=tmp_path, command=command) as daemon:
        yield daemon.pid, port, isolated_home / "run" / "dreamd.sock", daemon.log_file


def test_daemon_under_256_open_files_keeps_its_unix_socket(
    low_limit_daemon: tuple[int, int, Path, Path],
) -> None:
    """Under RLIMIT_NOFILE 256 the caps fit: a TCP flood is refused, the Unix socket answers."""
    pid, port, sock, log = low_limit_daemon
    line = f"control API on {sock} (32 connections) and 127.0.0.1:{port} (64 connections); "
    assert f"{line}open-files limit 256" in log.read_text()
    flood = []
    try:
        for _ in range(64 + 50):
            client = socket.create_connection(("127.0.0.1", port), timeout=10)
            flood.append(client)
        refused = [client.recv(4096) for client in flood[64:]]
        started = time.monotonic()
        owner = _blocking_exchange(socket.AF_UNIX, str(sock), _request(host="dreamd"))
        owner_seconds = time.monotonic() - started
        fds = Path(f"/proc/{pid}/fd")
        open_files = sum(1 for _ in fds.iterdir()) if fds.is_dir() else 0
    finally:
        for client in flood:
            client.close()
    assert all(answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n") for answer in refused)
    assert _parse(owner)[0] == 200
    assert owner_seconds < 2.0
    assert open_files < 256
    assert wait_until(
        lambda: (
            _parse(_blocking_exchange(socket.AF_INET, ("127.0.0.1", port), _request()))[0] == 200
        ),
        10,
    )


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (
            "",
            "api.listen 127.0.0.1:{port} is already in use (another program listens there); "
            "stop it or choose another port in api.listen",
        ),
        (
            'socket = "{long}"',
            "{long}: cannot open the control socket (AF_UNIX path too long); "
            "choose a writable folder and a short path in api.socket",
        ),
    ],
)
def test_bind_errors_stop_the_daemon_with_exit_1(
    tmp_path: Path, isolated_home: Path, extra: str, problem: str
) -> None:
    """`dreamd run` names the listener it cannot open, exits 1, and leaves no socket behind."""
    long = tmp_path / ("s" * 120 + ".sock")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = _daemon_env(tmp_path, isolated_home, port, extra.format(long=long))
        done = run_cli(env, "run")
    assert done.returncode == 1, done.stderr
    assert f"dreamd: error: {problem.format(port=port, long=long)}" in done.stderr.splitlines()
    assert not (isolated_home / "run" / "dreamd.sock").exists()


# Backfill paths


@pytest.fixture
async def host_api(tmp_path: Path) -> AsyncIterator[tuple[Path, Path]]:
    """A real workspace's daemon service behind the API on a Unix socket: (root, socket)."""
    config, root, _ = make_host(tmp_path)
    (root / "notes").mkdir()
    (root / "notes" / "2026-03-01.md").write_text(OLD_NOTE.format(day="2026-03-01"))
    other = tmp_path / "other" / "memory"
    other.mkdir(parents=True)
    (other / "2026-03-02.md").write_text(OLD_NOTE.format(day="2026-03-02"))
    (root / "linked").symlink_to(other)
    daemon = make_daemon(config)
    try:
        async with _serving(DaemonService(daemon), tmp_path) as (_, sock, _):
            yield root, sock
    finally:
        daemon.workers.shutdown()


async def _post(sock: Path, path: str, body: bytes) -> tuple[int, Any]:
    connector = aiohttp.UnixConnector(path=str(sock))
    async with (
        aiohttp.ClientSession(connector=connector) as session,
        session.post(
            f"http://dreamd{path}",
            data=io.BytesIO(body),
            headers={"Content-Type": "application/json"},
        ) as response,
    ):
        return response.status, await response.json()


@pytest.mark.parametrize("given", ["{other}", "../other/memory", "linked", "linked/2026-03-02.md"])
async def test_api_backfill_refuses_paths_outside_the_workspace(
    host_api: tuple[Path, Path], tmp_path: Path, given: str
) -> None:
    """An absolute, relative or symlinked path resolving outside the workspace is a 400."""
    root, sock = host_api
    other = tmp_path / "other" / "memory"
    raw = given.format(other=other)
    target = other / "2026-03-02.md" if raw.endswith(".md") else other
    body = msgspec.json.encode({"action": "preview", "path": raw})
    error = (
        f"backfill path {raw!r} resolves to {target}, outside the workspace {root}; "
        "the control API reads notes inside the workspace only "
        "(on the host, `dreamd memory rem-backfill --path` reads any path)"
    )
    assert await _post(sock, "/v1/backfill", body) == (
        400,
        {"ok": False, "error": error, "status": 400},
    )
    assert not (root / "DREAMS.md").exists()


async def test_api_backfill_reads_paths_inside_the_workspace(host_api: tuple[Path, Path]) -> None:
    """A relative or absolute path inside the workspace still previews its notes."""
    root, sock = host_api
    for raw in ("notes", str(root / "notes"), "notes/../notes/2026-03-01.md"):
        status, preview = await _post(
            sock, "/v1/backfill", msgspec.json.encode({"action": "preview", "path": raw})
        )
        assert (status, preview["sourceFiles"]) == (200, ["notes/2026-03-01.md"])


def test_cli_backfill_still_reads_a_path_outside_the_workspace(tmp_path: Path) -> None:
    """The host user's `rem-backfill --path` may name notes anywhere they can read."""
    _, root, _ = make_host(tmp_path)
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "2026-03-02.md").write_text(OLD_NOTE.format(day="2026-03-02"))
    argv = ["--workspace", str(root), "memory", "rem-backfill", "--path", str(other), "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "dreamd", *argv],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sourceFiles"] == [str(other / "2026-03-02.md")]


# Hostile bodies


@pytest.mark.parametrize("depth", [33, 100_000])
async def test_deeply_nested_json_is_a_400(tmp_path: Path, depth: int) -> None:
    """A body nested past 32 levels is a 400 in the one shape, never a 500; nothing runs."""
    service = RecordingService()
    body = b'{"enabled": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"
    async with _serving(service, tmp_path) as (_, sock, _):
        answer = await _post(sock, "/v1/dreaming", body)
        shallow = await _post(sock, "/v1/dreaming", b'{"enabled": ' + b"[" * 31 + b"]" * 31 + b"}")
    error = "the JSON body nests deeper than 32 levels"
    assert answer == (400, {"ok": False, "error": error, "status": 400})
    assert shallow == (
        400,
        {"ok": False, "error": 'expected a JSON body like {"enabled": true}', "status": 400},
    )
    assert service.enabled == []


async def test_body_over_1_mib_is_a_413(tmp_path: Path) -> None:
    """A body larger than 1 MiB is a 413 in the one shape."""
    service = RecordingService()
    body = b'{"enabled": true, "pad": "' + b"x" * (1024 * 1024) + b'"}'
    async with _serving(service, tmp_path) as (_, sock, _):
        answer = await _post(sock, "/v1/dreaming", body)
    error = "the request body is larger than 1048576 bytes (1 MiB)"
    assert answer == (413, {"ok": False, "error": error, "status": 413})
    assert service.enabled == []


async def test_body_that_stalls_is_a_408(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A body that stops arriving is answered 408 in the one shape at the body deadline."""
    monkeypatch.setattr(web_module, "BODY_SECONDS", 0.3)
    async with _serving(RecordingService(), tmp_path) as (_, sock, _):
        head = (
            b"POST /v1/dreaming HTTP/1.1\r\nHost: dreamd\r\nContent-Type: application/json\r\n"
            b"Content-Length: 20\r\n\r\n"
        )
        reader, writer = await asyncio.open_unix_connection(str(sock))
        writer.write(head + b'{"enabled"')
        answer = await asyncio.wait_for(reader.read(), 10)
        writer.close()
        await writer.wait_closed()
    error = "the request body did not arrive within 0.3 seconds"
    assert _parse(answer) == (408, {"ok": False, "error": error, "status": 408})


# The tokens file's mode


@pytest.mark.parametrize(
    ("mode", "word"),
    [(0o644, "readable"), (0o640, "readable"), (0o620, "writable"), (0o601, "usable")],
)
def test_tokens_file_open_to_others_is_refused(tmp_path: Path, mode: int, word: str) -> None:
    """A tokens file any group or other user may use is refused with the chmod that fixes it."""
    path = _tokens(tmp_path)
    path.chmod(mode)
    with pytest.raises(ConfigError) as caught:
        load_tokens(path)
    assert str(caught.value) == (
        f"{path}: the API tokens file is {word} by other users (mode {mode:04o}); "
        f"run chmod 600 {path}"
    )
    path.chmod(0o600)
    assert load_tokens(path).lookup(ADMIN_TOKEN) == {"operator.read", "operator.admin"}


# Host headers


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "127.0.0.1:{port}",
        "localhost",
        "LOCALHOST:{port}",
        "::1",
        "[::1]",
        "[::1]:{port}",
        "dreamd.test:8765",
    ],
)
async def test_loopback_and_listen_hosts_are_served(tmp_path: Path, host: str) -> None:
    """Loopback names and api.listen's host, with or without a port, are served over TCP."""
    async with _serving(RecordingService(), tmp_path, listen="dreamd.test:8765") as (port, _, _):
        answer = await _exchange(port, _request(host=host.format(port=port)))
    assert _parse(answer) == (200, {"enabled": True, "status": "ok"})


@pytest.mark.parametrize(
    ("host", "shown"),
    [
        ("attacker.example:{port}", "'attacker.example:{port}'"),
        ("127.0.0.1.nip.io", None),
        ("[::1", None),
        ("localhost:evil", None),
        ("", None),
    ],
)
async def test_other_hosts_are_misdirected_over_tcp(
    tmp_path: Path, host: str, shown: str | None
) -> None:
    """Any other Host (DNS rebinding) is a 421 in the one shape, page and API alike."""
    async with _serving(RecordingService(), tmp_path) as (port, _, _):
        named = host.format(port=port)
        answers = [
            await _exchange(port, _request(path, host=named)) for path in ("/v1/status", "/")
        ]
    error = (
        f"misdirected request: Host {(shown or repr(named)).format(port=port)} is not a name of "
        "this daemon (use 127.0.0.1, localhost or [::1])"
    )
    assert [_parse(answer) for answer in answers] == [
        (421, {"ok": False, "error": error, "status": 421})
    ] * 2


async def test_unix_socket_requests_skip_the_host_check(tmp_path: Path) -> None:
    """Over the owner's Unix socket any Host is served."""
    async with _serving(RecordingService(), tmp_path) as (_, sock, _):
        answer = await _exchange(sock, _request(host="attacker.example"))
    assert _parse(answer) == (200, {"enabled": True, "status": "ok"})


# Redaction


SECRET = "ghp_" + "A1b2C3d4" * 5
MASKED = "ghp_***"


class LeakyService(RecordingService):
    """A status holding secrets in plain values, nested values, keys and a pre-encoded part."""

    async def status(self) -> dict[str, Any]:
        part = msgspec.json.encode([{"path": "/ws", "lastError": f"push failed with {SECRET}"}])
        return {
            "note": f"token {SECRET}",
            "owner": {"contact": ["ana@example.com", 3, None, True]},
            SECRET: "keys are kept",
            "workspaces": msgspec.Raw(part),
        }


async def test_every_json_string_value_is_redacted(tmp_path: Path) -> None:
    """Every string value the API sends is redacted, pre-encoded parts too; keys are kept."""
    async with _serving(LeakyService(), tmp_path) as (_, sock, _):
        answers = [_parse(await _exchange(sock, _request(host="dreamd"))) for _ in range(2)]
    assert (
        answers
        == [
            (
                200,
                {
                    "note": f"token {MASKED}",
                    "owner": {"contact": ["***", 3, None, True]},
                    SECRET: "keys are kept",
                    "workspaces": [{"path": "/ws", "lastError": f"push failed with {MASKED}"}],
                },
            )
        ]
        * 2
    )
