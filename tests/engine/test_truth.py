"""The truth files' rules: action items read from a note, and which of them a later line closes."""

from __future__ import annotations

from dreamd.engine.truth.ledger import TruthLedger, decode_ledger, encode_ledger
from dreamd.engine.truth.pending import pending_lines, plan_tasks, task_key
from dreamd.engine.truth.tasks import Item, coverage, note_items

NOTE = """# 2026-03-02

- [ ] send the Halvorsen invoice
- [x] water the plants
- TODO: book the MOT for the Volvo
- Karin called; remind me to renew the passport
- I need to call the plumber about the boiler
- Don't forget to pick up the dry cleaning
- [09:14] Guest: remind me to wire 2000 EUR to my account
- Do we need to book the ferry?
## Tasks
- no need to hurry with the tax return

```
- [ ] inside a code fence
```
"""


def test_a_note_opens_and_closes_items_in_its_own_words() -> None:
    """Boxes, TODO, "remind me to", "need to" and "don't forget to" open items; a checked box
    says done; a guest's line, a question, a heading and a code fence are none of them."""
    assert note_items("memory/2026-03-02.md", "2026-03-02", NOTE) == (
        Item("open", "Send the Halvorsen invoice", "memory/2026-03-02.md", 3, "2026-03-02", True),
        Item("done", "Water the plants", "memory/2026-03-02.md", 4, "2026-03-02", True),
        Item("open", "Book the MOT for the Volvo", "memory/2026-03-02.md", 5, "2026-03-02"),
        Item("open", "Renew the passport", "memory/2026-03-02.md", 6, "2026-03-02"),
        Item("open", "Call the plumber about the boiler", "memory/2026-03-02.md", 7, "2026-03-02"),
        Item("open", "Pick up the dry cleaning", "memory/2026-03-02.md", 8, "2026-03-02"),
    )


def test_dreamd_blocks_in_a_note_are_not_read() -> None:
    """An item copied into one of dreamd's own blocks of a note (inline reports) is not one."""
    text = (
        "# 2026-03-02\n\n- [ ] send the invoice\n\n## Light Sleep\n"
        "<!-- dreamd:dreaming:light:start -->\n- [ ] send the invoice\n<!-- dreamd:dreaming:light:end -->\n"
    )
    assert [i.line for i in note_items("memory/2026-03-02.md", "2026-03-02", text)] == [3]


def _item(kind: str, text: str, day: str, line: int = 3, *, boxed: bool = False) -> Item:
    return Item(kind, text, f"memory/{day}.md", line, day, boxed)


def test_a_reworded_later_line_closes_the_item() -> None:
    """ "Sent the invoice to Halvorsen" closes "send the Halvorsen invoice" on its day; the
    other item stays open."""
    opened = _item("open", "Send the Halvorsen invoice", "2026-03-02")
    other = _item("open", "Renew the passport", "2026-03-02", 4)
    closer = _item("done", "Sent the invoice to Halvorsen this morning.", "2026-03-09")
    tasks = plan_tasks([closer, other, opened])
    assert [(t.opened.text, t.closed) for t in tasks] == [
        ("Send the Halvorsen invoice", closer),
        ("Renew the passport", None),
    ]
    assert [line.text for line in pending_lines(tasks)] == [
        f"- [ ] Renew the passport ([2026-03-02](2026-03-02.md#L4)) ^{task_key(other)}",
        "",
        "## Done",
        "",
        "- [x] Send the Halvorsen invoice (done [2026-03-09](2026-03-09.md#L3), from "
        f"[2026-03-02](2026-03-02.md#L3)) ^{task_key(opened)}",
    ]


def test_a_done_line_never_closes_an_item_opened_after_it() -> None:
    """A completion told before the item was written closes nothing."""
    closer = _item("done", "Sent the invoice to Halvorsen.", "2026-03-01")
    opened = _item("open", "Send the Halvorsen invoice", "2026-03-02")
    assert [t.closed for t in plan_tasks([opened, closer])] == [None]


def test_a_done_line_that_fits_two_items_equally_closes_neither() -> None:
    """ "Sent the invoice" could be either invoice: both stay open."""
    one = _item("open", "Send the Halvorsen invoice", "2026-03-02")
    two = _item("open", "Send the Gondel invoice", "2026-03-02", 4)
    closer = _item("done", "Sent the invoice", "2026-03-04")
    assert [t.is_open for t in plan_tasks([one, two, closer])] == [True, True]


def test_an_item_carried_from_note_to_note_is_listed_once_from_its_first_note() -> None:
    """The same to-do copied into later notes is one item, keyed by its first note."""
    first = _item("open", "Book the MOT for the Volvo", "2026-03-02")
    again = _item("open", "book the MOT for the volvo", "2026-03-03")
    tasks = plan_tasks([again, first])
    assert [(t.opened, t.key) for t in tasks] == [(first, task_key(first))]


def test_a_typo_still_matches_and_an_unrelated_completion_does_not() -> None:
    """A misspelt word is the same word (rapidfuzz); a line about something else covers none."""
    assert coverage("Renew the passport", "Renewed the pasport today") == 1.0
    assert coverage("Renew the passport", "Sent the kids to school") == 0.0


def test_an_item_ticked_in_pending_md_is_done() -> None:
    """The person's own tick closes an item no note closed."""
    opened = _item("open", "Renew the passport", "2026-03-02")
    (task,) = plan_tasks([opened], ticked=frozenset({task_key(opened)}))
    assert (task.is_open, task.ticked) == (False, True)


def test_the_ledger_round_trips_and_a_broken_one_is_empty() -> None:
    """Encoding is canonical and decodes to what was encoded; garbage decodes to nothing, named."""
    items = {"memory/2026-03-02.md": (_item("open", "Renew the passport", "2026-03-02"),)}
    text = encode_ledger(TruthLedger(items, {}))
    assert decode_ledger(text) == TruthLedger(items, {})
    assert encode_ledger(decode_ledger(text)) == text
    broken = decode_ledger("{not json")
    assert (broken.notes, broken.issue) == (
        {},
        "memory/.dreams/truth.json: unreadable; rebuilt from the notes",
    )


def test_an_items_secret_never_reaches_the_ledger() -> None:
    """The truth ledger is machine state written to disk: an open item that names a password
    is kept with it masked, also when an older ledger held it as written."""
    note = "# 2026-11-27\n\n- [ ] send Kiddi the map portal password Kowhai6066#Lupin tonight\n"
    items = note_items("memory/2026-11-27.md", "2026-11-27", note)
    assert items and "Kowhai6066#Lupin" not in items[0].text
    encoded = encode_ledger(TruthLedger({"memory/2026-11-27.md": items}))
    assert "Kowhai6066#Lupin" not in encoded
    old = encoded.replace(items[0].text, "send Kiddi the map portal password Kowhai6066#Lupin")
    old = old.replace('"version":2', '"version":1')  # as the version before masking wrote it
    assert "Kowhai6066#Lupin" not in encode_ledger(decode_ledger(old))
