"""The dreamd config file: strict TOML parsed into frozen msgspec Structs.

Rules:

* Parsing is pure (:func:`parse_config`); only :func:`load_config` reads a file.
* Strict: an unknown key, a wrong type or an out-of-range value is a :class:`ConfigError` whose
  message names the file, the dotted key (``dreaming.deep.min_score``) and the expected form.
  The expected form is derived from the Struct types below, so it always matches what is checked.
* Every setting has a default and a line in ``dreamd.settings.SETTINGS``; a test fails if one
  is missing.
* ``Config.explicit`` records the dotted keys the file set, so :func:`merge_openclaw` can apply an
  OpenClaw install's dreaming values only where the dreamd file is silent.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Annotated, Any, Literal

import cronsim
import msgspec
import msgspec.inspect as mi

from dreamd import paths
from dreamd.clock import resolve_timezone
from dreamd.errors import ConfigError

__all__ = [
    "AdaptersConfig",
    "AgentConfig",
    "AgentsConfig",
    "ApiConfig",
    "Config",
    "DeepConfig",
    "DiscordConfig",
    "DreamingConfig",
    "HealthConfig",
    "HeartbeatConfig",
    "ImportedDreaming",
    "JobsConfig",
    "LightConfig",
    "ModelConfig",
    "OpenClawConfig",
    "ReadersConfig",
    "RemConfig",
    "TelegramConfig",
    "load_config",
    "merge_openclaw",
    "parse_config",
    "parse_duration",
]

Fraction = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
UserId = Annotated[int, msgspec.Meta(ge=1)]
Count = Annotated[int, msgspec.Meta(ge=0)]
Text = Annotated[str, msgspec.Meta(min_length=1)]


@dataclass(frozen=True)
class ImportedDreaming:
    """Dreaming settings another tool's config holds (OpenClaw's ``openclaw.json``), keyed by
    dreamd's dotted keys (only keys present); :func:`merge_openclaw` applies them."""

    source: Path
    values: Mapping[str, object] = field(default_factory=dict)
    origins: Mapping[str, str] = field(default_factory=dict)  # dreamd key -> OpenClaw key


class LightConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[dreaming.light]``: sort and stage recent notes (SPEC §4)."""

    lookback_days: Count = 2
    limit: Count = 100
    dedupe_similarity: Fraction = 0.9


class RemConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[dreaming.rem]``: reflect on recurring themes (SPEC §5)."""

    lookback_days: Count = 7
    limit: Count = 10
    min_pattern_strength: Fraction = 0.75


class DeepConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[dreaming.deep]``: score, gate and promote into MEMORY.md (SPEC §6)."""

    min_score: Fraction = 0.75
    min_recall_count: Count = 3
    min_unique_queries: Count = 3
    limit: Count = 10
    recency_half_life_days: Annotated[float, msgspec.Meta(gt=0.0)] = 14.0
    max_age_days: Annotated[float, msgspec.Meta(ge=0.0)] = 30.0
    max_promoted_snippet_tokens: Annotated[int, msgspec.Meta(ge=1)] = 160
    memory_file_max_chars: Annotated[int, msgspec.Meta(ge=1000)] = 10_000
    max_prior_entry_loss_fraction: Fraction = 0.25


class DreamingConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[dreaming]``: the schedule and the three phases (SPEC §10)."""

    enabled: bool = True
    frequency: str = "0 3 * * *"
    timezone: Text | None = None
    storage: Literal["separate", "inline", "both"] = "separate"
    catch_up: bool = True
    light: LightConfig = msgspec.field(default_factory=LightConfig)
    rem: RemConfig = msgspec.field(default_factory=RemConfig)
    deep: DeepConfig = msgspec.field(default_factory=DeepConfig)


class ModelConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[model]``: an optional OpenAI-compatible endpoint for consolidation and diary (§7, §9)."""

    endpoint: Text | None = None
    name: Text | None = None
    diary_name: Text | None = None
    api_key_env: Text | None = None
    timeout_s: Annotated[float, msgspec.Meta(gt=0.0)] = 60.0
    max_retries: Annotated[int, msgspec.Meta(ge=0, le=10)] = 2
    token_budget: Annotated[int, msgspec.Meta(ge=0)] = 0
    consolidation: bool = True
    diary: bool = True


class HeartbeatConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """A heartbeat: how often the owner agent runs pending sweep events, and where."""

    every: str = "30m"
    target: Text = "last"


class ReadersConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[agents.list.readers]``: chat users who may read this agent's memory, per platform."""

    discord: frozenset[UserId] = frozenset()
    telegram: frozenset[UserId] = frozenset()


class AgentConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """One ``[[agents.list]]`` entry: an agent, its workspace, its transcripts, its readers."""

    id: str
    workspace: Text
    sessions: Text | None = None
    heartbeat: HeartbeatConfig | None = None
    readers: ReadersConfig = msgspec.field(default_factory=ReadersConfig)


class AgentsConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[agents]``: the fleet; when ``list`` is empty, discovery looks elsewhere (SPEC §1)."""

    system_agent: Text | None = None
    heartbeat: HeartbeatConfig = msgspec.field(default_factory=HeartbeatConfig)
    list: tuple[AgentConfig, ...] = ()


class OpenClawConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[openclaw]``: where an OpenClaw install's ``openclaw.json`` lives."""

    config: Text | None = None


class JobsConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[jobs]``: the host-wide budget of background jobs (SPEC §10)."""

    max_concurrent: Annotated[int, msgspec.Meta(ge=1, le=64)] = 3


class ApiConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[api]``: the control API's Unix socket and optional loopback TCP listener (SPEC §13)."""

    socket: Text | None = None
    listen: Text | None = None
    tokens_file: Text | None = None


class HealthConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[health]``: when the daemon reports a workspace as unhealthy."""

    idle_sweeps: Annotated[int, msgspec.Meta(ge=1)] = 3


class DiscordConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[adapters.discord]``: /dreaming and /dream as Discord app commands (SPEC §11).

    The bot token comes from ``token_env`` or ``token_file``, never from this file.
    """

    enabled: bool = False
    token_env: Text | None = None
    token_file: Text | None = None
    owners: frozenset[UserId] = frozenset()
    readers: frozenset[UserId] = frozenset()
    admin_role: UserId | None = None
    notify: bool = False


class TelegramConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[adapters.telegram]``: /dreaming and /dream as Telegram bot commands (SPEC §11)."""

    enabled: bool = False
    token_env: Text | None = None
    token_file: Text | None = None
    owners: frozenset[UserId] = frozenset()
    readers: frozenset[UserId] = frozenset()
    chat_admins: bool = False
    notify: bool = False
    base_url: Text = "https://api.telegram.org/bot"


class AdaptersConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[adapters]``: the chat adapters the daemon runs."""

    discord: DiscordConfig = msgspec.field(default_factory=DiscordConfig)
    telegram: TelegramConfig = msgspec.field(default_factory=TelegramConfig)


class Config(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """The whole config. ``explicit`` is bookkeeping, never read from the file."""

    dreaming: DreamingConfig = msgspec.field(default_factory=DreamingConfig)
    model: ModelConfig = msgspec.field(default_factory=ModelConfig)
    agents: AgentsConfig = msgspec.field(default_factory=AgentsConfig)
    openclaw: OpenClawConfig = msgspec.field(default_factory=OpenClawConfig)
    jobs: JobsConfig = msgspec.field(default_factory=JobsConfig)
    api: ApiConfig = msgspec.field(default_factory=ApiConfig)
    health: HealthConfig = msgspec.field(default_factory=HealthConfig)
    adapters: AdaptersConfig = msgspec.field(default_factory=AdaptersConfig)
    explicit: frozenset[str] = frozenset()


_INTERNAL = frozenset({"explicit"})
_ADAPTERS = ("discord", "telegram")


_SPECIAL_FORMS = {
    "api.listen": "a loopback address like '127.0.0.1:8765'",
    "dreaming.frequency": "a 5-field cron expression like '0 3 * * *'",
    "dreaming.timezone": "an IANA timezone name like 'Europe/Berlin'",
    "agents.heartbeat.every": "a duration like '30m', '1h30m' or '0m'",
    "agents.list[].heartbeat.every": "a duration like '30m', '1h30m' or '0m'",
    "model.endpoint": "an http(s) URL like 'http://localhost:11434/v1'",
    "adapters.discord.owners": "an array of Discord user ids (whole numbers)",
    "adapters.telegram.owners": "an array of Telegram user ids (whole numbers)",
    "adapters.discord.readers": "an array of Discord user ids (whole numbers)",
    "adapters.telegram.readers": "an array of Telegram user ids (whole numbers)",
    "agents.list[].readers.discord": "an array of Discord user ids (whole numbers)",
    "agents.list[].readers.telegram": "an array of Telegram user ids (whole numbers)",
    "adapters.telegram.base_url": "an http(s) URL like 'https://api.telegram.org/bot'",
}


def _leaves(info: mi.Type, prefix: str) -> Iterator[tuple[str, mi.Type]]:
    """Every setting under ``info`` as (dotted key, type); tables also yield themselves."""
    if isinstance(info, mi.UnionType):
        info = next(t for t in info.types if not isinstance(t, mi.NoneType))
    if isinstance(info, mi.VarTupleType):
        yield prefix, info
        yield from _leaves(info.item_type, prefix + "[]")
    elif isinstance(info, mi.StructType):
        yield prefix, info
        for field in info.fields:
            if field.name not in _INTERNAL:
                yield from _leaves(field.type, f"{prefix}.{field.name}".lstrip("."))
    else:
        yield prefix, info


def _describe(info: mi.Type) -> str:
    """The expected form of a value of type ``info``, in words."""
    if isinstance(info, mi.StructType):
        return "a table"
    if isinstance(info, mi.VarTupleType):
        return "an array of tables"
    if isinstance(info, mi.BoolType):
        return "true or false"
    if isinstance(info, mi.LiteralType):
        return "one of " + ", ".join(repr(v) for v in info.values)
    if isinstance(info, mi.StrType):
        return "a non-empty string" if info.min_length else "a string"
    if isinstance(info, mi.IntType | mi.FloatType):
        noun = "a whole number" if isinstance(info, mi.IntType) else "a number"
        if info.ge is not None and info.le is not None:
            return f"{noun} between {info.ge:g} and {info.le:g}"
        if info.gt is not None:
            return f"{noun} > {info.gt:g}"
        return f"{noun} >= {info.ge:g}" if info.ge is not None else noun
    return str(info)


_TYPES = dict(_leaves(mi.type_info(Config), ""))
_FORMS = {key: _SPECIAL_FORMS.get(key, _describe(info)) for key, info in _TYPES.items()}
for _name in _ADAPTERS:
    for _list in (f"adapters.{_name}.owners", f"adapters.{_name}.readers"):
        _FORMS[f"{_list}[]"] = "a user id (a whole number >= 1)"
    _FORMS[f"agents.list[].readers.{_name}[]"] = "a user id (a whole number >= 1)"
_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_FIELD = re.compile(r"(?:unknown|required) field `(?P<name>[^`]*)`")
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_DURATION = re.compile(r"(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+")
_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86_400.0}
_CRON_ANCHOR = datetime(2000, 1, 1)  # cronsim needs a start; the expression alone is checked


def parse_duration(text: str) -> float | None:
    """Seconds in ``30m``, ``2s``, ``1h30m``, ``1d``, ``250ms`` or bare ``90``; None if not."""
    raw = text.strip().lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        return float(raw)
    if not _DURATION.fullmatch(raw):
        return None
    return sum(float(n) * _UNIT_SECONDS[unit] for n, unit in _PART.findall(raw))


def _show(value: object) -> str:
    """A value as the user wrote it, TOML-style."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return repr(value)


class _Reporter:
    """Builds error messages for one source; ``names`` renames keys (OpenClaw's spelling)."""

    def __init__(self, source: str, names: Mapping[str, str]) -> None:
        self.source, self.names = source, names

    def fail(self, key: str, detail: str) -> ConfigError:
        shown = self.names.get(key, key)
        hint = f"; fix it there or set {key} in the dreamd config" if key in self.names else ""
        return ConfigError(f"{self.source}: {shown}: {detail}{hint}")

    def expected(self, key: str, value: object) -> ConfigError:
        form = _FORMS.get(re.sub(r"\[\d+\]", "[]", key), "a valid value")
        return self.fail(key, f"expected {form}, got {_show(value)}")

    def translate(self, exc: msgspec.ValidationError, raw: Mapping[str, Any]) -> ConfigError:
        found = _AT.match(str(exc))
        what, path = (found["what"], found["path"] or "") if found else (str(exc), "")
        key = path.lstrip(".")
        field = _FIELD.search(what)
        if field is not None:
            key = f"{key}.{field['name']}".lstrip(".")
        pattern = re.sub(r"\[\d+\]", "[]", key)
        if "unknown field" in what:
            parent = _TYPES.get(pattern.rpartition(".")[0])
            names = [f.name for f in getattr(parent, "fields", ()) if f.name not in _INTERNAL]
            return self.fail(key, "unknown key; expected one of " + ", ".join(names))
        if "required field" in what:
            return self.fail(
                key, f"required key is missing; expected {_FORMS.get(pattern, 'a value')}"
            )
        value: object = raw
        for name, index in _STEP.findall(path):
            value = value[name] if name else value[int(index)]  # type: ignore[index]
        return self.expected(key, value)


def _explicit_keys(raw: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    for name, value in raw.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            yield from _explicit_keys(value, key + ".")
        else:
            yield key


def _valid_cron(expr: str) -> bool:
    if len(expr.split()) != 5:  # cronsim also takes a 6th (seconds) field; cron does not
        return False
    try:
        cronsim.CronSim(expr, _CRON_ANCHOR)
    except cronsim.CronSimError:
        return False
    return True


def _checked_agents(agents: AgentsConfig, report: _Reporter) -> AgentsConfig:
    """Normalise agent ids (trimmed, lowercase) and check them and their heartbeats."""
    seen: dict[str, int] = {}
    normalised = []
    for index, agent in enumerate(agents.list):
        key = f"agents.list[{index}]"
        agent_id = agent.id.strip().lower()
        if not agent_id:
            raise report.fail(f"{key}.id", f"expected a non-empty agent id, got {agent.id!r}")
        if agent_id in seen:
            raise report.fail(
                f"{key}.id",
                f"duplicate agent id {agent_id!r}; agents.list[{seen[agent_id]}] has it",
            )
        seen[agent_id] = index
        if agent.heartbeat is not None and parse_duration(agent.heartbeat.every) is None:
            raise report.expected(f"{key}.heartbeat.every", agent.heartbeat.every)
        normalised.append(msgspec.structs.replace(agent, id=agent_id))
    if parse_duration(agents.heartbeat.every) is None:
        raise report.expected("agents.heartbeat.every", agents.heartbeat.every)
    system = agents.system_agent.strip().lower() if agents.system_agent else None
    return msgspec.structs.replace(agents, list=tuple(normalised), system_agent=system)


def _check_adapters(adapters: AdaptersConfig, report: _Reporter) -> None:
    """An enabled adapter names where its token is, in exactly one way (never the token)."""
    for name in _ADAPTERS:
        section = getattr(adapters, name)
        key = f"adapters.{name}"
        if section.token_env is not None and section.token_file is not None:
            raise report.fail(f"{key}.token_file", "set token_env or token_file, not both")
        if section.enabled and section.token_env is None and section.token_file is None:
            raise report.fail(
                f"{key}.token_env",
                "required when the adapter is enabled; name an environment variable "
                "(or set token_file) holding the bot token",
            )
    base_url = adapters.telegram.base_url
    if not base_url.startswith(("http://", "https://")):
        raise report.expected("adapters.telegram.base_url", base_url)


_LOOPBACK = ("127.0.0.1", "localhost", "[::1]", "::1")


def _check_api(api: ApiConfig, report: _Reporter) -> None:
    """TCP is loopback only and never without tokens."""
    if api.listen is None:
        return
    host, _, port = api.listen.rpartition(":")
    if host not in _LOOPBACK or not port.isdigit() or not 0 < int(port) < 65536:
        raise report.expected("api.listen", api.listen)
    if api.tokens_file is None:
        raise report.fail("api.tokens_file", "required when api.listen is set; TCP needs tokens")


def _build(raw: Mapping[str, Any], report: _Reporter, explicit: frozenset[str]) -> Config:
    """Convert raw TOML-shaped data into a checked :class:`Config`."""
    if "explicit" in raw:
        raise report.fail("explicit", "unknown key; dreamd records it, a config file cannot set it")
    try:
        config = msgspec.convert(raw, Config)
    except msgspec.ValidationError as exc:
        raise report.translate(exc, raw) from exc
    dreaming, model = config.dreaming, config.model
    if not _valid_cron(dreaming.frequency):
        raise report.expected("dreaming.frequency", dreaming.frequency)
    try:
        resolve_timezone(dreaming.timezone, source="dreaming.timezone")
    except ConfigError as exc:
        raise report.expected("dreaming.timezone", dreaming.timezone) from exc
    if model.endpoint is not None and not model.endpoint.startswith(("http://", "https://")):
        raise report.expected("model.endpoint", model.endpoint)
    _check_api(config.api, report)
    _check_adapters(config.adapters, report)
    agents = _checked_agents(config.agents, report)
    return msgspec.structs.replace(config, agents=agents, explicit=explicit)


def parse_config(text: str, *, source: str) -> Config:
    """Parse config TOML; ``source`` names the file in error messages."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: invalid TOML: {exc}") from exc
    return _build(raw, _Reporter(source, {}), frozenset(_explicit_keys(raw)))


def load_config(path: Path | None) -> tuple[Config, Path | None]:
    """Read ``path``, else ``$DREAMD_CONFIG``, else the default file if any, else defaults."""
    env = os.environ.get("DREAMD_CONFIG", "").strip()
    if path is not None:
        chosen, named_by = path.expanduser(), "--config"
    elif env:
        chosen, named_by = Path(env).expanduser(), "$DREAMD_CONFIG"
    else:
        chosen, named_by = paths.default_config_path(), ""
        if not chosen.exists():
            return Config(), None
    try:
        text = chosen.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"{chosen}: config file not found; create it or fix {named_by}") from exc
    except OSError as exc:
        raise ConfigError(f"{chosen}: cannot read config file: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{chosen}: config file is not UTF-8 text: {exc.reason}") from exc
    return parse_config(text, source=str(chosen)), chosen


def merge_openclaw(config: Config, imported: ImportedDreaming) -> Config:
    """Apply OpenClaw's dreaming values for keys the dreamd file did not set."""
    todo = {k: v for k, v in imported.values.items() if k not in config.explicit}
    if not todo:
        return config
    raw: dict[str, Any] = msgspec.to_builtins(config)
    del raw["explicit"]
    for key, value in todo.items():
        *parents, leaf = key.split(".")
        table = raw
        for name in parents:
            table = table[name]
        table[leaf] = value
    report = _Reporter(str(imported.source), imported.origins)
    return _build(raw, report, config.explicit)
