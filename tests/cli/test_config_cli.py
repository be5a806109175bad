"""`dreamd config show` names where every value came from; `config check` judges one file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.config import Config
from dreamd.host.sources import config_sources
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
    } <= set(values) | {"agents.list"}
    assert values["fleet"] == {"value": None, "source": "default"}


def test_config_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A good file is ok (exit 0); a bad one names the file and key (exit 1, JSON shape too)."""
    good = tmp_path / "good.toml"
    good.write_text('[model]\nendpoint = "http://127.0.0.1:9/v1"\nname = "m"\n')
    assert run(capsys, "config", "check", str(good)) == (0, f"{good}: ok (2 setting(s))\n", "")
    bad = tmp_path / "bad.toml"
    bad.write_text('[model]\nendpoint = "http://127.0.0.1:9/v1"\n')
    code, out, err = run(capsys, "config", "check", str(bad), "--json")
    assert (code, err) == (1, "")
    assert json.loads(out)["error"] == {
        "type": "ConfigError",
        "message": f"{bad}: model.name: required when model.endpoint is set; "
        "name the model to ask, like 'qwen3'",
    }
