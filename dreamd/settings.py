"""Help text for every configuration key: the table in docs/configuration.md and
``tests/test_docs.py`` use it.

Each dotted key of :class:`dreamd.config.Config` has one line with its default; a test fails when
a setting exists without a line here, or when docs/configuration.md's reference table differs from
:func:`reference_table` (built from the config Structs: key, expected form, default, help).
Refresh it with ``python -m dreamd.settings``.
"""

from __future__ import annotations

__all__ = ["SETTINGS", "reference_table"]

SETTINGS: dict[str, str] = {
    "dreaming.enabled": "Run scheduled sweeps; /dreaming on|off overrides it (default true).",
    "dreaming.frequency": "5-field cron expression for the sweep (default '0 3 * * *').",
    "dreaming.timezone": "IANA zone for the schedule and dreaming days (default: user, host).",
    "dreaming.storage": "Where light/REM output goes: separate, inline or both (default separate).",
    "dreaming.catch_up": "Run one missed sweep after the host wakes (default true).",
    "dreaming.markers": "Marker spelling written: auto, openclaw or dreamd; auto writes "
    "OpenClaw's where OpenClaw dreamed too (default auto).",
    "dreaming.truth_files": "Write memory/user_state.md (current values, with the day each "
    "became true) and memory/pending.md (open items from the notes) in every sweep "
    "(default true).",
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
    "dreaming.deep.salience_boost": "Score added to a candidate whose text is a correction, "
    "decision, error, insight or completion, at most 0.1; 0 keeps OpenClaw's score exactly "
    "(default 0.0).",
    "dreaming.reflect.enabled": "Reflect the notes into the memory bank (bank/) after deep in "
    "every sweep (default true).",
    "dreaming.reflect.lookback_days": "Days of daily notes a sweep reads facts from; older "
    "notes keep the facts read before (default 7).",
    "dreaming.graph.enabled": "Build the inverted-cone graph (memory/graph/), the pattern "
    "library, topic files and the dream report in every sweep (default true).",
    "dreaming.graph.lookback_days": "Days of daily notes a sweep adds to the graph; notes "
    "read before stay in it (default 7).",
    "model.endpoint": "OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (default none).",
    "model.name": "Model for consolidation and the diary (default none: no model is used).",
    "model.diary_name": "Model tried first for the diary, then model.name once (default none).",
    "model.api_key_env": "Environment variable holding the API key (default none).",
    "model.timeout_s": "Seconds one completion may take (default 60.0).",
    "model.max_retries": "Retries of a completion after a transient error (default 2).",
    "model.token_budget": "Tokens one sweep may spend; 0 means no limit (default 0).",
    "model.consolidation": "Let the model merge or supersede MEMORY.md entries (default true).",
    "model.diary": "Let the model write the diary entries (default true).",
    "model.facts": "Let the model propose bank facts for notes without a Retain section "
    "(default true).",
    "model.report": "Let the model phrase patterns' trigger and response and write the dream "
    "report's prose, checked against the night's notes (default true).",
    "agents.system_agent": "Agent that owns the sweep job (default: the only agent).",
    "agents.heartbeat.every": "Default heartbeat interval, e.g. 30m; 0m is off (default '30m').",
    "agents.heartbeat.target": "Default heartbeat target; 'none' is off (default 'last').",
    "agents.trust_unmarked_turns": "Count a transcript's user turns that the runtime did not "
    "mark as the owner's (no senderIsOwner) as the owner's, in direct sessions only; for a "
    "single-user runtime that writes no marks. Off, such turns are untrusted and never "
    "promoted (default false).",
    "agents.list[].id": "Agent id, lowercased, unique (required).",
    "agents.list[].workspace": "Agent's workspace directory, relative to this file (required).",
    "agents.list[].sessions": "Agent's session transcript directory (default none).",
    "agents.list[].heartbeat.every": "This agent's heartbeat interval (default agents.heartbeat).",
    "agents.list[].heartbeat.target": "This agent's heartbeat target (default agents.heartbeat).",
    "agents.list[].trust_unmarked_turns": "This agent's trust_unmarked_turns "
    "(default agents.trust_unmarked_turns).",
    "agents.list[].readers.discord": "Discord user ids who may read this agent's memory "
    "(default []).",
    "agents.list[].readers.telegram": "Telegram user ids who may read this agent's memory "
    "(default []).",
    "openclaw.config": "Path to openclaw.json (default $OPENCLAW_CONFIG_PATH, ~/.openclaw).",
    "openclaw.follow_enabled": "Take OpenClaw's dreaming.enabled as dreamd's own on/off "
    "(default false).",
    "jobs.max_concurrent": "Background jobs at once on this host, all processes (default 3).",
    "jobs.nice": "CPU niceness of sweep worker processes, 0 normal to 19 lowest (default 19).",
    "jobs.fold_every_s": "Seconds between folds of pending recall traces while idle; 0 is never "
    "(default 60.0).",
    "intake.owners": "Sender ids whose messages POST /v1/messages logs as the owner's, besides "
    "the chat adapters' owners; anyone else's are a guest's (default []).",
    "embeddings.endpoint": "OpenAI-compatible base URL for semantic recall, e.g. "
    "http://127.0.0.1:11434/v1; none keeps recall lexical and offline (default none).",
    "embeddings.model": "Embedding model asked, e.g. 'nomic-embed-text' (default none).",
    "embeddings.api_key_env": "Environment variable holding its API key (default none).",
    "embeddings.timeout_s": "Seconds one embeddings request may take (default 30.0).",
    "embeddings.batch": "Chunks embedded per request (default 64).",
    "embeddings.min_similarity": "Cosine similarity a chunk needs to be a semantic hit; "
    "below it a search keeps its lexical hits only (default 0.5).",
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
    "log.level": "Daemon log level: debug, info, warning or error; --log-level and "
    "$DREAMD_LOG_LEVEL win (default 'info').",
    "log.format": "Log lines as 'text' or 'json' (one JSON object a line) (default 'text').",
    "log.file": "Also append log lines to this file, relative to this file's folder; "
    "reopened when rotated (default none: stderr only).",
    "fleet.redis": "Redis URL the fleet coordinates through, redis:// or rediss:// "
    "(default none; [fleet] needs it or redis_url_env).",
    "fleet.redis_url_env": "Environment variable holding that URL, instead of redis "
    "(default none).",
    "fleet.host_id": "This host's id in the fleet, unique per host (default the hostname).",
    "fleet.name": "Fleet name, the prefix of its Redis keys (default 'dreamd').",
    "fleet.max_concurrent": "Jobs at once across the fleet; 0 means jobs.max_concurrent "
    "per live host (default 0).",
    "fleet.host_ttl_s": "Lost-host detection: seconds after its last heartbeat before a host "
    "shows as lost and its workspace locks, adapters and job leases pass to others "
    "(default 30.0; docs/fleet.md has the trade-off).",
    "fleet.heartbeat_s": "Seconds between a host's heartbeats (announcement and lease "
    "renewals); 0 means host_ttl_s / 6 (default 0).",
    "fleet.takeover_window": "How long after a slot begins a live host still sweeps a workspace "
    "a lost host had taken, at most until the slot ends (default '6h').",
}


def reference_table() -> str:
    """The configuration reference (docs/configuration.md), one row per setting of the config
    Structs."""
    from dreamd.config import setting_reference

    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| key | expected | default | meaning |", "|---|---|---|---|"]
    lines += [
        f"| `{key}` | {cell(form)} | {cell(default)} | {cell(SETTINGS.get(key, ''))} |"
        for key, form, default in setting_reference()
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(reference_table())
