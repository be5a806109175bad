"""Owner resolution and the blocked status (SPEC §10)."""

from __future__ import annotations

from pathlib import Path

from dreamd.host.owner import NO_OWNER, assess
from dreamd.workspace.discovery import AgentInfo, Discovery


def fleet(*agents: AgentInfo, system: str | None = None) -> Discovery:
    """A discovery result with just agents."""
    return Discovery(workspaces=(), origin="config", agents=agents, system_agent=system)


def agent(name: str, every: str = "30m", target: str = "last", *, own: bool = False) -> AgentInfo:
    """An agent with a heartbeat."""
    return AgentInfo(name, Path("/ws"), None, every, target, own)


def test_sole_agent_owns_and_is_ready() -> None:
    """One agent with a heartbeat: it owns the sweep; nothing blocks."""
    assert assess(fleet(agent("main"))).owner == "main"
    assert assess(fleet(agent("main"))).blocked is None


def test_fleet_without_system_agent_has_no_owner() -> None:
    """Several agents and no system agent: blocked with the documented warning."""
    readiness = assess(fleet(agent("a"), agent("b")))
    assert (readiness.owner, readiness.blocked, readiness.warnings) == (None, NO_OWNER, (NO_OWNER,))
    assert "agents.system_agent" in (readiness.fix or "")


def test_system_agent_owns_the_fleet() -> None:
    """The configured system agent owns the sweep."""
    assert assess(fleet(agent("a"), agent("ops"), system="ops")).owner == "ops"


def test_heartbeat_off_blocks() -> None:
    """every <= 0, an unparsable every, or target none block, with reason and fix."""
    for every, target in (("0m", "last"), ("soon", "last"), ("30m", "none")):
        readiness = assess(fleet(agent("main", every, target)))
        assert readiness.blocked is not None
        assert readiness.fix


def test_owner_without_own_heartbeat_among_agents_that_have_one() -> None:
    """Other agents have their own heartbeat block but the owner has none: blocked."""
    readiness = assess(fleet(agent("ops"), agent("b", own=True), system="ops"))
    assert readiness.blocked == "agents b have a heartbeat but the owner 'ops' has none"
