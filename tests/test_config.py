"""Tests for dreamd.config: defaults, strict parsing, messages, loading and the OpenClaw merge."""

from __future__ import annotations

import contextlib
from pathlib import Path

import msgspec
import msgspec.inspect as mi
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.config import (
    AgentConfig,
    AgentsConfig,
    Config,
    DeepConfig,
    DreamingConfig,
    HeartbeatConfig,
    ImportedDreaming,
    LightConfig,
    ModelConfig,
    OpenClawConfig,
    RemConfig,
    load_config,
    merge_openclaw,
    parse_config,
    parse_duration,
)
from dreamd.errors import ConfigError
from dreamd.settings import SETTINGS

EVERY_KEY = """
[dreaming]
enabled = false
frequency = "30 4 * * 1"
timezone = "Europe/Berlin"
storage = "both"
catch_up = false

[dreaming.light]
lookback_days = 3
limit = 0
dedupe_similarity = 0.8

[dreaming.rem]
lookback_days = 14
limit = 5
min_pattern_strength = 0.5

[dreaming.deep]
min_score = 0.8
min_recall_count = 4
min_unique_queries = 2
limit = 0
recency_half_life_days = 7.5
max_age_days = 60
max_promoted_snippet_tokens = 80
memory_file_max_chars = 20000
max_prior_entry_loss_fraction = 0.1

[model]
endpoint = "http://localhost:11434/v1"
name = "qwen3"
api_key_env = "DREAMD_MODEL_KEY"
timeout_s = 30

[agents]
system_agent = "Ops"

[agents.heartbeat]
every = "1h"
target = "none"

[[agents.list]]
id = " Main "
workspace = "~/ws"
sessions = "/var/sessions/main"

[[agents.list]]
id = "ops"
workspace = "ops-ws"
heartbeat = { every = "10m", target = "last" }

[openclaw]
config = "~/.openclaw/openclaw.json"
"""


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every home-like location at a temporary directory."""
    monkeypatch.setenv("DREAMD_HOME", str(tmp_path / "dreamd-home"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DREAMD_CONFIG", raising=False)
    return tmp_path / "home"


def _error(text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="config.toml")
    return str(caught.value)


def test_defaults_match_the_spec() -> None:
    """Every default is the number SPEC gives."""
    assert msgspec.to_builtins(Config()) == {
        "dreaming": {
            "enabled": True,
            "frequency": "0 3 * * *",
            "timezone": None,
            "storage": "separate",
            "catch_up": True,
            "markers": "auto",
            "truth_files": True,
            "light": {"lookback_days": 2, "limit": 100, "dedupe_similarity": 0.9},
            "rem": {"lookback_days": 7, "limit": 10, "min_pattern_strength": 0.75},
            "deep": {
                "min_score": 0.75,
                "min_recall_count": 3,
                "min_unique_queries": 3,
                "limit": 10,
                "recency_half_life_days": 14.0,
                "max_age_days": 30.0,
                "max_promoted_snippet_tokens": 160,
                "memory_file_max_chars": 10000,
                "max_prior_entry_loss_fraction": 0.25,
                "salience_boost": 0.0,
            },
            "reflect": {"enabled": True, "lookback_days": 7},
            "graph": {"enabled": True, "lookback_days": 7},
        },
        "model": {
            "endpoint": None,
            "name": None,
            "diary_name": None,
            "api_key_env": None,
            "timeout_s": 60.0,
            "max_retries": 2,
            "token_budget": 0,
            "consolidation": True,
            "diary": True,
            "facts": True,
            "report": True,
        },
        "agents": {
            "system_agent": None,
            "heartbeat": {"every": "30m", "target": "last"},
            "trust_unmarked_turns": False,
            "list": (),
        },
        "openclaw": {"config": None, "follow_enabled": False},
        "jobs": {"max_concurrent": 3, "nice": 19, "fold_every_s": 60.0},
        "api": {"socket": None, "listen": None, "tokens_file": None},
        "health": {"idle_sweeps": 3},
        "adapters": {
            "discord": {
                "enabled": False,
                "token_env": None,
                "token_file": None,
                "owners": [],
                "readers": [],
                "admin_role": None,
                "notify": False,
            },
            "telegram": {
                "enabled": False,
                "token_env": None,
                "token_file": None,
                "owners": [],
                "readers": [],
                "chat_admins": False,
                "notify": False,
                "base_url": "https://api.telegram.org/bot",
            },
        },
        "log": {"level": "info", "format": "text", "file": None},
        "intake": {"owners": []},
        "embeddings": {
            "endpoint": None,
            "model": None,
            "api_key_env": None,
            "timeout_s": 30.0,
            "batch": 64,
            "min_similarity": 0.5,
        },
        "fleet": None,
        "explicit": [],
    }


def test_an_empty_file_is_the_defaults() -> None:
    """An empty config file parses to the default Config with nothing explicit."""
    assert parse_config("", source="config.toml") == Config()


def test_every_key_parses() -> None:
    """Every documented key is read into its Struct field; agent ids are lowercased."""
    config = parse_config(EVERY_KEY, source="config.toml")
    assert msgspec.structs.replace(config, explicit=frozenset()) == Config(
        dreaming=DreamingConfig(
            enabled=False,
            frequency="30 4 * * 1",
            timezone="Europe/Berlin",
            storage="both",
            catch_up=False,
            light=LightConfig(lookback_days=3, limit=0, dedupe_similarity=0.8),
            rem=RemConfig(lookback_days=14, limit=5, min_pattern_strength=0.5),
            deep=DeepConfig(
                min_score=0.8,
                min_recall_count=4,
                min_unique_queries=2,
                limit=0,
                recency_half_life_days=7.5,
                max_age_days=60.0,
                max_promoted_snippet_tokens=80,
                memory_file_max_chars=20000,
                max_prior_entry_loss_fraction=0.1,
            ),
        ),
        model=ModelConfig(
            endpoint="http://localhost:11434/v1",
            name="qwen3",
            api_key_env="DREAMD_MODEL_KEY",
            timeout_s=30.0,
        ),
        agents=AgentsConfig(
            system_agent="ops",
            heartbeat=HeartbeatConfig(every="1h", target="none"),
            list=(
                AgentConfig(id="main", workspace="~/ws", sessions="/var/sessions/main"),
                AgentConfig(
                    id="ops",
                    workspace="ops-ws",
                    heartbeat=HeartbeatConfig(every="10m", target="last"),
                ),
            ),
        ),
        openclaw=OpenClawConfig(config="~/.openclaw/openclaw.json"),
    )


def test_explicit_records_the_keys_the_file_sets() -> None:
    """Config.explicit holds the dotted leaf keys present in the file; arrays count as one key."""
    text = "[dreaming]\nenabled = true\n[dreaming.deep]\nmin_score = 0.8\n[agents]\nlist = []\n"
    config = parse_config(text, source="config.toml")
    assert config.explicit == frozenset(
        {"dreaming.enabled", "dreaming.deep.min_score", "agents.list"}
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "colour = 1",
            "config.toml: colour: unknown key; expected one of dreaming, model, agents, openclaw, jobs, api, health, adapters, log, intake, embeddings, fleet",
        ),
        (
            "[dreaming.light]\nlookback = 3",
            "config.toml: dreaming.light.lookback: unknown key; "
            "expected one of lookback_days, limit, dedupe_similarity",
        ),
        (
            '[[agents.list]]\nid = "a"\nworkspace = "w"\nheartbeat = { every = "1m", to = "x" }',
            "config.toml: agents.list[0].heartbeat.to: unknown key; expected one of every, target",
        ),
        (
            'explicit = ["dreaming.enabled"]',
            "config.toml: explicit: unknown key; dreamd records it, a config file cannot set it",
        ),
    ],
)
def test_unknown_keys_name_the_file_and_the_dotted_key(text: str, message: str) -> None:
    """An unknown key is an error naming the file, the dotted key and the keys allowed there."""
    assert _error(text) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[dreaming.deep]\nmin_score = "high"',
            "dreaming.deep.min_score: expected a number between 0 and 1, got 'high'",
        ),
        (
            "[dreaming.deep]\nmin_score = 1.5",
            "dreaming.deep.min_score: expected a number between 0 and 1, got 1.5",
        ),
        (
            "[dreaming.light]\ndedupe_similarity = -0.1",
            "dreaming.light.dedupe_similarity: expected a number between 0 and 1, got -0.1",
        ),
        (
            "[dreaming.deep]\nlimit = -1",
            "dreaming.deep.limit: expected a whole number >= 0, got -1",
        ),
        (
            "[dreaming.light]\nlookback_days = 1.5",
            "dreaming.light.lookback_days: expected a whole number >= 0, got 1.5",
        ),
        (
            "[dreaming.deep]\nrecency_half_life_days = 0",
            "dreaming.deep.recency_half_life_days: expected a number > 0, got 0",
        ),
        (
            "[dreaming.deep]\nmax_age_days = -1",
            "dreaming.deep.max_age_days: expected a number >= 0, got -1",
        ),
        (
            "[dreaming.deep]\nmemory_file_max_chars = 999",
            "dreaming.deep.memory_file_max_chars: expected a whole number >= 1000, got 999",
        ),
        (
            "[dreaming.deep]\nmax_prior_entry_loss_fraction = 2",
            "dreaming.deep.max_prior_entry_loss_fraction: expected a number between 0 and 1, got 2",
        ),
        (
            '[dreaming]\nenabled = "yes"',
            "dreaming.enabled: expected true or false, got 'yes'",
        ),
        (
            '[dreaming]\nstorage = "sideways"',
            "dreaming.storage: expected one of 'both', 'inline', 'separate', got 'sideways'",
        ),
        ("dreaming = 5", "dreaming: expected a table, got 5"),
        (
            '[agents]\nlist = { id = "a" }',
            "agents.list: expected an array of tables, got a table",
        ),
        (
            "[model]\ntimeout_s = 0",
            "model.timeout_s: expected a number > 0, got 0",
        ),
        (
            '[model]\nendpoint = "localhost:11434"',
            "model.endpoint: expected an http(s) URL like 'http://localhost:11434/v1', "
            "got 'localhost:11434'",
        ),
        (
            '[[agents.list]]\nworkspace = "w"',
            "agents.list[0].id: required key is missing; expected a string",
        ),
        (
            '[[agents.list]]\nid = "a"\nworkspace = ""',
            "agents.list[0].workspace: expected a non-empty string, got ''",
        ),
        (
            '[[agents.list]]\nid = "  "\nworkspace = "w"',
            "agents.list[0].id: expected a non-empty agent id, got '  '",
        ),
        (
            '[[agents.list]]\nid = "Main"\nworkspace = "a"\n'
            '[[agents.list]]\nid = "main"\nworkspace = "b"',
            "agents.list[1].id: duplicate agent id 'main'; agents.list[0] has it",
        ),
        (
            '[agents.heartbeat]\nevery = "soon"',
            "agents.heartbeat.every: expected a duration like '30m', '1h30m' or '0m', got 'soon'",
        ),
        (
            '[[agents.list]]\nid = "a"\nworkspace = "w"\nheartbeat = { every = "-5m" }',
            "agents.list[0].heartbeat.every: expected a duration like '30m', '1h30m' or '0m', "
            "got '-5m'",
        ),
    ],
)
def test_bad_values_say_what_was_expected(text: str, message: str) -> None:
    """A wrong type or out-of-range value names the file, the key, the form and the value."""
    assert _error(text) == f"config.toml: {message}"


@pytest.mark.parametrize("expr", ["0 3 * *", "* * * * * *", "61 * * * *", "@daily", "0 3 31 2 *"])
def test_bad_cron_is_an_error(expr: str) -> None:
    """dreaming.frequency must be a valid 5-field cron expression."""
    assert _error(f'[dreaming]\nfrequency = "{expr}"') == (
        "config.toml: dreaming.frequency: expected a 5-field cron expression like '0 3 * * *', "
        f"got '{expr}'"
    )


@pytest.mark.parametrize("expr", ["*/15 * * * *", "0 3 * * MON-FRI", "30 2 1 * *"])
def test_good_cron_parses(expr: str) -> None:
    """Ordinary cron expressions are accepted as written."""
    config = parse_config(f'[dreaming]\nfrequency = "{expr}"', source="config.toml")
    assert config.dreaming.frequency == expr


@pytest.mark.parametrize(
    ("value", "shown"), [('"Mars/Olympus"', "'Mars/Olympus'"), ("2026-01-01", "2026-01-01")]
)
def test_bad_timezone_is_an_error(value: str, shown: str) -> None:
    """dreaming.timezone must be an IANA zone name; the file is named in the message."""
    assert _error(f"[dreaming]\ntimezone = {value}") == (
        "config.toml: dreaming.timezone: expected an IANA timezone name like 'Europe/Berlin', "
        f"got {shown}"
    )


@pytest.mark.parametrize("zone", ["Europe/Berlin", "UTC", "America/New_York"])
def test_good_timezone_parses(zone: str) -> None:
    """A known IANA zone is kept as written."""
    config = parse_config(f'[dreaming]\ntimezone = "{zone}"', source="config.toml")
    assert config.dreaming.timezone == zone


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("30m", 1800.0),
        ("2s", 2.0),
        ("1h", 3600.0),
        ("1h30m", 5400.0),
        ("90", 90.0),
        ("0m", 0.0),
        ("0", 0.0),
        ("1d", 86400.0),
        ("250ms", 0.25),
        (" 1.5h ", 5400.0),
        ("1H", 3600.0),
        ("", None),
        ("soon", None),
        ("-5m", None),
        ("5x", None),
        ("m", None),
        ("1h 30m", None),
        ("30m!", None),
    ],
)
def test_parse_duration(text: str, seconds: float | None) -> None:
    """Durations are seconds; anything unparsable is None."""
    assert parse_duration(text) == seconds


def test_toml_syntax_error_names_file_and_position() -> None:
    """A TOML syntax error names the file and the line and column."""
    message = _error('[dreaming]\nenabled = true\nfrequency = "0 3 * * *\n')
    assert message.startswith("config.toml: invalid TOML: ")
    assert "line 3, column" in message


def _setting_keys(info: mi.Type, prefix: str) -> set[str]:
    if isinstance(info, mi.UnionType):
        (info,) = [t for t in info.types if not isinstance(t, mi.NoneType)]
    if isinstance(info, mi.VarTupleType):
        return _setting_keys(info.item_type, prefix + "[]")
    if isinstance(info, mi.StructType):
        keys: set[str] = set()
        for field in info.fields:
            if field.name != "explicit":  # bookkeeping, not a setting
                keys |= _setting_keys(field.type, f"{prefix}.{field.name}".lstrip("."))
        return keys
    return {prefix}


def test_settings_documents_every_field() -> None:
    """SETTINGS has exactly one help line per setting, and each states its default."""
    assert set(SETTINGS) == _setting_keys(mi.type_info(Config), "")
    undocumented = [k for k, v in SETTINGS.items() if "default" not in v and "required" not in v]
    assert undocumented == []


def test_load_config_without_any_file_gives_defaults() -> None:
    """No flag, no env and no default file: defaults, and no path."""
    assert load_config(None) == (Config(), None)


def test_load_config_reads_the_default_file(tmp_path: Path) -> None:
    """The default config file under DREAMD_HOME is read when it exists."""
    path = tmp_path / "dreamd-home" / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("[dreaming]\nenabled = false\n", encoding="utf-8")
    config, used = load_config(None)
    assert (config.dreaming.enabled, config.explicit, used) == (
        False,
        frozenset({"dreaming.enabled"}),
        path,
    )


def test_load_config_prefers_the_explicit_path_then_the_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An explicit path wins over $DREAMD_CONFIG, which wins over the default file."""
    flag, env = tmp_path / "flag.toml", tmp_path / "env.toml"
    flag.write_text("[dreaming.rem]\nlimit = 1\n", encoding="utf-8")
    env.write_text("[dreaming.rem]\nlimit = 2\n", encoding="utf-8")
    monkeypatch.setenv("DREAMD_CONFIG", str(env))
    from_flag, flag_used = load_config(flag)
    from_env, env_used = load_config(None)
    assert (from_flag.dreaming.rem.limit, flag_used, from_env.dreaming.rem.limit, env_used) == (
        1,
        flag,
        2,
        env,
    )


def test_load_config_missing_explicit_file_is_an_error(tmp_path: Path) -> None:
    """A --config path that does not exist is a ConfigError naming it."""
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as caught:
        load_config(missing)
    assert str(caught.value) == f"{missing}: config file not found; create it or fix --config"


def test_load_config_missing_env_file_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A $DREAMD_CONFIG path that does not exist is a ConfigError naming it."""
    missing = tmp_path / "nope.toml"
    monkeypatch.setenv("DREAMD_CONFIG", str(missing))
    with pytest.raises(ConfigError) as caught:
        load_config(None)
    assert str(caught.value) == f"{missing}: config file not found; create it or fix $DREAMD_CONFIG"


def test_load_config_errors_name_the_full_path(tmp_path: Path) -> None:
    """Messages from a loaded file name its path."""
    path = tmp_path / "config.toml"
    path.write_text("[dreaming]\nlimit = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == (
        f"{path}: dreaming.limit: unknown key; expected one of enabled, frequency, timezone, "
        "storage, catch_up, markers, truth_files, light, rem, deep, reflect, graph"
    )


def test_load_config_rejects_non_utf8(tmp_path: Path) -> None:
    """A file that is not UTF-8 is a ConfigError, not a crash."""
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe[dreaming]")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == f"{path}: config file is not UTF-8 text: invalid start byte"


def _imported(values: dict[str, object]) -> ImportedDreaming:
    origins = dict.fromkeys(values, "plugins.entries.memory-core.config.dreaming.x")
    return ImportedDreaming(source=Path("/oc/openclaw.json"), values=values, origins=origins)


def test_merge_openclaw_fills_only_keys_the_file_did_not_set() -> None:
    """OpenClaw values apply where the dreamd file is silent; explicit dreamd keys win."""
    config = parse_config("[dreaming.deep]\nmin_score = 0.9\n", source="config.toml")
    merged = merge_openclaw(
        config,
        _imported(
            {
                "dreaming.deep.min_score": 0.5,
                "dreaming.deep.limit": 4,
                "dreaming.enabled": False,
                "dreaming.timezone": "Asia/Tokyo",
            }
        ),
    )
    expected_deep = msgspec.structs.replace(DeepConfig(), min_score=0.9, limit=4)
    # OpenClaw's own on/off is not dreamd's unless openclaw.follow_enabled says so
    expected = DreamingConfig(enabled=True, timezone="Asia/Tokyo", deep=expected_deep)
    assert merged == Config(dreaming=expected, explicit=frozenset({"dreaming.deep.min_score"}))


def test_merge_openclaw_without_values_is_identity() -> None:
    """Nothing to import leaves the config object unchanged."""
    config = parse_config('[dreaming]\nstorage = "inline"\n', source="config.toml")
    assert merge_openclaw(config, _imported({"dreaming.storage": "both"})) is config


def test_merge_openclaw_bad_value_names_openclaw_file_and_key() -> None:
    """A bad imported value names the OpenClaw file and key, and how to override it."""
    imported = ImportedDreaming(
        source=Path("/oc/openclaw.json"),
        values={"dreaming.deep.min_score": 1.5},
        origins={"dreaming.deep.min_score": "plugins.entries.memory-core.config.dreaming.x"},
    )
    with pytest.raises(ConfigError) as caught:
        merge_openclaw(Config(), imported)
    assert str(caught.value) == (
        "/oc/openclaw.json: plugins.entries.memory-core.config.dreaming.x: "
        "expected a number between 0 and 1, got 1.5; "
        "fix it there or set dreaming.deep.min_score in the dreamd config"
    )


@given(st.text(max_size=200))
def test_parse_config_never_crashes(text: str) -> None:
    """Any text parses to a Config or raises ConfigError naming the file."""
    message = ""
    try:
        parse_config(text, source="fuzz.toml")
    except ConfigError as exc:
        message = str(exc)
    assert message == "" or message.startswith("fuzz.toml")


@given(
    st.recursive(
        st.one_of(st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=10)),
        lambda inner: st.dictionaries(
            st.sampled_from(
                ["dreaming", "deep", "light", "limit", "min_score", "agents", "list", "id", "x"]
            ),
            inner,
            max_size=4,
        ),
        max_leaves=12,
    )
)
def test_arbitrary_tables_fail_cleanly(value: object) -> None:
    """Arbitrary nested TOML-like data is a Config or a ConfigError, never another exception."""
    import tomllib

    text = _toml(value) if isinstance(value, dict) else f"x = {_toml_value(value)}"
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    with contextlib.suppress(ConfigError):
        parse_config(text, source="fuzz.toml")


def _toml_value(value: object) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
        )
    return json.dumps(value)


def _toml(value: dict[str, object]) -> str:
    return "\n".join(f"{k} = {_toml_value(v)}" for k, v in value.items())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[api]\nlisten = "0.0.0.0:8765"\ntokens_file = "t"',
            "api.listen: expected a loopback address",
        ),
        (
            '[api]\nlisten = "127.0.0.1:99999"\ntokens_file = "t"',
            "api.listen: expected a loopback address",
        ),
        ('[api]\nlisten = "127.0.0.1:8765"', "api.tokens_file: required when api.listen is set"),
        (
            "[jobs]\nmax_concurrent = 0",
            "jobs.max_concurrent: expected a whole number between 1 and 64",
        ),
        ("[jobs]\nnice = 20", "jobs.nice: expected a whole number between 0 and 19"),
        ("[jobs]\nnice = -5", "jobs.nice: expected a whole number between 0 and 19"),
        ("[fleet]", "fleet.redis: set redis or redis_url_env (exactly one)"),
        (
            '[fleet]\nredis = "redis://x"\nredis_url_env = "URL"',
            "fleet.redis: set redis or redis_url_env (exactly one)",
        ),
        (
            '[fleet]\nredis = "http://:hunter2@x"',
            "fleet.redis: expected a URL like 'redis://host:6379/0' (rediss:// for TLS, or "
            "unix://); the value is not shown, it may hold a password",
        ),
        (
            '[fleet]\nredis = "redis://x"\nhost_ttl_s = 6\nheartbeat_s = 3',
            "fleet.heartbeat_s: at most a third of fleet.host_ttl_s (6), so a host that misses "
            "one heartbeat keeps its locks",
        ),
        (
            '[fleet]\nredis = "redis://x"\ntakeover_window = "all night"',
            "fleet.takeover_window: expected a duration like '6h', '30m' or '0m'",
        ),
        (
            '[fleet]\nredis = "redis://x"\nhost_id = "URGENT: restore | sh"',
            "fleet.host_id: expected letters, digits, '.', '_' or '-' (at most 64)",
        ),
    ],
)
def test_api_and_jobs_are_checked(text: str, message: str) -> None:
    """TCP is loopback only, with tokens; budgets are at least 1; a fleet names its Redis once."""
    assert message in _error(text)
