"""`memory forget` and `memory revert`: preview by default, apply through the writer, undoable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dreamd.cli.main import main
from dreamd.layout import BACKUP_DIR
from tests.builders import golden_with_facts

AT = "2026-11-29T12:00:00Z"
KEY = "memory:memory/2026-11-12.md:8:8"
PERSONS = "# Long-Term Memory\n\n- I prefer short answers.\n"


def run(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, Any, str]:
    """``dreamd --json --workspace root --now AT argv``: exit code, parsed output, stderr."""
    code = main(["--json", "--workspace", str(root), "--now", AT, *argv])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else None, captured.err


@pytest.fixture
def promoted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The golden workspace (its lines as lasting rules), with a person's MEMORY.md, after
    `promote --apply` wrote six entries."""
    root = golden_with_facts(tmp_path / "golden")
    (root / "MEMORY.md").write_text(PERSONS, encoding="utf-8")
    assert run(capsys, root, "memory", "promote", "--apply")[0] == 0
    return root


def _store(root: Path) -> dict[str, Any]:
    return json.loads((root / "memory/.dreams/short-term-recall.json").read_text())


def test_forget_previews_then_applies_and_is_never_repromoted(
    promoted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The preview writes nothing; --apply removes the entry, marks its row, notes the diary."""
    before = (promoted / "MEMORY.md").read_text()
    code, preview, _ = run(capsys, promoted, "memory", "forget", KEY)
    assert (code, preview["applied"], preview["changedFiles"]) == (0, False, [])
    assert (promoted / "MEMORY.md").read_text() == before
    assert preview["diff"].startswith("--- MEMORY.md\n+++ MEMORY.md (after)\n")
    assert sorted(preview) == [
        "allowRepromote",
        "applied",
        "backup",
        "changedFiles",
        "diff",
        "editedByHand",
        "entry",
        "refused",
        "selector",
        "sources",
        "workspaceDir",
    ]
    code, applied, _ = run(capsys, promoted, "memory", "forget", KEY, "--apply")
    after = (promoted / "MEMORY.md").read_text()
    assert (code, applied["changedFiles"]) == (0, ["MEMORY.md", "DREAMS.md"])
    assert KEY not in after and after.count("<!-- dreamd-memory-promotion:") == 5
    assert (promoted / BACKUP_DIR / applied["backup"]).read_text() == before
    row = _store(promoted)["entries"][KEY]
    assert row["forgottenAt"] == "2026-11-29T12:00:00.000Z"
    assert "a promoted memory was forgotten" in (promoted / "DREAMS.md").read_text()
    again = run(capsys, promoted, "memory", "promote", "--apply")[1]
    assert (again["apply"]["applied"], (promoted / "MEMORY.md").read_text()) == (0, after)
    explained = run(capsys, promoted, "memory", "promote-explain", KEY)[1]
    assert explained["stoppedBy"]["gate"] == "forgotten"


def test_forget_allow_repromote_lets_it_earn_its_place_again(
    promoted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --allow-repromote the next promotion writes the entry again."""
    assert run(capsys, promoted, "memory", "forget", KEY, "--apply", "--allow-repromote")[0] == 0
    assert "promotedAt" not in _store(promoted)["entries"][KEY]
    again = run(capsys, promoted, "memory", "promote", "--apply")[1]
    assert again["apply"]["appliedCandidates"] == [KEY]


def test_forget_unknown_selector_fails_and_changes_nothing(
    promoted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A selector matching no promotion exits 1 with the reason (JSON error shape on stdout)."""
    code, out, err = run(capsys, promoted, "memory", "forget", "zzz-nothing", "--apply")
    message = 'No promoted entry in MEMORY.md matched "zzz-nothing".'
    assert (code, out, err) == (
        1,
        {"ok": False, "error": {"type": "SelectorError", "message": message}},
        "",
    )


def test_revert_last_undoes_the_last_write_and_guards_a_persons_lines(
    promoted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """revert --last restores the pre-promotion MEMORY.md; a person's new line needs --force."""
    memory = promoted / "MEMORY.md"
    with memory.open("a", encoding="utf-8") as handle:
        handle.write("\n- A line I added by hand.\n")
    code, preview, _ = run(capsys, promoted, "memory", "revert")
    assert (code, preview["humanLinesLost"], preview["applied"]) == (
        0,
        ["- A line I added by hand."],
        False,
    )
    assert len(preview["removedEntries"]) == 6
    code, out, _ = run(capsys, promoted, "memory", "revert", "--last", "--apply")
    assert code == 1 and "would lose 1 line(s) a person wrote" in out["error"]["message"]
    code, applied, _ = run(capsys, promoted, "memory", "revert", "--apply", "--force")
    assert (code, applied["changedFiles"]) == (0, ["MEMORY.md", "DREAMS.md"])
    assert memory.read_text() == PERSONS
    rows = _store(promoted)["entries"]
    assert sorted(k for k, r in rows.items() if r.get("forgottenAt")) == sorted(
        applied["removedEntries"]
    )
    back = run(capsys, promoted, "memory", "revert", "--last", "--apply", "--force")[1]
    assert sorted(back["restoredEntries"]) == sorted(applied["removedEntries"])
    assert not any(r.get("forgottenAt") for r in _store(promoted)["entries"].values())


def test_revert_to_an_unknown_backup_names_the_ones_there(
    promoted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--to with a name that is not a backup fails and lists the backups."""
    code, out, _ = run(capsys, promoted, "memory", "revert", "--to", "MEMORY.md.x.md")
    assert code == 1 and "no backup named 'MEMORY.md.x.md'" in out["error"]["message"]


def test_restore_previews_then_puts_an_archived_entry_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`memory restore` shows the diff, --apply puts the line back byte for byte after its
    marker, notes it in the archive, and `memory revert --last` undoes it."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text(PERSONS, encoding="utf-8")
    line = "- Backups run nightly at 02:00 to the NAS. (2026-11-02.md#L4)"
    (root / "memory" / "archive.md").write_text(
        "# Memory Archive\n\n## Archived 2026-11-20\n\n"
        "<!-- dreamd-memory-archived:memory:memory/2026-11-02.md:4:4 -->\n"
        f"{line}\n  - Moved out on 2026-11-20 to keep MEMORY.md within its budget.\n",
        encoding="utf-8",
    )
    code, preview, _ = run(capsys, root, "memory", "restore", "nightly")
    assert (code, preview["applied"], preview["changedFiles"]) == (0, False, [])
    assert f"+{line}" in preview["diff"]
    code, applied, _ = run(capsys, root, "memory", "restore", "nightly", "--apply")
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert (code, applied["changedFiles"]) == (0, ["MEMORY.md", "memory/archive.md"])
    assert memory.endswith(
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n" + line + "\n"
    )
    assert "<!-- dreamd-memory-restored:memory:memory/2026-11-02.md:4:4 -->" in (
        root / "memory" / "archive.md"
    ).read_text(encoding="utf-8")
    code, again, err = run(capsys, root, "memory", "restore", "nightly", "--apply")
    assert code == 1 and "No archived entry" in json.dumps(again) + err
    assert run(capsys, root, "memory", "revert", "--last", "--apply")[0] == 0
    assert (root / "MEMORY.md").read_text(encoding="utf-8") == PERSONS
