"""A person taking back a view, in a plain line of a note or in a Retain opinion, lowers every
earlier view of that entity it does not repeat, and what they think now is an opinion of its
own; a mistake owned or a parcel taken back is no retraction."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.bank.facts import extract_facts
from dreamd.engine.bank.opinions import Opinion
from dreamd.engine.bank.reflect import plan_reflect
from dreamd.engine.bank.retractions import retracts
from dreamd.engine.snapshot import BankFiles, NoteStat, TextFile
from dreamd.engine.text.snippets import content_hash

EARLIER = {
    "memory/2032-02-02.md": "# 2 Feb\n\n## Retain\n"
    "- O(c=0.75) @Marek Hudák: too slow with the invoices; won't last the season.\n"
    "- W @Marek Hudák: new bookkeeper at the bike co-op since February.\n",
    "memory/2032-02-05.md": "# 5 Feb\n\n## Retain\n"
    "- O(c=0.8) @Marek Hudák: never picks up the phone on a Friday.\n",
}


def _opinions(notes: dict[str, str]) -> tuple[Opinion, ...]:
    stats = {path: NoteStat(path, path[7:17], 0.0, len(text)) for path, text in notes.items()}
    files = {p: TextFile(p, t, content_hash(t.encode())) for p, t in notes.items()}
    return plan_reflect(BankFiles({}, TextFile("x", "", None), files), stats).opinions


def _with(line: str, *, retain: bool = True) -> dict[str, str]:
    """The earlier notes and a later one holding ``line`` (beside a Retain section or not)."""
    head = "# 20 Feb\n\n## Co-op\n" + line + "\n"
    if retain:
        head += "\n## Retain\n- W @Bike Co-op: the spring sale is on 14 March.\n"
    return {**EARLIER, "memory/2032-02-20.md": head}


def _confidence(opinions: tuple[Opinion, ...], start: str) -> float:
    return next(o.confidence for o in opinions if o.statement.startswith(start))


@pytest.mark.parametrize("retain", [True, False])
def test_a_plain_line_taking_a_view_back_lowers_the_old_and_holds_the_new(retain: bool) -> None:
    """ "Ilse had Marek wrong: he's careful" lowers both of her earlier views of him (by a
    first name the bank reads as his full one) and is a view of its own, at its start."""
    line = "- Over lunch Ilse said she had Marek wrong: he's careful, the bank held the invoices."
    opinions = _opinions(_with(line, retain=retain))
    assert _confidence(opinions, "too slow with the invoices") < 0.75
    assert _confidence(opinions, "never picks up the phone") < 0.8
    now = [o for o in opinions if "careful" in o.statement]
    assert len(now) == 1 and now[0].entities == ("Marek Hudák",), opinions
    assert now[0].confidence == 0.6


def test_a_retain_opinion_that_takes_a_view_back_lowers_the_old() -> None:
    line = "## Retain\n- O(c=0.7) @Marek Hudák: I was wrong about him; the invoices are on time."
    opinions = _opinions(_with(line, retain=False))
    assert _confidence(opinions, "too slow with the invoices") < 0.75
    assert _confidence(opinions, "never picks up the phone") < 0.8


def test_a_retraction_leaves_the_view_it_says_again() -> None:
    """Taking back one thing while saying another again: the one said again is not lowered."""
    line = (
        "- Ilse took back what she said about Marek: he still never picks up the phone on a Friday."
    )
    opinions = _opinions(_with(line))
    assert _confidence(opinions, "never picks up the phone") == 0.8
    assert _confidence(opinions, "too slow with the invoices") < 0.75


@pytest.mark.parametrize(
    "line",
    [
        "- I got the date wrong in the minutes again; fixed it.",
        "- Took the parcel back to the post office.",
        "- Marek took it back to the shop: the chain was the wrong size.",
        "- We had the wrong address for the sale flyers.",
        "- The answer the bank gave was wrong about the fees.",
    ],
)
def test_a_mistake_owned_or_a_thing_returned_is_no_retraction(line: str) -> None:
    """No opinion fact comes of it, and Marek's views keep their confidence."""
    assert not [f for f in extract_facts("memory/2032-02-20.md", line) if f.kind == "opinion"]
    opinions = _opinions(_with(line))
    assert _confidence(opinions, "too slow with the invoices") == 0.75


TAKEN_BACK = st.sampled_from(
    [
        "she had {who} wrong",
        "I take back every word about {who}",
        "Ilse took it all back about {who}.",
        "I was wrong about {who}",
        "Ilse changed her mind about {who}",
        "I misjudged {who}",
        "she got {who} all wrong",
    ]
)


@settings(max_examples=60, deadline=None)
@given(TAKEN_BACK, st.sampled_from(["Marek", "Marek Hudák"]), st.booleans())
def test_a_retraction_never_raises_an_earlier_view(form: str, who: str, retain: bool) -> None:
    line = "- " + form.format(who=who) + " He sorted the accounts in a day."
    assert retracts(line)
    before = {o.statement: o.confidence for o in _opinions(EARLIER)}
    after = {o.statement: o.confidence for o in _opinions(_with(line, retain=retain))}
    assert all(after[statement] < c for statement, c in before.items()), after


def test_a_view_told_only_in_prose_beside_a_retain_section_is_held_and_taken_back() -> None:
    """A view said in a plain line of a note that also has a Retain section ("Can't stand the
    man", of someone the Retain section names) is an opinion; taken back later, it falls and
    the new view is held."""
    notes = {
        "memory/2032-03-01.md": "# 1 Mar\n\n## Home\n"
        "- Ilse after the parents' evening: Jonas Weber talks over everyone and I can't stand "
        "him.\n\n## Retain\n- W @Jonas Weber: chairs the parents' council at the Grundschule.\n",
        "memory/2032-03-20.md": "# 20 Mar\n\n## Home\n"
        "- Ilse says she had Jonas wrong: he sorted the bus rota in a day.\n\n"
        "## Retain\n- W @Grundschule: the spring fair is on 28 April.\n",
    }
    facts = extract_facts("memory/2032-03-01.md", notes["memory/2032-03-01.md"])
    assert [f.kind for f in facts if "can't stand" in f.text] == ["opinion"]
    opinions = _opinions(notes)
    old = next(o for o in opinions if "can't stand" in o.statement)
    assert old.confidence < old.start
    assert any("sorted the bus rota" in o.statement for o in opinions)


def test_a_plain_line_beside_a_retain_section_is_read_for_a_view_only() -> None:
    """Beside a Retain section, a plain fact line stays the Retain section's business."""
    note = (
        "# 2 Mar\n\n## Work\n- Jonas Weber works at the Stadtwerke as an engineer.\n\n"
        "## Retain\n- W @Grundschule: the spring fair is on 28 April.\n"
    )
    facts = extract_facts("memory/2032-03-02.md", note)
    assert facts and all("Stadtwerke" not in f.text for f in facts)
