"""``/dream status`` and ``/dream report`` show the graph, health, patterns and the dream report."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamd.chat.access import grants_of
from dreamd.chat.router import Actor, Invocation, Place, Router, parse
from dreamd.chat.text import GROUP_REFUSAL
from dreamd.cli.main import main
from dreamd.daemon.backend import DaemonService
from tests.fakes.host import SECRET, make_daemon, make_fleet

OWNER = Actor("7", is_owner=True)
OPS_READER = Actor("55")


@pytest.fixture
async def router(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> AsyncIterator[Router]:
    """Agent ``main`` swept over three failures in two days, one line holding a token."""
    config, ws_main, _ = make_fleet(tmp_path, ops_reader=55, host_reader=66)
    today = datetime.now(UTC).date()
    for back, lines in ((1, 2), (0, 1)):
        day = (today - timedelta(days=back)).isoformat()
        failures = "".join("- The nightly export failed with a timeout.\n" for _ in range(lines))
        with (ws_main / "memory" / f"{day}.md").open("a", encoding="utf-8") as handle:
            handle.write(f"\n## Log\n{failures}- Actually the key is {SECRET}, not the old one.\n")
    assert main(["--workspace", str(ws_main), "sweep"]) == 0
    capsys.readouterr()
    daemon = make_daemon(config)
    yield Router(DaemonService(daemon), grants=lambda: grants_of(daemon.runtime.config))
    daemon.workers.shutdown()


async def _ask(router: Router, actor: Actor, text: str, place: Place = Place.PRIVATE) -> str:
    words = text.split()
    reply = await router.dispatch(
        Invocation(actor, words[0], tuple(words[1:]), "telegram", place=place)
    )
    return reply.text


async def test_status_shows_graph_counts_health_and_patterns(router: Router) -> None:
    """The owner's ``/dream status`` names the graph, the health score and one pattern."""
    text = await _ask(router, OWNER, "dream status")
    graph = next(line for line in text.splitlines() if line.startswith("  memory map: "))
    assert "note sections" in graph and "health " in graph
    assert graph.endswith("; 1 recurring mistake(s)")
    assert "not scored yet" not in graph and "facet" not in text.lower()


async def test_report_shows_the_latest_dream_report_redacted(router: Router) -> None:
    """``/dream report`` holds the dream report in short (at most 800 characters, no internal
    names, the command for the rest); the noted token never leaves."""
    text = await _ask(router, OWNER, "dream report")
    short = text.split("Dream report:\n", 1)[1].split("\n\n", 1)[0]
    assert len(short) <= 800
    assert (
        "Keeps going wrong:\n• The nightly export failed with a timeout: went wrong 3 times"
        in short
    )
    assert short.endswith("More: dreamd memory report --agent main")
    for internal in ("FacetPoint", "M-FLOW", "junk_refused", "Root cause"):
        assert internal not in text
    assert SECRET[:12] not in text


async def test_memory_stays_out_of_groups_and_other_agents(router: Router) -> None:
    """In a Telegram group the report is refused; the ops reader sees nothing of ``main``."""
    assert await _ask(router, OWNER, "dream report", Place.GROUP) == GROUP_REFUSAL
    assert "nightly export" not in await _ask(router, OPS_READER, "dream report")


def test_dream_report_in_words_is_the_command() -> None:
    """A message saying only "dream report" (or 梦境报告) is ``/dream report``; others are not."""
    for said in ("dream report", "Dream report?", "梦境报告"):
        found = parse(said, actor=OWNER, platform="telegram")
        assert found is not None and (found.command, found.args) == ("dream", ("report",))
    assert parse("what a dream report that was", actor=OWNER, platform="telegram") is None
