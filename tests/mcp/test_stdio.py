"""``dreamd mcp`` as an agent host runs it: a subprocess spoken to by the real ``mcp`` client."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.builders import write
from tests.processes import run_cli

NOW = "2026-03-05T10:00:00+00:00"
MEMORY = "# Memory\n\n- The person prefers tea over coffee.\n"
PROMOTED = (
    "\n## Promoted From Short-Term Memory (2026-03-01)\n\n"
    "<!-- dreamd-memory-promotion:memory:memory/2026-03-01.md:3:3 -->\n"
    "- We use Postgres for billing. [score=0.810 recalls=3 avg=0.700 source=memory/2026-03-01.md:3-3]\n"
)


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    write(root, "MEMORY.md", MEMORY)
    write(
        root, "memory/2026-03-01.md", "# 2026-03-01\n\n- We decided to use Postgres for billing.\n"
    )
    return root


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "DREAMD_HOME": str(home), "DREAMD_NOW": NOW}


@asynccontextmanager
async def served(root: Path, home: Path, *extra: str) -> AsyncIterator[Client]:
    """A client session with ``dreamd --workspace ROOT mcp`` running as a subprocess."""
    command = StdioServerParameters(
        command=sys.executable,
        args=["-m", "dreamd", "--workspace", str(root), "mcp", *extra],
        env=_env(home),
    )
    async with Client(command) as client:
        yield client


async def _call(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def _refusal(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    return str(result.content[0].text)  # type: ignore[union-attr]


async def test_a_session_recalls_remembers_a_fact_and_sees_it_in_the_next_recall(
    tmp_path: Path, isolated_home: Path
) -> None:
    """Recall finds the note; remember writes a Retain fact to today's note; the next recall
    about its entity returns it, cited."""
    root = _workspace(tmp_path)
    async with served(root, isolated_home) as client:
        tools = sorted(tool.name for tool in (await client.list_tools()).tools)
        first = await _call(client, "recall", {"question": "what do we use for billing?"})
        kept = await _call(
            client,
            "remember",
            {"text": "Peter moved to Lisbon in March.", "kind": "world", "entities": ["Peter"]},
        )
        again = await _call(client, "recall", {"question": "tell me about Peter"})
    assert tools == [
        "get",
        "log_message",
        "memory_insert",
        "memory_replace",
        "recall",
        "remember",
        "search",
    ]
    assert first["results"] == [
        {
            "kind": "experience",
            "timestamp": "2026-03-01",
            "entities": [],
            "content": "- We decided to use Postgres for billing.",
            "source": "memory/2026-03-01.md#L3-L3",
        }
    ]
    assert kept == {
        "workspace": "main",
        "line": 4,
        "text": "- W @Peter: Peter moved to Lisbon in March.",
        "fact": True,
        "path": "memory/2026-03-05.md",
        "changed": True,
    }
    assert (root / "memory/2026-03-05.md").read_text() == (
        "# 2026-03-05\n\n## Retain\n- W @Peter: Peter moved to Lisbon in March.\n"
    )
    assert again["results"] == [
        {
            "kind": "world",
            "timestamp": "2026-03-05",
            "entities": ["peter"],
            "content": "- W @Peter: Peter moved to Lisbon in March.",
            "source": "memory/2026-03-05.md#L4-L4",
        }
    ]


async def test_memory_edits_keep_dreamings_lines_and_revert_undoes_them(
    tmp_path: Path, isolated_home: Path
) -> None:
    """An insert and a replace change only the person's lines, a replace of a promoted entry
    or of a line that changed is refused, and ``memory revert`` undoes each edit without
    --force (the lines it drops are the agent's)."""
    root = _workspace(tmp_path)
    original = MEMORY + PROMOTED
    write(root, "MEMORY.md", original)
    async with served(root, isolated_home) as client:
        inserted = await _call(client, "memory_insert", {"text": "- Works from Lisbon."})
        promoted = await _refusal(
            client,
            "memory_replace",
            {"line": 9, "expected": "- We use Postgres for billing.", "text": "- MySQL."},
        )
        stale = await _refusal(
            client, "memory_replace", {"line": 3, "expected": "- tea", "text": "- green tea"}
        )
        shown = await _call(client, "get", {"path": "MEMORY.md", "start_line": 3, "end_line": 4})
        replaced = await _call(
            client,
            "memory_replace",
            {"line": 3, "expected": shown["text"].split("\n")[0], "text": "- Prefers green tea."},
        )
    assert (inserted["line"], inserted["text"], inserted["changed"]) == (
        4,
        "- Works from Lisbon.",
        True,
    )
    assert inserted["undo"] == "dreamd memory revert --last --apply"
    assert promoted.startswith("Error executing tool memory_replace: MEMORY.md:9 is dreaming's")
    assert stale.startswith("Error executing tool memory_replace: MEMORY.md:3 no longer reads")
    assert shown["text"] == "- The person prefers tea over coffee.\n- Works from Lisbon."
    assert replaced["backup"] is not None
    edited = (
        MEMORY.replace("tea over coffee", "green tea").replace("The person prefers", "Prefers")
        + "- Works from Lisbon.\n"
        + PROMOTED
    )
    assert (root / "MEMORY.md").read_text() == edited
    env = _env(isolated_home)
    done = run_cli(env, "--workspace", str(root), "memory", "revert", "--last", "--apply")
    assert done.returncode == 0, done.stderr
    assert (root / "MEMORY.md").read_text() == MEMORY + "- Works from Lisbon.\n" + PROMOTED
    first = inserted["backup"]
    done = run_cli(env, "--workspace", str(root), "memory", "revert", "--to", first, "--apply")
    assert done.returncode == 0, done.stderr
    assert (root / "MEMORY.md").read_text() == original


async def test_read_only_offers_reading_and_refuses_every_write(
    tmp_path: Path, isolated_home: Path
) -> None:
    """With --read-only, recall answers and remember and memory edits are refused, unwritten."""
    root = _workspace(tmp_path)
    async with served(root, isolated_home, "--read-only") as client:
        found = await _call(client, "search", {"query": "Postgres billing"})
        refused = await _refusal(client, "remember", {"text": "Peter moved to Lisbon."})
        insert = await _refusal(client, "memory_insert", {"text": "- Works from Lisbon."})
    assert [hit["source"] for hit in found["hits"]] == ["memory/2026-03-01.md#L3-L3"]
    assert refused == (
        "Error executing tool remember: remember writes memory, an owner's action: it needs "
        "the operator.admin scope; this caller may only read"
    )
    assert insert.startswith("Error executing tool memory_insert: memory_insert writes memory")
    assert (root / "MEMORY.md").read_text() == MEMORY
    assert not (root / "memory/2026-03-05.md").exists()


async def test_resources_are_memory_today_and_the_bank_pages(
    tmp_path: Path, isolated_home: Path
) -> None:
    """MEMORY.md, today's note and each bank page read as resources, redacted."""
    root = _workspace(tmp_path)
    write(root, "bank/entities/Peter.md", "# Peter\n\n- Peter owns billing.\n")
    write(root, "memory/2026-03-05.md", "# 2026-03-05\n\n- The db password is hunter2hunter2.\n")
    async with served(root, isolated_home) as client:
        listed = sorted(str(r.uri) for r in (await client.list_resources()).resources)
        memory = await client.read_resource("memory://MEMORY.md")
        today = await client.read_resource("memory://today")
        pages = await client.read_resource("memory://bank")
        peter = await client.read_resource("memory://bank/entities/Peter.md")
        with pytest.raises(MCPError, match="Unknown resource"):
            await client.read_resource("memory://bank/../MEMORY.md")
    assert listed == ["memory://MEMORY.md", "memory://bank", "memory://today"]
    assert memory.contents[0].text == MEMORY  # type: ignore[union-attr]
    assert "hunter2hunter2" not in today.contents[0].text  # type: ignore[union-attr]
    assert today.contents[0].text.startswith("# 2026-03-05\n\n- The db password is ")  # type: ignore[union-attr]
    assert pages.contents[0].text == "memory://bank/entities/Peter.md\n"  # type: ignore[union-attr]
    assert peter.contents[0].text == "# Peter\n\n- Peter owns billing.\n"  # type: ignore[union-attr]
