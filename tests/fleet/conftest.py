"""Fixtures for the fleet tests: a real ``redis-server`` on a free loopback port.

Each server runs in its own folder (append-only file on, so a restart keeps its data, as a
production Redis would) and is stopped when the test is done. ``redis-server`` comes from
Debian's package (``.ci/redis-deps`` installs it); a test that needs it and cannot find it
fails: it never skips.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.processes import scaled

REDIS_SERVER = shutil.which("redis-server")


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """One ``redis-server`` process in ``directory``; :meth:`stop` and :meth:`start` again."""

    def __init__(self, directory: Path) -> None:
        if REDIS_SERVER is None:
            pytest.fail("redis-server is missing: install Debian's redis-server (.ci/redis-deps)")
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server and wait until it answers PING."""
        assert REDIS_SERVER is not None
        argv = [
            REDIS_SERVER,
            "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
            "--appendonly", "yes", "--appendfsync", "always", "--save", "",
            "--logfile", str(self.directory / "redis.log"), "--daemonize", "no",
        ]  # fmt: skip
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + scaled(10)
        while time.monotonic() < deadline:
            try:
                if self.client().ping():
                    return
            except Exception:  # not up yet
                time.sleep(0.05)
        raise AssertionError(f"redis-server did not start: {self.directory / 'redis.log'}")

    def stop(self) -> None:
        """Stop the server (SIGTERM: it writes its data and exits)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=scaled(10))
        self.process = None

    def client(self) -> Any:
        import redis

        return redis.Redis.from_url(self.url, decode_responses=True, socket_timeout=2)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A running Redis for one test."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()
