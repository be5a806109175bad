"""The chat router against the daemon's real service over real workspaces: who sees what."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from dreamd.chat.access import grants_of
from dreamd.chat.router import Actor, Invocation, Place, Reply, Router
from dreamd.chat.text import GROUP_REFUSAL, STRANGER_REFUSAL
from dreamd.control import ADMIN, READ
from dreamd.daemon.backend import DaemonService
from dreamd.daemon.main import Daemon
from dreamd.engine.state import RECALL_STORE
from dreamd.engine.traces import TAINTED_ORIGINS
from dreamd.host.state import EnabledState, effective_enabled
from dreamd.store.statefiles import load_table
from tests.fakes.host import FACT, OPS_FACT, SECRET, make_daemon, make_fleet

STRANGER = Actor("42")
OWNER = Actor("7", is_owner=True)
OPS_READER = Actor("55")
HOST_READER = Actor("66")
MEMORY_COMMANDS = (
    "dream status",
    "dream search billing host",
    "dream search ops rota",
    "dream about billing",
    "dream report",
    "dream rag status",
    "dream explain",
    "dream explain billing",
)


@dataclass
class Host:
    """A router over a (not running) daemon of two agents, and what it must never leak."""

    router: Router
    daemon: Daemon
    main: Path
    ops: Path
    tmp: Path


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    """Agents ``main`` and ``ops``; 55 reads ``ops``, 66 reads both."""
    config, main, ops = make_fleet(tmp_path, ops_reader=55, host_reader=66)
    daemon = make_daemon(config)
    await daemon.warm_counts()
    router = Router(DaemonService(daemon), grants=lambda: grants_of(daemon.runtime.config))
    yield Host(router, daemon, main, ops, tmp_path)
    daemon.workers.shutdown()


async def _ask(
    router: Router, actor: Actor, text: str, place: Place = Place.PRIVATE, platform: str = "test"
) -> Reply:
    words = text.split()
    invocation = Invocation(actor, words[0], tuple(words[1:]), platform, place=place)
    return await router.dispatch(invocation)


async def _telegram(host: Host, actor: Actor, text: str, place: Place = Place.PRIVATE) -> str:
    return (await _ask(host.router, actor, text, place, "telegram")).text


def _leaks(host: Host, text: str, *, memory: bool = True) -> list[str]:
    """Secrets or server paths (and, with ``memory``, memory text) found in ``text``."""
    words = ("db-02", "Postgres", "war room", SECRET[:12]) if memory else (SECRET[:12],)
    found = [word for word in words if word in text]
    return found + [str(path) for path in (host.tmp, host.main, host.ops) if str(path) in text]


async def test_stranger_sees_reduced_status_and_nothing_of_memory(host: Host) -> None:
    """A stranger gets on/off, the state and the next run; every memory command one sentence."""
    status = await _telegram(host, STRANGER, "dreaming status")
    lines = status.splitlines()
    assert lines[:3] == ["Dreaming status:", "- enabled: on", "- state: ok"]
    assert lines[3].startswith("- next run: ")
    assert lines[3].endswith(" UTC")
    assert len(lines) == 4
    for text in MEMORY_COMMANDS:
        assert await _telegram(host, STRANGER, text) == STRANGER_REFUSAL, text
    help_ = await _telegram(host, STRANGER, "dreaming help")
    assert help_.startswith("Usage: /dreaming status\n\nDreaming status:\n- enabled: on\n")
    assert _leaks(host, help_ + status) == []
    assert await _telegram(host, STRANGER, "dreaming off") == (
        "Only the bot's owners can turn dreaming off."
    )
    assert (
        await _telegram(host, STRANGER, "dream now") == "Only the bot's owners can start a sweep."
    )
    assert effective_enabled(True) == EnabledState(True, "config")


async def test_start_and_help_answer_anyone(host: Host) -> None:
    """/start and /help say what the bot is and list only what the asker may run."""
    stranger = await _telegram(host, STRANGER, "start")
    assert stranger.startswith("I consolidate the memory of this host's agents")
    assert stranger.endswith("\n\nUsage: /dreaming status")
    owner = await _telegram(host, OWNER, "help")
    assert owner.endswith("Usage: /dream explain [selector]\nUsage: /dream now")


async def test_owner_status_names_agents_not_paths(host: Host) -> None:
    """An owner's full status names workspaces by agent id; no absolute path is shown."""
    status = await _telegram(host, OWNER, "dreaming status")
    assert "- workspace main: " in status
    assert "- workspace ops: " in status
    assert _leaks(host, status) == []
    dream = await _telegram(host, OWNER, "dream status")
    assert dream.splitlines()[1].startswith("- main: 1 short-term")
    assert _leaks(host, dream) == []


async def test_search_is_redacted_and_recorded_only_for_owners(host: Host) -> None:
    """Hits cite files relative to the workspace; a token in a note is masked on the way out."""
    before = _recalls(host.main)
    found = await _telegram(host, OWNER, "dream search deploy token billing")
    assert found.splitlines()[0] == 'Results for "deploy token billing":'
    assert SECRET not in found
    assert "ghp_***" in found  # masked, its vendor prefix kept
    assert _leaks(host, found, memory=False) == []
    assert _recalls(host.main) == before + 1  # the owner's search is a recall trace (the fact)
    await _telegram(host, HOST_READER, "dream search billing postgres")
    assert _recalls(host.main) == before + 1  # a reader's is not


async def test_reader_reads_only_their_agents(host: Host) -> None:
    """The ops reader finds ops's memory and never main's; the host reader finds both."""
    mine = await _telegram(host, OPS_READER, "dream search rota handover")
    assert OPS_FACT[2:40] in mine
    theirs = await _telegram(host, OPS_READER, "dream search billing postgres db-02")
    assert theirs == 'No results for "billing postgres db-02".'
    report = await _telegram(host, OPS_READER, "dream report")
    assert report.startswith("Report for ops\n")
    assert "Report for main" not in report
    status = await _telegram(host, OPS_READER, "dream status")
    assert "- ops: " in status
    assert "- main: " not in status
    explain = await _telegram(host, OPS_READER, "dream explain billing")
    assert explain == 'error: No promotion candidate matched "billing".'
    both = await _telegram(host, HOST_READER, "dream search billing postgres")
    assert FACT[2:30] in both
    assert (await _ask(host.router, OPS_READER, "dream search ops", platform="discord")).text != (
        STRANGER_REFUSAL
    )
    assert (await _ask(host.router, OPS_READER, "dream search ops", platform="api")).text == (
        STRANGER_REFUSAL  # a reader on one platform is nobody on another
    )


async def test_readers_never_change_anything(host: Host) -> None:
    """Readers are refused on/off and now, like strangers."""
    for actor in (OPS_READER, HOST_READER):
        assert await _telegram(host, actor, "dreaming off") == (
            "Only the bot's owners can turn dreaming off."
        )
        assert await _telegram(host, actor, "dream now") == (
            "Only the bot's owners can start a sweep."
        )
    assert effective_enabled(True) == EnabledState(True, "config")


async def test_groups_never_see_memory(host: Host) -> None:
    """In a group, memory commands ask for a private chat; on/off says only what changed."""
    for actor in (OWNER, HOST_READER):
        for text in MEMORY_COMMANDS:
            reply = await _ask(host.router, actor, text, Place.GROUP, "telegram")
            assert reply.text == GROUP_REFUSAL, text
        status = await _telegram(host, actor, "dreaming status", Place.GROUP)
        assert len(status.splitlines()) == 4
        assert _leaks(host, status) == []
    for text in MEMORY_COMMANDS:
        reply = await _ask(host.router, STRANGER, text, Place.GROUP, "telegram")
        assert reply.text == STRANGER_REFUSAL
    off = await _ask(host.router, OWNER, "dreaming off", Place.GROUP, "telegram")
    assert off == Reply("Dreaming disabled.", ephemeral=False)
    assert effective_enabled(True) == EnabledState(False, "override")
    whisper = await _ask(host.router, OWNER, "dream search billing postgres", Place.WHISPER)
    assert whisper.ephemeral is True
    assert FACT[2:30] in whisper.text


async def test_on_off_in_private_shows_the_new_status(host: Host) -> None:
    """An owner's off persists as the host override; operator.admin may do it too."""
    off = await _telegram(host, OWNER, "dreaming off")
    assert off.startswith("Dreaming disabled.\n\nDreaming status:\n- enabled: off (UTC)")
    assert effective_enabled(True) == EnabledState(False, "override")
    reader = Actor("api", scopes=frozenset({READ}))
    assert (await _ask(host.router, reader, "dreaming on")).text == (
        "Only the bot's owners can turn dreaming on."
    )
    assert "db-02" in (await _ask(host.router, reader, "dream search billing postgres")).text
    admin = Actor("api", scopes=frozenset({READ, ADMIN}))
    assert (await _ask(host.router, admin, "dreaming on")).text.startswith("Dreaming enabled.")
    assert effective_enabled(False) == EnabledState(True, "override")


async def test_read_views_for_owners(host: Host) -> None:
    """report, rag status and explain answer from the workspaces' state, by agent id."""
    router = host.router
    report = (await _ask(router, OWNER, "dream report")).text
    assert report.startswith("Report for main\nDiary:\n(no diary entry yet)\nDeep Sleep:\n")
    rag = (await _ask(router, OWNER, "dream rag status")).text.splitlines()
    assert rag[:2] == [
        "RAG status for main",
        "- recall store: 1 entries (0 promoted, 1 spaced, 0 grounded, 0 dangling)",
    ]
    explained = (await _ask(router, OWNER, "dream explain billing")).text.splitlines()
    assert explained[0] == "Promotion Explain (main)"
    assert explained[1].endswith("#L3-L3")
    assert explained[-1] == "verdict: promotable"
    ready = (await _ask(router, OWNER, "dream explain")).text.splitlines()
    assert ready[0] == "Ready to promote in main: 1"
    choices = await router.dispatch(
        Invocation(OWNER, "dream", ("explain", "billing"), "test", complete=True)
    )
    assert len(choices.choices) == 1
    assert choices.choices[0].startswith("memory:memory/")
    none = await router.dispatch(
        Invocation(STRANGER, "dream", ("explain", "billing"), "test", complete=True)
    )
    assert none.choices == ()


async def test_now_needs_an_owner_and_sweeps(host: Host) -> None:
    """An owner's sweep promotes the fact into MEMORY.md; the reply names agents, not paths."""
    done = await _ask(host.router, OWNER, "dream now")
    lines = done.text.splitlines()
    assert lines[0] == "Sweep finished."
    assert lines[1].startswith("- main: staged ")
    assert done.ephemeral is False
    assert _leaks(host, done.text) == []
    assert "db-02" in (host.main / "MEMORY.md").read_text(encoding="utf-8")


def _recalls(root: Path) -> int:
    store, _ = load_table(root, RECALL_STORE, readonly=True)
    rows = list(store.rows.values())
    assert all(
        row.provenance is None or row.provenance.origin_class not in TAINTED_ORIGINS for row in rows
    )
    return sum(row.recall_count for row in rows)
