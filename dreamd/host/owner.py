"""Who owns the sweep job, and whether its heartbeat can run it (SPEC §10). Pure.

A cron fire only queues an event for the owner; the owner's heartbeat runs it. So dreaming that
is on but has no owner (a fleet without ``agents.system_agent``) or whose owner's heartbeat is
off (``every`` <= 0 or unparsable, target ``none``, or other agents have their own heartbeat and
the owner has none) never sweeps: that is the ``blocked`` status, reported with its reason and
the fix.
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamd.config import parse_duration
from dreamd.workspace.discovery import Discovery

__all__ = ["NO_OWNER", "Readiness", "assess"]

NO_OWNER = "Agent-less cron job has no resolvable owner. Set agents.system_agent."


@dataclass(frozen=True)
class Readiness:
    """The owner and, when sweeps cannot run, why and how to fix it."""

    owner: str | None
    blocked: str | None = None
    fix: str | None = None
    warnings: tuple[str, ...] = ()


def assess(discovery: Discovery) -> Readiness:
    """Resolve the owner and check its heartbeat."""
    owner = discovery.owner
    if owner is None:
        fix = "set agents.system_agent in the dreamd config to the agent that should own sweeps"
        return Readiness(None, NO_OWNER, fix, (NO_OWNER,))
    agent = next(agent for agent in discovery.agents if agent.id == owner)
    every = parse_duration(agent.heartbeat_every)
    where = f"heartbeat of agent {owner!r}"
    if every is None or every <= 0:
        return Readiness(
            owner,
            f"the {where} is off (every = {agent.heartbeat_every!r})",
            "set agents.heartbeat.every (or the agent's heartbeat.every) to e.g. '30m'",
        )
    if agent.heartbeat_target.strip().lower() == "none":
        return Readiness(
            owner,
            f"the {where} has target 'none'",
            "set the heartbeat target to something other than 'none'",
        )
    others = [a.id for a in discovery.agents if a.id != owner and a.own_heartbeat]
    if others and not agent.own_heartbeat:
        return Readiness(
            owner,
            f"agents {', '.join(sorted(others))} have a heartbeat but the owner {owner!r} has none",
            f"give agent {owner!r} its own heartbeat block",
        )
    return Readiness(owner)
