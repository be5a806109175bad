"""Names found misspelt: a name the notes stop writing once a name one letter or two away takes
over is the same entity, spelt wrong until then.

"Jacinta Odera" in the notes of 2 to 10 June and "Jacinta Odero" from 12 June on, never the
old spelling again (the correction itself may have been told in chat, which the bank does not
read): the two names are one person, and the later spelling is hers. The rule:

- both names are of two words or more and differ in one word only, the others equal
  ("Trude Kaldestad" and "Trude Kalvestad");
- the differing words are written in letters, of :data:`MIN_LETTERS` or more, and one or two
  edits apart (Levenshtein): one for words shorter than :data:`LONG_WORD`, two from there on;
  "Nine" and "Five" are two apart and too short, so "Platform Nine" is never "Platform Five";
- every fact that says the old spelling (as a mention or in its text) is from a day before the
  first fact that says the new one: names used side by side are two entities ("Anna Berg" and
  "Anna Borg", both in this week's notes), and so is a name that comes back.

Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from dreamd.engine.bank.facts import Fact
from dreamd.engine.bank.pages import entity_key

__all__ = ["LONG_WORD", "MIN_LETTERS", "respelled"]

MIN_LETTERS = 4
LONG_WORD = 8


def _near(old: str, new: str) -> bool:
    """Whether two words are one name spelt two ways (the module rules)."""
    from rapidfuzz.distance import Levenshtein

    if old == new or not (old.isalpha() and new.isalpha()):
        return False
    if min(len(old), len(new)) < MIN_LETTERS:
        return False
    allowed = 2 if min(len(old), len(new)) >= LONG_WORD else 1
    return Levenshtein.distance(old.casefold(), new.casefold()) <= allowed


def _pairs(titles: Iterable[str]) -> list[tuple[str, str]]:
    """Every two names of two words or more that differ in one near word (either order)."""
    by_rest: dict[tuple[int, tuple[str, ...]], list[str]] = {}
    for title in dict.fromkeys(titles):
        words = title.split()
        if len(words) < 2:
            continue
        for at in range(len(words)):
            rest = tuple(w.casefold() for w in (*words[:at], *words[at + 1 :]))
            by_rest.setdefault((at, rest), []).append(title)
    pairs = []
    for (at, _), names in by_rest.items():
        for one in names:
            for other in names:
                if one != other and _near(one.split()[at], other.split()[at]):
                    pairs.append((one, other))
    return pairs


def _days(facts: Iterable[Fact], name: str) -> list[str]:
    """The days of the facts that say ``name``, as a mention or in their text."""
    key = entity_key(name)
    said = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    return [
        fact.day
        for fact in facts
        if fact.day and (any(entity_key(e) == key for e in fact.entities) or said.search(fact.text))
    ]


def respelled(facts: list[Fact], known: Mapping[str, str]) -> dict[str, str]:
    """Key of a name found misspelt -> the name that took over (see the module rules);
    ``known`` is key -> name of every name the bank knows."""
    pairs = _pairs(known.values())
    if not pairs:
        return {}
    days = {name: _days(facts, name) for pair in pairs for name in pair}
    found: dict[str, set[str]] = {}
    for old, new in pairs:
        before, after = days[old], days[new]
        if before and after and max(before) < min(after):
            found.setdefault(entity_key(old), set()).add(new)
    return {key: next(iter(names)) for key, names in found.items() if len(names) == 1}
