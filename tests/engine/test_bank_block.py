"""The bank block: text outside it kept byte for byte; a person's lines inside it kept too."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.bank.block import (
    BEGIN,
    END,
    Line,
    body_digest,
    compose_page,
    key_of,
    line_hash,
    merge,
    split_page,
)

FIRST = (
    Line("summary", "2 fact(s). ^summary"),
    Line(None, ""),
    Line("f-000000000a", "- Alpha. ^f-000000000a"),
    Line("f-000000000b", "- Beta. ^f-000000000b"),
)


def _written(lines: tuple[Line, ...]) -> tuple[list[str], frozenset[str], frozenset[str]]:
    merged = merge(None, lines)
    return list(merged.body), merged.owned, merged.keys


def test_a_new_page_is_a_title_and_a_block() -> None:
    """No page yet: ``# Title``, a blank line, the block."""
    body, _, _ = _written(FIRST)
    assert compose_page("Peter", None, body) == (
        f"# Peter\n\n{BEGIN}\n2 fact(s). ^summary\n\n- Alpha. ^f-000000000a\n"
        f"- Beta. ^f-000000000b\n{END}\n"
    )


@given(st.text(), st.text())
def test_text_outside_the_block_is_kept_byte_for_byte(head: str, tail: str) -> None:
    """Whatever a person wrote around the block survives a rewrite of its body."""
    head, tail = head.replace(BEGIN, ""), tail.replace(BEGIN, "").replace(END, "")
    page = f"{head}\n{BEGIN}\nold\n{END}\n{tail}"
    assert compose_page("T", page, ["new"]) == f"{head}\n{BEGIN}\nnew\n{END}\n{tail}"


def test_a_page_without_a_block_gets_one_appended() -> None:
    """A person's own entity page keeps every byte; the block follows it."""
    page = "# Alice\n\nMy colleague from the Lisbon office."
    assert compose_page("Alice", page, ["x"]) == f"{page}\n\n{BEGIN}\nx\n{END}\n"


def test_a_block_without_an_end_marker_is_broken() -> None:
    """No end marker: nothing is taken for a body (the page is left alone)."""
    assert split_page(f"# A\n{BEGIN}\n- a\n").broken is True


def test_untouched_lines_are_replaced_by_their_new_version() -> None:
    """A line dreamd wrote and nobody changed follows the facts; a gone fact's line goes."""
    body, owned, keys = _written(FIRST)
    fresh = (Line("summary", "1 fact(s). ^summary"), Line(None, ""), FIRST[3])
    merged = merge(body, fresh, owned=owned, placed=keys)
    assert (merged.body, merged.kept) == (
        ("1 fact(s). ^summary", "", "- Beta. ^f-000000000b"),
        0,
    )


def test_a_persons_edit_inside_the_block_is_kept_and_planned_around() -> None:
    """An edited line stays as edited, an added line stays after its neighbour, a deleted
    line stays deleted; new facts still arrive."""
    body, owned, keys = _written(FIRST)
    edited = [
        "2 fact(s). ^summary",
        "",
        "- Alpha, as I remember it. ^f-000000000a",
        "My own note about alpha.",
    ]  # Beta deleted
    assert body_digest(edited) != body_digest(body)
    fresh = (*FIRST, Line("f-000000000c", "- Gamma. ^f-000000000c"))
    merged = merge(edited, fresh, owned=owned, placed=keys)
    assert merged.body == (
        "2 fact(s). ^summary",
        "",
        "- Alpha, as I remember it. ^f-000000000a",
        "My own note about alpha.",
        "- Gamma. ^f-000000000c",
    )
    again = merge(merged.body, fresh, owned=merged.owned, placed=merged.keys)
    assert again.body == merged.body


def test_keys_and_hashes() -> None:
    """A line's key is its trailing ``^id``; hashes are short and stable."""
    assert [key_of("- A. ^f-0123456789"), key_of("x ^summary"), key_of("- plain")] == [
        "f-0123456789",
        "summary",
        None,
    ]
    assert line_hash("x") == line_hash("x") != line_hash("y")
