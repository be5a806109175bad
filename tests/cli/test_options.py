"""The command line as people type it: global options anywhere, --agent on memory verbs,
unknown words named, an example in every --help, one JSON error shape, completion scripts."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dreamd.cli.completion import SHELLS
from dreamd.cli.main import build_parser, main
from dreamd.cli.options import EXAMPLES, commands_of

AT = "2026-11-29T12:00:00Z"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``dreamd argv`` in-process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """An empty workspace."""
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    return tmp_path / "ws"


def test_global_options_after_the_verb_mean_the_same(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`status --workspace W --now T --json` prints what `--workspace W --now T --json status` does."""
    before = run(capsys, "--workspace", str(ws), "--now", AT, "--json", "status")
    after = run(capsys, "status", "--workspace", str(ws), "--now", AT, "--json")
    assert before[0] == after[0] == 0
    assert json.loads(before[1]) == json.loads(after[1])


def test_workspace_flags_add_up_on_both_sides(tmp_path: Path) -> None:
    """--workspace given before and after the verb names both workspaces, from the cwd."""
    from dreamd.cli.main import _parse

    args = _parse(build_parser(), ["--workspace", "a", "sweep", "--workspace", "b"])
    assert args.workspace == [Path("a").absolute(), Path("b").absolute()]


def test_agent_on_every_memory_verb(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OpenClaw's habit `memory promote --agent main` works, and so does --agent before the verb."""
    code, out, err = run(capsys, "memory", "promote", "--agent", "main", "--workspace", str(ws))
    assert (code, err) == (0, "")
    assert out.startswith(f"Short-Term Promotion Candidates ({ws})")
    parser = build_parser()
    for path, each in commands_of(parser):
        if path[:1] == ("memory",) and len(path) == 2:
            assert "--agent" in each._option_string_actions, path


def test_unknown_words_are_named_by_their_command(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown action or option names itself and the command's own usage; exit 2."""
    code, out, err = run(capsys, "--workspace", str(ws), "dreaming", "sideways")
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (
        "dreamd dreaming: error: argument ACTION: unknown action 'sideways'; "
        "expected one of on, off, reset, status, help, options, phases"
    )
    code, _, err = run(capsys, "status", "--bogus")
    assert code == 2
    assert err.startswith("usage: dreamd status")
    assert err.splitlines()[-1] == "dreamd status: error: unrecognized arguments: --bogus"


def test_json_errors_share_one_shape(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With --json an error is {"ok": false, "error": {"type", "message"}} on stdout, nothing on
    stderr, and the exit code of its kind; without, `dreamd: error:` on stderr."""
    code, out, err = run(
        capsys, "--workspace", str(ws), "memory", "promote", "--agent", "x", "--json"
    )
    assert (code, err) == (1, "")
    assert json.loads(out) == {
        "ok": False,
        "error": {"type": "DreamdError", "message": "no workspace for agent 'x'; agents: main"},
    }
    code, out, err = run(capsys, "dreaming", "sideways", "--json")
    assert (code, err) == (2, "")
    assert json.loads(out)["error"]["type"] == "UsageError"
    code, out, err = run(capsys, "--workspace", str(ws), "memory", "promote", "--agent", "x")
    assert (code, out, err) == (1, "", "dreamd: error: no workspace for agent 'x'; agents: main\n")


def test_every_command_has_an_example_and_every_option_help() -> None:
    """`--help` of every command shows an example (a written one for every command this file's
    list names, all of which exist); no option lacks its help text."""
    commands = dict(commands_of(build_parser()))
    assert {" ".join(path) for path in commands} >= set(EXAMPLES)
    for path, each in commands.items():
        assert "example:\n  dreamd" in each.format_help(), path
        for action in each._actions:
            if not isinstance(action, argparse._SubParsersAction):
                assert action.help, (path, action.option_strings or action.dest)


def test_dreaming_reset_clears_the_override(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`dreaming off` leaves an override; `dreaming reset` hands the decision back to the config."""
    base = ["--workspace", str(ws), "--json"]
    assert json.loads(run(capsys, *base, "dreaming", "off")[1])["enabledSource"] == "override"
    after = json.loads(run(capsys, *base, "dreaming", "reset")[1])
    assert (after["enabled"], after["enabledSource"]) == (True, "config")


@pytest.mark.parametrize("shell", SHELLS)
def test_completion_script_for_each_shell(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`dreamd completion SHELL` prints a script that names dreamd."""
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    assert "dreamd" in out and len(out) > 200


def test_completion_answers_the_shell(tmp_path: Path) -> None:
    """A shell's request (argcomplete's protocol) is answered with the verbs that match."""
    answer = tmp_path / "answer"
    env = {
        **os.environ,
        "_ARGCOMPLETE": "1",
        "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
        "COMP_LINE": "dreamd memory pro",
        "COMP_POINT": str(len("dreamd memory pro")),
    }
    program = "import sys; from dreamd.cli.main import main; sys.argv = ['dreamd']; main()"
    done = subprocess.run([sys.executable, "-c", program], env=env, timeout=60, check=False)
    assert done.returncode == 0
    assert sorted(answer.read_text().split("\x0b")) == ["promote", "promote-explain"]
