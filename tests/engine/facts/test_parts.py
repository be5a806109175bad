"""What MEMORY.md keeps of a line of several sentences."""

from __future__ import annotations

import pytest

from dreamd.engine.facts.parts import lasting_text, remaining_text


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


@pytest.mark.parametrize(
    ("text", "standing", "expected"),
    [
        # the heading said once, clauses joined again
        (
            "Kofi Mensah: the band rehearses Fridays 19:00 at Adum; leader Ama Owusu; "
            "dues GH₵ 50 a month.",
            [False, True, True],
            "Kofi Mensah: leader Ama Owusu; dues GH₵ 50 a month.",
        ),
        (
            "Efua Boateng: head nurse at Komfo Anokye. Works four nights on. Lives in Bantama.",
            [True, False, True],
            "Efua Boateng: head nurse at Komfo Anokye. Lives in Bantama.",
        ),
        # all or nothing stands: no rewrite
        ("Kofi Mensah: the band rehearses Fridays; leader Ama Owusu.", [True, True], None),
        ("Kofi Mensah: the band rehearses Fridays; leader Ama Owusu.", [False, False], None),
        # what cannot stand alone: a clause that names no one, an ending alone
        (
            "Kwame opens the shop in Adum at 07:00, Monday to Saturday; closed on Sundays.",
            [False, True],
            None,
        ),
        (
            "From today Yaw no longer takes the trotro. The driver keeps the month's fare.",
            [True, False],
            None,
        ),
        # a category's label is no name: its facts are no record of someone
        ("New rota: Ama's rota is out; Kofi works nights.", [True, False], None),
        # a sentence of a story, or what someone said, is no fact of its own
        ("The yard takes 30 standing. He wants the church hall instead.", [True, False], None),
        (
            'Yaw: "Friday is fine, I never liked Thursdays". Ama drives on Fridays.',
            [True, False],
            None,
        ),
        (
            "Yaw Darko: Ama drives him on Fridays; he pays the fuel.",
            [True, False],
            "Yaw Darko: Ama drives him on Fridays.",
        ),
    ],
)
def test_what_still_holds_of_a_line(text: str, standing: list[bool], expected: str | None) -> None:
    """The clauses and sentences nothing replaced, as one line that can stand alone."""
    assert remaining_text(text, standing) == expected


def test_a_sentence_that_says_there_keeps_the_place_before_it() -> None:
    """ "The choir rehearses there now" names no place alone: the sentence before it, which
    does, is kept with it; "there is" names none and takes nothing along."""
    line = (
        "First evening in the new hall behind St Olav's church. The choir rehearses there now, "
        "Tuesdays 19:00. Coffee was cold."
    )
    assert lasting_text(line).startswith("First evening in the new hall behind St Olav's church.")
    alone = "Coffee was cold. There is a new rota: the choir rehearses on Tuesdays at 19:00."
    assert not lasting_text(alone).startswith("Coffee")


def test_a_retain_line_naming_something_with_a_letter_beyond_ascii() -> None:
    """ "W Þverá lot: …" and "B Émile rang …" are Retain lines like "W Skálabrekka …": the
    type letter never reaches MEMORY.md or the diary."""
    from dreamd.engine.facts.render import fact_text

    assert fact_text("- W Þverá lot: 3.84 ha; the fence is 4 m off.") == (
        "Þverá lot: 3.84 ha; the fence is 4 m off."
    )
    assert fact_text("- B Émile rang about the boat") == "Émile rang about the boat."
