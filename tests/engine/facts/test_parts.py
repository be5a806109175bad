"""What MEMORY.md keeps of a line of several sentences."""

from __future__ import annotations

from dreamd.engine.facts.parts import lasting_text


def test_the_lasting_sentences_are_kept_and_their_heading_said_once() -> None:
    """A Retain line's two lasting sentences both keep their fact; the entity heading the
    reader puts before each is written once."""
    line = (
        "- W @Tadhg Ó Broin: harbour pilot at Castletownbere. Works two weeks on, two weeks off; "
        "changeover Thursday 09:00."
    )
    assert lasting_text(line) == (
        "Tadhg Ó Broin: harbour pilot at Castletownbere. Works two weeks on, two weeks off; "
        "changeover Thursday 09:00."
    )


def test_a_sentence_already_held_is_left_out_when_another_remains() -> None:
    line = "- W @Tadhg Ó Broin: harbour pilot at Castletownbere. Works two weeks on, two weeks off."
    kept = lasting_text(line, known=lambda statement: "pilot" in statement.text)
    assert kept == "Tadhg Ó Broin: Works two weeks on, two weeks off."
