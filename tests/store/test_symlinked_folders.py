"""dreamd never writes through a symlinked folder: writers, searches and previews refuse it.

Each workspace here is built with real folders and real data, then one folder dreamd writes
into is replaced by a symbolic link: to a folder outside the workspace, to a path inside it
that is itself a link leading out, or to a real folder inside it. Every entry point must stop
with the one message naming the link, and no file or folder may appear or change anywhere,
neither in the workspace nor in the folder the link points at.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Callable
from datetime import UTC
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.config import DreamingConfig
from dreamd.engine.hits import Hit
from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.errors import UnsafePathError
from dreamd.layout import WRITTEN_FOLDERS, check_workspace_folders
from dreamd.recall.index import RecallIndex
from dreamd.recall.record import record_search
from dreamd.runs.sweep import sweep_workspace
from dreamd.store.lock import LOCK_FILE, workspace_lock
from dreamd.store.writer import apply_plan
from tests.builders import at, write

NOW = "2026-11-26T03:00:00Z"
NOTE = "memory/2026-11-20.md"
FACT = "- The billing service runs on Postgres 16 on host db-02."
KINDS = ("outside", "hop", "inside")
HIT = Hit(NOTE, 4, 4, FACT, 0.9)

Tree = dict[str, str | bytes]


def tree(top: Path) -> Tree:
    """Every folder, file (with its bytes) and link under ``top``, links never followed."""
    found: Tree = {}
    for current, folders, files in os.walk(top):
        base = Path(current)
        for name in folders + files:
            path = base / name
            key = path.relative_to(top).as_posix()
            if path.is_symlink():
                found[key] = f"link to {path.readlink()}"
            elif path.is_dir():
                found[key] = "folder"
            else:
                found[key] = path.read_bytes()
    return found


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A real folder holding the workspace ``ws`` and the ``outside`` folder (the cwd too)."""
    real = Path(os.path.realpath(tmp_path))
    monkeypatch.chdir(real)  # a relative --path resolves in the workspace, not the checkout
    return real


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with every written folder real and filled: notes, traces, a backup, a bank."""
    root = tmp_path_factory.mktemp("template") / "ws"
    write(root, NOTE, f"# 2026-11-20\n\n## Infra\n{FACT}\n")
    write(root, "MEMORY.md", "# Long-Term Memory\n\n- A human line.\n")
    for day, query in (("21", "which host"), ("23", "billing postgres"), ("25", "billing db")):
        record_search(root, query, [HIT], now=at(f"2026-11-{day}T10:00:00Z"), zone=UTC)
    with RecallIndex.open(root) as index:
        index.update()
    write(root, "memory/.dreams/backups/MEMORY.md.20261101T000000.aaaaaaaaaaaa.md", "# Old\n")
    write(root, "memory/.dreams/session-corpus/2026-11-19.txt", "user: hello\n")
    write(root, "memory/dreaming/deep/2026-11-19.md", "# Deep Sleep\n")
    write(root, "memory/.rag/longterm.jsonl", "")
    write(root, "bank/entities/Hana.md", "# Hana\n")
    return root


@pytest.fixture
def root(base: Path, template: Path) -> Path:
    """A fresh copy of the template workspace at ``base/ws``."""
    return Path(shutil.copytree(template, base / "ws"))


def link_folder(root: Path, folder: str, kind: str) -> Path:
    """Move ``root/folder`` away and link it back (see the module docstring); returns the target.

    ``outside``: an absolute link to a folder outside the workspace; ``hop``: a relative link
    to ``ws/hop``, itself a link to the outside folder; ``inside``: a relative link to a real
    folder elsewhere in the workspace.
    """
    link = root / folder
    target = (
        root / "moved" if kind == "inside" else root.parent / "outside" / folder.replace("/", "-")
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(link, target)
    if kind == "outside":
        link.symlink_to(target, target_is_directory=True)
    elif kind == "hop":
        (root / "hop").symlink_to(target, target_is_directory=True)
        link.symlink_to(os.path.relpath(root / "hop", link.parent), target_is_directory=True)
    else:
        link.symlink_to(os.path.relpath(target, link.parent), target_is_directory=True)
    return target


def refusal(root: Path, folder: str, target: Path) -> str:
    """The one message dreamd gives for a symlinked folder."""
    return (
        f"{root / folder} is a symbolic link (to {target}); "
        "dreamd refuses to write through it: replace it with a real folder"
    )


SHADOW = [
    "shadow-trial",
    "--candidate",
    "The billing service runs on db-02.",
    "--trial-prompt",
    "Where does billing run?",
    "--baseline-outcome",
    "Unknown.",
    "--candidate-outcome",
    "db-02.",
    "--verdict",
    "helpful",
    "--reason",
    "Right host.",
]
COMMANDS = {
    "sweep": ["sweep"],
    "search": ["memory", "search", "billing postgres"],
    "search-no-record": ["memory", "search", "--no-record", "billing postgres"],
    "search-long-term": ["memory", "search", "--long-term", "billing postgres"],
    "index": ["memory", "index"],
    "index-rebuild": ["memory", "index", "--rebuild"],
    "promote": ["memory", "promote"],
    "promote-apply": ["memory", "promote", "--apply"],
    "promote-explain": ["memory", "promote-explain", "billing"],
    "rem-harness": ["memory", "rem-harness"],
    "rem-backfill": ["memory", "rem-backfill", "--path", "memory", "--stage-short-term"],
    "rem-backfill-rollback": ["memory", "rem-backfill", "--rollback"],
    "shadow-trial": ["memory", *SHADOW],
}


def run(capsys: pytest.CaptureFixture[str], root: Path, argv: list[str]) -> tuple[int, str, str]:
    """``dreamd --workspace ROOT --now NOW argv`` in-process, from ROOT (``--path memory`` is
    from the current directory): (exit code, stdout, stderr)."""
    with contextlib.chdir(root):
        code = main(["--workspace", str(root), "--now", NOW, *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_folders_dreamd_writes_into() -> None:
    """The checked folders are the notes, state, backups, corpus, reports, long-term and bank."""
    assert WRITTEN_FOLDERS == (
        "memory",
        "memory/.dreams",
        "memory/.dreams/backups",
        "memory/.dreams/session-corpus",
        "memory/dreaming",
        "memory/.rag",
        "bank",
    )


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_every_command_works_with_real_folders(
    root: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """With every folder real, each command the refusal tests use succeeds."""
    code, _, err = run(capsys, root, command)
    assert (code, err.count("error")) == (0, 0), err


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("folder", WRITTEN_FOLDERS)
@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_command_refuses_a_symlinked_folder(
    root: Path, capsys: pytest.CaptureFixture[str], command: list[str], folder: str, kind: str
) -> None:
    """The command exits 1 with the one message; nothing appears in the workspace or target."""
    target = link_folder(root, folder, kind)
    before = (tree(root), tree(target))
    code, out, err = run(capsys, root, command)
    message = refusal(root, folder, target)
    if command == ["sweep"]:  # sweep reports each workspace on its own line, then exits 1
        assert (code, out, err) == (1, f"{root}: error: {message}\n", "")
    else:
        assert (code, out, err) == (1, "", f"dreamd: error: {message}\n")
    assert (tree(root), tree(target)) == before


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("folder", WRITTEN_FOLDERS)
def test_sweep_of_one_workspace_records_the_refusal(root: Path, folder: str, kind: str) -> None:
    """The daemon's per-workspace sweep fails with the message and writes nothing."""
    target = link_folder(root, folder, kind)
    before = (tree(root), tree(target))
    outcome = sweep_workspace(root, DreamingConfig(), now=at(NOW), zone=UTC)
    assert (outcome.status, outcome.error) == ("error", refusal(root, folder, target))
    assert (tree(root), tree(target)) == before


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("folder", WRITTEN_FOLDERS)
def test_record_search_refuses_before_taking_the_lock(root: Path, folder: str, kind: str) -> None:
    """Recording a trace raises the message; no lock, store or event is written anywhere."""
    target = link_folder(root, folder, kind)
    before = (tree(root), tree(target))
    with pytest.raises(UnsafePathError) as refused:
        record_search(root, "billing host", [HIT], now=at(NOW), zone=UTC)
    assert str(refused.value) == refusal(root, folder, target)
    assert (tree(root), tree(target)) == before


def take_lock(root: Path) -> None:
    """Take and release the workspace lock."""
    with workspace_lock(root):
        pass


def open_index(root: Path) -> None:
    """Open and close the recall index."""
    RecallIndex.open(root).close()


def apply_report(root: Path) -> None:
    """Write one report through the writer."""
    apply_plan(
        root, SweepPlan(writes=(FileWrite("memory/dreaming/light/d.md", "x", None, "report"),))
    )


OPENERS: dict[str, Callable[[Path], None]] = {
    "lock": take_lock,
    "index": open_index,
    "apply": apply_report,
}


@pytest.mark.parametrize("opener", OPENERS.values(), ids=OPENERS.keys())
def test_a_missing_folder_is_created_real(tmp_path: Path, opener: Callable[[Path], None]) -> None:
    """A fresh workspace with no folders yet passes the check: dreamd creates real ones."""
    check_workspace_folders(tmp_path)
    opener(tmp_path)
    assert not any(path.is_symlink() for path in tmp_path.rglob("*"))


def test_a_plan_writing_under_a_linked_report_folder_is_refused(tmp_path: Path) -> None:
    """A link below memory/dreaming, even one staying inside the workspace, stops the writer."""
    root = tmp_path / "ws"
    elsewhere = root / "elsewhere"
    elsewhere.mkdir(parents=True)
    (root / "memory/dreaming").mkdir(parents=True)
    (root / "memory/dreaming/light").symlink_to(elsewhere, target_is_directory=True)
    plan = SweepPlan(
        writes=(FileWrite("memory/dreaming/light/2026-11-26.md", "x", None, "report"),)
    )
    with pytest.raises(UnsafePathError) as refused:
        apply_plan(root, plan)
    assert str(refused.value) == refusal(root, "memory/dreaming/light", elsewhere)
    assert list(elsewhere.iterdir()) == []


def test_a_symlinked_lock_file_is_refused_not_truncated(tmp_path: Path) -> None:
    """The lock file is opened for writing: a link there is refused and its target kept."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    lock = tmp_path / "ws" / LOCK_FILE
    lock.parent.mkdir(parents=True)
    lock.symlink_to(victim)
    with pytest.raises(UnsafePathError, match="is a symlink"), workspace_lock(tmp_path / "ws"):
        pass
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("folder", WRITTEN_FOLDERS)
def test_status_names_the_refused_workspace(
    root: Path, capsys: pytest.CaptureFixture[str], folder: str, kind: str
) -> None:
    """`dreamd status` shows the refusal as the workspace's error and reads nothing through it;
    it exits 4, degraded."""
    target = link_folder(root, folder, kind)
    code, out, err = run(capsys, root, ["--json", "status"])
    document = json.loads(out)
    assert (code, err) == (4, "")
    assert document["workspaces"][0]["error"] == refusal(root, folder, target)
    assert document["status"] == "degraded"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("folder", WRITTEN_FOLDERS)
def test_memory_status_reports_only_the_refusal(
    root: Path, capsys: pytest.CaptureFixture[str], folder: str, kind: str
) -> None:
    """`dreamd memory status` gives the refusal as the one issue and reads nothing through it."""
    target = link_folder(root, folder, kind)
    code, out, err = run(capsys, root, ["--json", "memory", "status"])
    report = json.loads(out)["workspaces"][0]
    assert (code, err) == (0, "")
    assert (report["issues"], report["entryCount"]) == ([refusal(root, folder, target)], 0)
