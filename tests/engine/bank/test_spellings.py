"""A name the notes stop writing once a spelling a letter or two away takes over is the same
entity: its facts go on the later spelling's page, and the page the old spelling already had
points there. Names used side by side, too far apart, or coming back stay two."""

from __future__ import annotations

from dreamd.engine.bank.facts import Fact, extract_facts
from dreamd.engine.bank.reflect import plan_reflect
from dreamd.engine.bank.spellings import respelled
from dreamd.engine.snapshot import BankFiles, NoteStat, TextFile
from dreamd.engine.text.snippets import content_hash
from dreamd.layout import BANK_LEDGER


def _file(path: str, text: str) -> TextFile:
    return TextFile(path, text, content_hash(text.encode()))


def _reflect(notes: dict[str, str], pages: dict[str, str] | None = None) -> dict[str, str]:
    """Every page (and the ledger) one reflection over ``notes`` leaves, from ``pages`` (and
    the ledger) an earlier one left."""
    stats = {path: NoteStat(path, path[7:17], 0.0, len(text)) for path, text in notes.items()}
    there = {p: _file(p, t) for p, t in (pages or {}).items() if p != BANK_LEDGER}
    ledger = (pages or {}).get(BANK_LEDGER)
    recorded = _file(BANK_LEDGER, ledger) if ledger else TextFile(BANK_LEDGER, "", None)
    bank = BankFiles(there, recorded, {p: _file(p, t) for p, t in notes.items()})
    written = {w.path: w.text for w in plan_reflect(bank, stats).writes}
    return {**(pages or {}), **written}


def _entity_pages(pages: dict[str, str]) -> list[str]:
    return sorted(p.rsplit("/", 1)[1] for p in pages if p.startswith("bank/entities/Ott"))


NOTES = {
    "memory/2031-09-01.md": "# 1 Sep\n\n## Retain\n"
    "- W @Ottilie Brenner: runs the lending library at the community centre.\n",
    "memory/2031-09-03.md": "# 3 Sep\n\n## Retain\n"
    "- W @Library: Ottilie Brenner wants the donated atlases sorted by shelf.\n",
    "memory/2031-09-08.md": "# 8 Sep\n\n## Retain\n"
    "- W @Ottilie Brennar: the library opens Thursdays 15:00-18:00 from October.\n",
    "memory/2031-09-12.md": "# 12 Sep\n\n## Retain\n"
    "- W @Library: the atlases are on the shelf by Ottilie Brennar's desk.\n",
}


def test_a_spelling_the_notes_switch_to_takes_the_old_ones_facts() -> None:
    """Brenner until 3 September, Brennar from the 8th on: one page, Brennar's, with all four
    facts, saying who she is by what she does (not by the library's hours, nor by a line about
    the library that names her)."""
    pages = _reflect(NOTES)
    assert _entity_pages(pages) == ["Ottilie-Brennar.md"]
    page = pages["bank/entities/Ottilie-Brennar.md"]
    assert page.startswith("# Ottilie Brennar\n")
    summary = page.split("\n")[3]
    assert summary.startswith("Ottilie Brennar — runs the lending library at the community centre.")
    assert page.count("- (world") == 4, page
    assert "atlases sorted" in page and "community centre" in page


def test_the_page_the_old_spelling_already_had_points_to_the_new_one() -> None:
    """A page written under the old spelling by an earlier night keeps its title (the person's
    part of the file) and one line naming and linking the page under the spelling now used."""
    first = dict(list(NOTES.items())[:2])
    before = _reflect(first)
    assert _entity_pages(before) == ["Ottilie-Brenner.md"]
    after = _reflect(NOTES, before)
    assert _entity_pages(after) == ["Ottilie-Brennar.md", "Ottilie-Brenner.md"]
    old = after["bank/entities/Ottilie-Brenner.md"]
    assert old.startswith("# Ottilie Brenner\n")
    assert "Ottilie Brenner is Ottilie Brennar: see " in old
    assert "[Ottilie Brennar](Ottilie-Brennar.md)" in old
    assert "community centre" not in old
    assert after["bank/entities/Ottilie-Brennar.md"].count("- (world") == 4


def _facts(notes: dict[str, str]) -> list[Fact]:
    return [f for path, text in sorted(notes.items()) for f in extract_facts(path, text)]


def _known(*names: str) -> dict[str, str]:
    return {name.lower().replace(" ", "-"): name for name in names}


def _said(days: dict[str, list[str]]) -> list[Fact]:
    """Facts saying each name on its days (in prose, no mention)."""
    notes: dict[str, str] = {}
    for name, on in days.items():
        for day in on:
            path = f"memory/{day}.md"
            text = notes.get(path, f"# {day}\n\n## Retain\n")
            notes[path] = text + f"- W @Rota: {name} takes the late shift on Fridays.\n"
    return _facts(notes)


def test_names_used_side_by_side_are_two() -> None:
    """Anna Berg and Anna Borg both in this week's notes: two people."""
    facts = _said({"Anna Berg": ["2031-09-01", "2031-09-05"], "Anna Borg": ["2031-09-03"]})
    assert respelled(facts, _known("Anna Berg", "Anna Borg")) == {}


def test_a_spelling_that_comes_back_is_no_misspelling() -> None:
    facts = _said(
        {"Ottilie Brenner": ["2031-09-01", "2031-09-20"], "Ottilie Brennar": ["2031-09-08"]}
    )
    assert respelled(facts, _known("Ottilie Brenner", "Ottilie Brennar")) == {}


def test_names_too_far_apart_or_not_words_are_two() -> None:
    """ "Nine" and "Five" are two edits apart in four letters; "42A" and "42B" are no words;
    two words changed is another name."""
    facts = _said(
        {
            "Platform Nine": ["2031-09-01"],
            "Platform Five": ["2031-09-09"],
            "Route 42A": ["2031-09-01"],
            "Route 42B": ["2031-09-09"],
            "Ottilie Brenner": ["2031-09-01"],
            "Otilie Brennar": ["2031-09-09"],
        }
    )
    known = _known(
        "Platform Nine",
        "Platform Five",
        "Route 42A",
        "Route 42B",
        "Ottilie Brenner",
        "Otilie Brennar",
    )
    assert respelled(facts, known) == {}


def test_a_long_surname_two_letters_off_is_the_same() -> None:
    """Two edits in a name of eight letters or more ("Kallstrom" to "Kahlström"); two edits in
    a shorter one make another name ("Ekman" and "Eckmann")."""
    facts = _said({"Linnea Kallstrom": ["2031-09-01"], "Linnea Kahlström": ["2031-09-09"]})
    assert respelled(facts, _known("Linnea Kallstrom", "Linnea Kahlström")) == {
        "linnea-kallstrom": "Linnea Kahlström"
    }
    facts = _said({"Jon Ekman": ["2031-09-01"], "Jon Eckmann": ["2031-09-09"]})
    assert respelled(facts, _known("Jon Ekman", "Jon Eckmann")) == {}


BRACKETED = {
    "memory/2031-05-05.md": "# 5 May\n\n## Retain\n"
    "- W @Nain: Nain (Gwenllian Price, 84) lives on her own in her bungalow in Ffairfach.\n",
    "memory/2031-05-20.md": "# 20 May\n\n## Retain\n"
    "- W @Nain: lives at Bryn Haven (room 6) since 20 May.\n",
}


def test_a_word_given_a_full_name_in_brackets_is_that_person() -> None:
    """ "Nain (Gwenllian Price, 84)": every @Nain fact is on Gwenllian Price's page, and a
    page Nain already had points there."""
    pages = _reflect(BRACKETED)
    entities = sorted(p.rsplit("/", 1)[1] for p in pages if p.startswith("bank/entities/"))
    assert entities == ["Gwenllian-Price.md"]
    assert pages["bank/entities/Gwenllian-Price.md"].count("- (world") == 2
    before = _reflect(dict(list(BRACKETED.items())[:1]))
    before["bank/entities/Nain.md"] = "# Nain\n\nGran on Dad's side.\n"
    after = _reflect(BRACKETED, before)
    assert (
        "Nain is Gwenllian Price: see [Gwenllian Price](Gwenllian-Price.md)."
        in after["bank/entities/Nain.md"]
    )
    assert after["bank/entities/Nain.md"].startswith("# Nain\n\nGran on Dad's side.\n")
