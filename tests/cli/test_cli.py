"""The CLI end to end on tmp_path workspaces: JSON shapes, exit codes, errors, golden output."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dreamd.cli.main import main
from tests.builders import golden_with_facts, stored_rows
from tests.processes import scaled

GOLDEN = Path(__file__).parents[1] / "fixtures" / "openclaw-golden"
AT = "2026-11-29T12:00:00Z"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``dreamd argv`` in-process; returns (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    """Run with --json and parse stdout; the command must succeed."""
    code, out, err = run(capsys, "--json", *argv)
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    """A copy of OpenClaw's golden workspace."""
    target = tmp_path / "golden"
    shutil.copytree(GOLDEN / "workspace", target)
    return target


@pytest.fixture
def golden_facts(tmp_path: Path) -> Path:
    """OpenClaw's golden workspace with its lines stated as lasting rules (same ranking)."""
    return golden_with_facts(tmp_path / "golden-facts")


def test_promote_json_matches_openclaw(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`memory promote --json` ranks OpenClaw's candidates with its components and scores; the
    gate after ranking then refuses the fixture's "… checked." status lines as situational."""
    out = run_json(
        capsys, "--workspace", str(golden), "--now", AT, "memory", "promote", "--limit", "1000"
    )
    expected = json.loads((GOLDEN / "promote.json").read_text())["candidates"]
    assert [c["key"] for c in out["ranked"]] == [c["key"] for c in expected]
    for mine, theirs in zip(out["ranked"], expected, strict=True):
        for field in ("signalCount", "uniqueQueries", "recallDays", "avgScore", "maxScore"):
            assert mine[field] == theirs[field]
        assert mine["score"] == pytest.approx(theirs["score"], abs=1e-12)
        assert mine["components"] == pytest.approx(theirs["components"], abs=1e-12)
        assert mine["refusedBy"] == "situational"
    assert (out["candidates"], out["apply"]) == ([], None)
    assert out["rejected"]["situational"] == len(expected)
    assert sum(out["rejected"].values()) == 200


def test_promote_json_passes_lasting_facts(
    golden_facts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the same rows stated as lasting rules, OpenClaw's candidates pass every gate."""
    out = run_json(
        capsys,
        "--workspace",
        str(golden_facts),
        "--now",
        AT,
        "memory",
        "promote",
        "--limit",
        "1000",
    )
    expected = json.loads((GOLDEN / "promote.json").read_text())["candidates"]
    assert [c["key"] for c in out["candidates"]] == [c["key"] for c in expected]
    assert sum(out["rejected"].values()) == 200 - len(expected)


@pytest.mark.parametrize(
    "name",
    [
        "explain-memory_memory_2026-11-12.md_8_8.json",
        "explain-memory_memory_2026-10-25.md_3_3.json",
    ],
)
def test_promote_explain_matches_openclaw(
    golden: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """`promote-explain KEY --json` gives OpenClaw's candidate, thresholds and passes, and the
    gate after ranking that refuses the fixture's status line."""
    expected = json.loads((GOLDEN / name).read_text())
    key = expected["candidate"]["key"]
    out = run_json(
        capsys, "--workspace", str(golden), "--now", AT, "memory", "promote-explain", key
    )
    assert out["candidate"]["key"] == key
    assert out["candidate"]["score"] == pytest.approx(expected["candidate"]["score"], abs=1e-12)
    assert out["candidate"]["components"] == pytest.approx(
        expected["candidate"]["components"], abs=1e-12
    )
    assert out["passes"] == expected["passes"]
    assert {k: out["thresholds"][k] for k in expected["thresholds"]} == expected["thresholds"]
    # the fixture's lines are a note's shorthand for what was done ("firmware and guest checked")
    detail = ("situational", "what happened that day")
    assert (out["rejection"], out["stoppedBy"]["detail"]) == detail


def test_promote_preview_writes_nothing(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --apply, promote leaves every file as it was."""
    before = {p: p.read_bytes() for p in golden.rglob("*") if p.is_file()}
    run_json(capsys, "--workspace", str(golden), "--now", AT, "memory", "promote")
    assert {p: p.read_bytes() for p in golden.rglob("*") if p.is_file()} == before


def test_promote_apply_writes_memory(
    golden_facts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--apply appends the passing candidates and marks them promoted; a rerun adds nothing."""
    out = run_json(
        capsys, "--workspace", str(golden_facts), "--now", AT, "memory", "promote", "--apply"
    )
    assert out["apply"]["applied"] == 6
    memory = (golden_facts / "MEMORY.md").read_text()
    assert memory.count("<!-- dreamd-memory-promotion:") == 6
    again = run_json(
        capsys, "--workspace", str(golden_facts), "--now", AT, "memory", "promote", "--apply"
    )
    assert again["candidates"] == []
    assert again["apply"]["applied"] == 0
    assert (golden_facts / "MEMORY.md").read_text() == memory


def test_search_json_and_recording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Search prints the documented JSON and records traces; --no-record records none."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory/2026-11-28.md").write_text(
        "# 2026-11-28\n\n- The billing service runs on Postgres 16.\n"
    )
    out = run_json(
        capsys, "--workspace", str(root), "--now", AT, "memory", "search", "billing postgres"
    )
    assert out["query"] == "billing postgres"
    assert out["hits"] == [
        {
            "path": "memory/2026-11-28.md",
            "startLine": 3,
            "endLine": 3,
            "snippet": "- The billing service runs on Postgres 16.",
            "score": 1.0,
            "source": "memory/2026-11-28.md#L3-L3",
            "kind": "daily",
            "day": "2026-11-28",
            "entities": [],
            "confidence": None,
            "context": False,
            "why": {
                "lexical": 1.0,
                "note": 1.0,
                "recency": 0.989,
                "first": 1.0,
                "proximity": 0.2,
                "rerank": 1.02,
            },
            "also": [],
            "was": [],
        }
    ]
    assert stored_rows(root)["memory:memory/2026-11-28.md:3:3"]["recallCount"] == 1
    run_json(
        capsys, "--workspace", str(root), "--now", AT, "memory", "search", "--no-record", "billing"
    )
    assert stored_rows(root)["memory:memory/2026-11-28.md:3:3"]["recallCount"] == 1


def test_search_filters_by_entity_kind_and_days(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--entity, --kind, --since and --until narrow the hits; a bad bound is an error."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory/2026-11-01.md").write_text("- Peter drinks tea.\n")
    (root / "memory/2026-11-28.md").write_text(
        "## Retain\n- O(c=0.7) @Peter: Prefers green tea.\n- W @Ana: Tea is on the list.\n"
    )
    base = ["--workspace", str(root), "--now", AT, "memory", "search", "--no-record", "tea"]

    def lines(*flags: str) -> list[tuple[str, int]]:
        out = run_json(capsys, *base, "--k", "9", *flags)
        return sorted((hit["path"], hit["startLine"]) for hit in out["hits"])

    assert lines("--entity", "@peter") == [("memory/2026-11-28.md", 2)]
    assert lines("--kind", "opinion", "--kind", "world") == [
        ("memory/2026-11-28.md", 2),
        ("memory/2026-11-28.md", 3),
    ]
    assert lines("--until", "2026-11-15") == [("memory/2026-11-01.md", 1)]
    assert lines("--since", "7d") == [("memory/2026-11-28.md", 2), ("memory/2026-11-28.md", 3)]
    code, _, err = run(capsys, *base, "--until", "someday")
    assert (code, err) == (
        1,
        "dreamd: error: --until 'someday': expected a day like 2025-11-01 or a duration like 30d\n",
    )


def test_search_stdin_prints_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--stdin answers one JSON object per input line."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory/2026-11-28.md").write_text(
        "- Alpha service runs nightly.\n- Beta service runs hourly.\n"
    )
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("alpha\n\nbeta\n"))
    code, out, _ = run(
        capsys, "--json", "--workspace", str(root), "--now", AT, "memory", "search", "--stdin"
    )
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["query"] for line in lines] == ["alpha", "beta"]


def test_disabled_dreaming_records_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With dreaming off (host override), searches record no traces."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory/2026-11-28.md").write_text("- The billing service runs on Postgres 16.\n")
    code, out, _ = run(capsys, "--workspace", str(root), "--now", AT, "dreaming", "off")
    assert code == 0 and out.startswith("Dreaming disabled.")
    run_json(capsys, "--workspace", str(root), "--now", AT, "memory", "search", "billing")
    assert not (root / "memory/.dreams/short-term-recall.json").exists()
    code, out, _ = run(capsys, "--json", "--workspace", str(root), "--now", AT, "status")
    status = json.loads(out)
    assert (code, status["enabled"], status["enabledSource"], status["status"]) == (
        6,
        False,
        "override",
        "disabled",
    )
    assert status["nextRun"] is None


def test_status_json_shape(golden_facts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """status --json has enabled, status, warnings and per-workspace counts."""
    out = run_json(capsys, "--workspace", str(golden_facts), "--now", AT, "status")
    assert (out["enabled"], out["status"], out["warnings"]) == (True, "ok", [])
    assert out["nextRun"] == "2026-11-30T03:00:00.000Z"
    workspace = out["workspaces"][0]
    assert workspace["path"] == str(golden_facts.resolve())
    assert (workspace["agents"], workspace["shortTerm"], workspace["candidates"]) == (
        ["main"],
        200,
        6,
    )


def test_sweep_json_summary(golden_facts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """sweep --json reports each workspace's phases and what changed."""
    out = run_json(capsys, "--workspace", str(golden_facts), "--now", AT, "sweep")
    result = out["workspaces"][0]
    assert result["status"] == "ok"
    assert result["deep"]["promoted"] == 6
    assert "MEMORY.md" in result["changedFiles"]
    assert set(result) >= {"light", "rem", "deep", "diary", "warnings", "durationMs"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workspace", "/nonexistent/ws", "status"], "does not exist"),
        (["--now", "yesterday", "status"], "not an ISO-8601 time"),
        (["--config", "/nonexistent/config.toml", "status"], "config file not found"),
    ],
)
def test_errors_exit_1_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """User errors print 'dreamd: error: ...' and exit 1."""
    code, _, err = run(capsys, *argv)
    assert code == 1
    assert err.startswith("dreamd: error: ") and message in err


def test_bad_config_key_names_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown config key is an error naming the file and the dotted key."""
    config = tmp_path / "config.toml"
    config.write_text("[dreaming.deep]\nmin_scor = 0.8\n")
    code, _, err = run(capsys, "--config", str(config), "status")
    assert code == 1
    assert str(config) in err and "dreaming.deep.min_scor" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """Unknown commands and bad arguments are usage errors."""
    assert run(capsys, "frobnicate")[0] == 2
    assert run(capsys, "memory", "promote", "--limit", "many")[0] == 2


def test_explain_unknown_selector(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unmatched selector is a clear error."""
    code, _, err = run(
        capsys, "--workspace", str(golden), "--now", AT, "memory", "promote-explain", "zzz-nothing"
    )
    assert code == 1
    assert 'No promotion candidate matched "zzz-nothing".' in err


def test_rem_harness_writes_nothing(golden_facts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rem-harness previews REM and deep candidates and leaves the workspace untouched."""
    before = {p: p.read_bytes() for p in golden_facts.rglob("*") if p.is_file()}
    out = run_json(capsys, "--workspace", str(golden_facts), "--now", AT, "memory", "rem-harness")
    assert out["deep"]["candidateCount"] == 6
    assert out["rem"]["bodyLines"][0] == "### Reflections"
    assert {p: p.read_bytes() for p in golden_facts.rglob("*") if p.is_file()} == before


def test_console_script_runs_as_a_process(golden: Path, tmp_path: Path) -> None:
    """The installed `dreamd` entry point works in a real subprocess."""
    env = {
        "DREAMD_HOME": str(tmp_path / "home"),
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "TZ": "UTC",
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "dreamd",
            "--json",
            "--workspace",
            str(golden),
            "--now",
            AT,
            "status",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=scaled(60),
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "ok"
    version = subprocess.run(
        [sys.executable, "-m", "dreamd", "--version"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert version.stdout.startswith("dreamd ")
