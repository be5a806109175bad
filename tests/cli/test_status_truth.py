"""`dreamd status` tells the truth: files in force, every sweep counts, one zone in the text,
a running sweep's progress, and with --deep the model's answer (a real loopback server)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from dreamd.cli.main import main
from dreamd.host.status import render_status
from tests.fake_model import chat_reply, serve

AT = "2026-11-29T12:00:00Z"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``dreamd argv`` in-process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _config(tmp_path: Path, model: str = "") -> Path:
    (tmp_path / "ws" / "memory").mkdir(parents=True, exist_ok=True)
    config = tmp_path / "config.toml"
    config.write_text(
        '[dreaming]\ntimezone = "Europe/Berlin"\n'
        f'[[agents.list]]\nid = "main"\nworkspace = "ws"\n{model}'
    )
    return config


def test_every_sweep_counts_and_text_uses_one_zone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sweep that changed nothing still moves "last sweep" (marked "no change"), shown in the
    dreaming zone like the next run; the files in force are named."""
    config = _config(tmp_path)
    base = ["--config", str(config), "--now", AT]
    assert run(capsys, *base, "sweep")[0] == 0
    assert run(capsys, *base[:2], "--now", "2026-11-29T13:00:00Z", "sweep")[0] == 0
    code, out, _ = run(capsys, *base[:2], "--now", "2026-11-29T14:00:00Z", "status")
    assert code == 0
    assert f"- config in force: {config} (config)" in out
    assert "last sweep 2026-11-29 14:00 CET (no change)" in out
    assert "- next run: 2026-11-30 03:00 CET" in out
    document = json.loads(
        run(capsys, *base[:2], "--now", "2026-11-29T14:00:00Z", "--json", "status")[1]
    )
    assert document["workspaces"][0]["lastSweep"] == "2026-11-29T13:00:00.000Z"
    assert document["files"] == {"config": str(config), "openclaw": None}


def test_a_running_sweep_shows_its_progress() -> None:
    """The text shows done, running and waiting of the sweep in progress."""
    status = {
        "policy": {"minScore": 0.75, "minRecallCount": 3, "minUniqueQueries": 3},
        "status": "ok",
        "enabled": True,
        "enabledSource": "config",
        "timezone": "Europe/Berlin",
        "frequency": "0 3 * * *",
        "nextRun": "2026-11-30T02:00:00.000Z",
        "blocked": None,
        "owner": "main",
        "warnings": [],
        "workspaces": [],
        "files": {"config": None, "openclaw": None},
        "sweeping": {
            "reason": "cron",
            "startedAt": "2026-11-30T02:00:00.000Z",
            "total": 150,
            "done": 0,
            "running": 3,
            "waiting": 147,
        },
    }
    text = render_status(status, zone=ZoneInfo("Europe/Berlin"))
    assert (
        "- sweeping now (cron, since 2026-11-30 03:00 CET): 0 done, 3 running, 147 waiting" in text
    )


def test_deep_status_probes_the_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--deep asks the model for one word and reports its latency; a dead port is an error."""
    with serve([(200, chat_reply("ok"))]) as fake:
        config = _config(tmp_path, f'[model]\nendpoint = "{fake.url}"\nname = "tiny"\n')
        code, out, _ = run(capsys, "--config", str(config), "--json", "status", "--deep")
    assert code == 0
    model = json.loads(out)["model"]
    assert (model["ok"], model["name"], model["error"]) == (True, "tiny", None)
    assert model["latencyMs"] >= 0
    assert len(fake.requests) == 1
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nobody listens here once the socket closes
    dead = _config(tmp_path, f'[model]\nendpoint = "http://127.0.0.1:{port}/v1"\nname = "tiny"\n')
    code, out, _ = run(capsys, "--config", str(dead), "status", "--deep")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("- model: "))
    assert line.startswith(f"- model: tiny at http://127.0.0.1:{port}/v1: error after ")
    assert "model request failed" in line


def test_a_broken_config_without_a_daemon_still_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no daemon to show, a broken config file is the error it is (exit 1)."""
    config = tmp_path / "config.toml"
    config.write_text("[nonsense]\n")
    monkeypatch.setenv("DREAMD_CONFIG", str(config))
    code, out, err = run(capsys, "status")
    assert (code, out) == (1, "")
    assert err.startswith(f"dreamd: error: {config}: nonsense: unknown key")


def test_the_hosts_own_status_says_no_daemon_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's own set-up with no daemon listening: `daemon: null`, and the text says so
    (sweeps then happen only when asked); the state word is there and the exit code is 0."""
    monkeypatch.setenv("DREAMD_CONFIG", str(_config(tmp_path)))
    code, out, _ = run(capsys, "--json", "status")
    assert (code, json.loads(out)["daemon"], json.loads(out)["status"]) == (0, None, "ok")
    code, out, _ = run(capsys, "status")
    assert code == 0
    assert "- state: ok\n" in out
    assert "- daemon not running (sweeps happen only when asked: `dreamd sweep`)\n" in out


def test_exit_codes_follow_the_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0 ok, 4 degraded (an unreadable workspace), 6 disabled: as `status --help` documents."""
    config = _config(tmp_path)
    assert run(capsys, "--now", AT, "--config", str(config), "status")[0] == 0
    (tmp_path / "ws" / "memory").rmdir()
    (tmp_path / "ws" / "memory").symlink_to(tmp_path)  # a symlinked folder every sweep refuses
    code, out, _ = run(capsys, "--now", AT, "--config", str(config), "status")
    assert (code, "- state: degraded\n" in out) == (4, True)
    assert run(capsys, "--now", AT, "--config", str(config), "dreaming", "off")[0] == 0
    code, out, _ = run(capsys, "--now", AT, "--config", str(config), "status")
    assert (code, "- state: disabled\n" in out, "- next run" in out) == (6, True, False)
    help_text = run(capsys, "status", "--help")[1]
    assert "Exits 0 when the state is ok, 4 when degraded, 5 when blocked, 6 when" in " ".join(
        help_text.split()
    )
