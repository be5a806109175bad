"""Managed blocks: find, replace in place, dedupe, append, blank out; both marker spellings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.blocks import blank_managed, managed_spans, read_block, replace_block

DOC = """# Dream Diary
<!-- dreamd:dreaming:diary:start -->
entry one
<!-- dreamd:dreaming:diary:end -->

## Deep Sleep
<!-- openclaw:dreaming:deep:start -->
- old body
<!-- openclaw:dreaming:deep:end -->

Human notes after the block.
"""


def test_replace_in_place_keeps_surroundings() -> None:
    """Replacing a block rewrites only its lines, with dreamd's markers."""
    out = replace_block(DOC, "deep", "- new body")
    assert out == DOC.replace(
        "<!-- openclaw:dreaming:deep:start -->\n- old body\n<!-- openclaw:dreaming:deep:end -->",
        "<!-- dreamd:dreaming:deep:start -->\n- new body\n<!-- dreamd:dreaming:deep:end -->",
    )


def test_missing_block_is_appended_after_a_blank_line() -> None:
    """A block that does not exist goes at the end after one blank line."""
    out = replace_block("# Notes\n\ntext\n", "light", "- body")
    assert out == (
        "# Notes\n\ntext\n\n## Light Sleep\n<!-- dreamd:dreaming:light:start -->\n- body\n"
        "<!-- dreamd:dreaming:light:end -->\n"
    )


def test_diary_goes_first() -> None:
    """A new diary block is put at the top of the file."""
    out = replace_block("## Deep Sleep\nx\n", "diary", "e")
    assert out.startswith("# Dream Diary\n<!-- dreamd:dreaming:diary:start -->\ne\n")
    assert out.endswith("## Deep Sleep\nx\n")


def test_later_duplicates_are_removed() -> None:
    """Two blocks of the same name collapse into the first one."""
    twice = (
        DOC
        + "\n## Deep Sleep\n<!-- dreamd:dreaming:deep:start -->\n- dup\n<!-- dreamd:dreaming:deep:end -->\n"
    )
    out = replace_block(twice, "deep", "- only")
    assert out.count("dreaming:deep:start") == 1
    assert "- dup" not in out and "- only" in out
    assert "Human notes after the block." in out


def test_read_block_body() -> None:
    """The body between the markers is returned; absent blocks give None."""
    assert read_block(DOC, "deep") == "- old body"
    assert read_block(DOC, "rem") is None


def test_blank_managed_keeps_line_count() -> None:
    """Blanking empties the heading, markers and body but keeps every other line."""
    out = blank_managed(DOC)
    assert out.count("\n") == DOC.count("\n")
    assert "old body" not in out and "entry one" not in out
    assert "Human notes after the block." in out


def test_unclosed_block_ends_at_next_heading() -> None:
    """A block without an end marker runs to the next heading of the same or higher level."""
    text = "## Light Sleep\n<!-- dreamd:dreaming:light:start -->\n- staged\n## Next\nkeep me\n"
    assert managed_spans(text) == [(0, 2)]
    assert "keep me" in blank_managed(text)


@given(st.text(), st.text(alphabet=st.characters(blacklist_characters="\r"), max_size=40))
def test_replace_is_idempotent_and_never_crashes(text: str, body: str) -> None:
    """Replacing twice with the same body equals replacing once; the body reads back."""
    once = replace_block(text, "deep", body)
    assert replace_block(once, "deep", body) == once
    assert read_block(once, "deep") == body
