"""Documentation stays true: the README's set-up commands and CI command, its examples run as
written (the tour and the first hour), its links, the settings reference and the command list in
docs/."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dreamd.cli.main import build_parser
from dreamd.config import setting_reference
from dreamd.settings import SETTINGS, reference_table

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
CONFIGURATION = (DOCS / "configuration.md").read_text(encoding="utf-8")
COMMANDS = (DOCS / "commands.md").read_text(encoding="utf-8")


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


def test_every_setting_is_documented() -> None:
    """docs/configuration.md's reference table is the one built from the config Structs (run
    ``python -m dreamd.settings`` to refresh it), and every setting has its help text."""
    assert sorted(config_keys()) == sorted(SETTINGS)
    block = re.search(r"<!-- config-reference:[^\n]*-->\n(.*?)\n<!-- config-reference: end -->",
                      CONFIGURATION, re.DOTALL)  # fmt: skip
    assert block is not None
    assert block.group(1) == reference_table()
    for key, text in SETTINGS.items():
        assert f"| {text.replace('|', chr(92) + '|')} |" in block.group(1), key


def test_every_command_is_documented() -> None:
    """Each CLI verb and memory sub-verb is listed in docs/commands.md."""
    parser = build_parser()
    verbs = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for verb in verbs:
        assert f"`dreamd {verb}" in COMMANDS, verb
    memory = verbs["memory"]._subparsers._group_actions[0].choices
    for sub in memory:
        assert f"`dreamd memory {sub}" in COMMANDS, sub


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


def _section(title: str) -> str:
    """The README's ``## title`` section (a ``## `` line inside a code block does not end it)."""
    lines = README.split("\n")
    start = lines.index(f"## {title}")
    fenced = False
    for end in range(start + 1, len(lines)):
        fenced ^= lines[end].startswith("```")
        if not fenced and lines[end].startswith("## "):
            break
    else:
        end = len(lines)
    return "\n".join(lines[start:end])


def _blocks(text: str, kind: str) -> list[str]:
    """The bodies of the fenced blocks of ``kind`` in ``text`` (```` ``` ```` alone: "")."""
    found: list[str] = []
    body: list[str] = []
    opened: str | None = None
    for line in text.split("\n"):
        if opened is None and line.startswith("```"):
            opened, body = line[3:], []
        elif opened is not None and line == "```":
            if opened == kind:
                found.append("\n".join(body) + "\n")
            opened = None
        elif opened is not None:
            body.append(line)
    return found


def _tree(block: str) -> list[str]:
    """The paths a tree drawing names (``a/{b,c}/d`` expanded, ``x, y`` and ``x  y`` both)."""
    paths: list[str] = []
    folders: list[str] = []
    for line in block.splitlines()[1:]:
        found = re.match(r"^((?:│   |    )*)(?:├── |└── )(.*)$", line)
        if found is None:
            continue
        depth = len(found.group(1)) // 4
        folders = folders[:depth]
        names = [n for n in re.split(r",\s+|\s{2,}", found.group(2).split("#")[0].strip()) if n]
        for name in names:
            braces = re.match(r"^(.*)\{(.*)\}(.*)$", name)
            expanded = (
                [braces[1] + part + braces[3] for part in braces[2].split(",")]
                if braces
                else [name]
            )
            paths += ["/".join([*folders, each]).rstrip("/") for each in expanded]
        if len(names) == 1 and names[0].endswith("/"):
            folders.append(names[0].rstrip("/"))
    return paths


def _environment(tmp_path: Path) -> dict[str, str]:
    """What a person trying the README in a fresh folder has: this dreamd first on PATH, no
    config, a fresh home; UTC, as the examples are shown."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DREAMD_", "OPENCLAW_"))}
    env |= {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "DREAMD_HOME": str(tmp_path / "dreamd-home"),
        "HOME": str(tmp_path / "home"),
        "TZ": "UTC",
    }
    return env


def _shell(command: str, cwd: Path, env: dict[str, str]) -> str:
    """Run one line as a person would paste it; it must succeed. Its output, paths relative."""
    done = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done.stdout.replace(f"{cwd}/", "")


def _matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` is ``expected`` with each ``...`` line standing for any lines (none too)."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(_matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and _matches(expected[1:], actual[1:])


@pytest.fixture(scope="module")
def toured(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], list[str]]:
    """The README's tour run in a fresh folder: the folder, its environment, the paths found
    in the workspace just before the sweep."""
    folder = tmp_path_factory.mktemp("readme")
    env = _environment(folder)
    lines = _blocks(_section("A workspace before and after a sweep"), "sh")[0].splitlines()
    assert lines[-1].endswith(" sweep")
    for line in lines[:-1]:
        _shell(line, folder, env)
    before = sorted(str(p.relative_to(folder)) for p in (folder / "workspace").rglob("*"))
    _shell(lines[-1], folder, env)
    return folder, env, before


def test_the_readme_tour_comes_out_as_shown(
    toured: tuple[Path, dict[str, str], list[str]],
) -> None:
    """Followed literally, the tour promotes the fact: MEMORY.md ends with the block shown,
    and every path of the before and after drawings is there at that moment."""
    folder, _, before = toured
    section = _section("A workspace before and after a sweep")
    drawn_before, drawn_after = (_tree(block) for block in _blocks(section, ""))
    for path in drawn_before:
        assert f"workspace/{path}" in before, (path, before)
    for path in drawn_after:
        assert (folder / "workspace" / path).exists(), path
    memory = (folder / "workspace" / "MEMORY.md").read_text(encoding="utf-8")
    shown = _blocks(section, "markdown")[0]
    assert memory.endswith("\n" + shown), memory


def test_the_readme_first_hour_runs_as_shown(
    toured: tuple[Path, dict[str, str], list[str]],
) -> None:
    """Each command of the first hour, run after the tour, prints what the README shows (a
    ``...`` line stands for any lines), and the promotion is back after the revert."""
    folder, env, _ = toured
    session = _blocks(_section("Your first hour"), "console")[0].splitlines()
    steps: list[tuple[str, list[str]]] = []
    for line in session:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    assert len(steps) == 4
    for command, expected in steps:
        actual = _shell(command, folder, env).splitlines()
        assert _matches(expected, actual), (command, expected, actual)
    memory = (folder / "workspace" / "MEMORY.md").read_text(encoding="utf-8")
    assert memory.endswith(
        "\n" + _blocks(_section("A workspace before and after a sweep"), "markdown")[0]
    )


def test_the_readme_links_every_docs_page() -> None:
    """Every page under docs/ is linked from the README, and every local link resolves."""
    linked = set(re.findall(r"\]\((docs/[\w.-]+\.md)[#)]", README))
    assert linked == {f"docs/{page.name}" for page in DOCS.glob("*.md")}
    for page in [ROOT / "README.md", *DOCS.glob("*.md")]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (page.parent / target).exists(), (page.name, target)
