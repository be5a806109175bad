"""The operator's view of a real daemon: JSON logs, /metrics on the socket, status truth, a
broken config file on disk shown as a warning next to the daemon's true state, stop lines."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.processes import run_cli, running_daemon, wait_until

CONFIG = """
[dreaming]
timezone = "Europe/Berlin"

[[agents.list]]
id = "main"
workspace = "ws"

[log]
format = "json"
file = "logs/dreamd.log"
"""


def _get(socket: Path, path: str) -> tuple[int, str]:
    """GET ``path`` over the daemon's Unix socket, with no token."""

    async def call() -> tuple[int, str]:
        connector = aiohttp.UnixConnector(path=str(socket))
        async with (
            aiohttp.ClientSession(connector=connector) as session,
            session.get(f"http://dreamd{path}") as response,
        ):
            return response.status, await response.text()

    return asyncio.run(call())


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def _json(env: dict[str, str], *argv: str) -> Any:
    done = run_cli(env, "--json", *argv)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def setup(tmp_path: Path, isolated_home: Path) -> tuple[dict[str, str], Path]:
    """A config (relative workspace and log file) and the environment that names it."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    (tmp_path / "ws" / "memory" / "2026-11-28.md").write_text("# 2026-11-28\n\n- A note.\n")
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    env = {**os.environ, "DREAMD_HOME": str(isolated_home), "DREAMD_CONFIG": str(config)}
    env.pop("DREAMD_NOW", None)
    return env, tmp_path


def test_an_operators_day(setup: tuple[dict[str, str], Path]) -> None:
    """Sweeps log one JSON summary line each and update last sweep ("no change" too); status
    names the state and the daemon's pid; /metrics answers on the socket without a token, with
    the state gauge; a broken config is a warning and the state degraded; the stop is
    logged."""
    env, tmp_path = setup
    log_file = tmp_path / "logs" / "dreamd.log"  # relative to the config file's folder
    with running_daemon(env, cwd=tmp_path) as daemon:
        first = _json(env, "sweep")["workspaces"][0]
        assert first["status"] == "ok"
        second = _json(env, "sweep")["workspaces"][0]
        assert second["changedFiles"] == []
        status = _json(env, "status")
        assert status["files"] == {"config": str(tmp_path / "config.toml"), "openclaw": None}
        assert status["sweeping"] is None
        entry = status["workspaces"][0]
        assert (entry["lastSweepChanged"], entry["lastSweep"] is not None) == (0, True)
        shown = run_cli(env, "status")
        text = shown.stdout
        assert shown.returncode == 0
        assert "(no change)" in text and "CET" in text
        assert "- state: ok\n" in text
        assert f"- daemon running (pid {daemon.process.pid}, since " in text
        assert f"- config in force: {tmp_path / 'config.toml'} (config)" in text

        socket = next(Path(env["DREAMD_HOME"]).rglob("dreamd.sock"))
        code, metrics = _get(socket, "/metrics")
        assert code == 200
        samples = _samples(metrics)
        where = (("agent", "main"), ("workspace", str(tmp_path / "ws")))
        assert samples[("dreamd_last_success_timestamp_seconds", where)] > 1.7e9
        assert (
            samples[("dreamd_workspace_sweeps_total", tuple(sorted((*where, ("outcome", "ok")))))]
            == 2
        )
        assert [k for k in samples if k[0] == "dreamd_build_info"]
        today = samples[("dreamd_workspace_promoted_today", where)]
        assert today == entry["promotedToday"]  # the one count status shows
        states = {dict(k[1])["state"]: v for k, v in samples.items() if k[0] == "dreamd_state"}
        assert states == {"ok": 1.0, "degraded": 0.0, "blocked": 0.0, "disabled": 0.0}

        (tmp_path / "config.toml").write_text(CONFIG + "\n[nonsense]\n")
        done = run_cli(env, "--json", "status")
        assert done.returncode == 4, done.stdout  # degraded: a config it cannot reload
        broken = json.loads(done.stdout)
        assert broken["status"] == "degraded"
        assert broken["warnings"][0].startswith(
            f"{tmp_path / 'config.toml'}: nonsense: unknown key"
        )
        assert broken["workspaces"][0]["path"] == str(tmp_path / "ws")  # the daemon's own state
        daemon.process.send_signal(signal.SIGHUP)
        assert wait_until(lambda: "reload rejected" in daemon.log(), 20)
        reloaded = json.loads(run_cli(env, "--json", "status").stdout)
        assert any("config reload rejected" in w for w in reloaded["warnings"])
    lines = [json.loads(line) for line in log_file.read_text().splitlines()]
    events = [line.get("event") for line in lines]
    assert events.count("sweep") == 2
    assert {"stopping", "stopped"} <= set(events)
    sweep = next(line for line in lines if line.get("event") == "sweep")
    assert {"workspaces", "promoted", "refused", "durationS"} <= set(sweep)
    assert {line["level"] for line in lines} <= {"debug", "info", "warning", "error"}
