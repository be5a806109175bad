"""Tests for dreamd.workspace.openclaw: reading openclaw.json (JSON5) and finding it."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamd.config import (
    Config,
    DeepConfig,
    DreamingConfig,
    ImportedDreaming,
    merge_openclaw,
    parse_config,
)
from dreamd.errors import ConfigError
from dreamd.workspace.openclaw import (
    OpenClawAgent,
    OpenClawInstall,
    find_openclaw_config,
    read_openclaw_config,
)

PREFIX = "plugins.entries.memory-core.config.dreaming"

FLEET = """
// An OpenClaw config as people write it: comments, unquoted keys, trailing commas.
{
  agents: {
    defaults: {
      workspace: "~/oc-main",
      userTimezone: "Europe/Berlin",
      systemAgent: { agentId: "Ops" },
      heartbeat: { every: "30m", target: "last", },
    },
    list: [
      { id: "Main", default: true, },
      { id: "ops", workspace: "/srv/ops", heartbeat: { every: "0m" } },
      { id: "research" },          /* no workspace: <state dir>/workspace-research */
      { id: "ops", workspace: "/elsewhere" },   // a duplicate id is skipped, as OpenClaw does
      { name: "no id" },
    ],
  },
}
"""


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every home-like location at a temporary directory."""
    monkeypatch.setenv("DREAMD_HOME", str(tmp_path / "dreamd-home"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OPENCLAW_CONFIG_PATH", raising=False)
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


def _write(home: Path, text: str) -> Path:
    path = home / ".openclaw" / "openclaw.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_reads_agents_defaults_and_system_agent(home: Path) -> None:
    """JSON5 with comments and trailing commas gives agents, workspaces, heartbeats and owner."""
    path = _write(home, FLEET)
    state = home / ".openclaw"
    assert read_openclaw_config(path) == OpenClawInstall(
        path=path,
        default_workspace=home / "oc-main",
        agents=(
            OpenClawAgent(
                id="main",
                workspace=home / "oc-main",
                sessions=state / "agents" / "main" / "sessions",
                heartbeat_every="30m",
                heartbeat_target="last",
                own_heartbeat=False,
            ),
            OpenClawAgent(
                id="ops",
                workspace=Path("/srv/ops"),
                sessions=state / "agents" / "ops" / "sessions",
                heartbeat_every="0m",
                heartbeat_target="last",
                own_heartbeat=True,
            ),
            OpenClawAgent(
                id="research",
                workspace=state / "workspace-research",
                sessions=state / "agents" / "research" / "sessions",
                heartbeat_every="30m",
                heartbeat_target="last",
                own_heartbeat=False,
            ),
        ),
        system_agent="ops",
        user_timezone="Europe/Berlin",
        dreaming=ImportedDreaming(
            source=path,
            values={"dreaming.timezone": "Europe/Berlin"},
            origins={"dreaming.timezone": "agents.defaults.userTimezone"},
        ),
    )


def test_without_agents_list_there_is_one_main_agent(home: Path) -> None:
    """No agents.list: one agent `main` in the default workspace `~/.openclaw/workspace`."""
    path = _write(home, "{}")
    state = home / ".openclaw"
    assert read_openclaw_config(path) == OpenClawInstall(
        path=path,
        default_workspace=state / "workspace",
        agents=(
            OpenClawAgent(
                id="main",
                workspace=state / "workspace",
                sessions=state / "agents" / "main" / "sessions",
            ),
        ),
        system_agent=None,
        user_timezone=None,
        dreaming=ImportedDreaming(source=path),
    )


def test_first_agent_is_the_default_when_none_is_marked(home: Path) -> None:
    """Without `default: true`, the first listed agent gets agents.defaults.workspace."""
    path = _write(home, '{agents: {list: [{id: "alpha"}, {id: "beta"}]}}')
    install = read_openclaw_config(path)
    assert [(a.id, a.workspace) for a in install.agents] == [
        ("alpha", home / ".openclaw" / "workspace"),
        ("beta", home / ".openclaw" / "workspace-beta"),
    ]


def test_relative_workspace_is_relative_to_the_state_dir(home: Path) -> None:
    """A relative agent workspace resolves against the directory holding openclaw.json."""
    path = _write(home, '{agents: {list: [{id: "a", workspace: "ws/a"}]}}')
    assert read_openclaw_config(path).agents[0].workspace == home / ".openclaw" / "ws" / "a"


def test_dreaming_values_map_onto_dreamd_keys(home: Path) -> None:
    """memory-core dreaming settings map to dotted dreamd keys; numeric strings are numbers."""
    path = _write(
        home,
        """{
          plugins: { entries: { "memory-core": { config: { dreaming: {
            enabled: "false",
            frequency: " 0 4 * * * ",
            timezone: "Asia/Tokyo",
            storage: { mode: "Inline" },
            light: { lookbackDays: "3", limit: 50.7, dedupeSimilarity: "0.85" },
            rem: { lookbackDays: 5.9, limit: "0", minPatternStrength: 0.6 },
            phases: {
              light: { limit: 40 },
              deep: {
                minScore: "0.8", minRecallCount: 4, minUniqueQueries: "2", limit: 7,
                recencyHalfLifeDays: 21, maxAgeDays: 45, maxPromotedSnippetTokens: "120",
              },
            },
          } } } } },
        }""",
    )
    values = {
        "dreaming.enabled": False,
        "dreaming.frequency": "0 4 * * *",
        "dreaming.timezone": "Asia/Tokyo",
        "dreaming.storage": "inline",
        "dreaming.light.lookback_days": 3,
        "dreaming.light.limit": 40,
        "dreaming.light.dedupe_similarity": 0.85,
        "dreaming.rem.lookback_days": 5,
        "dreaming.rem.limit": 0,
        "dreaming.rem.min_pattern_strength": 0.6,
        "dreaming.deep.min_score": 0.8,
        "dreaming.deep.min_recall_count": 4,
        "dreaming.deep.min_unique_queries": 2,
        "dreaming.deep.limit": 7,
        "dreaming.deep.recency_half_life_days": 21,
        "dreaming.deep.max_age_days": 45,
        "dreaming.deep.max_promoted_snippet_tokens": 120,
    }
    origins = {
        "dreaming.enabled": f"{PREFIX}.enabled",
        "dreaming.frequency": f"{PREFIX}.frequency",
        "dreaming.timezone": f"{PREFIX}.timezone",
        "dreaming.storage": f"{PREFIX}.storage.mode",
        "dreaming.light.lookback_days": f"{PREFIX}.light.lookbackDays",
        "dreaming.light.limit": f"{PREFIX}.phases.light.limit",
        "dreaming.light.dedupe_similarity": f"{PREFIX}.light.dedupeSimilarity",
        "dreaming.rem.lookback_days": f"{PREFIX}.rem.lookbackDays",
        "dreaming.rem.limit": f"{PREFIX}.rem.limit",
        "dreaming.rem.min_pattern_strength": f"{PREFIX}.rem.minPatternStrength",
        "dreaming.deep.min_score": f"{PREFIX}.phases.deep.minScore",
        "dreaming.deep.min_recall_count": f"{PREFIX}.phases.deep.minRecallCount",
        "dreaming.deep.min_unique_queries": f"{PREFIX}.phases.deep.minUniqueQueries",
        "dreaming.deep.limit": f"{PREFIX}.phases.deep.limit",
        "dreaming.deep.recency_half_life_days": f"{PREFIX}.phases.deep.recencyHalfLifeDays",
        "dreaming.deep.max_age_days": f"{PREFIX}.phases.deep.maxAgeDays",
        "dreaming.deep.max_promoted_snippet_tokens": (
            f"{PREFIX}.phases.deep.maxPromotedSnippetTokens"
        ),
    }
    assert read_openclaw_config(path).dreaming == ImportedDreaming(
        source=path, values=values, origins=origins
    )


def test_unset_dreaming_values_are_left_out(home: Path) -> None:
    """Blank strings, nulls and non-positive optional caps mean "OpenClaw's default": omitted."""
    path = _write(
        home,
        """{plugins: {entries: {"memory-core": {config: {dreaming: {
            frequency: "  ", timezone: null,
            phases: {deep: {maxAgeDays: 0, maxPromotedSnippetTokens: -1, minScore: ""}},
        }}}}}}""",
    )
    assert read_openclaw_config(path).dreaming == ImportedDreaming(source=path)


def test_phases_value_falls_back_to_the_flat_shape(home: Path) -> None:
    """A blank `phases.deep.limit` does not hide a flat `deep.limit`."""
    path = _write(
        home,
        '{plugins: {entries: {"memory-core": {config: {dreaming: '
        '{phases: {deep: {limit: " "}}, deep: {limit: 4}}}}}}}',
    )
    assert read_openclaw_config(path).dreaming == ImportedDreaming(
        source=path,
        values={"dreaming.deep.limit": 4},
        origins={"dreaming.deep.limit": f"{PREFIX}.deep.limit"},
    )


def test_dreaming_timezone_wins_over_the_user_timezone(home: Path) -> None:
    """dreaming.timezone is imported from OpenClaw's dreaming config before userTimezone."""
    path = _write(
        home,
        '{agents: {defaults: {userTimezone: "Europe/Paris"}}, plugins: {entries: '
        '{"memory-core": {config: {dreaming: {timezone: "Asia/Tokyo"}}}}}}',
    )
    assert read_openclaw_config(path).dreaming == ImportedDreaming(
        source=path,
        values={"dreaming.timezone": "Asia/Tokyo"},
        origins={"dreaming.timezone": f"{PREFIX}.timezone"},
    )


def test_odd_dreaming_values_are_kept_for_merge_to_report(home: Path) -> None:
    """A value OpenClaw cannot read is kept as written, and merging names OpenClaw's key."""
    path = _write(
        home,
        '{plugins: {entries: {"memory-core": {config: {dreaming: {'
        'phases: {deep: {minScore: "high"}}}}}}}}',
    )
    install = read_openclaw_config(path)
    with pytest.raises(ConfigError) as caught:
        merge_openclaw(Config(), install.dreaming)
    assert (install.dreaming.values, str(caught.value)) == (
        {"dreaming.deep.min_score": "high"},
        f"{path}: {PREFIX}.phases.deep.minScore: expected a number between 0 and 1, "
        "got 'high'; fix it there or set dreaming.deep.min_score in the dreamd config",
    )


def test_merge_applies_openclaw_values_under_explicit_dreamd_ones(home: Path) -> None:
    """Read then merge: OpenClaw fills what the dreamd file leaves out."""
    path = _write(
        home,
        '{plugins: {entries: {"memory-core": {config: {dreaming: '
        "{enabled: false, phases: {deep: {minScore: 0.8, limit: 3}}}}}}}}",
    )
    config = parse_config("[dreaming.deep]\nlimit = 5\n", source="config.toml")
    merged = merge_openclaw(config, read_openclaw_config(path).dreaming)
    deep = DeepConfig(min_score=0.8, limit=5)
    assert merged == Config(
        dreaming=DreamingConfig(enabled=True, deep=deep),  # OpenClaw's off switch is its own
        explicit=frozenset({"dreaming.deep.limit"}),
    )


def test_missing_file_is_a_config_error(home: Path) -> None:
    """An unreadable openclaw.json is a ConfigError naming the file."""
    path = home / "missing.json"
    with pytest.raises(ConfigError) as caught:
        read_openclaw_config(path)
    assert str(caught.value) == f"{path}: cannot read OpenClaw config: No such file or directory"


def test_invalid_json5_is_a_config_error(home: Path) -> None:
    """Broken JSON5 is a ConfigError naming the file."""
    path = _write(home, "{agents: [}")
    with pytest.raises(ConfigError) as caught:
        read_openclaw_config(path)
    assert str(caught.value).startswith(f"{path}: invalid JSON5 in OpenClaw config: ")


def test_non_object_top_level_is_a_config_error(home: Path) -> None:
    """A JSON5 array or scalar at the top level is a ConfigError naming the file."""
    path = _write(home, "[1, 2]")
    with pytest.raises(ConfigError) as caught:
        read_openclaw_config(path)
    assert str(caught.value) == (
        f"{path}: expected a JSON5 object at the top level of an OpenClaw config"
    )


def test_find_uses_the_configured_path(home: Path) -> None:
    """openclaw.config wins, relative to the config directory."""
    target = home / "cfg" / "oc.json"
    target.parent.mkdir()
    target.write_text("{}", encoding="utf-8")
    _write(home, "{}")
    config = parse_config('[openclaw]\nconfig = "oc.json"\n', source="config.toml")
    assert find_openclaw_config(config, config_dir=home / "cfg") == target


def test_find_configured_path_must_exist(home: Path) -> None:
    """A configured openclaw.config that does not exist is a ConfigError."""
    config = parse_config('[openclaw]\nconfig = "~/nope.json"\n', source="config.toml")
    with pytest.raises(ConfigError) as caught:
        find_openclaw_config(config)
    assert str(caught.value) == (
        f"openclaw.config: {home / 'nope.json'} does not exist; "
        "fix openclaw.config in the dreamd config"
    )


def test_find_uses_the_env_then_the_home_default(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$OPENCLAW_CONFIG_PATH when it exists, else ~/.openclaw/openclaw.json, else None."""
    assert find_openclaw_config(Config()) is None
    default = _write(home, "{}")
    env_file = home / "env.json"
    env_file.write_text("{}", encoding="utf-8")
    found_default = find_openclaw_config(Config())
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(env_file))
    found_env = find_openclaw_config(Config())
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(home / "missing.json"))
    found_fallback = find_openclaw_config(Config())
    assert (found_default, found_env, found_fallback) == (default, env_file, default)
