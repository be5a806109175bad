"""Status: disabled, blocked (owner or heartbeat), ok; the rendered block; the host override."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.host.owner import NO_OWNER
from dreamd.host.state import effective_enabled, load_host_state, set_enabled_override
from tests.builders import NOW

AT = "2026-11-29T12:00:00Z"


def status(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> dict[str, object]:
    """`dreamd --json ... status` as a dict (its exit code must be ``code``)."""
    assert main(["--json", "--now", AT, *argv, "status"]) == code
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def config_file(tmp_path: Path, text: str) -> Path:
    """A config whose agents point at fresh workspaces a and b."""
    for name in ("a", "b"):
        (tmp_path / name / "memory").mkdir(parents=True, exist_ok=True)
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


FLEET = '[[agents.list]]\nid = "a"\nworkspace = "a"\n\n[[agents.list]]\nid = "b"\nworkspace = "b"\n'


def test_fleet_without_system_agent_is_blocked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two agents and no system agent: blocked (exit 5, no next run), with the owner warning
    and its fix."""
    result = status(capsys, "--config", str(config_file(tmp_path, FLEET)), code=5)
    assert result["nextRun"] is None
    assert result["status"] == "blocked"
    assert result["owner"] is None
    assert result["warnings"] == [NO_OWNER]
    assert result["blocked"] == {
        "reason": NO_OWNER,
        "fix": "set agents.system_agent in the dreamd config to the agent that should own sweeps",
    }


def test_system_agent_with_heartbeat_off_is_blocked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The owner's heartbeat every = 0m blocks, and the text block says why and how to fix."""
    text = '[agents]\nsystem_agent = "a"\n[agents.heartbeat]\nevery = "0m"\n' + FLEET
    path = config_file(tmp_path, text)
    result = status(capsys, "--config", str(path), code=5)
    assert result["status"] == "blocked"
    assert result["owner"] == "a"
    assert main(["--now", AT, "--config", str(path), "dreaming", "status"]) == 0
    out = capsys.readouterr().out
    assert "- state: blocked\n- next run: none while blocked\n" in out
    assert "- blocked: the heartbeat of agent 'a' is off (every = '0m'); fix: " in out


def test_rendered_status_block(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`dreaming status` prints OpenClaw's lines, then the state word."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    assert main(["--now", AT, "--workspace", str(tmp_path / "ws"), "dreaming", "status"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:7] == [
        "Dreaming status:",
        "- enabled: on (UTC)",
        "- sweep cadence: 0 3 * * *",
        "- promotion policy: score>=0.75, recalls>=3, uniqueQueries>=3",
        "- state: ok",
        "- next run: 2026-11-30 03:00 UTC",
        "- owner: main",
    ]


def test_dreaming_help_and_unknown_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No argument or help prints usage and the phases; an unknown argument prints usage, exit 2."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    workspace = ["--workspace", str(tmp_path / "ws")]
    assert main(["--now", AT, *workspace, "dreaming"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "usage: dreamd dreaming status\nusage: dreamd dreaming on|off|reset\n\nDreaming status:"
    )
    assert "- deep is the only stage that writes durable entries to MEMORY.md." in out
    assert main(["--now", AT, *workspace, "dreaming", "sideways"]) == 2


def test_override_wins_until_cleared() -> None:
    """The host override beats the config value; clearing it returns to the config."""
    assert effective_enabled(True).source == "config"
    set_enabled_override(False, now=NOW)
    assert (effective_enabled(True).enabled, effective_enabled(True).source) == (False, "override")
    set_enabled_override(None, now=NOW)
    assert (effective_enabled(False).enabled, effective_enabled(False).source) == (False, "config")


def test_corrupt_host_state_is_set_aside(isolated_home: Path) -> None:
    """A garbled host.json is moved aside and treated as empty."""
    state = isolated_home / "state"
    state.mkdir(parents=True)
    (state / "host.json").write_text("{oops")
    assert load_host_state() == {}
    assert [p.read_text() for p in state.glob("host.json.corrupt-*")] == ["{oops"]


def test_an_unreadable_workspace_is_its_own_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting a workspace that raises an OS error reports it on that workspace's entry."""
    from dreamd.config import DreamingConfig
    from dreamd.host.status import counts_or_error
    from dreamd.workspace.discovery import Workspace

    def refuse(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied", str(tmp_path / "short-term-recall.json"))

    monkeypatch.setattr("dreamd.host.status.workspace_counts", refuse)
    entry = counts_or_error(Workspace(tmp_path, ("main",)), DreamingConfig(), now=NOW, zone=UTC)
    assert entry["error"] == f"cannot read {tmp_path}/short-term-recall.json: Permission denied"


def test_openclaws_dreaming_is_warned_about_only_while_dreamd_dreams(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenClaw dreaming the same workspace: a warning while dreamd dreams too; after
    `dreamd dreaming off` (going back to OpenClaw), none."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    openclaw = tmp_path / "openclaw.json"
    openclaw.write_text(json.dumps({"agents": {"defaults": {"workspace": str(tmp_path / "ws")}}}))
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(openclaw))
    warned = status(capsys)["warnings"]
    assert warned == [
        f"{tmp_path / 'ws'}: OpenClaw's own dreaming is on for this workspace too ({openclaw}); "
        "set plugins.entries.memory-core.config.dreaming.enabled to false there "
        "(docs/migrating-from-openclaw.md)"
    ]
    assert main(["--now", AT, "dreaming", "off"]) == 0
    capsys.readouterr()
    assert status(capsys, code=6)["warnings"] == []
