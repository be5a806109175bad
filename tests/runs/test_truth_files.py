"""The truth files end to end: nightly sweeps over real notes write memory/user_state.md and
memory/pending.md, keep a person's edits, change nothing a second time, and are never recalled."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamd.config import DreamingConfig
from dreamd.engine.phases.cycle import plan_sweep
from dreamd.layout import PENDING_TASKS_FILE, TRUTH_LEDGER, USER_STATE_FILE
from dreamd.recall.index import RecallIndex
from dreamd.recall.search import search
from dreamd.runs.sweep import sweep_workspace
from dreamd.workspace.reader import read_snapshot

START = datetime(2026, 3, 2, 21, tzinfo=UTC)
NOTES = {
    "2026-03-02": (
        "# 2026-03-02\n\n"
        "- Mia's swimming lesson is on Tuesdays at 16:30.\n"
        "- [ ] send the Halvorsen invoice\n"
        "- Karin rang about the boat; remind me to renew the passport\n"
    ),
    "2026-03-05": (
        "# 2026-03-05\n\n- Mia's swimming lesson moved to Thursdays.\n- TODO: book the MOT\n"
        "- Malthe's old football kit went to the club's swap box.\n"
        "- 15:30 stopped work for the pickup.\n"
    ),
    "2026-03-09": (
        "# 2026-03-09\n\n"
        "- Mia's swimming lesson moved to Wednesdays from Thursdays.\n"
        "- Sent the invoice to Halvorsen this morning.\n"
    ),
}


def _nights(root: Path, days: int, dreaming: DreamingConfig | None = None) -> datetime:
    """Sweep once a night for ``days`` nights from START, each night's note written first."""
    (root / "memory").mkdir(parents=True, exist_ok=True)
    if not (root / "MEMORY.md").exists():
        (root / "MEMORY.md").write_text("# Long-Term Memory\n\n- A human line.\n")
    now = START
    for offset in range(days):
        now = START + timedelta(days=offset)
        text = NOTES.get(now.date().isoformat())
        if text is not None:
            (root / "memory" / f"{now.date().isoformat()}.md").write_text(text)
        outcome = sweep_workspace(root, dreaming or DreamingConfig(), now=now, zone=UTC)
        assert outcome.status == "ok", outcome.error
    return now


def _block(root: Path, rel: str) -> list[str]:
    """The lines between a truth file's markers."""
    lines = (root / rel).read_text(encoding="utf-8").split("\n")
    begin = lines.index("<!-- dreamd:truth:begin -->")
    return lines[begin + 1 : lines.index("<!-- dreamd:truth:end -->")]


def _strip_keys(lines: list[str]) -> list[str]:
    return [line.rsplit(" ^", 1)[0] for line in lines]


@pytest.fixture
def swept(tmp_path: Path) -> tuple[Path, datetime]:
    """A workspace swept every night from 2026-03-02 to 2026-03-10."""
    root = tmp_path / "ws"
    return root, _nights(root, 9)


def test_a_value_that_changed_twice_shows_its_latest_with_its_day(
    swept: tuple[Path, datetime],
) -> None:
    """Tuesdays, then Thursdays, then Wednesdays: user_state holds Wednesdays since the day it
    was said, replacing Thursdays; nothing of the first two stays current, and what only
    happened ("went to the swap box", a log line at 15:30) is no value."""
    root, _ = swept
    assert _strip_keys(_block(root, USER_STATE_FILE)) == [
        "- Mia's swimming lesson moved to Wednesdays from Thursdays. (since 2026-03-09; was: "
        "Mia's swimming lesson moved to Thursdays, from 2026-03-05)"
    ]
    text = (root / USER_STATE_FILE).read_text(encoding="utf-8")
    assert text.startswith("# Current state\n\nWhat is true now of what has changed")


def test_an_item_closed_by_a_reworded_later_note_moves_to_done(
    swept: tuple[Path, datetime],
) -> None:
    """ "Sent the invoice to Halvorsen" closes "send the Halvorsen invoice" on 2026-03-09; the
    passport and the MOT stay open, oldest first, each linked to its note."""
    root, _ = swept
    assert _strip_keys(_block(root, PENDING_TASKS_FILE)) == [
        "- [ ] Renew the passport ([2026-03-02](2026-03-02.md#L5))",
        "- [ ] Book the MOT ([2026-03-05](2026-03-05.md#L4))",
        "",
        "## Done",
        "",
        "- [x] Send the Halvorsen invoice (done [2026-03-09](2026-03-09.md#L4), from "
        "[2026-03-02](2026-03-02.md#L4))",
    ]


def test_a_second_sweep_over_the_same_notes_plans_no_truth_write(
    swept: tuple[Path, datetime],
) -> None:
    """Planned again from what the last sweep left, no truth file nor the ledger is planned,
    and the sweep changes no file at all."""
    root, now = swept
    later = now + timedelta(hours=1)
    snapshot = read_snapshot(root, dreaming=DreamingConfig(), now=later, zone=UTC)
    plan = plan_sweep(snapshot, DreamingConfig(), now=later, zone=UTC)
    truth = {USER_STATE_FILE, PENDING_TASKS_FILE, TRUTH_LEDGER}
    assert [w.path for w in plan.writes if w.path in truth] == []
    assert plan.summary["truth"]["written"] == []
    assert sweep_workspace(root, DreamingConfig(), now=later, zone=UTC).changed == ()


def test_a_persons_edits_are_kept_byte_for_byte(swept: tuple[Path, datetime]) -> None:
    """Text before and after the block is kept byte for byte, a line changed inside the block
    stays as changed, a line added stays after the line it followed, while a new item and a
    new close still land."""
    root, now = swept
    path = root / PENDING_TASKS_FILE
    text = path.read_text(encoding="utf-8")
    head, rest = text.split("<!-- dreamd:truth:begin -->\n", 1)
    body, tail = rest.split("<!-- dreamd:truth:end -->", 1)
    lines = body.split("\n")
    passport = next(i for i, line in enumerate(lines) if "passport" in line)
    key = lines[passport].rsplit(" ", 1)[1]
    lines[passport] = f"- [ ] Renew the passport (mine expires in May!) {key}"
    lines.insert(passport + 1, "  - photos from the booth at the station")
    my_head = "My notes first — ünïcode, trailing spaces   \n\n" + head
    my_tail = tail + "\nAfter the block: keep this.\r\nAnd this, without a newline"
    path.write_bytes(
        (
            my_head
            + "<!-- dreamd:truth:begin -->\n"
            + "\n".join(lines)
            + "<!-- dreamd:truth:end -->"
            + my_tail
        ).encode("utf-8")
    )
    day = (now + timedelta(days=1)).date().isoformat()
    (root / "memory" / f"{day}.md").write_text(
        f"# {day}\n\n- [ ] call the vet about Rex\n- Booked the MOT for Friday.\n"
    )
    outcome = sweep_workspace(root, DreamingConfig(), now=now + timedelta(days=1), zone=UTC)
    assert outcome.status == "ok", outcome.error
    after = path.read_bytes().decode("utf-8")  # as written: no newline translation
    assert after.startswith(my_head + "<!-- dreamd:truth:begin -->\n")
    assert after.endswith("<!-- dreamd:truth:end -->" + my_tail)
    assert _strip_keys(_block(root, PENDING_TASKS_FILE)) == [
        "- [ ] Renew the passport (mine expires in May!)",
        "  - photos from the booth at the station",
        f"- [ ] Call the vet about Rex ([{day}]({day}.md#L3))",
        "",
        "## Done",
        "",
        f"- [x] Book the MOT (done [{day}]({day}.md#L4), from [2026-03-05](2026-03-05.md#L4))",
        "- [x] Send the Halvorsen invoice (done [2026-03-09](2026-03-09.md#L4), from "
        "[2026-03-02](2026-03-02.md#L4))",
    ]


def test_an_item_ticked_in_pending_md_moves_to_done_as_ticked(
    swept: tuple[Path, datetime],
) -> None:
    """The person ticks the passport in pending.md: it moves under Done, in their words."""
    root, now = swept
    path = root / PENDING_TASKS_FILE
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("- [ ] Renew the passport", "- [x] Renew the passport"))
    outcome = sweep_workspace(root, DreamingConfig(), now=now + timedelta(hours=2), zone=UTC)
    assert outcome.status == "ok", outcome.error
    assert outcome.summary["truth"]["open"] == 1
    block = _strip_keys(_block(root, PENDING_TASKS_FILE))
    assert block[0] == "- [ ] Book the MOT ([2026-03-05](2026-03-05.md#L4))"
    assert block[block.index("## Done") + 2] == (
        "- [x] Renew the passport ([2026-03-02](2026-03-02.md#L5))"
    )


def test_the_truth_files_are_never_recalled_nor_read_as_notes(
    swept: tuple[Path, datetime],
) -> None:
    """A search finds the notes' lines, never the truth files (not even the person's own text
    in them), and no recall-store row points at them."""
    root, now = swept
    with (root / PENDING_TASKS_FILE).open("a", encoding="utf-8") as handle:
        handle.write("\nZanzibar ferry tickets are in the blue folder.\n")
    with RecallIndex.open(root) as index:
        index.update()
        assert search(index, "Zanzibar ferry tickets", now=now) == []
        found = {hit.path for hit in search(index, "renew passport", k=50, now=now)}
        swim = {hit.path for hit in search(index, "swimming Wednesdays", k=50, now=now)}
    assert found == {"memory/2026-03-02.md"}
    assert USER_STATE_FILE not in swim and swim
    snapshot = read_snapshot(root, dreaming=DreamingConfig(), now=now, zone=UTC)
    truth = (USER_STATE_FILE, PENDING_TASKS_FILE)
    assert [row.path for row in snapshot.store.rows.values() if row.path in truth] == []
    assert not set(truth) & set(snapshot.notes)


def test_turned_off_no_truth_file_is_written(tmp_path: Path) -> None:
    """``[dreaming] truth_files = false``: the same nights write neither file nor the ledger."""
    root = tmp_path / "ws"
    _nights(root, 9, DreamingConfig(truth_files=False))
    assert [
        (root / rel).exists() for rel in (USER_STATE_FILE, PENDING_TASKS_FILE, TRUTH_LEDGER)
    ] == [
        False,
        False,
        False,
    ]
