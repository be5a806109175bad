"""Documentation stays true: set-up commands, CI command, settings and commands in the README."""

from __future__ import annotations

import re
from pathlib import Path

from dreamd.cli.main import build_parser
from dreamd.config import setting_reference
from dreamd.settings import SETTINGS, reference_table

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_exactly_two_setup_commands() -> None:
    """The first code block holds two commands: install + demo, install tests + run them."""
    block = re.search(r"```sh\n(.*?)```", README, re.DOTALL)
    assert block is not None
    assert README.index("```sh") < README.index("\n---\n")
    commands = block.group(1).strip().split("\n")
    assert len(commands) == 2
    assert commands[0].endswith("dreamd demo")
    assert commands[1].endswith("python -m pytest")


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run runs exactly the README's second command."""
    block = re.search(r"```sh\n(.*?)```", README, re.DOTALL)
    assert block is not None
    test_command = block.group(1).strip().split("\n")[1]
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines


def config_keys() -> list[str]:
    """Every setting the config Structs hold, as dotted keys (``agents.list[].id``)."""
    return [key for key, _, _ in setting_reference()]


def test_every_setting_is_documented_in_the_readme() -> None:
    """The README's reference table is the one built from the config Structs (run
    ``python -m dreamd.settings`` to refresh it), and every setting has its help text."""
    assert sorted(config_keys()) == sorted(SETTINGS)
    block = re.search(r"<!-- config-reference:[^\n]*-->\n(.*?)\n<!-- config-reference: end -->",
                      README, re.DOTALL)  # fmt: skip
    assert block is not None
    assert block.group(1) == reference_table()
    for key, text in SETTINGS.items():
        assert f"| {text.replace('|', chr(92) + '|')} |" in block.group(1), key


def test_every_command_is_in_the_readme() -> None:
    """Each CLI verb and memory sub-verb is listed in the README."""
    parser = build_parser()
    verbs = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for verb in verbs:
        assert f"`dreamd {verb}" in README, verb
    memory = verbs["memory"]._subparsers._group_actions[0].choices
    for sub in memory:
        assert f"`dreamd memory {sub}" in README, sub


def test_bad_input_catalogue_names_tests_that_exist() -> None:
    """Every ``file.py::test`` the bad-input catalogue cites is a test function in that file."""
    catalogue = (ROOT / "docs" / "bad-input.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"`((?:[a-z]+/)?test_\w+\.py)::(test_\w+)", catalogue))
    assert len(cited) > 40
    missing = [
        f"{file}::{name}"
        for file, name in sorted(cited)
        if f"def {name}(" not in (ROOT / "tests" / file).read_text(encoding="utf-8")
    ]
    assert missing == []
