"""OpenClaw's model settings honoured where dreamd can use them, and named truly in config show."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from dreamd.cli.main import main
from dreamd.config import Config, merge_openclaw, parse_config
from dreamd.engine.hits import Hit
from dreamd.recall.record import record_search
from dreamd.workspace.openclaw import read_openclaw_config
from tests.builders import at, write
from tests.fake_model import chat_reply, serve

PROVIDER = "plugins.entries.memory-core"


def _install(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "openclaw" / "openclaw.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _read(tmp_path: Path, text: str) -> Any:
    return read_openclaw_config(_install(tmp_path, text)).dreaming


def _local(base: str = "http://127.0.0.1:11434/v1", extra: str = "") -> str:
    return f'models: {{ providers: {{ local: {{ baseUrl: "{base}"{extra} }} }} }},'


def test_the_default_models_provider_speaking_openais_api_is_the_model(tmp_path: Path) -> None:
    """agents.defaults.model on a provider with a baseUrl (api unset means openai-completions):
    endpoint, name and the key's environment variable, each with the OpenClaw key it came from."""
    imported = _read(
        tmp_path,
        "{ agents: { defaults: { model: { primary: 'local/qwen3:8b', fallbacks: [] } } },"
        + _local(extra=', apiKey: "${LOCAL_KEY}"')
        + "}",
    )
    assert dict(imported.values) == {
        "model.endpoint": "http://127.0.0.1:11434/v1",
        "model.name": "qwen3:8b",
        "model.api_key_env": "LOCAL_KEY",
    }
    assert dict(imported.origins) == {
        "model.endpoint": "models.providers.local.baseUrl",
        "model.name": "agents.defaults.model",
        "model.api_key_env": "models.providers.local.apiKey",
    }
    assert dict(imported.unused) == {}


def test_the_default_agents_own_model_and_aliases(tmp_path: Path) -> None:
    """The default agent's own model wins over agents.defaults.model; an alias resolves through
    agents.defaults.models; a SecretRef to the environment is a key reference too."""
    imported = _read(
        tmp_path,
        "{ agents: { defaults: { model: 'local/other', models: { 'local/mlx/Qwen3-30B': "
        "{ alias: 'big' } } }, list: [ { id: 'ops' }, { id: 'main', default: true, model: 'big' }"
        " ] },"
        + _local(extra=', apiKey: { source: "env", provider: "default", id: "MLX_KEY" }')
        + "}",
    )
    assert (imported.values["model.name"], imported.origins["model.name"]) == (
        "mlx/Qwen3-30B",
        "agents.list[].model",
    )
    assert imported.values["model.api_key_env"] == "MLX_KEY"


@pytest.mark.parametrize(
    ("provider", "reason"),
    [
        ('{ api: "anthropic-messages", baseUrl: "http://127.0.0.1:1/v1" }', "anthropic-messages"),
        ('{ api: "openai-completions" }', "has no baseUrl"),
    ],
)
def test_a_provider_dreamd_cannot_speak_to_is_named_unused(
    tmp_path: Path, provider: str, reason: str
) -> None:
    """A default model whose provider does not speak the OpenAI chat API gives dreamd no model,
    and says so."""
    imported = _read(
        tmp_path,
        f"{{ agents: {{ defaults: {{ model: 'p/m' }} }}, models: {{ providers: {{ p: {provider} }} }} }}",
    )
    assert dict(imported.values) == {}
    assert reason in imported.unused["agents.defaults.model"]


@pytest.mark.parametrize(
    ("subagent", "wanted", "taken", "why"),
    [
        ("allowModelOverride: true", "local/poet", "poet", None),
        ("allowModelOverride: true", "poet", "poet", None),
        ("", "local/poet", None, "allowModelOverride = true"),
        ("allowModelOverride: true, allowedModels: ['local/x']", "local/poet", None, "not in"),
        ("allowModelOverride: true, allowedModels: ['*']", "local/poet", "poet", None),
        ("allowModelOverride: true", "cloud/poet", None, "another provider"),
    ],
)
def test_dreaming_model_is_the_diary_model_when_openclaw_would_use_it(
    tmp_path: Path, subagent: str, wanted: str, taken: str | None, why: str | None
) -> None:
    """dreaming.model becomes model.diary_name (tried first, then model.name once) only when
    OpenClaw would honour it: the override allowed, on the allowlist, on the same provider."""
    imported = _read(
        tmp_path,
        "{ agents: { defaults: { model: 'local/tiny' } }," + _local() + f" plugins: {{ entries: "
        f"{{ 'memory-core': {{ subagent: {{ {subagent} }}, config: {{ dreaming: "
        f"{{ model: '{wanted}' }} }} }} }} }} }}",
    )
    assert imported.values.get("model.diary_name") == taken
    key = f"{PROVIDER}.config.dreaming.model"
    assert (why in imported.unused[key]) if why else key not in imported.unused


def test_a_written_out_key_is_not_copied(tmp_path: Path) -> None:
    """An API key written into openclaw.json is not copied into dreamd's settings."""
    imported = _read(
        tmp_path,
        "{ agents: { defaults: { model: 'local/tiny' } }," + _local(extra=', apiKey: "sk-x"') + "}",
    )
    assert "model.api_key_env" not in imported.values
    assert "not copied" in imported.unused["models.providers.local.apiKey"]


def test_dreamds_model_overrides_openclaws_as_a_whole(tmp_path: Path) -> None:
    """A dreamd [model] with an endpoint or a name takes none of OpenClaw's model values."""
    imported = _read(
        tmp_path,
        "{ agents: { defaults: { model: 'local/tiny' } }," + _local(extra=', apiKey: "${K}"') + "}",
    )
    own = parse_config('[model]\nendpoint = "http://127.0.0.1:9/v1"\nname = "mine"\n', source="x")
    merged = merge_openclaw(own, imported)
    assert (merged.model.endpoint, merged.model.name, merged.model.api_key_env) == (
        "http://127.0.0.1:9/v1",
        "mine",
        None,
    )
    assert merge_openclaw(Config(), imported).model.name == "tiny"


def test_config_show_names_each_values_true_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenClaw's enabled=false is not dreamd's (source default, listed as not used); its model
    values say which OpenClaw key they came from."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    path = _install(
        tmp_path,
        f"{{ agents: {{ defaults: {{ workspace: '{tmp_path / 'ws'}', model: 'local/tiny' }} }},"
        + _local()
        + " plugins: { entries: { 'memory-core': { config: { dreaming: { enabled: false } } } } } }",
    )
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(path))
    assert main(["--json", "config", "show"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["values"]["dreaming.enabled"] == {"value": True, "source": "default"}
    assert shown["values"]["model.name"] == {
        "value": "tiny",
        "source": "openclaw",
        "from": "agents.defaults.model",
    }
    assert list(shown["openclawUnused"]) == [f"{PROVIDER}.config.dreaming.enabled"]
    assert main(["config", "show"]) == 0
    text = capsys.readouterr().out
    assert "dreaming.enabled" in text and "= true  # default\n" in text
    assert f"# set in OpenClaw, not used: {PROVIDER}.config.dreaming.enabled: it is" in text


def test_a_sweep_asks_openclaws_models_with_its_retry_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With only openclaw.json: the diary asks dreaming.model first and, as it is unavailable,
    the agent's default model once, at the provider's baseUrl (a loopback OpenAI-compatible
    server), with the key from the variable OpenClaw names."""
    root = tmp_path / "ws"
    fact = "- The billing service runs on Postgres 16 on host db-02."
    write(root, "memory/2026-11-20.md", f"# 2026-11-20\n\n## Infra\n{fact}\n")
    for day, query in (("21", "billing host"), ("23", "billing postgres"), ("25", "billing db")):
        hit = Hit("memory/2026-11-20.md", 4, 4, fact, 0.9)
        record_search(root, query, [hit], now=at(f"2026-11-{day}T10:00:00Z"), zone=UTC)
    monkeypatch.setenv("LOCAL_KEY", "secret-for-the-test")
    diary = (
        "I walked through a quiet server room where the billing ledgers hummed like bees, and a "
        "small brass plaque on the second rack said db-02 in careful letters. Somewhere a clock "
        "agreed with another clock, and the postgres elephant, patient as ever, counted its rows "
        "while I counted the lamps along the corridor until the numbers blurred into morning."
    )
    script = [(404, '{"error": {"type": "not_found_error"}}'), (200, chat_reply(diary))]
    with serve(script) as fake:
        path = _install(
            tmp_path,
            f"{{ agents: {{ defaults: {{ workspace: '{root}', model: 'local/tiny' }} }},"
            + _local(fake.url, ', apiKey: "${LOCAL_KEY}"')
            + " plugins: { entries: { 'memory-core': { subagent: { allowModelOverride: true },"
            " config: { dreaming: { enabled: false, model: 'local/poet' } } } } } }",
        )
        monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(path))
        config = tmp_path / "dreamd.toml"
        config.write_text("[model]\nconsolidation = false\nfacts = false\nreport = false\n")
        code = main(["--json", "--config", str(config), "--now", "2026-11-26T03:00:00Z", "sweep"])
    outcome = json.loads(capsys.readouterr().out)["workspaces"][0]
    assert code == 0
    assert [request["model"] for request in fake.requests] == ["poet", "tiny"]
    assert outcome["diary"]["entry"] == "model"
    assert diary in (root / "DREAMS.md").read_text()
