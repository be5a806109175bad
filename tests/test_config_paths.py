"""Config paths follow one rule (relative to the config file's folder); [model] needs a name."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamd.config import load_config, parse_config
from dreamd.errors import ConfigError


def test_relative_config_paths_start_at_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every path key is made absolute from the file's folder, whatever the current directory."""
    folder = tmp_path / "etc"
    folder.mkdir()
    (folder / "config.toml").write_text(
        '[api]\nsocket = "run/d.sock"\nlisten = "127.0.0.1:8765"\ntokens_file = "tokens"\n'
        '[openclaw]\nconfig = "oc/openclaw.json"\n[log]\nfile = "/var/log/dreamd.log"\n'
        '[adapters.telegram]\ntoken_file = "tg"\n'
        '[[agents.list]]\nid = "main"\nworkspace = "ws"\nsessions = "~/sessions"\n'
    )
    monkeypatch.chdir(tmp_path)
    config, _ = load_config(Path("etc/config.toml"))
    assert (config.api.socket, config.api.tokens_file) == (
        str(folder / "run/d.sock"),
        str(folder / "tokens"),
    )
    assert config.openclaw.config == str(folder / "oc/openclaw.json")
    assert config.log.file == "/var/log/dreamd.log"
    assert config.adapters.telegram.token_file == str(folder / "tg")
    agent = config.agents.list[0]
    assert (agent.workspace, agent.sessions) == (str(folder / "ws"), str(Path.home() / "sessions"))


def test_a_model_endpoint_needs_a_name() -> None:
    """[model] with an endpoint and no name is an error naming model.name."""
    with pytest.raises(ConfigError) as caught:
        parse_config('[model]\nendpoint = "http://127.0.0.1:11434/v1"\n', source="c.toml")
    assert str(caught.value) == (
        "c.toml: model.name: required when model.endpoint is set; "
        "name the model to ask, like 'qwen3'"
    )
