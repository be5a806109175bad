"""Who may read which agent's memory from chat: owners, readers and everyone else. Pure.

Rules:

* Three roles. An **owner** (the adapter decides: configured ``owners``, the Discord application's
  owners, an ``admin_role`` member, a Telegram group's administrators with ``chat_admins``) or an
  API client holding ``operator.admin`` reads every agent and may change things. A **reader**
  reads memory and never changes anything: ``[adapters.<name>] readers`` read every agent,
  ``[[agents.list]] readers.<name>`` read that agent only. Everyone else is a **stranger** and
  reads no memory at all: only the reduced ``/dreaming status`` and help.
* An API client with ``operator.read`` reads every agent (the API's own scope rules).
* A workspace is readable when the actor reads every agent, or when one of the agents sharing
  the workspace is theirs. A workspace no agent claims (named by ``--workspace``) is readable
  only by those who read every agent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from dreamd.config import Config
from dreamd.control import ADMIN, READ

__all__ = ["EVERY_AGENT", "Agents", "Grants", "Role", "grants_of", "may_read"]


class Role(Enum):
    """What an actor is to this bot."""

    OWNER = "owner"
    READER = "reader"
    STRANGER = "stranger"


class _Every:
    """The marker for "every agent" (a reader of the whole host)."""

    def __repr__(self) -> str:
        return "EVERY_AGENT"


EVERY_AGENT = _Every()
Agents = frozenset[str] | _Every


@dataclass(frozen=True)
class Grants:
    """Readers from the config: per platform, ids reading every agent, and per-agent ids."""

    host_readers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    agent_readers: Mapping[str, Mapping[str, frozenset[str]]] = field(default_factory=dict)

    def agents_of(self, platform: str, user: str) -> frozenset[str]:
        """The agents ``user`` on ``platform`` was made a reader of, one by one."""
        named = self.agent_readers.get(platform, {})
        return frozenset(agent for agent, ids in named.items() if user in ids)

    def role(
        self, platform: str, user: str, *, is_owner: bool, scopes: frozenset[str] = frozenset()
    ) -> Role:
        """The role of ``user`` (see the module rules)."""
        if is_owner or ADMIN in scopes:
            return Role.OWNER
        if READ in scopes or user in self.host_readers.get(platform, frozenset()):
            return Role.READER
        return Role.READER if self.agents_of(platform, user) else Role.STRANGER

    def readable(
        self, platform: str, user: str, *, is_owner: bool, scopes: frozenset[str] = frozenset()
    ) -> Agents:
        """The agents whose memory ``user`` may read: :data:`EVERY_AGENT`, some, or none."""
        role = self.role(platform, user, is_owner=is_owner, scopes=scopes)
        if role is Role.STRANGER:
            return frozenset()
        if role is Role.OWNER or READ in scopes:
            return EVERY_AGENT
        if user in self.host_readers.get(platform, frozenset()):
            return EVERY_AGENT
        return self.agents_of(platform, user)


def may_read(agents: Agents, workspace_agents: Iterable[str]) -> bool:
    """Whether a reader of ``agents`` may read a workspace shared by ``workspace_agents``."""
    if isinstance(agents, _Every):
        return True
    return bool(agents & set(workspace_agents))


def grants_of(config: Config) -> Grants:
    """The readers ``config`` names."""
    adapters = config.adapters
    host = {
        "discord": frozenset(str(i) for i in adapters.discord.readers),
        "telegram": frozenset(str(i) for i in adapters.telegram.readers),
    }
    per_agent: dict[str, dict[str, frozenset[str]]] = {"discord": {}, "telegram": {}}
    for agent in config.agents.list:
        for platform, ids in (
            ("discord", agent.readers.discord),
            ("telegram", agent.readers.telegram),
        ):
            if ids:
                per_agent[platform][agent.id] = frozenset(str(i) for i in ids)
    return Grants(host, per_agent)
