"""The real daemon as a subprocess: it sweeps on schedule, answers over its socket, reloads, stops."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamd.engine.hits import Hit
from dreamd.recall.record import record_search
from tests.processes import run_cli, running_daemon, wait_until

FACT = "- The billing service runs on Postgres 16 on host db-02."


def _workspace(root: Path) -> None:
    """A workspace whose fact was asked about on three days by three questions."""
    (root / "memory").mkdir(parents=True)
    day = (datetime.now(UTC) - timedelta(days=4)).date().isoformat()
    (root / "memory" / f"{day}.md").write_text(f"# {day}\n\n{FACT}\n")
    for offset, query in enumerate(("which host runs billing", "billing postgres", "db-02 role")):
        when = datetime.now(UTC) - timedelta(days=3 - offset, hours=1)
        hit = Hit(f"memory/{day}.md", 3, 3, FACT, 0.9)
        record_search(root, query, [hit], now=when, zone=UTC)


CONFIG = """
[dreaming]
frequency = "* * * * *"
timezone = "UTC"

[agents.heartbeat]
every = "{every}"

[[agents.list]]
id = "main"
workspace = "ws"
"""


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[socket.socket]:
    """A datagram socket standing in for systemd's notify socket."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify.sock"))
    sock.settimeout(0.1)
    yield sock
    sock.close()


def _messages(sock: socket.socket) -> list[str]:
    found = []
    while True:
        try:
            found.append(sock.recv(4096).decode())
        except TimeoutError:
            return found


@pytest.mark.slow
def test_daemon_end_to_end(
    tmp_path: Path, isolated_home: Path, notify_socket: socket.socket
) -> None:
    """Sweeps by itself, answers status meanwhile, reloads on SIGHUP, exits 0 on SIGTERM cleanly."""
    root = tmp_path / "ws"
    _workspace(root)
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(every="1s"))
    env = {
        **os.environ,
        "DREAMD_HOME": str(isolated_home),
        "DREAMD_CONFIG": str(config),
        "NOTIFY_SOCKET": str(tmp_path / "notify.sock"),
        "WATCHDOG_USEC": "1000000",
        "TZ": "UTC",
    }
    env.pop("DREAMD_NOW", None)
    sock_path = isolated_home / "run" / "dreamd.sock"
    with running_daemon(env, cwd=tmp_path) as daemon:
        assert stat.S_IMODE(sock_path.stat().st_mode) == 0o600
        messages = _messages(notify_socket)
        assert any(m.startswith("READY=1") for m in messages)

        status = run_cli(env, "--json", "status")
        assert status.returncode == 0, status.stderr
        document = json.loads(status.stdout)
        assert document["daemon"]["pid"] == daemon.pid
        assert document["status"] == "ok"

        config.write_text("[dreaming\n")  # a broken config: the reload is refused
        daemon.process.send_signal(signal.SIGHUP)
        time.sleep(1)
        assert daemon.process.poll() is None
        config.write_text(CONFIG.format(every="2s"))
        daemon.process.send_signal(signal.SIGHUP)
        assert wait_until(
            lambda: (
                json.loads(run_cli(env, "--json", "status").stdout)["daemon"]["scheduler"][
                    "heartbeatSeconds"
                ]
                == 2.0
            ),
            10,
        )

        memory = root / "MEMORY.md"
        assert wait_until(memory.exists, 75, every=0.2), "no scheduled sweep promoted in a minute"
        assert "<!-- dreamd-memory-promotion:" in memory.read_text()
        assert any("WATCHDOG=1" in m for m in _messages(notify_socket))
    assert "reload rejected" in daemon.log()
    assert any("STOPPING=1" in m for m in _messages(notify_socket))
    assert not sock_path.exists()
    assert list(root.rglob("*.tmp")) == []


def test_cli_works_without_a_daemon_and_refuses_now_for_run(
    tmp_path: Path, isolated_home: Path
) -> None:
    """With no daemon, status works directly; `run --now` is refused."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    env = {**os.environ, "DREAMD_HOME": str(isolated_home), "TZ": "UTC"}
    status = run_cli(env, "--json", "--workspace", str(tmp_path / "ws"), "status")
    assert status.returncode == 0, status.stderr
    assert "daemon" not in json.loads(status.stdout)
    refused = run_cli(env, "--now", "2026-11-29T03:00:00Z", "run")
    assert refused.returncode == 1
    assert "follows the real clock" in refused.stderr


def test_second_daemon_is_refused(tmp_path: Path, isolated_home: Path) -> None:
    """Only one `dreamd run` per host (per state dir) at a time."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    env = {**os.environ, "DREAMD_HOME": str(isolated_home), "TZ": "UTC"}
    argv = ("--workspace", str(tmp_path / "ws"))
    with running_daemon(env, cwd=tmp_path, argv=argv):
        second = run_cli(env, *argv, "run", timeout=30)
        assert second.returncode == 1
        assert "another `dreamd run` is active" in second.stderr
