"""`dreamd config show` names where every value came from; `config check` judges one file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.config import Config
from dreamd.host.sources import config_sources
from tests.processes import run_cli
from tests.test_docs import config_keys


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``dreamd argv`` in-process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_config_show_names_every_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Default, config, openclaw, override and env each show where they apply."""
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    openclaw = tmp_path / "openclaw.json"
    dreaming = {"enabled": True, "config": {"dreaming": {"frequency": "0 4 * * *"}}}
    openclaw.write_text(json.dumps({"plugins": {"entries": {"memory-core": dreaming}}}))
    config = tmp_path / "config.toml"
    config.write_text(
        '[dreaming.deep]\nmin_score = 0.6\n[openclaw]\nconfig = "openclaw.json"\n'
        '[[agents.list]]\nid = "main"\nworkspace = "ws"\n'
    )
    monkeypatch.setenv("DREAMD_LOG_LEVEL", "DEBUG")
    assert run(capsys, "--config", str(config), "dreaming", "off")[0] == 0
    code, out, err = run(capsys, "--config", str(config), "config", "show", "--json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["files"] == [str(config), str(openclaw)]
    values = document["values"]
    assert values["dreaming.deep.min_score"] == {"value": 0.6, "source": "config"}
    assert values["dreaming.frequency"] == {
        "value": "0 4 * * *",
        "source": "openclaw",
        "from": "plugins.entries.memory-core.config.dreaming.frequency",
    }
    assert values["dreaming.enabled"] == {"value": False, "source": "override"}
    assert values["log.level"] == {"value": "debug", "source": "env"}
    assert values["jobs.max_concurrent"] == {"value": 3, "source": "default"}
    assert values["openclaw.config"] == {"value": str(openclaw), "source": "config"}
    assert values["agents.list"]["value"][0]["workspace"] == str(ws)  # from the file's folder
    text = run(capsys, "--config", str(config), "config", "show")[1]
    assert "dreaming.frequency" in text and "# openclaw" in text


def test_config_sources_cover_every_key() -> None:
    """Every documented key (array items as their array) has a value and a source."""
    values = config_sources(Config())
    wanted = {key.split("[]")[0] for key in config_keys()}
    assert wanted - {
        "fleet.redis",
        "fleet.redis_url_env",
        "fleet.host_id",
        "fleet.name",
        "fleet.max_concurrent",
        "fleet.host_ttl_s",
        "fleet.heartbeat_s",
        "fleet.takeover_window",
    } <= set(values) | {"agents.list"}
    assert values["fleet"] == {"value": None, "source": "default"}


def test_config_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A good file is ok (exit 0); a bad one names the file and key (exit 1, JSON shape too)."""
    good = tmp_path / "good.toml"
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    good.write_text(
        '[model]\nendpoint = "http://127.0.0.1:9/v1"\nname = "m"\n'
        '[[agents.list]]\nid = "main"\nworkspace = "ws"\n'
    )
    assert run(capsys, "config", "check", str(good)) == (
        0,
        f"{good}: ok (3 setting(s)); the daemon would dream 1 workspace(s): {tmp_path / 'ws'}\n",
        "",
    )
    bad = tmp_path / "bad.toml"
    bad.write_text('[model]\nendpoint = "http://127.0.0.1:9/v1"\n')
    code, out, err = run(capsys, "config", "check", str(bad), "--json")
    assert (code, err) == (1, "")
    assert json.loads(out)["error"] == {
        "type": "ConfigError",
        "message": f"{bad}: model.name: required when model.endpoint is set; "
        "name the model to ask, like 'qwen3'",
    }


TOKEN = "tok-" + "x" * 28


@pytest.mark.parametrize(
    ("tokens", "mode", "problem"),
    [
        (f"operator.admin {'y' * 10}\n", 0o600, "expected '<operator.read|operator.admin> "),
        (f"operator.admin {TOKEN}\n", 0o644, "is readable by other users (mode 0644)"),
    ],
)
def test_config_check_runs_the_daemons_own_checks(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    tokens: str,
    mode: int,
    problem: str,
) -> None:
    """A 10-character token or a tokens file others can read: config check fails as the daemon
    would refuse to start, naming the file and the setting, never the token."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    (tmp_path / "tokens").write_text(tokens)
    (tmp_path / "tokens").chmod(mode)
    config = tmp_path / "config.toml"
    config.write_text(
        '[api]\ntokens_file = "tokens"\n[[agents.list]]\nid = "main"\nworkspace = "ws"\n'
    )
    code, out, err = run(capsys, "config", "check", str(config))
    assert (code, out) == (1, "")
    assert err.startswith(f"dreamd: error: {config}: api.tokens_file: {tmp_path / 'tokens'}")
    assert problem in err and "y" * 10 not in err and TOKEN not in err


def test_config_check_names_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An adapter whose token variable is unset and a log file in a folder the daemon cannot
    write: both named in one error; with them fixed, ok."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    config = tmp_path / "config.toml"
    config.write_text(
        '[log]\nfile = "locked/sub/dreamd.log"\n'
        '[adapters.telegram]\nenabled = true\ntoken_env = "DREAMD_TEST_BOT"\n'
        '[[agents.list]]\nid = "main"\nworkspace = "ws"\n'
    )
    monkeypatch.delenv("DREAMD_TEST_BOT", raising=False)
    code, _, err = run(capsys, "config", "check", str(config))
    if os.geteuid() == 0:  # root writes anywhere: only the adapter is a problem
        expected = (
            f"dreamd: error: {config}: adapters.telegram.token_env: environment variable "
            "DREAMD_TEST_BOT is not set or empty\n"
        )
    else:
        expected = (
            f"dreamd: error: {config}: adapters.telegram.token_env: environment variable "
            f"DREAMD_TEST_BOT is not set or empty; log.file {locked / 'sub/dreamd.log'}: the "
            f"daemon cannot create it (no write access to {locked})\n"
        )
    assert (code, err) == (1, expected)
    monkeypatch.setenv("DREAMD_TEST_BOT", "123:abc")
    locked.chmod(0o700)
    assert run(capsys, "config", "check", str(config))[0] == 0


def test_the_daemon_refuses_what_config_check_refuses(tmp_path: Path, isolated_home: Path) -> None:
    """`dreamd run` with a tokens file others can read stops before serving, with the message
    `config check` prints (one validation)."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    (tmp_path / "tokens").write_text(f"operator.admin {TOKEN}\n")
    (tmp_path / "tokens").chmod(0o644)
    config = tmp_path / "config.toml"
    config.write_text(
        '[api]\ntokens_file = "tokens"\n[[agents.list]]\nid = "main"\nworkspace = "ws"\n'
    )
    env = {**os.environ, "DREAMD_HOME": str(isolated_home)}
    done = run_cli(env, "--config", str(config), "run", timeout=60)
    checked = run_cli(env, "config", "check", str(config))
    assert (done.returncode, checked.returncode) == (1, 1)
    message = checked.stderr.strip()
    assert message.startswith("dreamd: error: ") and message in done.stderr
