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
* One rule for relative paths: a path a config file names (:data:`PATH_KEYS`) is relative to
  that file's folder; :func:`load_config` makes each absolute once, so no reader guesses.
  (Command-line paths are relative to the shell's current directory.)
* ``[model]`` with an ``endpoint`` needs a ``name``: a model server without a model to ask would
  be ignored in silence.
"""

from __future__ import annotations

import functools
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
from dreamd.clock import parse_duration, resolve_timezone
from dreamd.errors import ConfigError

__all__ = [
    "PATH_KEYS",
    "AdaptersConfig",
    "AgentConfig",
    "AgentsConfig",
    "ApiConfig",
    "Config",
    "DeepConfig",
    "DiscordConfig",
    "DreamingConfig",
    "EmbeddingsConfig",
    "FleetConfig",
    "GraphConfig",
    "HealthConfig",
    "HeartbeatConfig",
    "ImportedDreaming",
    "IntakeConfig",
    "JobsConfig",
    "LightConfig",
    "LogConfig",
    "ModelConfig",
    "OpenClawConfig",
    "ReadersConfig",
    "ReflectConfig",
    "RemConfig",
    "TelegramConfig",
    "load_config",
    "merge_openclaw",
    "openclaw_keys",
    "parse_config",
    "parse_duration",
    "resolve_paths",
    "setting_reference",
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
    unused: Mapping[str, str] = field(default_factory=dict)  # OpenClaw key -> why not taken


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
    # opt-in; bounded by dreamd.engine.phases.scoring.MAX_SALIENCE_BOOST (0 keeps OpenClaw's score)
    salience_boost: Annotated[float, msgspec.Meta(ge=0.0, le=0.1)] = 0.0


class GraphConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[dreaming.graph]``: the inverted-cone graph, patterns, topic files and the report."""

    enabled: bool = True
    lookback_days: Count = 7


class ReflectConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[dreaming.reflect]``: the memory bank, reflected after deep in every sweep (SPEC §15)."""

    enabled: bool = True
    lookback_days: Count = 7


class DreamingConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[dreaming]``: the schedule and the three phases (SPEC §10)."""

    enabled: bool = True
    frequency: str = "0 3 * * *"
    timezone: Text | None = None
    storage: Literal["separate", "inline", "both"] = "separate"
    catch_up: bool = True
    markers: Literal["auto", "openclaw", "dreamd"] = "auto"
    truth_files: bool = True
    light: LightConfig = msgspec.field(default_factory=LightConfig)
    rem: RemConfig = msgspec.field(default_factory=RemConfig)
    deep: DeepConfig = msgspec.field(default_factory=DeepConfig)
    reflect: ReflectConfig = msgspec.field(default_factory=ReflectConfig)
    graph: GraphConfig = msgspec.field(default_factory=GraphConfig)


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
    facts: bool = True
    report: bool = True


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
    trust_unmarked_turns: bool | None = None


class AgentsConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[agents]``: the fleet; when ``list`` is empty, discovery looks elsewhere (SPEC §1)."""

    system_agent: Text | None = None
    heartbeat: HeartbeatConfig = msgspec.field(default_factory=HeartbeatConfig)
    trust_unmarked_turns: bool = False
    list: tuple[AgentConfig, ...] = ()


class OpenClawConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[openclaw]``: where an OpenClaw install's ``openclaw.json`` lives."""

    config: Text | None = None
    follow_enabled: bool = False  # take OpenClaw's ``dreaming.enabled`` as dreamd's own switch


class JobsConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[jobs]``: the host-wide budget of background jobs (SPEC §10)."""

    max_concurrent: Annotated[int, msgspec.Meta(ge=1, le=64)] = 3
    nice: Annotated[int, msgspec.Meta(ge=0, le=19)] = 19
    fold_every_s: Annotated[float, msgspec.Meta(ge=0.0, le=86400.0)] = 60.0


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


class FleetConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[fleet]``: hosts sharing workspaces coordinate through one Redis (docs/fleet.md).

    The URL (``redis``, or the environment variable ``redis_url_env`` names) may carry a
    password; it is never logged or shown.
    """

    redis: Text | None = None
    redis_url_env: Text | None = None
    host_id: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")] | None = (
        None
    )
    name: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_.-]{1,64}$")] = "dreamd"
    max_concurrent: Annotated[int, msgspec.Meta(ge=0, le=4096)] = 0
    host_ttl_s: Annotated[float, msgspec.Meta(ge=3.0, le=3600.0)] = 30.0
    heartbeat_s: Annotated[float, msgspec.Meta(ge=0.0, le=1200.0)] = 0.0
    takeover_window: Text = "6h"


class LogConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[log]``: how much the daemon logs, in which form, and to which file besides stderr."""

    level: Literal["debug", "info", "warning", "error"] = "info"
    format: Literal["text", "json"] = "text"
    file: Text | None = None


class IntakeConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[intake]``: live message intake (``POST /v1/messages``, the MCP ``log_message`` tool)."""

    owners: frozenset[Text] = frozenset()


class EmbeddingsConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``[embeddings]``: optional semantic recall through an OpenAI-compatible ``/embeddings``."""

    endpoint: Text | None = None
    model: Text | None = None
    api_key_env: Text | None = None
    timeout_s: Annotated[float, msgspec.Meta(gt=0.0, le=600.0)] = 30.0
    batch: Annotated[int, msgspec.Meta(ge=1, le=2048)] = 64
    min_similarity: Fraction = 0.5


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
    log: LogConfig = msgspec.field(default_factory=LogConfig)
    intake: IntakeConfig = msgspec.field(default_factory=IntakeConfig)
    embeddings: EmbeddingsConfig = msgspec.field(default_factory=EmbeddingsConfig)
    fleet: FleetConfig | None = None
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
    "embeddings.endpoint": "an http(s) URL like 'http://localhost:11434/v1'",
    "intake.owners": "an array of sender ids like 'telegram:123' or '123'",
    "adapters.discord.owners": "an array of Discord user ids (whole numbers)",
    "adapters.telegram.owners": "an array of Telegram user ids (whole numbers)",
    "adapters.discord.readers": "an array of Discord user ids (whole numbers)",
    "adapters.telegram.readers": "an array of Telegram user ids (whole numbers)",
    "agents.list[].readers.discord": "an array of Discord user ids (whole numbers)",
    "agents.list[].readers.telegram": "an array of Telegram user ids (whole numbers)",
    "adapters.telegram.base_url": "an http(s) URL like 'https://api.telegram.org/bot'",
    "fleet.name": "letters, digits, '.', '_' or '-' (at most 64)",
    "fleet.host_id": "letters, digits, '.', '_' or '-' (at most 64), like 'db-host-2'",
    "fleet.takeover_window": "a duration like '6h', '30m' or '0m'",
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


@functools.cache
def _tables() -> tuple[dict[str, mi.Type], dict[str, str]]:
    """Every setting's type and expected form, worked out when an error first needs them."""
    types = dict(_leaves(mi.type_info(Config), ""))
    forms = {key: _SPECIAL_FORMS.get(key, _describe(info)) for key, info in types.items()}
    for name in _ADAPTERS:
        for listed in (f"adapters.{name}.owners", f"adapters.{name}.readers"):
            forms[f"{listed}[]"] = "a user id (a whole number >= 1)"
        forms[f"agents.list[].readers.{name}[]"] = "a user id (a whole number >= 1)"
    return types, forms


def _unwrapped(info: mi.Type) -> mi.Type:
    if isinstance(info, mi.UnionType):
        return next(t for t in info.types if not isinstance(t, mi.NoneType))
    return info


def _default_text(value: object) -> str:
    """A default as a config file would spell it."""
    if value is None:
        return "none"
    if isinstance(value, frozenset | tuple | list):
        return "[]" if not value else str(sorted(value))
    if isinstance(value, str):
        return repr(value)
    return _show(value)


def setting_reference() -> list[tuple[str, str, str]]:
    """Every setting as (dotted key, expected form, default), read from the Structs above; the
    reference table in docs/configuration.md is built from it
    (``dreamd.settings.reference_table``)."""
    forms = _tables()[1]
    rows: list[tuple[str, str, str]] = []

    def walk(info: mi.Type, prefix: str) -> None:
        info = _unwrapped(info)
        if isinstance(info, mi.VarTupleType):
            walk(info.item_type, prefix + "[]")
            return
        assert isinstance(info, mi.StructType)
        for setting in info.fields:
            if setting.name in _INTERNAL:
                continue
            key = f"{prefix}.{setting.name}".lstrip(".")
            if isinstance(_unwrapped(setting.type), mi.StructType | mi.VarTupleType):
                walk(setting.type, key)
                continue
            if setting.required:
                default = "required"
            elif setting.default is not msgspec.NODEFAULT:
                default = _default_text(setting.default)
            else:
                default = _default_text(setting.default_factory())
            rows.append((key, forms[key], default))

    walk(mi.type_info(Config), "")
    return rows


_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_FIELD = re.compile(r"(?:unknown|required) field `(?P<name>[^`]*)`")
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_CRON_ANCHOR = datetime(2000, 1, 1)  # cronsim needs a start; the expression alone is checked


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
        form = _tables()[1].get(re.sub(r"\[\d+\]", "[]", key), "a valid value")
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
            parent = _tables()[0].get(pattern.rpartition(".")[0])
            names = [f.name for f in getattr(parent, "fields", ()) if f.name not in _INTERNAL]
            return self.fail(key, "unknown key; expected one of " + ", ".join(names))
        if "required field" in what:
            return self.fail(
                key, f"required key is missing; expected {_tables()[1].get(pattern, 'a value')}"
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


_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def _check_fleet(fleet: FleetConfig | None, report: _Reporter) -> None:
    """A fleet names its Redis in exactly one way; the URL itself is never echoed back."""
    if fleet is None:
        return
    if (fleet.redis is None) == (fleet.redis_url_env is None):
        raise report.fail("fleet.redis", "set redis or redis_url_env (exactly one)")
    if fleet.redis is not None and not fleet.redis.startswith(_REDIS_SCHEMES):
        raise report.fail(
            "fleet.redis",
            "expected a URL like 'redis://host:6379/0' (rediss:// for TLS, or unix://); "
            "the value is not shown, it may hold a password",
        )
    if fleet.heartbeat_s and fleet.heartbeat_s * 3 > fleet.host_ttl_s:
        raise report.fail(
            "fleet.heartbeat_s",
            f"at most a third of fleet.host_ttl_s ({fleet.host_ttl_s:g}), so a host that "
            "misses one heartbeat keeps its locks",
        )
    if parse_duration(fleet.takeover_window) is None:
        raise report.expected("fleet.takeover_window", fleet.takeover_window)


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
    if model.endpoint is not None and model.name is None:
        raise report.fail(
            "model.name",
            "required when model.endpoint is set; name the model to ask, like 'qwen3'",
        )
    embeddings = config.embeddings
    if embeddings.endpoint is not None and not embeddings.endpoint.startswith(
        ("http://", "https://")
    ):
        raise report.expected("embeddings.endpoint", embeddings.endpoint)
    if embeddings.endpoint is not None and embeddings.model is None:
        raise report.fail(
            "embeddings.model",
            "required when embeddings.endpoint is set; name the model, like 'nomic-embed-text'",
        )
    _check_api(config.api, report)
    _check_adapters(config.adapters, report)
    _check_fleet(config.fleet, report)
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
    config = parse_config(text, source=str(chosen))
    return resolve_paths(config, chosen.absolute().parent), chosen


PATH_KEYS = (
    "api.socket",
    "api.tokens_file",
    "openclaw.config",
    "log.file",
    "adapters.discord.token_file",
    "adapters.telegram.token_file",
    "agents.list[].workspace",
    "agents.list[].sessions",
)
"""The keys that name a file or folder: relative to the config file's folder."""


def _against(base: Path, value: str | None) -> str | None:
    if value is None:
        return None
    path = Path(value).expanduser()
    return str(path if path.is_absolute() else base / path)


def resolve_paths(config: Config, base: Path) -> Config:
    """``config`` with every :data:`PATH_KEYS` value absolute, relative ones from ``base``."""
    replace = msgspec.structs.replace
    api = replace(
        config.api,
        socket=_against(base, config.api.socket),
        tokens_file=_against(base, config.api.tokens_file),
    )
    adapters = replace(
        config.adapters,
        discord=replace(
            config.adapters.discord, token_file=_against(base, config.adapters.discord.token_file)
        ),
        telegram=replace(
            config.adapters.telegram,
            token_file=_against(base, config.adapters.telegram.token_file),
        ),
    )
    agents = replace(
        config.agents,
        list=tuple(
            replace(
                agent,
                workspace=_against(base, agent.workspace) or agent.workspace,
                sessions=_against(base, agent.sessions),
            )
            for agent in config.agents.list
        ),
    )
    return replace(
        config,
        api=api,
        adapters=adapters,
        agents=agents,
        openclaw=replace(config.openclaw, config=_against(base, config.openclaw.config)),
        log=replace(config.log, file=_against(base, config.log.file)),
    )


MODEL_OWN = frozenset({"model.endpoint", "model.name"})
"""Setting either in the dreamd file makes its ``[model]`` the model: none of OpenClaw's
model values is mixed in."""


def openclaw_keys(config: Config, imported: ImportedDreaming) -> frozenset[str]:
    """The keys :func:`merge_openclaw` takes from OpenClaw for ``config`` (see its rules)."""
    keys = {key for key in imported.values if key not in config.explicit}
    if not config.openclaw.follow_enabled:
        keys.discard("dreaming.enabled")
    if config.explicit & MODEL_OWN:
        keys = {key for key in keys if not key.startswith("model.")}
    return frozenset(keys)


def merge_openclaw(config: Config, imported: ImportedDreaming) -> Config:
    """Apply OpenClaw's values for keys the dreamd file did not set.

    OpenClaw's ``dreaming.enabled`` is its own on/off switch (turning it off is the first step
    of switching to dreamd), so it is taken as dreamd's only with ``openclaw.follow_enabled``.
    Its model (``model.*``: the agent's default model and ``dreaming.model``) is taken only when
    the dreamd file names neither ``model.endpoint`` nor ``model.name``: dreamd's ``[model]``
    overrides it as a whole.
    """
    taken = openclaw_keys(config, imported)
    todo = {k: v for k, v in imported.values.items() if k in taken}
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
