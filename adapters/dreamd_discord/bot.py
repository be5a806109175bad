"""The Discord adapter: a discord.py client whose app commands go through dreamd's router.

Rules:

* No intents: application commands need none. Mentions are never sent (``@everyone`` in a
  memory snippet stays text).
* Owners: the application's owner, or its team's owner, admins and developers (as
  ``commands.Bot.is_owner`` counts them), plus ``owners`` from the config, plus, in a guild,
  members holding ``admin_role``. Everyone else is a stranger; the router decides the rest.
* A command given in a guild channel is :attr:`~dreamd.chat.router.Place.WHISPER`: memory is shown
  there only in ephemeral replies, seen by the asker alone; a direct message is private.
* Ephemeral replies for everything but ``on``/``off``/``now`` done by an owner. Slow commands
  (search, report, rag status, explain, now) are deferred first and answered by follow-up, so
  Discord's 3-second limit never applies to them; long replies continue in follow-ups.
* Commands are synced at start only when their definition changed (a hash per application in
  ``<state dir>/discord-commands.json``): Discord caps how often commands may be created.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import replace

from dreamd import paths
from dreamd.chat.router import SLOW, Actor, Dispatch, Invocation, Place, command_key, is_public
from dreamd.chat.text import DISCORD_LIMIT, split_text
from dreamd.config import DiscordConfig
from dreamd.store.writer import write_atomic
from dreamd_discord.commands import Interaction, command_groups
from dreamd_discord.sdk import app_commands, discord

__all__ = ["DiscordAdapter"]

_log = logging.getLogger("dreamd.discord")
SYNC_FILE = "discord-commands.json"
AUTOCOMPLETE_SECONDS = 2.5  # Discord drops autocomplete answers after 3 s
READY_SECONDS = 60.0
_TEAM_ROLES = (discord.TeamMemberRole.admin, discord.TeamMemberRole.developer)


def _app_owners(app: discord.AppInfo) -> frozenset[int]:
    team = app.team
    if team is None:
        return frozenset({app.owner.id})
    ids = {member.id for member in team.members if member.role in _TEAM_ROLES}
    if team.owner_id is not None:
        ids.add(team.owner_id)
    return frozenset(ids)


class _Client(discord.Client):
    def __init__(self, adapter: DiscordAdapter) -> None:
        super().__init__(
            intents=discord.Intents.none(),
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=0.1,  # no guild intent: no guilds to wait for
        )
        self.adapter = adapter
        self.tree: app_commands.CommandTree[_Client] = app_commands.CommandTree(self)
        for group in command_groups(adapter):
            self.tree.add_command(group)

    async def setup_hook(self) -> None:
        app = self.application
        if app is not None:
            self.adapter.app_owners = _app_owners(app)
            await _sync_if_changed(self.tree, app.id)

    async def on_ready(self) -> None:
        _log.info("Discord: connected as %s", self.user)
        self.adapter.ready.set()


async def _sync_if_changed(tree: app_commands.CommandTree[_Client], app_id: int) -> None:
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    path = paths.state_dir() / SYNC_FILE
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        saved = {}
    if not isinstance(saved, dict) or saved.get(str(app_id)) != digest:
        await tree.sync()
        saved = {**(saved if isinstance(saved, dict) else {}), str(app_id): digest}
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(saved, indent=2).encode() + b"\n", mode=0o600)
        _log.info("Discord: application commands synced")


class DiscordAdapter:
    """``/dreaming`` and ``/dream`` for one bot token (see the module rules)."""

    name = "discord"

    def __init__(self, settings: DiscordConfig, token: str) -> None:
        self.settings = settings
        self._token = token
        self._dispatch: Dispatch | None = None
        self._client: _Client | None = None
        self.app_owners: frozenset[int] = frozenset()
        self.ready = asyncio.Event()

    async def run(self, dispatch: Dispatch) -> None:
        """Log in, sync commands, stay connected until cancelled (discord.py reconnects)."""
        self._dispatch = dispatch
        client = self._client = _Client(self)
        try:
            async with client:
                await client.start(self._token)
        finally:
            self.ready.clear()
            self._client = None

    def is_owner(self, interaction: Interaction) -> bool:
        """Owner status of the interaction's user (see the module rules)."""
        user = interaction.user
        if user.id in self.settings.owners or user.id in self.app_owners:
            return True
        role = self.settings.admin_role
        # Without the guilds intent no roles are cached; the member's role ids come with the
        # interaction payload and are kept in ``_roles``.
        return bool(role and interaction.guild_id and role in getattr(user, "_roles", ()))

    def _invocation(
        self, interaction: Interaction, command: str, args: tuple[str, ...]
    ) -> Invocation:
        actor = Actor(str(interaction.user.id), is_owner=self.is_owner(interaction))
        place = Place.WHISPER if interaction.guild_id else Place.PRIVATE
        return Invocation(actor, command, args, platform="discord", place=place)

    async def handle(self, interaction: Interaction, command: str, args: tuple[str, ...]) -> None:
        """Run ``/command args`` through the router and answer the interaction."""
        if self._dispatch is None:
            return
        invocation = self._invocation(interaction, command, args)
        key = command_key(invocation)
        public = is_public(invocation.actor, key)
        deferred = key in SLOW
        if deferred:
            await interaction.response.defer(ephemeral=not public, thinking=True)
        reply = await self._dispatch(invocation)
        parts = split_text(reply.text, DISCORD_LIMIT)
        if not deferred:
            await interaction.response.send_message(parts.pop(0), ephemeral=reply.ephemeral)
        for part in parts:
            await interaction.followup.send(part, ephemeral=reply.ephemeral)

    async def choices(self, interaction: Interaction, current: str) -> list[str]:
        """Explain selectors for autocomplete; none when the router is slow to answer."""
        if self._dispatch is None:
            return []
        invocation = self._invocation(interaction, "dream", ("explain", *current.split()))
        asked = replace(invocation, complete=True)
        try:
            async with asyncio.timeout(AUTOCOMPLETE_SECONDS):
                reply = await self._dispatch(asked)
        except TimeoutError:
            return []
        return list(reply.choices)

    async def notify(self, text: str) -> None:
        """Send ``text`` by direct message to every owner (waits for the connection)."""
        async with asyncio.timeout(READY_SECONDS):
            await self.ready.wait()
        client = self._client
        if client is None:
            raise RuntimeError("the Discord client is not connected")
        for owner in sorted(self.settings.owners | self.app_owners):
            channel = await client.create_dm(discord.Object(id=owner))
            for part in split_text(text, DISCORD_LIMIT):
                await channel.send(part)
