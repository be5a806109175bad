"""Help text for every configuration key: the README's table and ``tests/test_docs.py`` use it.

Each dotted key of :class:`dreamd.config.Config` has one line with its default; a test fails when
a setting exists without a line here, or a line here is missing from the README.
"""

from __future__ import annotations

__all__ = ["SETTINGS"]

SETTINGS: dict[str, str] = {
    "dreaming.enabled": "Run scheduled sweeps; /dreaming on|off overrides it (default true).",
    "dreaming.frequency": "5-field cron expression for the sweep (default '0 3 * * *').",
    "dreaming.timezone": "IANA zone for the schedule and dreaming days (default: user, host).",
    "dreaming.storage": "Where light/REM output goes: separate, inline or both (default separate).",
    "dreaming.catch_up": "Run one missed sweep after the host wakes (default true).",
    "dreaming.light.lookback_days": "Days of daily notes the light phase ingests (default 2).",
    "dreaming.light.limit": "Most entries light stages; 0 turns the phase off (default 100).",
    "dreaming.light.dedupe_similarity": "Jaccard at which light merges entries (default 0.9).",
    "dreaming.rem.lookback_days": "Days of recalls REM reflects on (default 7).",
    "dreaming.rem.limit": "Most themes REM reports; 0 turns the phase off (default 10).",
    "dreaming.rem.min_pattern_strength": "Theme strength REM keeps (default 0.75).",
    "dreaming.deep.min_score": "Score a candidate needs for promotion (default 0.75).",
    "dreaming.deep.min_recall_count": "Signals a candidate needs for promotion (default 3).",
    "dreaming.deep.min_unique_queries": "Distinct user queries a candidate needs (default 3).",
    "dreaming.deep.limit": "Most promotions per dreaming day; 0 promotes nothing (default 10).",
    "dreaming.deep.recency_half_life_days": "Half-life of the recency signal (default 14.0).",
    "dreaming.deep.max_age_days": "Oldest last recall, in days, still promoted (default 30.0).",
    "dreaming.deep.max_promoted_snippet_tokens": "Token cap of a promoted snippet (default 160).",
    "dreaming.deep.memory_file_max_chars": "Size budget of MEMORY.md in chars (default 10000).",
    "dreaming.deep.max_prior_entry_loss_fraction": "Most prior entries one write may drop or "
    "replace (default 0.25).",
    "model.endpoint": "OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (default none).",
    "model.name": "Model for consolidation and the diary (default none: no model is used).",
    "model.diary_name": "Model tried first for the diary, then model.name once (default none).",
    "model.api_key_env": "Environment variable holding the API key (default none).",
    "model.timeout_s": "Seconds one completion may take (default 60.0).",
    "model.max_retries": "Retries of a completion after a transient error (default 2).",
    "model.token_budget": "Tokens one sweep may spend; 0 means no limit (default 0).",
    "model.consolidation": "Let the model merge or supersede MEMORY.md entries (default true).",
    "model.diary": "Let the model write the diary entries (default true).",
    "agents.system_agent": "Agent that owns the sweep job (default: the only agent).",
    "agents.heartbeat.every": "Default heartbeat interval, e.g. 30m; 0m is off (default '30m').",
    "agents.heartbeat.target": "Default heartbeat target; 'none' is off (default 'last').",
    "agents.list[].id": "Agent id, lowercased, unique (required).",
    "agents.list[].workspace": "Agent's workspace directory, relative to this file (required).",
    "agents.list[].sessions": "Agent's session transcript directory (default none).",
    "agents.list[].heartbeat.every": "This agent's heartbeat interval (default agents.heartbeat).",
    "agents.list[].heartbeat.target": "This agent's heartbeat target (default agents.heartbeat).",
    "agents.list[].readers.discord": "Discord user ids who may read this agent's memory "
    "(default []).",
    "agents.list[].readers.telegram": "Telegram user ids who may read this agent's memory "
    "(default []).",
    "openclaw.config": "Path to openclaw.json (default $OPENCLAW_CONFIG_PATH, ~/.openclaw).",
    "jobs.max_concurrent": "Background jobs at once on this host, all processes (default 3).",
    "api.socket": "Control socket path, mode 0600 (default <runtime dir>/dreamd.sock).",
    "api.listen": "Also listen on loopback TCP, e.g. '127.0.0.1:8765' (default off).",
    "api.tokens_file": "File of '<scope> <token>' lines for TCP clients (required with listen).",
    "health.idle_sweeps": "Sweeps that rank but promote nothing before a warning (default 3).",
    "adapters.discord.enabled": "Answer /dreaming and /dream in Discord (default false).",
    "adapters.discord.token_env": "Environment variable holding the bot token (default none).",
    "adapters.discord.token_file": "File holding the bot token, instead of token_env "
    "(default none).",
    "adapters.discord.owners": "User ids allowed on/off and now, besides the app's owners "
    "(default []).",
    "adapters.discord.readers": "User ids who may read every agent's memory, never change "
    "anything (default []).",
    "adapters.discord.admin_role": "Role id whose members count as owners in their guild "
    "(default none).",
    "adapters.discord.notify": "Send health events and blocked to owners by DM (default false).",
    "adapters.telegram.enabled": "Answer /dreaming and /dream in Telegram (default false).",
    "adapters.telegram.token_env": "Environment variable holding the bot token (default none).",
    "adapters.telegram.token_file": "File holding the bot token, instead of token_env "
    "(default none).",
    "adapters.telegram.owners": "User ids allowed on/off and now (default []).",
    "adapters.telegram.readers": "User ids who may read every agent's memory, never change "
    "anything (default []).",
    "adapters.telegram.chat_admins": "Group administrators count as owners in their group "
    "(default false).",
    "adapters.telegram.notify": "Send health events and blocked to owners (default false).",
    "adapters.telegram.base_url": "Bot API base URL, for a self-hosted server "
    "(default 'https://api.telegram.org/bot').",
}
