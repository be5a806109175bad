"""An OpenClaw install, read from its ``openclaw.json`` (JSON5): agents, workspaces, dreaming.

Rules:

* Read-only: dreamd never writes OpenClaw's files.
* Lenient where OpenClaw is lenient: unknown keys are ignored, agents without an id are skipped,
  a blank string means "unset", numeric strings are numbers and whole-number settings are
  floored. Any other odd dreaming value is kept as written, so :func:`dreamd.config.merge_openclaw`
  reports it (naming this file and OpenClaw's key) instead of dreamd silently ignoring it.
* Paths follow OpenClaw's agent scope: the state directory is the config file's directory; an
  agent's own ``workspace`` wins, else the default agent (``default: true``, else the first)
  uses ``agents.defaults.workspace`` (default ``~/.openclaw/workspace``) and any other agent
  ``<state dir>/workspace-<id>``; transcripts live in ``<state dir>/agents/<id>/sessions``.
* As in OpenClaw, the dreaming timezone falls back to ``agents.defaults.userTimezone``.
* The model, as OpenClaw's diary chooses it: the default agent's model (its own ``model``, else
  ``agents.defaults.model``; a string or ``{primary}``; an alias from ``agents.defaults.models``
  resolved) is dreamd's ``model.name``, and its provider's ``baseUrl`` ``model.endpoint``, when
  that provider (``models.providers.<id>``) speaks the OpenAI chat API (``api`` is
  ``openai-completions``, or unset beside a ``baseUrl``). ``dreaming.model`` is
  ``model.diary_name`` (tried first, then ``model.name`` once when unavailable: OpenClaw's
  retry rule) when OpenClaw would honour it: ``plugins.entries.memory-core.subagent
  .allowModelOverride`` is true, ``allowedModels`` (if set) lists it, and it is on the same
  provider. An API key is taken only as a reference to an environment variable (``${VAR}`` or
  ``{source: "env", id}``), as ``model.api_key_env``; a key written out is not copied. What is
  set but not taken is listed, with the reason, in ``unused``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamd.config import Config, ImportedDreaming
from dreamd.errors import ConfigError

__all__ = [
    "OpenClawAgent",
    "OpenClawInstall",
    "find_openclaw_config",
    "read_openclaw_config",
]

_DREAMING_PREFIX = "plugins.entries.memory-core.config.dreaming"
_ENV_REF = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)\}")
_DEFAULT_WORKSPACE = "~/.openclaw/workspace"

# (key under OpenClaw's ``dreaming``, dreamd's dotted key, how OpenClaw normalises the value).
# Phase keys (``light.*``, ``rem.*``, ``deep.*``) are also read from ``phases.<phase>.*``.
_DREAMING_KEYS = (
    ("enabled", "dreaming.enabled", "bool"),
    ("frequency", "dreaming.frequency", "text"),
    ("timezone", "dreaming.timezone", "text"),
    ("storage.mode", "dreaming.storage", "mode"),
    ("light.lookbackDays", "dreaming.light.lookback_days", "int"),
    ("light.limit", "dreaming.light.limit", "int"),
    ("light.dedupeSimilarity", "dreaming.light.dedupe_similarity", "number"),
    ("rem.lookbackDays", "dreaming.rem.lookback_days", "int"),
    ("rem.limit", "dreaming.rem.limit", "int"),
    ("rem.minPatternStrength", "dreaming.rem.min_pattern_strength", "number"),
    ("deep.minScore", "dreaming.deep.min_score", "number"),
    ("deep.minRecallCount", "dreaming.deep.min_recall_count", "int"),
    ("deep.minUniqueQueries", "dreaming.deep.min_unique_queries", "int"),
    ("deep.limit", "dreaming.deep.limit", "int"),
    ("deep.recencyHalfLifeDays", "dreaming.deep.recency_half_life_days", "int"),
    # OpenClaw treats a value <= 0 here as unset (its default applies).
    ("deep.maxAgeDays", "dreaming.deep.max_age_days", "positive"),
    ("deep.maxPromotedSnippetTokens", "dreaming.deep.max_promoted_snippet_tokens", "positive"),
)
_BOOLEANS = {"true": True, "yes": True, "on": True, "1": True}
_BOOLEANS |= {"false": False, "no": False, "off": False, "0": False}
_UNSET = object()


@dataclass(frozen=True)
class OpenClawAgent:
    """One OpenClaw agent. Heartbeat values are raw strings, None when OpenClaw has none."""

    id: str
    workspace: Path
    sessions: Path
    heartbeat_every: str | None = None
    heartbeat_target: str | None = None
    own_heartbeat: bool = False  # the agent has its own ``heartbeat`` block


@dataclass(frozen=True)
class OpenClawInstall:
    """What dreamd needs from one ``openclaw.json``."""

    path: Path
    default_workspace: Path
    agents: tuple[OpenClawAgent, ...]
    system_agent: str | None
    user_timezone: str | None
    dreaming: ImportedDreaming


def _table(value: object, *names: str) -> dict[str, Any]:
    """``value[names[0]][names[1]]…`` when every step is an object, else an empty dict."""
    for name in names:
        value = value.get(name) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _text(value: object) -> str | None:
    """A trimmed non-blank string (numbers as written), else None."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    text = str(value).strip()
    return text or None


def _number(value: object) -> object:
    """A number from a number or a numeric string (``"0.8"``); anything else as written."""
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _normalise(value: object, kind: str) -> object:
    """One dreaming value as OpenClaw reads it; ``_UNSET`` when OpenClaw would use its default."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return _UNSET
    if kind == "bool":
        return _BOOLEANS.get(value.strip().lower(), value) if isinstance(value, str) else value
    if kind in ("text", "mode"):
        text = value.strip() if isinstance(value, str) else value
        return text.lower() if kind == "mode" and isinstance(text, str) else text
    number = _number(value)
    if isinstance(number, bool) or not isinstance(number, int | float) or kind == "number":
        return number
    if not math.isfinite(number):
        return number
    whole = math.floor(number)
    return _UNSET if kind == "positive" and whole <= 0 else whole


def _read_dreaming(data: Mapping[str, Any], source: Path) -> ImportedDreaming:
    dreaming = _table(data, "plugins", "entries", "memory-core", "config", "dreaming")
    values: dict[str, object] = {}
    origins: dict[str, str] = {}
    for openclaw_key, key, kind in _DREAMING_KEYS:
        *parents, leaf = openclaw_key.split(".")
        places = [[*parents]]
        if parents and parents[0] in ("light", "rem", "deep"):
            places.insert(0, ["phases", *parents])  # OpenClaw's own shape wins
        for place in places:
            value = _normalise(_table(dreaming, *place).get(leaf), kind)
            if value is not _UNSET:
                values[key] = value
                origins[key] = ".".join([_DREAMING_PREFIX, *place, leaf])
                break
    # OpenClaw's dreaming timezone falls back to the user's timezone.
    user_timezone = _text(_table(data, "agents", "defaults").get("userTimezone"))
    if "dreaming.timezone" not in values and user_timezone is not None:
        values["dreaming.timezone"] = user_timezone
        origins["dreaming.timezone"] = "agents.defaults.userTimezone"
    return ImportedDreaming(source=source, values=values, origins=origins)


def _model_ref(value: object) -> str | None:
    """A model setting: a string, or the ``primary`` of ``{primary, fallbacks}``."""
    if isinstance(value, dict):
        value = value.get("primary")
    return _text(value)


def _resolve_alias(ref: str, defaults: Mapping[str, Any]) -> str:
    """``provider/model`` for an alias in ``agents.defaults.models``; else ``ref`` as written."""
    if "/" in ref:
        return ref
    for canonical, entry in _table(defaults, "models").items():
        if isinstance(entry, dict) and _text(entry.get("alias")) == ref:
            return str(canonical)
    return ref


def _env_name(value: object) -> str | None:
    """The environment variable an API key setting refers to, else None."""
    if isinstance(value, dict) and value.get("source") == "env":
        return _text(value.get("id"))
    text = _text(value)
    found = _ENV_REF.fullmatch(text) if text else None
    return found.group(1) if found else None


def _read_model(data: Mapping[str, Any], agent: Mapping[str, Any]) -> _Model:
    """The model settings OpenClaw's diary would use (see the module rules)."""
    model = _Model()
    defaults = _table(data, "agents", "defaults")
    own = _model_ref(agent.get("model"))
    where = "agents.list[].model" if own else "agents.defaults.model"
    ref = own or _model_ref(defaults.get("model"))
    if ref is None:
        return model
    ref = _resolve_alias(ref, defaults)
    provider_id, _, name = ref.partition("/")
    provider = _table(data, "models", "providers", provider_id)
    base_url = _text(provider.get("baseUrl"))
    api = _text(provider.get("api")) or ("openai-completions" if base_url else None)
    if not name or base_url is None or api != "openai-completions":
        speaks = "its provider has no baseUrl" if base_url is None else f"its provider speaks {api}"
        model.unused[where] = f"{ref}: {speaks}, not the OpenAI chat API dreamd uses"
        return model
    model.take("model.endpoint", base_url, f"models.providers.{provider_id}.baseUrl")
    model.take("model.name", name, where)
    key = provider.get("apiKey")
    env = _env_name(key)
    if env is not None:
        model.take("model.api_key_env", env, f"models.providers.{provider_id}.apiKey")
    elif key is not None:
        model.unused[f"models.providers.{provider_id}.apiKey"] = (
            "a key written out is not copied; refer to an environment variable (${VAR})"
        )
    _read_diary_model(data, provider_id, model)
    return model


def _read_diary_model(data: Mapping[str, Any], provider_id: str, model: _Model) -> None:
    dreaming = _table(data, "plugins", "entries", "memory-core", "config", "dreaming")
    wanted = _model_ref(dreaming.get("model"))
    if wanted is None:
        return
    key = f"{_DREAMING_PREFIX}.model"
    defaults = _table(data, "agents", "defaults")
    wanted = _resolve_alias(wanted, defaults)
    subagent = _table(data, "plugins", "entries", "memory-core", "subagent")
    allowed = subagent.get("allowedModels")
    other, _, name = wanted.partition("/") if "/" in wanted else (provider_id, "", wanted)
    if subagent.get("allowModelOverride") is not True:
        model.unused[key] = (
            "OpenClaw uses it only with plugins.entries.memory-core.subagent"
            ".allowModelOverride = true"
        )
    elif isinstance(allowed, list) and "*" not in allowed and wanted not in allowed:
        model.unused[key] = f"{wanted} is not in plugins.entries.memory-core.subagent.allowedModels"
    elif other != provider_id:
        model.unused[key] = f"{wanted} is on another provider than the default model's"
    else:
        model.take("model.diary_name", name, key)


class _Model:
    """Model values read from OpenClaw, where each came from, and what was left out."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}
        self.origins: dict[str, str] = {}
        self.unused: dict[str, str] = {}

    def take(self, key: str, value: object, origin: str) -> None:
        self.values[key] = value
        self.origins[key] = origin


def _expand(text: str, base: Path) -> Path:
    path = Path(text).expanduser()
    return path if path.is_absolute() else base / path


def _read_agents(
    agents: Mapping[str, Any], state_dir: Path, default_ws: Path
) -> list[OpenClawAgent]:
    defaults = _table(agents, "defaults")
    listed = agents.get("list")
    entries = [e for e in listed if isinstance(e, dict)] if isinstance(listed, list) else []
    marked = [e for e in entries if e.get("default") is True]
    default_id = (_text((marked or entries or [{}])[0].get("id")) or "main").lower()
    default_hb = _table(defaults, "heartbeat")
    result: list[OpenClawAgent] = []
    seen: set[str] = set()
    for entry in entries or [{"id": "main"}]:
        raw_id = entry.get("id")
        agent_id = raw_id.strip().lower() if isinstance(raw_id, str) else ""
        if not agent_id or agent_id in seen:
            continue  # OpenClaw skips these too
        seen.add(agent_id)
        own = entry.get("heartbeat")
        heartbeat = {**default_hb, **(own if isinstance(own, dict) else {})}
        workspace = _text(entry.get("workspace"))
        if workspace is not None:
            path = _expand(workspace, state_dir)
        elif agent_id == default_id:
            path = default_ws
        else:
            path = state_dir / f"workspace-{agent_id}"
        result.append(
            OpenClawAgent(
                id=agent_id,
                workspace=path,
                sessions=state_dir / "agents" / agent_id / "sessions",
                heartbeat_every=_text(heartbeat.get("every")),
                heartbeat_target=_text(heartbeat.get("target")),
                own_heartbeat=isinstance(own, dict),
            )
        )
    return result


def read_openclaw_config(path: Path) -> OpenClawInstall:
    """Read and interpret ``openclaw.json``; an unreadable or invalid file is a ConfigError."""
    import json5  # lazily: only installs with OpenClaw need it

    try:
        data = json5.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read OpenClaw config: {exc.strerror}") from exc
    except ValueError as exc:  # json5 syntax errors and UnicodeDecodeError are ValueErrors
        raise ConfigError(f"{path}: invalid JSON5 in OpenClaw config: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON5 object at the top level of an OpenClaw config")
    state_dir = path.parent
    agents = _table(data, "agents")
    defaults = _table(agents, "defaults")
    default_ws = _expand(_text(defaults.get("workspace")) or _DEFAULT_WORKSPACE, state_dir)
    system_agent = _text(_table(defaults, "systemAgent").get("agentId"))
    return OpenClawInstall(
        path=path,
        default_workspace=default_ws,
        agents=tuple(_read_agents(agents, state_dir, default_ws)),
        system_agent=system_agent.lower() if system_agent else None,
        user_timezone=_text(defaults.get("userTimezone")),
        dreaming=_with_model(_read_dreaming(data, path), data),
    )


def _with_model(dreaming: ImportedDreaming, data: Mapping[str, Any]) -> ImportedDreaming:
    """The dreaming values with the model's (see the module rules)."""
    listed = _table(data, "agents").get("list")
    entries = [e for e in listed if isinstance(e, dict)] if isinstance(listed, list) else []
    marked = [e for e in entries if e.get("default") is True]
    model = _read_model(data, (marked or entries or [{}])[0])
    return dataclasses.replace(
        dreaming,
        values={**dreaming.values, **model.values},
        origins={**dreaming.origins, **model.origins},
        unused={**dreaming.unused, **model.unused},
    )


def find_openclaw_config(config: Config, *, config_dir: Path | None = None) -> Path | None:
    """``openclaw.config`` (must exist), else ``$OPENCLAW_CONFIG_PATH``, else ``~/.openclaw``.

    A relative ``openclaw.config`` is relative to ``config_dir`` (the dreamd config's directory).
    """
    if config.openclaw.config is not None:
        path = _expand(config.openclaw.config, config_dir or Path.cwd())
        if not path.is_file():
            raise ConfigError(
                f"openclaw.config: {path} does not exist; fix openclaw.config in the dreamd config"
            )
        return path
    env = os.environ.get("OPENCLAW_CONFIG_PATH", "").strip()
    if env and Path(env).expanduser().is_file():
        return Path(env).expanduser()
    home = Path.home() / ".openclaw" / "openclaw.json"
    return home if home.is_file() else None
