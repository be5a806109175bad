"""``/dream about <entity>``: an entity page's summary, for owners and readers of its agent only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.chat.access import grants_of
from dreamd.chat.router import Actor, Invocation, Place, Router
from dreamd.chat.text import GROUP_REFUSAL, STRANGER_REFUSAL
from dreamd.cli.main import main
from dreamd.daemon.backend import DaemonService
from dreamd.engine.bank.block import END
from tests.fakes.host import SECRET, make_daemon, make_fleet

OWNER = Actor("7", is_owner=True)
OPS_READER = Actor("55")
STRANGER = Actor("42")


def _retain(root: Path, lines: str) -> None:
    day = datetime.now(UTC).date().isoformat()
    with (root / "memory" / f"{day}.md").open("a", encoding="utf-8") as handle:
        handle.write(f"\n## Retain\n{lines}\n")
    assert main(["--workspace", str(root), "memory", "reflect", "--apply"]) == 0


@pytest.fixture
async def router(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> AsyncIterator[Router]:
    """Agents ``main`` (a page on Peter holding a token) and ``ops`` (a page on The Castle)."""
    config, ws_main, ws_ops = make_fleet(tmp_path, ops_reader=55, host_reader=66)
    _retain(
        ws_main,
        f"- W @Peter: Peter keeps the deploy key {SECRET} in the vault.\n"
        "- W @Peter: Peter runs the night shift at the Lisbon office.",
    )
    page = ws_main / "bank" / "entities" / "Peter.md"  # a person adds a line with an address
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(END, f"- Reach him at peter.k@example.com.\n{END}"), "utf-8")
    _retain(ws_ops, "- W @The-Castle: The Castle is the home server in the attic.")
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


async def test_an_owner_reads_the_entity_page_with_secrets_masked(router: Router) -> None:
    """The summary and facts come back; a noted token or a typed-in address never leaves."""
    text = await _ask(router, OWNER, "dream about Peter")
    title, summary = text.splitlines()[:2]
    # the page says who he is by what he does, from the one fact the redaction left
    assert (title, summary.startswith("Peter — runs the night shift at the Lisbon office.")) == (
        "Peter (bank/entities/Peter.md)",
        True,
    )
    assert "night shift" in text
    assert SECRET[:12] not in text and "peter.k@example.com" not in text


async def test_a_reader_sees_only_the_pages_of_their_agents(router: Router) -> None:
    """The ops reader finds The Castle (ops) and nothing about Peter (main)."""
    castle = await _ask(router, OPS_READER, "dream about the castle")
    assert castle.startswith("The Castle (bank/entities/The-Castle.md)\n")
    assert await _ask(router, OPS_READER, "dream about Peter") == (
        'Nothing in the memory bank about "Peter" yet.'
    )


async def test_strangers_and_groups_get_one_sentence(router: Router) -> None:
    """A stranger is refused; in a Telegram group even an owner is asked to write privately."""
    assert await _ask(router, STRANGER, "dream about Peter") == STRANGER_REFUSAL
    assert await _ask(router, OWNER, "dream about Peter", Place.GROUP) == GROUP_REFUSAL
