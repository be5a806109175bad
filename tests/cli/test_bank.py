"""``memory reflect`` and ``memory recall`` end to end, ``memory.md``, stable files, start-up."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dreamd.cli.main import build_parser, main, quick_parser
from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.engine.state import RECALL_STORE
from dreamd.errors import UnsafePathError
from dreamd.store.statefiles import load_table
from dreamd.store.writer import apply_plan

AT = "2025-12-01T10:00:00Z"
NOTES = {
    "2025-11-27": (
        "# 2025-11-27\n\n- Visited the Castle to fix the router.\n\n## Retain\n"
        "- W @Peter: Currently in Marrakech (Nov 27-Dec 1, 2025) for Andy's birthday.\n"
        "- O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp.\n"
        "- W @The-Castle: The Castle is the home server in the attic.\n"
    ),
    "2025-11-28": "# 2025-11-28\n\n## Retain\n- O(c=0.7) @Peter: Prefers concise replies.\n",
    "2025-11-29": "# 2025-11-29\n\n## Retain\n- O @Peter: No longer prefers concise replies.\n",
}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace with three days of Retain facts about Peter and The Castle."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    for day, text in NOTES.items():
        (root / "memory" / f"{day}.md").write_text(text, encoding="utf-8")
    return root


def dreamd(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> Any:
    """``dreamd --json --workspace root --now AT argv``, parsed."""
    code = main(["--json", "--workspace", str(root), "--now", AT, *argv])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def _bank(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text() for p in sorted((root / "bank").rglob("*.md"))
    }


def test_reflect_previews_then_writes_through_the_writer(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The preview writes nothing; --apply writes the pages; both print the same shape."""
    preview = dreamd(capsys, ws, "memory", "reflect")
    assert not (ws / "bank").exists()
    applied = dreamd(capsys, ws, "memory", "reflect", "--apply")
    assert (
        preview["changedFiles"]
        == applied["changedFiles"]
        == [
            "bank/world.md",
            "bank/opinions.md",
            "bank/entities/Peter.md",
            "bank/entities/The-Castle.md",
            "memory/.dreams/bank.json",
        ]
    )
    assert applied["pages"][0] == {"path": "bank/world.md", "kind": "world", "facts": 2}
    (opinion,) = applied["opinions"]
    assert {k: opinion[k] for k in ("statement", "entities", "confidence", "updated")} == {
        "statement": "Prefers concise replies (<1500 chars) on WhatsApp.",
        "entities": ["Peter"],
        "confidence": 0.8117,
        "updated": "2025-11-29",
    }
    assert (len(opinion["supporting"]), len(opinion["contradicting"])) == (2, 1)
    opinions = (ws / "bank" / "opinions.md").read_text()
    assert (
        "\n- Prefers concise replies (<1500 chars) on WhatsApp. (c=0.81, updated 2025-11-29)"
        in (opinions)
    )
    assert dreamd(capsys, ws, "memory", "reflect", "--apply")["changedFiles"] == []


def test_deleting_the_bank_and_reflecting_again_reproduces_it(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bank is derived: without bank/ (and its ledger), reflecting writes the same pages."""
    dreamd(capsys, ws, "memory", "reflect", "--apply")
    first = _bank(ws)
    shutil.rmtree(ws / "bank")
    (ws / "memory" / ".dreams" / "bank.json").unlink()
    dreamd(capsys, ws, "memory", "reflect", "--apply")
    assert _bank(ws) == first


def test_a_persons_edits_are_kept_inside_and_outside_the_block(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Text around the block, an edited fact and an added line survive a new reflection."""
    dreamd(capsys, ws, "memory", "reflect", "--apply")
    page = ws / "bank" / "entities" / "Peter.md"
    text = page.read_text()
    edited = text.replace("# Peter\n", "# Peter\n\nMet him at the Lisbon meetup.\n")
    edited = edited.replace("Currently in Marrakech", "Was in Marrakech")
    edited = edited.replace(
        "<!-- dreamd:bank:end -->", "- Ask him about the trip.\n<!-- dreamd:bank:end -->"
    )
    page.write_text(edited)
    with (ws / "memory" / "2025-11-29.md").open("a") as note:
        note.write("- W @Peter: Back home in Lisbon since Dec 1.\n")
    out = dreamd(capsys, ws, "memory", "reflect", "--apply")
    assert out["editedByHand"] == ["bank/entities/Peter.md"]
    after = page.read_text()
    assert after.startswith(
        "# Peter\n\nMet him at the Lisbon meetup.\n\n<!-- dreamd:bank:begin -->"
    )
    assert "Was in Marrakech" in after and "Currently in Marrakech" not in after
    assert "\n- Ask him about the trip.\n" in after
    assert "Back home in Lisbon since Dec 1." in after


def test_recall_answers_each_shape_with_cited_results(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Entity: the page's summary first; opinion: the opinion with confidence; time: the day."""
    dreamd(capsys, ws, "memory", "reflect", "--apply")
    entity = dreamd(capsys, ws, "memory", "recall", "tell me about The Castle")
    assert entity["query"] == "tell me about The Castle"
    assert entity["results"][0] == {
        "kind": "observation",
        "timestamp": "2025-11-27",
        "entities": ["The Castle"],
        "content": "The Castle — the home server in the attic. 1 fact(s), 2025-11-27 (1 world).",
        "source": "bank/entities/The-Castle.md#L4",
    }
    opinion = dreamd(capsys, ws, "memory", "recall", "what does Peter prefer?")
    assert opinion["results"][0] == {
        "kind": "opinion",
        "timestamp": "2025-11-29",
        "entities": ["Peter"],
        "content": "Prefers concise replies (<1500 chars) on WhatsApp.",
        "source": "bank/opinions.md#L6",
        "confidence": 0.81,
    }
    window = dreamd(capsys, ws, "memory", "recall", "what happened on 2025-11-28")
    assert {r["timestamp"] for r in window["results"]} == {"2025-11-28"}
    only = dreamd(capsys, ws, "memory", "recall", "Marrakech", "--kind", "opinion")
    assert only["results"] == []


def test_recall_records_traces_like_search(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A search hit among the results becomes a recall row; --no-record leaves none."""
    dreamd(capsys, ws, "memory", "recall", "router", "--no-record")
    assert not (ws / "memory" / ".dreams" / "short-term-recall.json").exists()
    dreamd(capsys, ws, "memory", "recall", "router")
    store, _ = load_table(ws, RECALL_STORE)
    assert [(row.path, row.start_line) for row in store.rows.values()] == [
        ("memory/2025-11-27.md", 3)
    ]


def test_search_understands_natural_questions(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "tell me about X" and "what happened on DAY" no longer answer "No results"."""
    about = dreamd(capsys, ws, "memory", "search", "tell me about The Castle", "--no-record")
    assert [h["source"] for h in about["hits"]][:2] == [
        "memory/2025-11-27.md#L8-L8",
        "memory/2025-11-27.md#L3-L3",
    ]
    day = dreamd(capsys, ws, "memory", "search", "what happened on 2025-11-28", "--no-record")
    assert [(h["source"], h["context"]) for h in day["hits"]] == [
        ("memory/2025-11-28.md#L4-L4", True)
    ]


def test_lowercase_memory_md_is_memory_and_no_second_file_is_made(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With only memory.md, a sweep reads it, search calls it memory, MEMORY.md never appears."""
    (ws / "memory.md").write_text("# Memory\n\n- The attic server is called the Castle.\n")
    dreamd(capsys, ws, "sweep")
    assert sorted(p.name for p in ws.iterdir() if p.name.lower() == "memory.md") == ["memory.md"]
    hits = dreamd(capsys, ws, "memory", "search", "attic server Castle", "--no-record")["hits"]
    assert ("memory.md", "memory") in [(h["path"], h["kind"]) for h in hits]


def test_soul_and_user_are_read_never_written(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SOUL.md and USER.md are searched; the writer refuses to replace them."""
    (ws / "USER.md").write_text("# User\n\n- Prefers answers in Portuguese.\n")
    hits = dreamd(capsys, ws, "memory", "search", "answers in Portuguese", "--no-record")["hits"]
    assert [h["path"] for h in hits] == ["USER.md"]
    plan = SweepPlan(writes=(FileWrite("SOUL.md", "x", None, "bank"),))
    with pytest.raises(UnsafePathError, match="read, never written"):
        apply_plan(ws, plan)
    assert not (ws / "SOUL.md").exists()


def test_every_sweep_reflects_and_a_second_sweep_changes_nothing(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bank is a phase after deep ([dreaming.reflect] on by default)."""
    first = dreamd(capsys, ws, "sweep")
    assert "bank/entities/Peter.md" in first["workspaces"][0]["changedFiles"]
    assert first["workspaces"][0]["reflect"]["opinions"] == 1
    again = dreamd(capsys, ws, "--no-daemon", "sweep")
    assert again["workspaces"][0]["changedFiles"] == []


@pytest.mark.parametrize(
    "argv",
    [
        ["memory", "recall", "tell me about Peter", "--k", "3", "--kind", "world"],
        ["--json", "memory", "--agent", "main", "search", "billing", "--since", "30d"],
        ["--workspace", "w", "--now", AT, "memory", "search", "x", "--json", "--no-record"],
    ],
)
def test_the_quick_parser_reads_what_the_full_one_reads(argv: list[str]) -> None:
    """search and recall parse the same through the quick parser as through the full one."""
    quick, full = vars(quick_parser().parse_args(argv)), vars(build_parser().parse_args(argv))
    assert {k: v for k, v in quick.items() if k != "handler"} == {
        k: v for k, v in full.items() if k != "handler"
    }
    assert quick["handler"] is full["handler"]


def test_recall_imports_only_what_it_needs(ws: Path) -> None:
    """A recall process imports no planner, daemon, event loop, lock library or date library."""
    probe = (
        "import sys; from dreamd.cli.main import main; "
        f"main(['--workspace', {str(ws)!r}, '--now', {AT!r}, 'memory', 'recall', "
        "'tell me about Peter', '--json']); "
        "heavy = ('dreamd.engine.phases', 'dreamd.runs', 'dreamd.daemon', 'dreamd.model', "
        "'aiohttp', 'asyncio', 'redis', 'portalocker', 'dateparser', 'rapidfuzz'); "
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_symlinked_bank_is_refused_before_anything_is_read(
    ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """bank/ as a symbolic link: reflect and recall refuse the workspace, nothing is written."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ws / "bank").symlink_to(elsewhere)
    for verb in (["memory", "reflect", "--apply"], ["memory", "recall", "tell me about Peter"]):
        assert main(["--workspace", str(ws), "--now", AT, *verb]) == 1
        assert "bank is a symbolic link" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("k", ["1", "2", "3", "25"])
def test_an_opinion_answer_is_the_same_without_the_search_it_cannot_show(
    ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, k: str
) -> None:
    """When the opinions found fill the answer, the wider search is skipped: the answer and the
    traces it records are those of running it."""
    import dreamd.recall.answers as answers

    dreamd(capsys, ws, "memory", "reflect", "--apply")
    question = ["memory", "recall", "what does Peter prefer?", "--k", k, "--no-record"]
    quick = dreamd(capsys, ws, *question)
    monkeypatch.setattr(answers, "_filled", lambda *_: False)
    assert dreamd(capsys, ws, *question) == quick


def test_a_line_both_opinion_searches_find_is_recorded_once(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The opinion search and the wide one may find the same chunk: one recall, not two."""
    from dreamd.store.pending import read_pending

    dreamd(capsys, ws, "memory", "recall", "does Peter prefer concise replies?")
    (search,) = read_pending(ws)[0]
    sources = [f"{hit.path}#L{hit.start_line}-L{hit.end_line}" for hit in search.hits]
    assert sources and len(sources) == len(set(sources))
