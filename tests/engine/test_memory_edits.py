"""An agent's memory writes: where a remembered line goes, and which MEMORY.md lines it may edit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.bank.retain import parse_retain
from dreamd.engine.memory_edits import dreaming_lines, plan_insert, plan_remember, plan_replace
from dreamd.errors import ConflictError, DreamdError

DAY = "2026-03-05"
PERSON = "# Memory\r\n\r\n- Prefers tea.\r\n"
PROMOTED = (
    "\n## Promoted From Short-Term Memory (2026-03-01)\n\n"
    "<!-- dreamd-memory-promotion:memory:memory/2026-03-01.md:3:3 -->\n"
    "- We use Postgres. [score=0.810 recalls=3 avg=0.700 source=memory/2026-03-01.md:3-3]\n"
)
BLOCK = "\n## Deep Sleep\n<!-- dreamd:dreaming:deep:start -->\n- Ranked 2.\n<!-- dreamd:dreaming:deep:end -->\n"


def test_remembered_lines_go_before_the_retain_section_and_facts_into_it() -> None:
    """A plain line never lands under Retain; a fact is appended to Retain (made when missing)
    and reads back as that fact."""
    note, line, number = plan_remember(None, DAY, "  We moved\nthe wiki.  ")
    assert (note, line, number) == (f"# {DAY}\n\n- We moved the wiki.\n", "- We moved the wiki.", 3)
    note, line, number = plan_remember(
        note, DAY, "Prefers short notes.", kind="opinion", entities=["@Peter"], confidence=0.8
    )
    assert (line, number) == ("- O(c=0.8) @Peter: Prefers short notes.", 6)
    note, _, number = plan_remember(note, DAY, "Backups run at 02:00.")
    assert number == 4
    note, _, number = plan_remember(note, DAY, "Peter lives in Lisbon.", kind="world",
                                    entities=["Peter"])  # fmt: skip
    assert note == (
        f"# {DAY}\n\n- We moved the wiki.\n- Backups run at 02:00.\n\n## Retain\n"
        "- O(c=0.8) @Peter: Prefers short notes.\n- W @Peter: Peter lives in Lisbon.\n"
    )
    assert number == 8
    facts = parse_retain(note, day=DAY)
    assert [(f.kind, f.text, f.entities, f.confidence) for f in facts] == [
        ("opinion", "Prefers short notes.", ("Peter",), 0.8),
        ("world", "Peter lives in Lisbon.", ("Peter",), None),
    ]


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        ("   ", {}, "the text is empty"),
        ("x", {"kind": "rumour"}, "kind must be one of experience, observation, opinion, world"),
        ("x", {"kind": "world", "confidence": 0.5}, r"a confidence \(0 to 1\) belongs to an"),
        ("x", {"entities": ["Peter"]}, "entities and a confidence need a kind"),
        ("x", {"kind": "world", "entities": ["9lives"]}, "'9lives' is not an entity name"),
    ],
)
def test_remember_refuses_what_would_not_read_back(
    text: str, options: dict[str, object], message: str
) -> None:
    """Bad input is a clear error, never a half-written fact."""
    with pytest.raises(DreamdError, match=message):
        plan_remember(None, DAY, text, **options)  # type: ignore[arg-type]


def test_dreamings_lines_are_the_promotions_and_the_managed_blocks() -> None:
    """Owned: the section heading, the marker, the entry and the block; inside: the section."""
    text = PERSON.replace("\r\n", "\n") + PROMOTED + BLOCK
    owned, inside = dreaming_lines(text)
    assert sorted(owned) == [5, 7, 8, 10, 11, 12, 13]
    assert sorted(inside) == [5, 6, 7, 8, 9]


def test_replace_changes_one_line_byte_for_byte_and_refuses_the_rest() -> None:
    """The line's own ending is kept; a promoted line, a changed line and a line that is not
    there are refused."""
    text = PERSON + PROMOTED
    new, written = plan_replace(text, 3, "- Prefers tea.", "- Prefers  green tea.")
    assert (new, written) == (
        text.replace("- Prefers tea.", "- Prefers green tea."),
        "- Prefers green tea.",
    )
    with pytest.raises(DreamdError, match=r"MEMORY\.md:8 is dreaming's own"):
        plan_replace(text, 8, "- We use Postgres.", "- MySQL.")
    with pytest.raises(ConflictError, match="no longer reads as expected"):
        plan_replace(text, 3, "- Prefers coffee.", "- x")
    with pytest.raises(DreamdError, match="there is no line 40"):
        plan_replace(text, 40, "", "- x")


def test_insert_goes_after_the_persons_last_line_never_into_a_promotion() -> None:
    """Without a place, after the person's last line (dreaming's sections stay below); at the
    top with 0; after a promoted line refused."""
    text = PERSON + PROMOTED
    new, written, number = plan_insert(text, "- Works from Lisbon.")
    assert (number, written) == (4, "- Works from Lisbon.")
    assert new == PERSON + "- Works from Lisbon.\n" + PROMOTED
    top, _, first = plan_insert(text, "# Top", after=0)
    assert (top, first) == ("# Top\n" + text, 1)
    with pytest.raises(DreamdError, match=r"MEMORY\.md:7 is inside dreaming's promotions"):
        plan_insert(text, "- x", after=7)
    assert plan_insert("", "- first")[0] == "- first\n"


@settings(deadline=None)
@given(st.text(max_size=300), st.text(min_size=1, max_size=80))
def test_an_insert_keeps_every_other_line(text: str, line: str) -> None:
    """Whatever MEMORY.md holds, an insert adds one line and keeps every other byte."""
    try:
        new, written, number = plan_insert(text, line)
    except DreamdError:
        return  # an empty or oversized line, refused
    lines = new.splitlines(keepends=True)
    assert lines[number - 1] == written + "\n"
    rest = "".join(lines[: number - 1] + lines[number:])
    assert rest in (text, text + "\n")
