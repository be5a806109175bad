"""Semantic recall against a loopback embeddings server serving deterministic vectors."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from dreamd.engine.hits import Hit
from dreamd.recall.vectors import VECTORS_FILE, fuse
from dreamd.runs.reading import search_document
from tests.builders import stored_rows, write
from tests.fakes.embeddings import MODEL, FakeEmbeddings
from tests.fakes.server import serve_app

NOW = datetime(2026, 3, 5, 10, 0, tzinfo=UTC)
CAR = "- We bought a new car for the commute."
DB = "- The billing database moved to Postgres 16."


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace with two notes that share no words with the questions asked."""
    root = tmp_path / "ws"
    write(root, "memory/2026-03-01.md", f"# 2026-03-01\n\n{CAR}\n")
    write(root, "memory/2026-03-02.md", f"# 2026-03-02\n\n{DB}\n")
    return root


def _settings(port: int, **extra: Any) -> dict[str, Any]:
    return {
        "endpoint": f"http://127.0.0.1:{port}/v1",
        "model": MODEL,
        "timeout_s": 10.0,
        "api_key_env": None,
        "batch": 64,
        "min_similarity": 0.5,
        **extra,
    }


async def _search(root: Path, query: str, settings: dict[str, Any] | None) -> list[str]:
    found = await asyncio.to_thread(
        search_document, root, query, now=NOW, zone=UTC, k=5, embeddings=settings
    )
    return [f"{hit['source']} {dict(hit['why']).get('semantic')}" for hit in found["hits"]]


async def test_a_question_in_other_words_finds_its_note_only_with_embeddings(root: Path) -> None:
    """Lexically 'automobile purchase' finds nothing; with embeddings the car note is found
    (and only it: the database note is below the similarity floor)."""
    fake = FakeEmbeddings()
    async with serve_app(fake.app()) as port:
        lexical = await _search(root, "automobile purchase", None)
        asked = len(fake.requests)
        semantic = await _search(root, "automobile purchase", _settings(port))
    assert (lexical, asked) == ([], 0)  # off: not one request
    assert semantic == ["memory/2026-03-01.md#L3-L3 0.816"]
    assert sorted(fake.inputs[:2]) == sorted([CAR, DB])  # the chunks, once, then the query
    assert fake.inputs[2:] == ["automobile purchase"]


async def test_vectors_follow_the_index_text_by_text(root: Path) -> None:
    """A note that grows is embedded for its new line only; a note that goes takes its
    vectors with it; another model starts over."""
    fake = FakeEmbeddings()
    async with serve_app(fake.app()) as port:
        await _search(root, "car", _settings(port))
        write(root, "memory/2026-03-01.md", f"# 2026-03-01\n\n{CAR}\n- The vehicle is blue.\n")
        (root / "memory/2026-03-02.md").unlink()
        found = await _search(root, "automobile", _settings(port))
        other = await _search(root, "automobile", _settings(port, model="other-embed"))
    assert sorted(fake.inputs[:2]) == sorted([CAR, DB])
    assert fake.inputs[2:] == [
        "car",
        "- The vehicle is blue.",  # the grown note: its new line only
        "automobile",
        CAR,  # another model: every chunk again
        "- The vehicle is blue.",
        "automobile",
    ]
    assert (
        found == other == ["memory/2026-03-01.md#L4-L4 0.707", "memory/2026-03-01.md#L3-L3 0.577"]
    )
    assert (root / VECTORS_FILE).exists()


async def test_a_failing_endpoint_keeps_the_lexical_hits(root: Path) -> None:
    """A 500 from the endpoint: the search answers with its lexical hits, as without vectors."""
    fake = FakeEmbeddings(failing=True)
    async with serve_app(fake.app()) as port:
        found = await _search(root, "billing database", _settings(port))
    assert found == ["memory/2026-03-02.md#L3-L3 None"]
    assert len(fake.requests) == 2  # one retry, then lexical


def test_fusion_is_reciprocal_rank() -> None:
    """A hit both rankings hold rises above one only the lexical ranking holds; a semantic-only
    hit follows; the lexical score is kept and the similarity added to why."""
    a, b, c = (Hit(f"memory/{n}.md", 1, 1, n, 0.9 - i / 10) for i, n in enumerate("abc"))
    near_c = Hit("memory/c.md", 1, 1, "c", 0.8, why=(("semantic", 0.9),))
    only = Hit("memory/d.md", 1, 1, "d", 0.7, why=(("semantic", 0.7),))
    fused = fuse([a, b, c], [near_c, only], k=3)
    assert [(h.path, h.score, h.why) for h in fused] == [
        ("memory/c.md", c.score, (("semantic", 0.9),)),
        ("memory/a.md", 0.9, ()),
        ("memory/b.md", b.score, ()),
    ]


async def test_memory_index_and_search_from_the_command_line(
    root: Path, tmp_path: Path, isolated_home: Path
) -> None:
    """With [embeddings] in the config: memory index embeds every chunk, memory search finds
    the note by meaning and records it, the key comes from the environment."""
    fake = FakeEmbeddings()
    async with serve_app(fake.app()) as port:
        config = tmp_path / "config.toml"
        config.write_text(
            f'[embeddings]\nendpoint = "http://127.0.0.1:{port}/v1"\nmodel = "{MODEL}"\n'
            'api_key_env = "EMBED_KEY"\n'
        )
        env = {**os.environ, "DREAMD_CONFIG": str(config), "EMBED_KEY": "sekrit-key-1234",
               "DREAMD_NOW": NOW.isoformat()}  # fmt: skip
        argv = [sys.executable, "-m", "dreamd", "--workspace", str(root)]

        async def run(*args: str) -> dict[str, Any]:
            process = await asyncio.create_subprocess_exec(
                *argv, *args, "--json", env=env, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, err = await process.communicate()
            assert process.returncode == 0, err.decode()
            return dict(json.loads(out))

        indexed = await run("memory", "index")
        found = await run("memory", "search", "automobile purchase")
    assert indexed["embedded"] == 2
    assert [hit["source"] for hit in found["hits"]] == ["memory/2026-03-01.md#L3-L3"]
    assert set(fake.authorizations) == {"Bearer sekrit-key-1234"}
    rows = stored_rows(root)
    assert [(row["path"], row["startLine"], row["recallCount"]) for row in rows.values()] == [
        ("memory/2026-03-01.md", 3, 1)
    ]
