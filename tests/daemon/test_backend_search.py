"""The daemon's search (``/dream search``, the API's ``/search``): the CLI's default hybrid."""

from __future__ import annotations

from pathlib import Path

from dreamd.daemon.backend import DaemonService
from tests.fakes.host import make_daemon

CONFIG = """
[dreaming]
timezone = "UTC"

[[agents.list]]
id = "main"
workspace = "ws"
"""


def _config(tmp_path: Path) -> Path:
    """A config of one workspace: Atlas defined in a topic file, named only in a note."""
    root = tmp_path / "ws"
    (root / "memory" / "topics").mkdir(parents=True)
    (root / "memory" / "topics" / "project_atlas.md").write_text(
        "# Atlas\n\nAtlas is the payments rewrite.\n", encoding="utf-8"
    )
    (root / "memory" / "2026-03-02.md").write_text(
        "# 2026-03-02\n\n## Standup\n- Atlas ships on Friday.\n\n## Lunch\n- Soup again.\n",
        encoding="utf-8",
    )
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    return config


async def test_search_finds_what_only_the_graph_reaches(tmp_path: Path) -> None:
    """The line that names Atlas but not the query's words is found through the topic file,
    which is no result of its own (dreamd derived it)."""
    daemon = make_daemon(_config(tmp_path))
    try:
        found = await DaemonService(daemon).search(None, "payments rewrite", 5)
    finally:
        daemon.workers.shutdown()
    assert [hit["source"] for hit in found["hits"]] == ["memory/2026-03-02.md#L4-L4"]
    assert found["hits"][0]["snippet"] == "- Atlas ships on Friday."


async def test_search_keeps_k(tmp_path: Path) -> None:
    """With one place, the lexical hit keeps it; the graph's episode waits for an empty one."""
    config = _config(tmp_path)
    (tmp_path / "ws" / "memory" / "2026-03-03.md").write_text(
        "# 2026-03-03\n\n- The payments rewrite review slipped a week.\n", encoding="utf-8"
    )
    daemon = make_daemon(config)
    try:
        found = await DaemonService(daemon).search("main", "payments rewrite", 1)
    finally:
        daemon.workers.shutdown()
    assert [hit["source"] for hit in found["hits"]] == ["memory/2026-03-03.md#L3-L3"]
