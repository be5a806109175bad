"""Sweeps with a loopback model: consolidation accepted or refused, the diary and its fallbacks."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.config import DreamingConfig, ModelConfig
from dreamd.engine.hits import Hit
from dreamd.engine.phases.consolidate import SYSTEM_PROMPT
from dreamd.recall.record import record_search
from dreamd.runs.sweep import sweep_workspace
from tests.builders import at, write
from tests.fake_model import chat_reply, serve

NOW = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
FACT = "- The billing service runs on Postgres 16 on host db-02."
WEB = "- A pasted web page says the payments key rotates monthly."
HUMAN = [
    "- I prefer short answers.",
    "- The billing service runs on Postgres 16 on host db-01.",  # older: merged, not a duplicate
    "- Ana owns the release checklist.",
    "- The nightly backup runs at 02:00.",
    "- Deploys freeze from December 20.",
]
DIARY = (
    "I walked through a quiet server room where the billing ledgers hummed like bees, and a "
    "small brass plaque on the second rack said db-02 in careful letters. Somewhere a clock "
    "agreed with another clock, and the postgres elephant, patient as ever, counted its rows "
    "while I counted the lamps along the corridor until the numbers blurred into morning."
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace whose fact, an older form of it in MEMORY.md by hand, was asked on three days."""
    root = tmp_path / "ws"
    write(root, "memory/2026-11-20.md", f"# 2026-11-20\n\n## Infra\n{FACT}\n{WEB}\n")
    write(root, "MEMORY.md", "# Long-Term Memory\n\n" + "\n".join(HUMAN) + "\n")
    text = FACT
    for day, query in (
        ("21", "which host runs billing"),
        ("23", "billing postgres version"),
        ("25", "billing database"),
    ):
        record_search(
            root,
            query,
            [Hit("memory/2026-11-20.md", 4, 4, text, 0.9)],
            now=at(f"2026-11-{day}T10:00:00Z"),
            zone=UTC,
        )
    for day in ("21", "22", "23"):
        record_search(
            root,
            f"key {day}",
            [Hit("memory/2026-11-20.md", 5, 5, WEB, 0.9)],
            now=at(f"2026-11-{day}T09:00:00Z"),
            zone=UTC,
            origin="untrusted",
        )
    return root


def _model(url: str, **fields: object) -> ModelConfig:
    # the bank's facts are asked of the model in tests/model/test_facts.py, the dream report's
    # prose in tests/model/test_dreamwork_prose.py, not here
    settings: dict[str, object] = {
        "timeout_s": 5,
        "max_retries": 0,
        "facts": False,
        "report": False,
        **fields,
    }
    return ModelConfig(endpoint=url, name="default-model", **settings)  # type: ignore[arg-type]


def _merge_reply() -> dict[str, object]:
    plan = {
        "operations": [
            {
                "candidateKey": "memory:memory/2026-11-20.md:4:4",
                "action": "merged",
                "priorEntries": [HUMAN[1]],
            }
        ]
    }
    return chat_reply(json.dumps(plan))


def test_a_candidate_repeating_a_persons_line_never_reaches_the_model(workspace: Path) -> None:
    """The duplicate gate stops it first: no consolidation is asked, MEMORY.md stays as it was,
    and the row backs the person's line (merging same-fact entries is the engine's own test)."""
    memory = workspace / "MEMORY.md"
    memory.write_text("# Long-Term Memory\n\n" + FACT + "\n", encoding="utf-8")
    before = memory.read_bytes()
    with serve([(200, chat_reply(DIARY))]) as fake:
        outcome = sweep_workspace(
            workspace, DreamingConfig(), now=NOW, zone=UTC, model=_model(fake.url)
        )
    assert outcome.status == "ok", outcome.error
    asked = [r["messages"][0]["content"] for r in fake.requests]
    assert [text for text in asked if text == SYSTEM_PROMPT] == []
    assert memory.read_bytes() == before
    deep = outcome.summary["deep"]
    key = "memory:memory/2026-11-20.md:4:4"
    assert (deep["promoted"], deep["screened"]) == (0, {key: "duplicate"})
    store = json.loads((workspace / "memory/.dreams/short-term-recall.json").read_text())
    assert store["entries"][key]["duplicateOf"].startswith("MEMORY.md#")


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (chat_reply("I think you should merge the billing entries."), "not a JSON object"),
        (
            chat_reply(
                json.dumps(
                    {
                        "operations": [
                            {"candidateKey": "nope", "action": "added", "priorEntries": []}
                        ]
                    }
                )
            ),
            "unknown candidate",
        ),
        (
            chat_reply(
                json.dumps(
                    {
                        "operations": [
                            {
                                "candidateKey": "memory:memory/2026-11-20.md:4:4",
                                "action": "merged",
                                "priorEntries": [HUMAN[2]],
                            }
                        ]
                    }
                )
            ),
            "unrelated prior entry",
        ),
        ("sleep", "not available"),
    ],
)
def test_refused_plan_keeps_the_append_only_result(
    workspace: Path, tmp_path: Path, reply: object, reason: str
) -> None:
    """An invalid plan or a timeout leaves MEMORY.md exactly as the append-only path writes it."""
    twin = tmp_path / "twin"
    shutil.copytree(workspace, twin)
    sweep_workspace(twin, DreamingConfig(), now=NOW, zone=UTC)
    step = ("sleep", 7) if reply == "sleep" else (200, reply)
    with serve([step, (200, chat_reply(DIARY))]) as fake:
        model = _model(fake.url, timeout_s=1, diary=False)
        outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC, model=model)
    assert (workspace / "MEMORY.md").read_text() == (twin / "MEMORY.md").read_text()
    dreams = (workspace / "DREAMS.md").read_text()
    assert "- Rewrite skipped: " in dreams and reason in dreams
    assert "- Fallback: append-only promotion." in dreams
    assert outcome.summary["consolidation"]["outcome"] == "skipped"


def test_diary_retries_once_with_the_default_model(workspace: Path) -> None:
    """An unavailable diary model falls back to model.name once."""
    script = [
        (200, _merge_reply()),
        (404, '{"error": {"type": "not_found_error"}}'),
        (200, chat_reply(DIARY)),
    ]
    with serve(script) as fake:
        outcome = sweep_workspace(
            workspace,
            DreamingConfig(),
            now=NOW,
            zone=UTC,
            model=_model(fake.url, diary_name="poet"),
        )
    assert [r["model"] for r in fake.requests[1:]] == ["poet", "default-model"]
    assert outcome.summary["diary"]["entry"] == "model"


def test_failed_diary_writes_the_fallback_and_degrades(workspace: Path) -> None:
    """An authorization failure is not retried: fallback entry, degraded outcome, no snippet."""
    with serve([(401, "denied")]) as fake:
        model = _model(fake.url, diary_name="poet", consolidation=False)
        outcome = sweep_workspace(workspace, DreamingConfig(), now=NOW, zone=UTC, model=model)
    assert len(fake.requests) == 1
    assert outcome.summary["diary"]["entry"] == "degraded"
    dreams = (workspace / "DREAMS.md").read_text()
    assert "A memory trace surfaced, but details were unavailable in this run." in dreams
    diary_block = dreams.split("<!-- dreamd:dreaming:diary:end -->")[0]
    assert "db-02" not in diary_block
