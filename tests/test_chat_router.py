"""The chat router against the daemon's real service over a real workspace."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dreamd.chat import Actor, Invocation, Reply, Router
from dreamd.daemon import Daemon
from dreamd.hoststate import EnabledState, effective_enabled
from dreamd.recall.traces import TAINTED_ORIGINS
from dreamd.service import DaemonService
from dreamd.state import RECALL_STORE
from dreamd.statefiles import load_table
from dreamd.web import ADMIN, READ
from tests.fakes.host import make_daemon, make_host

STRANGER = Actor("42")
OWNER = Actor("7", is_owner=True)
REFUSAL = (
    "/dreaming on|off requires owner status for channel callers "
    "or operator.admin for gateway clients."
)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[tuple[Router, Daemon, Path, str]]:
    """A router over a daemon's service (not running) for a one-workspace host."""
    config, root, note = make_host(tmp_path)
    daemon = make_daemon(config)
    yield Router(DaemonService(daemon)), daemon, root, note
    daemon.workers.shutdown()


async def _ask(router: Router, actor: Actor, text: str) -> Reply:
    words = text.split()
    return await router.dispatch(Invocation(actor, words[0], tuple(words[1:]), "test"))


async def test_stranger_gets_status_and_help(host: tuple[Router, Daemon, Path, str]) -> None:
    """Status opens with the Dreaming status block; help is usage, status and phases."""
    router = host[0]
    status = await _ask(router, STRANGER, "dreaming status")
    assert status.ephemeral is True
    assert status.text.splitlines()[:4] == [
        "Dreaming status:",
        "- enabled: on (UTC)",
        "- sweep cadence: 0 3 * * *",
        "- promotion policy: score>=0.75, recalls>=3, uniqueQueries>=3",
    ]
    help_ = (await _ask(router, STRANGER, "dreaming")).text
    assert help_.startswith("Usage: /dreaming status\n\nDreaming status:\n")
    assert help_.endswith("- DREAMS.md is for human-readable dreaming summaries and diary entries.")
    owner_help = (await _ask(router, OWNER, "dreaming help")).text
    assert owner_help.startswith("Usage: /dreaming status\nUsage: /dreaming on|off\n\n")
    assert (await _ask(router, STRANGER, "dreaming sideways")).text == help_


async def test_on_off_needs_an_owner_and_persists(host: tuple[Router, Daemon, Path, str]) -> None:
    """A stranger is refused; an owner's off persists as the host override; admin API works."""
    router = host[0]
    refused = await _ask(router, STRANGER, "dreaming off")
    assert refused == Reply(REFUSAL, ephemeral=True)
    assert effective_enabled(True) == EnabledState(True, "config")
    off = await _ask(router, OWNER, "dreaming off")
    assert off.ephemeral is False
    assert off.text.startswith("Dreaming disabled.\n\nDreaming status:\n- enabled: off (UTC)")
    assert effective_enabled(True) == EnabledState(False, "override")
    reader = Actor("api", scopes=frozenset({READ}))
    assert (await _ask(router, reader, "dreaming on")).text == REFUSAL
    admin = Actor("api", scopes=frozenset({READ, ADMIN}))
    assert (await _ask(router, admin, "dreaming on")).text.startswith("Dreaming enabled.")
    assert effective_enabled(False) == EnabledState(True, "override")


async def test_search_cites_hits_and_records_only_for_owners(
    host: tuple[Router, Daemon, Path, str],
) -> None:
    """Hits cite path#Lx-Ly; an owner's search is a recall trace, a stranger's is not."""
    router, _, root, note = host

    def recalls() -> int:
        store, _ = load_table(root, RECALL_STORE, readonly=True)
        return sum(row.recall_count for row in store.rows.values())

    before = recalls()
    found = await _ask(router, STRANGER, "dream search which host runs billing")
    assert found.text.splitlines()[:3] == [
        'Results for "which host runs billing":',
        found.text.splitlines()[1],
        "   - The billing service runs on Postgres 16 on host db-02.",
    ]
    assert found.text.splitlines()[1].startswith(f"1. {note}#L3-L3 (score ")
    assert recalls() == before
    await _ask(router, OWNER, "dream search billing postgres")
    store, _ = load_table(root, RECALL_STORE, readonly=True)
    (row,) = store.rows.values()
    assert row.recall_count == before + 1
    assert row.provenance is not None
    assert row.provenance.origin_class not in TAINTED_ORIGINS
    nothing = await _ask(router, STRANGER, "dream search zebra")
    assert nothing.text == 'No results for "zebra".'


async def test_read_views(host: tuple[Router, Daemon, Path, str]) -> None:
    """status, report, rag status and explain answer from the workspace's state."""
    router, _, root, note = host
    status = (await _ask(router, STRANGER, "dream status")).text
    assert status.startswith("Dream status: on (ok), next run ")
    report = (await _ask(router, STRANGER, "dream report")).text
    assert report == (
        f"Report for {root}\nDiary:\n(no diary entry yet)\nDeep Sleep:\n(no deep report yet)"
    )
    rag = (await _ask(router, STRANGER, "dream rag status")).text.splitlines()
    assert rag[:2] == [
        f"RAG status for {root}",
        "- recall store: 1 entries (0 promoted, 1 spaced, 0 grounded, 0 dangling)",
    ]
    assert rag[2].startswith("- index: ")
    assert rag[3] == "- long-term layer: 0 entries"
    explained = (await _ask(router, STRANGER, "dream explain billing")).text.splitlines()
    assert explained[:2] == [f"Promotion Explain ({root})", f"{note}#L3-L3"]
    assert explained[-1] == "verdict: promotable"
    ready = (await _ask(router, STRANGER, "dream explain")).text.splitlines()
    assert ready[0] == f"Ready to promote in {root}: 1"
    missing = await _ask(router, STRANGER, "dream explain zebra")
    assert missing == Reply('error: No promotion candidate matched "zebra".', ephemeral=True)
    choices = await router.dispatch(
        Invocation(STRANGER, "dream", ("explain", "billing"), "test", complete=True)
    )
    assert choices.choices == (f"memory:{note}:3:3",)


async def test_now_needs_an_owner_and_sweeps(host: tuple[Router, Daemon, Path, str]) -> None:
    """A stranger is refused /dream now; an owner's sweep promotes the fact into MEMORY.md."""
    router, _, root, _ = host
    refused = await _ask(router, STRANGER, "dream now")
    assert refused.text == (
        "/dream now requires owner status for channel callers "
        "or operator.admin for gateway clients."
    )
    done = await _ask(router, OWNER, "dream now")
    assert done.text.splitlines()[0] == "Sweep finished."
    assert done.text.splitlines()[1].startswith(f"- {root}: staged ")
    assert done.ephemeral is False
    assert "db-02" in (root / "MEMORY.md").read_text(encoding="utf-8")
