"""``memory report|patterns|graph`` and ``memory search --mode/--explain`` end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dreamd.cli.main import main

AT = "2026-03-03T03:00:00Z"
FAILED = "- The nightly export failed with a timeout."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """Three failures over two days, and Atlas defined in a topic file."""
    root = tmp_path / "ws"
    (root / "memory" / "topics").mkdir(parents=True)
    (root / "memory" / "2026-03-01.md").write_text(f"# 2026-03-01\n\n## Log\n{FAILED}\n{FAILED}\n")
    (root / "memory" / "2026-03-02.md").write_text(
        f"# 2026-03-02\n\n## Log\n{FAILED}\n\n## Standup\n- Atlas ships on Friday.\n"
    )
    (root / "memory" / "topics" / "project_atlas.md").write_text(
        "# Atlas\n\nAtlas is the payments rewrite.\n"
    )
    return root


def dreamd(capsys: pytest.CaptureFixture[str], root: Path, *argv: str, code: int = 0) -> Any:
    """``dreamd --json --workspace root --now AT argv``, parsed."""
    got = main(["--json", "--workspace", str(root), "--now", AT, *argv])
    out = capsys.readouterr()
    assert got == code, out
    return json.loads(out.out or out.err)


def test_graph_patterns_and_report_after_a_sweep(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The three verbs answer in the documented shapes, from what the sweep wrote."""
    dreamd(capsys, ws, "sweep")
    graph = dreamd(capsys, ws, "memory", "graph")
    assert set(graph) >= {"entities", "facetPoints", "facets", "episodes", "edges", "health"}
    assert graph["episodes"] == 5  # three note sections, the topic file and the pattern
    assert set(graph["health"]["components"]) == {
        "connectivity",
        "reachable",
        "freshness",
        "promotion_yield",
        "recall_pressure",
        "junk_refused",
        "durable_kept",
    }
    assert 0 <= graph["health"]["score"] <= 100
    patterns = dreamd(capsys, ws, "memory", "patterns")["patterns"]
    assert [(p["path"], p["name"], p["created"], len(p["examples"])) for p in patterns] == [
        (
            "memory/patterns/p-nightly-export-timeout.md",
            "The nightly export failed with a timeout",
            "2026-03-02",
            3,
        )
    ]
    assert set(patterns[0]) == {
        "path",
        "name",
        "trigger",
        "response",
        "examples",
        "created",
        "updated",
    }
    report = dreamd(capsys, ws, "memory", "report")
    assert (report["day"], report["path"]) == ("2026-03-03", "memory/dreams/2026-03-03.md")
    assert report["sections"]["What Keeps Going Wrong"] == [
        "- The nightly export failed with a timeout: went wrong 3 times over 2 days, last on "
        "2026-03-02 (new tonight); no fix recorded yet"
    ]
    assert isinstance(report["health"], int)
    again = dreamd(capsys, ws, "memory", "report", "--day", "2026-03-03")
    assert again == report


def test_report_bad_input_is_a_clear_error(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed day, or a day without a report, says so and exits 1."""
    assert main(["--workspace", str(ws), "memory", "report", "--day", "March"]) == 1
    assert "dreamd: error: --day 'March': expected a day like" in capsys.readouterr().err
    assert main(["--workspace", str(ws), "memory", "report"]) == 1
    assert "no dream report yet" in capsys.readouterr().err


def test_search_modes_and_explain(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bundle search finds the line that only names Atlas, through the words the topic file
    gives it, and shows its route with --explain; the topic file itself is never a hit."""
    args = ("memory", "search", "payments rewrite", "--no-record")
    lexical = dreamd(capsys, ws, *args, "--mode", "lexical")["hits"]
    bundled = dreamd(capsys, ws, *args, "--mode", "bundle", "--explain")["hits"]
    hybrid = dreamd(capsys, ws, *args)["hits"]
    assert lexical == []
    assert ("memory/2026-03-02.md", 7) in {(h["path"], h["startLine"]) for h in bundled}
    assert all(h["route"][-1].startswith("ep:") for h in bundled)
    assert [h["path"] for h in hybrid][:1] == ["memory/2026-03-02.md"]
    assert all("topics" not in h["path"] for h in (*bundled, *hybrid))


def test_explain_says_why_a_hit_is_where_it_is(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same failure logged three times is one hit that cites the other two; --explain
    shows its second-stage sum term by term, and the first stage's signals."""
    argv = ["--workspace", str(ws), "--now", AT, "memory", "search", "nightly export"]
    assert main([*argv, "--no-record", "--explain", "--k", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "1.000 memory/2026-03-02.md#L4-L4",
        f"  {FAILED}",
        "  also: memory/2026-03-01.md#L4-L4, memory/2026-03-01.md#L5-L5",
        "  why: rerank 1.050 = first 1.000x1 + proximity 0.500x0.1; first stage: lexical 1.000,"
        " note 1.000, phrase 1.000, recency 0.989",
    ]
