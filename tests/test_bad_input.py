"""The bad input catalogue (docs/bad-input.md): each malformed input through the real code path.

Each test feeds a malformed input to the CLI or the sweep, on real files, and checks the clear
error (``dreamd: error: ...``, exit 1) or the safe outcome, and that MEMORY.md lost nothing.
Inputs already tested elsewhere are only listed in the catalogue, not repeated here.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from dreamd.chat.router import POLICY, Actor, command_key, parse
from dreamd.cli.main import main
from dreamd.config import DreamingConfig, ModelConfig
from dreamd.engine.hits import Hit
from dreamd.recall.record import record_search
from dreamd.runs.sweep import sweep_workspace
from tests.builders import at, write
from tests.fake_model import chat_reply, serve
from tests.processes import run_cli

NOW = "2026-11-26T03:00:00Z"
HUMAN = "# Long-Term Memory\n\n- A human line.\n- The nightly backup runs at 02:00.\n"
FACT = "- The billing service runs on Postgres 16 on host db-02."


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``dreamd argv`` in-process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with a human MEMORY.md and one fact searched on three days."""
    root = tmp_path / "ws"
    write(root, "memory/2026-11-20.md", f"# 2026-11-20\n\n## Infra\n{FACT}\n")
    write(root, "MEMORY.md", HUMAN)
    for day, query in (("21", "which host"), ("23", "billing postgres"), ("25", "billing db")):
        record_search(
            root,
            query,
            [Hit("memory/2026-11-20.md", 4, 4, FACT, 0.9)],
            now=at(f"2026-11-{day}T10:00:00Z"),
            zone=UTC,
        )
    return root


def _sweep(capsys: pytest.CaptureFixture[str], root: Path, *extra: str) -> dict[str, object]:
    code, out, err = run(capsys, *extra, "--json", "--workspace", str(root), "--now", NOW, "sweep")
    assert code == 0, err
    assert "internal error" not in err
    result: dict[str, object] = json.loads(out)["workspaces"][0]
    return result


def _human_text_kept(root: Path) -> None:
    assert (root / "MEMORY.md").read_text(encoding="utf-8").startswith(HUMAN)


# --- Malformed config -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (b"[dreaming\nenabled = true\n", "invalid TOML"),
        (b'[dreaming]\nenabled = "yes"\n', "dreaming.enabled"),
        (b"[dreaming.deep]\nlimit = 1.5\n", "dreaming.deep.limit"),
        (b"[dreaming]\nfrequncy = '0 3 * * *'\n", "dreaming.frequncy"),
        (b"dreaming = 3\n", "dreaming"),
        (b"[dreaming]\nfrequency = '61 3 * * *'\n", "dreaming.frequency"),
        (b"[dreaming]\nfrequency = '@reboot'\n", "dreaming.frequency"),
        (b"[dreaming]\ntimezone = 'Mars/Olympus'\n", "dreaming.timezone"),
        (b"[dreaming]\ntimezone = 'Europe'\n", "dreaming.timezone"),
        (b"[dreaming]\ntimezone = '../../etc/passwd'\n", "dreaming.timezone"),
        (b"[dreaming]\nenabled = tr\xffue\n", "UTF-8"),
        (b"\x00\x01\x02", "invalid TOML"),
    ],
    ids=[
        "bad-toml",
        "wrong-type",
        "float-for-int",
        "unknown-key",
        "table-is-a-number",
        "cron-out-of-range",
        "cron-macro",
        "unknown-timezone",
        "timezone-is-a-folder",
        "timezone-path",
        "invalid-utf8",
        "binary",
    ],
)
def test_malformed_config_is_a_clear_error_and_writes_nothing(
    workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], config: bytes, message: str
) -> None:
    """Every malformed config stops the sweep with exit 1 naming the file; nothing is written."""
    path = tmp_path / "dreamd.toml"
    path.write_bytes(config)
    before = {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file()}
    code, out, err = run(
        capsys, "--config", str(path), "--workspace", str(workspace), "--now", NOW, "sweep"
    )
    assert code == 1, err
    assert err.startswith("dreamd: error: ") and str(path) in err and message in err
    assert out == ""
    assert {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file()} == before


# --- Corrupt state files ---------------------------------------------------------------------

TABLES = {
    "short-term-recall.json": b"entries",
    "phase-signals.json": b"entries",
    "daily-ingestion.json": b"files",
}


@pytest.mark.parametrize(
    "content",
    [
        b'{"version": 1, "entries": {"memory:memory/2026-11-20.md:4:4": {"key": "mem',
        b"",
        b"[1, 2, 3]",
        b'{"version": 1, "TABLE": "not a table"}',
        b'{"version": 1, "TABLE": {"k": 5}}',
        b"\xff\xfe garbage \x00",
    ],
    ids=["truncated", "empty", "array", "entries-is-a-string", "row-is-a-number", "binary"],
)
@pytest.mark.parametrize(
    "name", ["short-term-recall.json", "phase-signals.json", "daily-ingestion.json"]
)
def test_corrupt_state_file_is_set_aside_and_the_sweep_completes(
    workspace: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes
) -> None:
    """A garbled state file is kept aside byte-for-byte, the sweep completes, MEMORY.md is intact."""
    state = workspace / "memory" / ".dreams"
    content = content.replace(b"TABLE", TABLES[name])
    (state / name).write_bytes(content)
    result = _sweep(capsys, workspace)
    assert result["status"] == "ok"
    aside = [p.read_bytes() for p in state.glob(f"{name}.corrupt-*")]
    assert aside == [content]
    assert any(name in str(w) for w in result["warnings"])  # type: ignore[attr-defined]
    _human_text_kept(workspace)
    again = _sweep(capsys, workspace)
    assert again["status"] == "ok"


# --- Notes: NUL bytes, invalid UTF-8, 20 MB, deep nesting, symlinks ---------------------------


@pytest.mark.slow
def test_odd_notes_are_read_safely_or_skipped_by_name(
    workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NUL bytes, invalid UTF-8, a 20 MB note, 3,000-deep lists and symlink loops and escapes:
    the sweep completes, names what it skipped, writes nothing outside, and keeps MEMORY.md."""
    notes = workspace / "memory"
    (notes / "2026-11-24.md").write_bytes(b"- nul \x00 in\x00 the middle\n\x00\x00\n")
    (notes / "2026-11-25.md").write_bytes(b"- caf\xe9 \xc3\x28 broken \xff utf-8\n")
    with (notes / "2026-11-23.md").open("wb") as handle:
        line = b"- a very ordinary line of a very long note about nothing much at all\n"
        handle.write(line * (20 * 1024 * 1024 // len(line) + 1))
    deep = "".join("  " * depth + f"- level {depth}\n" for depth in range(3000))
    write(workspace, "memory/2026-11-26.md", deep + "\n" + ">" * 3000 + " quoted\n")
    (notes / "loop").symlink_to(notes)
    (notes / "self.md").symlink_to(notes / "self.md")
    outside = tmp_path / "outside"
    outside.mkdir()
    write(outside, "secret.md", "- a secret outside the workspace\n")
    (notes / "2026-11-19.md").symlink_to(outside / "secret.md")
    (notes / "escape").symlink_to(outside)
    before_outside = sorted(p.name for p in outside.rglob("*"))

    result = _sweep(capsys, workspace)

    assert result["status"] == "ok"
    skipped = " ".join(map(str, result.get("skipped", []) or result["warnings"]))  # type: ignore[call-overload]
    warnings = json.dumps(result)
    assert "2026-11-23.md" in warnings and "larger than 16 MiB" in warnings
    assert "2026-11-19.md" in warnings
    assert "2026-11-25.md: not valid UTF-8" in warnings
    assert skipped
    assert sorted(p.name for p in outside.rglob("*")) == before_outside
    _human_text_kept(workspace)
    memory = (workspace / "MEMORY.md").read_bytes()
    assert b"\x00" not in memory and b"secret" not in memory
    code, out, err = run(
        capsys, "--json", "--workspace", str(workspace), "memory", "search", "level 2999"
    )
    assert code == 0, err
    assert "secret" not in out
    assert _sweep(capsys, workspace)["status"] == "ok"


# --- Model replies of every bad shape ---------------------------------------------------------


@pytest.mark.parametrize(
    "step",
    [
        (200, "this is not json"),
        (200, "[1, 2, 3]"),
        (200, {"choices": []}),
        (200, {"choices": "many"}),
        (200, {"choices": [{"message": {"role": "assistant", "content": ""}}]}),
        (200, {"choices": [{"message": {"role": "assistant", "content": None}}]}),
        (200, {"choices": [{"message": {"content": [{"type": "text", "text": None}]}}]}),
        (200, {"choices": [{"message": {"content": [{"text": 5}, "x", None]}}]}),
        (200, {"choices": [{"message": "not an object"}]}),
        (200, chat_reply("not a plan at all")),
        (200, chat_reply('{"operations": "merge everything"}')),
        (200, chat_reply('{"operations": [{"candidateKey": ["unhashable"], "action": 1}]}')),
        (200, chat_reply('```json\n{"operations": [' + "[" * 5000 + "]}\n```")),
        (200, chat_reply("short")),
        (500, "server fell over"),
        (400, '{"error": "bad request"}'),
    ],
    ids=[
        "not-json",
        "json-array",
        "no-choices",
        "choices-is-a-string",
        "empty-content",
        "null-content",
        "part-text-null",
        "parts-of-any-type",
        "message-is-a-string",
        "prose-instead-of-a-plan",
        "operations-not-a-list",
        "unhashable-key",
        "deeply-nested-json",
        "too-short-diary",
        "server-error",
        "client-error",
    ],
)
def test_bad_model_replies_fall_back_to_the_append_only_result(
    workspace: Path, tmp_path: Path, step: tuple[int, object]
) -> None:
    """Any bad answer leaves MEMORY.md exactly as the append-only sweep writes it; the diary
    falls back to its fixed entry; the sweep still succeeds."""
    twin = tmp_path / "twin"
    shutil.copytree(workspace, twin)
    now = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
    sweep_workspace(twin, DreamingConfig(), now=now, zone=UTC)
    with serve([step]) as fake:
        model = ModelConfig(endpoint=fake.url, name="m", timeout_s=5, max_retries=0)
        outcome = sweep_workspace(workspace, DreamingConfig(), now=now, zone=UTC, model=model)
    assert fake.requests, "the model was never asked"
    assert outcome.status == "ok", outcome.error
    assert (workspace / "MEMORY.md").read_bytes() == (twin / "MEMORY.md").read_bytes()
    _human_text_kept(workspace)
    assert outcome.summary["diary"]["entry"] in ("fallback", "degraded")
    dreams = (workspace / "DREAMS.md").read_text()
    assert "A memory trace surfaced, but details were unavailable in this run." in dreams


# --- Chat commands and /dreaming with odd arguments -------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("/dreaming on off", "dreaming usage"),
        ("/dreaming ON", "dreaming on"),
        ("/dreaming sideways", "dreaming usage"),
        ("/dreaming " + "x" * 10_000, "dreaming usage"),
        ("/dream", "dream help"),
        ("/dream explain", "dream explain"),
        ("/dream now please", "dream usage"),
        ("/dream search \x00\u202e\ufeff 🙂", "dream search"),
        ("/DREAM@bot   status   ", "dream status"),
    ],
)
def test_chat_commands_with_odd_arguments_map_to_a_known_answer(text: str, key: str) -> None:
    """Odd arguments never reach a handler unchecked: they map to a policy key, often usage."""
    invocation = parse(text, actor=Actor("1"), platform="t", bot_username="bot")
    assert invocation is not None
    assert command_key(invocation) == key
    assert key in POLICY


@pytest.mark.parametrize(
    "argument", ["sideways", "on off", "", "\u202eno", "x" * 5000, "--on", "ON;rm -rf"]
)
def test_dreaming_cli_with_odd_arguments_changes_nothing(
    workspace: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str], argument: str
) -> None:
    """``dreamd dreaming <odd>`` is a usage error (exit 2) and leaves the host state alone."""
    args = argument.split(" ") if " " in argument else [argument]
    before = sorted(p.relative_to(isolated_home) for p in isolated_home.rglob("*"))
    code, _, err = run(capsys, "--workspace", str(workspace), "--now", NOW, "dreaming", *args)
    assert code == 2, err
    assert "Traceback" not in err
    assert sorted(p.relative_to(isolated_home) for p in isolated_home.rglob("*")) == before


@pytest.mark.parametrize(
    "memory",
    [HUMAN.encode() + b"- caf\xe9\n", HUMAN.encode() + b"- a \x00 nul\n"],
    ids=["utf8", "nul"],
)
def test_odd_bytes_in_memory_md_are_never_rewritten(
    workspace: Path, capsys: pytest.CaptureFixture[str], memory: bytes
) -> None:
    """A MEMORY.md that is not valid UTF-8 is left byte-for-byte; one with a NUL keeps it."""
    (workspace / "MEMORY.md").write_bytes(memory)
    result = _sweep(capsys, workspace)
    assert result["status"] == "ok"
    after = (workspace / "MEMORY.md").read_bytes()
    if b"\xe9" in memory:
        assert after == memory
        assert "MEMORY.md" not in result["changedFiles"]  # type: ignore[operator]
    else:
        assert after.startswith(memory)


def _oversized(path: Path) -> None:
    line = b"- a very ordinary line of a very long note about nothing much at all\n"
    path.write_bytes(line * (16 * 1024 * 1024 // len(line) + 2))


def _binary(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * (4 * 1024 * 1024 // 256))


def _million_lines(path: Path) -> None:
    path.write_bytes(b"- tick\n" * 1_000_000)


@pytest.mark.parametrize("storage", ["separate", "inline", "both"])
@pytest.mark.parametrize(
    ("make", "warning"),
    [
        (_oversized, "larger than 16 MiB, skipped"),
        (_binary, "skipped"),
        (_million_lines, "more than 50,000 lines, skipped"),
    ],
    ids=["16MiB", "binary", "million-lines"],
)
def test_no_note_makes_a_sweep_hang_in_any_storage_mode(
    workspace: Path, tmp_path: Path, storage: str, make: Any, warning: str
) -> None:
    """Follows OpenClaw's dreaming-markdown-safety.test.ts: today's note over 16 MiB, binary or
    of a million lines is skipped and named in every storage mode (inline once hung on it), the
    sweep ends in bounded time (a hang is the failure, not a speed target), and the note is left
    byte for byte."""
    note = workspace / "memory" / "2026-11-26.md"
    make(note)
    before = note.read_bytes()
    config = tmp_path / "dreamd.toml"
    config.write_text(f'[dreaming]\nstorage = "{storage}"\n', encoding="utf-8")
    env = {**os.environ, "DREAMD_NOW": NOW}
    done = run_cli(
        env,
        "--config",
        str(config),
        "--json",
        "--workspace",
        str(workspace),
        "sweep",
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)["workspaces"][0]
    assert result["status"] == "ok"
    assert "memory/2026-11-26.md: " in json.dumps(result) and warning in json.dumps(result)
    assert note.read_bytes() == before
    _human_text_kept(workspace)


def test_both_writes_only_into_an_existing_daily_note(
    workspace: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """storage = "both" puts the light and REM blocks into today's note when the agent has
    written it, and never creates the agent's note itself (the reports hold everything)."""
    config = tmp_path / "both.toml"
    config.write_text('[dreaming]\nstorage = "both"\n', encoding="utf-8")
    today = workspace / "memory" / "2026-11-26.md"
    _sweep(capsys, workspace, "--config", str(config))
    assert not today.exists()
    assert (workspace / "memory/dreaming/light/2026-11-26.md").exists()
    today.write_text("# 2026-11-26\n\n- Wrote the agent's own line today.\n", encoding="utf-8")
    _sweep(capsys, workspace, "--config", str(config))
    text = today.read_text(encoding="utf-8")
    assert text.startswith("# 2026-11-26\n\n- Wrote the agent's own line today.\n")
    assert "<!-- dreamd:dreaming:light:start -->" in text
