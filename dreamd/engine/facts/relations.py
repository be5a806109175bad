"""How two statements relate: the same fact said twice, or a newer one replacing an older.

**Slots.** Two statements speak of the same slot when their subjects agree (equal, or one of
them has none or is ``we``, or one's subject is among the other's names) and their topics
agree: the smaller topic lies mostly (two thirds) inside the larger one (a statement whose
words are all subject and values, "Invoices go out on the 15th", speaks of its named
subject's slot). Words of one *field*
(ways to reach someone: calls, voice notes, e-mail, messages; parts of the day; food and
drink; where someone is on their days...) count as one topic word, so "prefers voice notes" and
"now prefers written messages" speak of the same slot; a field alone joins two preferences, or
the days one named person is somewhere ("works Monday and Friday", "in the workshop Tuesday and
Thursday"), nothing else. Values compare by *family*: a weekday with a weekday, a clock time or a
part of the day with either (a part of the day is another value than clock times only when none
of them falls in it: "rehearsal evening" agrees with "19:00-21:30"), a date or month with
either, a number with a number, a name or an identifier with either.

**Same fact** (:func:`same_fact`): the same polarity, agreeing subjects, the same numbers, times,
days and dates (or one saying less than the other and nothing else: "Thursdays now" and "Thursday
16:30"; values a statement says it replaces do not count), names of one inside the other's, and
close wording (``rapidfuzz``'s token-set ratio at least :data:`PARAPHRASE_RATIO` with at least half
the smaller topic shared, or the same slot). "Ingrid Solberg is our contact at Halvorsen" and "Our
contact at Halvorsen Shipping is Ingrid Solberg" are one fact.

**Replaces** (:func:`replaces`), for a newer statement and an older one that are not the same
fact:

1. the newer names what it replaces ("from Tuesday", "not Solheim", "instead of Hetzner", "no
   longer voice notes", "reversed the Hetzner decision") and the older states it, sharing the
   subject, a topic word or another value (a person put in another's place, "mentor rather
   than Rasmus", shares a topic word, the subject or a naming with the older: else Rasmus is in
   another role there); or
2. the newer cancels or reverses a plan or decision whose current values name what it cancels
   ("the Trados switch is off" after "move the work from memoQ to Trados"), or tells that the
   person it speaks of gave up the role the older gave them ("Lajos stood down after 22 years"
   after "Lajos Baranyi: commander of the fire association"); a cancellation
   ends only what the clause of its cue names ("Rõngu is off: Kaarel told Kadri the 25th is
   open again" ends nothing of Kadri's), in rule 3 as well; or
3. the newer announces a change (:mod:`~dreamd.engine.facts.statement`) of the same slot and
   either flips the polarity, or gives another value of a family both have (or, within one
   field, other words for the thing: "now prefers written messages"), or cancels or reverses
   it; or
4. without any cue, it is the same slot under the same named subject, with the topic all but
   equal, the same names, and another value of a family both have: "Mia's lesson is on
   Thursdays" after "Mia's lesson is on Tuesdays" (other names would be other things: "Service
   r3a runs on db-31" is not replaced by "Service r4a runs on db-41"); or
5. the newer says all the older gave one named subject and more (:func:`_fuller`: "Márton:
   deposit paid 27 Nov; 41 cm viola, 2 600 000 Ft, delivery 30 April" after "Márton: viola
   body changed to 41 cm"); or
6. another named person holds the role the older gave someone, in the same place, told in
   plain words: "Lorna Spence is chief engineer on the Skelwick" after "Erlend Drever: chief
   engineer on the Skelwick" (the older's topic all in the newer's, one of its words a role
   one person holds at a time, a place the older names named again; not "is a nurse", which
   many are; not a newer subject the older already names).

A **choice** between the same two things (:func:`choice`: each statement takes one and turns
the other down, :mod:`~dreamd.engine.facts.statement`) *agrees* when two or more of the words
fall on the same sides and *opposes* when two or more fall on the other sides; a newer choice
that opposes an older one replaces it ("prefers in-ears now; wedges are out of her mix" ends
"wedges, not in-ears"), whatever else the two share.

An *episode* (a Retain ``B`` line) replaces a line of another kind only when it announces a
change ("moved the lesson to Thursdays"): "put the lesson in at 15:30 instead of 16:30 by
mistake" tells what happened once, not what holds now. Nor does one dated occasion replace a
standing week ("works Saturday 28 June … and is off Monday 30 June instead" leaves "works Monday
to Friday"); nor a line that shares with the older only the one word it turns down ("eats
breakfast at the table instead of in the van" leaves "the van owner keeps the fee") or, naming
nothing, one more ("kept with the first-aid kit, not in the sterilisation room" leaves "room 14,
first floor"); nor an end said again ("no more Fana Ved" after "Fana Ved dropped"), a reversal
told again ("Reversed: the party is not at home"), or a reversal of a named someone's plan for a
line that does not name them.

The rules err towards keeping both: a missed change leaves two lines side by side, a false one
hides a fact. Pure; ``rapidfuzz`` is imported on the first paraphrase check.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from functools import lru_cache
from types import MappingProxyType

from dreamd.engine.facts.statement import (
    ASIDE,
    GAVE_UP_ROLE,
    OPENERS,
    Statement,
    change_clause,
)
from dreamd.engine.facts.values import CURRENCIES, kind_of
from dreamd.engine.text.concepts import STOP_WORDS
from dreamd.engine.text.stemming import stem
from dreamd.patterns import LazyPattern

__all__ = [
    "PARAPHRASE_RATIO",
    "choice",
    "family_values",
    "relation",
    "replaces",
    "respelt",
    "retells",
    "same_fact",
    "same_slot",
    "told_within",
    "untouched",
]

PARAPHRASE_RATIO = 72.0
_FIELDS = {
    "reach": "call phone voice note message text texting email e-mail mail letter whatsapp "
    "signal telegram slack sms chat written writing video zoom teams meet facetime dm",
    "when": "morning afternoon evening night noon lunchtime early late weekday weekend",
    "food": "coffee tea water juice wine beer milk breakfast lunch dinner food meal snack "
    "vegetarian vegan meat fish",
    "travel": "car bike bicycle bus train tram metro taxi walk walking flight plane drive driving",
    "pay": "invoice invoices payment pay paid billing bill transfer cash card net",
    "host": "host hosting server servers cloud aws azure gcp hetzner digitalocean vps nas",
    # where someone is on their days: "works Monday and Friday", "in the workshop Tuesdays"
    "attend": "work workshop office studio shop site shift clinic surgery",
    # where a sport or a class is held: "handball at the Raatuse hall", "in the Annelinna gym"
    "venue": "hall gym pool court pitch rink arena stadium track",
}
_LIKING = LazyPattern(r"\b(?:prefer\w*|likes?|loves?|hates?|wants?|rather)\b", re.IGNORECASE)
_PLANNED = LazyPattern(
    r"\b(?:decid\w*|decision\w*|plan\w*|book(?:ed|ing)|will|going\s+to|switch\w*|mov(?:e|ed|ing)|"
    r"trip|schedul\w*|agreed|use|using|driv(?:e|ing)|fly(?:ing)?|travel\w*|visit\w*|"
    r"host(?:s|ing)?|stay(?:s|ing)?|spend(?:s|ing)?|celebrat\w*|offer(?:ed|s)?|"
    r"buy(?:s|ing)?|sell(?:s|ing)?)\b|\w'll\b",
    re.IGNORECASE,
)
_FIELD_OF = {word: name for name, words in _FIELDS.items() for word in words.split()}
_FAMILY = {"day": "day", "time": "when", "part": "when", "date": "date", "month": "date"}
_PART_HOURS = {  # the hours a part of the day spans; night runs past midnight
    "morning": (5, 12),
    "noon": (11, 14),
    "afternoon": (12, 18),
    "evening": (17, 24),
    "night": (20, 30),
}
_NUMERIC = frozenset({"num", "time", "day", "date", "month", "part", "id"})
_UNDOES = frozenset({"cancelled", "reversed"})
_NAMING = LazyPattern(
    r"\b(?:surname|last\s+name|family\s+name|spell\w*|spelt|name\s+is|name's|named|called|"
    r"mishe(?:ard|aring)|misread)\b",
    re.IGNORECASE,
)
# A no to an offer or a plan, which a later "after all" can take back.
_REFUSED = LazyPattern(
    r"\b(?:declined|refused|turn(?:ed|s|ing)?\s+down|said\s+no\s+to|passed\s+on|"
    r"not\s+(?:doing|taking)|won'?t\s+(?:do|take))\b",
    re.IGNORECASE,
)
_WORDS = LazyPattern(r"[^\W_]+(?:['’-][^\W_]+)*")  # a word, folded by the caller
# A plan called off in so many words; not "is off", which is also "off sick", "off today".
_CALLED_OFF = LazyPattern(
    r"\bcancel(?:l)?ed\b|\bcalled\s+off\b|\bscrapped\b|\babandoned\b|\bwithdr(?:ew|awn)\b",
    re.IGNORECASE,
)
_NOT_FIRST = LazyPattern(r"\s*not\s+\S+\s*[:,—–]", re.IGNORECASE)  # "Not Phelan: I misheard"


@lru_cache(maxsize=4096)
def _found(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` occurs in ``text`` (asked of the same lines pair after pair)."""
    return pattern.search(text) is not None


@lru_cache(maxsize=16384)
def _fielded(topic: frozenset[str]) -> frozenset[str]:
    return frozenset(_field(word) for word in topic)


def _field(word: str) -> str:
    field = _FIELD_OF.get(word) or _FIELD_OF.get(_root(word))
    return f"field:{field}" if field else _root(word)


def _root(word: str) -> str:
    """A topic word's Porter stem: "training" is what "train" is about, "swimming" what "swim"
    is, and a "rehearsal" what "rehearses" (the statement reader's own stems only drop a
    plural)."""
    return stem(word)


def _rooted(topic: frozenset[str]) -> frozenset[str]:
    return frozenset(_root(word) for word in topic)


def told_within(statement: Statement, whole: Statement, speaker: Set[str] = frozenset()) -> bool:
    """Whether ``whole`` (a longer line, read whole) already tells all ``statement`` says:
    its subject, every topic word (by its stem), name, number, day and time are there, and it
    names no change and turns nothing down. ``speaker``: the names of whoever says "I" in
    ``whole`` ("I'm Solveig Brekke … state pilot with Kystverket" tells "Solveig Brekke: state
    pilot with Kystverket")."""
    if statement.change is not None or statement.polarity < 0 or whole.polarity < 0:
        return False
    if statement.replaced or len(statement.topic) + len(statement.values) < 3:
        return False
    values = whole.values | {f"name:{name}" for name in speaker}
    values |= _rest_of_name(statement.heading, values)
    if not statement.values <= values | _acronyms(whole.text):
        return False  # "JOOTRH" is told by "Jaramogi Oginga Odinga Teaching and Referral Hospital"
    words = _rooted(whole.topic) | {_root(name) for name in _names_of(values)}
    if not _rooted(statement.topic) <= words:
        return False
    return statement.subject in (None, "we") or _root(statement.subject) in words


def _rest_of_name(heading: str | None, values: frozenset[str]) -> frozenset[str]:
    """The other words of the name a line is headed by, when ``values`` hold one of them: a
    person's line that calls her "Mama Dorothy" tells of "Dorothy Okoth" too."""
    if not heading:
        return frozenset()
    words = [f"name:{word}" for word in heading.casefold().split()]
    return frozenset(words) if len(words) > 1 and any(w in values for w in words) else frozenset()


_JOINED_NAME = LazyPattern(
    r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]*(?:\s+(?:(?:and|of|the|for|de|del|la|&)\s+)?"
    r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]*)+"
)


@lru_cache(maxsize=4096)
def _acronyms(text: str) -> frozenset[str]:
    """The initials of each run of three to eight capitalised words (small joining words left
    out) as name values: ``name:jootrh`` for "Jaramogi Oginga Odinga Teaching and Referral
    Hospital"."""
    found: set[str] = set()
    for run in _JOINED_NAME.finditer(text):
        initials = [w[0] for w in run.group(0).split() if w[:1].isupper()]
        for start in range(len(initials)):
            for end in range(start + 3, min(len(initials), start + 8) + 1):
                found.add("name:" + "".join(initials[start:end]).casefold())
    return frozenset(found)


def untouched(newer: Sequence[Statement], older: Sequence[Statement]) -> list[bool]:
    """For each statement of ``older``, whether no statement of ``newer`` says it again or
    replaces it (what of a line a newer one leaves standing)."""
    return [not any(relation(n, o) is not None for n in newer) for o in older]


def family_values(statement: Statement) -> Mapping[str, frozenset[str]]:
    """Its values grouped by family (``day``, ``when``, ``date``, ``num``, ``name``)."""
    return _families_of(statement.values)


@lru_cache(maxsize=4096)
def _families_of(values: frozenset[str]) -> Mapping[str, frozenset[str]]:
    grouped: dict[str, set[str]] = {}
    for value in values:
        kind = kind_of(value)
        family = _FAMILY.get(kind, "name" if kind in ("name", "id") else kind)
        grouped.setdefault(family, set()).add(value)
    return MappingProxyType({family: frozenset(found) for family, found in grouped.items()})


def _names(statement: Statement) -> frozenset[str]:
    return _names_of(statement.values)


def _unaside(statement: Statement) -> frozenset[str]:
    """The names of ``statement`` said outside its bracketed asides (or in its heading)."""
    if "(" not in statement.text:
        return _names(statement)
    said = _words_of(f"{statement.heading or ''} {ASIDE.sub(' ', statement.text)}")
    return frozenset(name for name in _names(statement) if name in said)


def _valued(statement: Statement) -> bool:
    """It gives a value that is no name: a day, a time, a date, a number."""
    return any(kind_of(v) not in ("name", "id") for v in statement.values)


@lru_cache(maxsize=16384)
def _names_of(values: frozenset[str]) -> frozenset[str]:
    return frozenset(v.split(":", 1)[1] for v in values if kind_of(v) in ("name", "id"))


def _subjects_agree(a: Statement, b: Statement) -> bool:
    if a.subject is None or b.subject is None or "we" in (a.subject, b.subject):
        return True
    if a.subject == b.subject or a.subject in _names(b) or b.subject in _names(a):
        return True
    if a.subject in b.topic or b.subject in a.topic:
        return True  # "Orsi isn't consigning it after all" and "…: Orsi decided to consign it"
    return _nickname(a, b) or _nickname(b, a) or _told_under(a, b) or _told_under(b, a)


def _nickname(short: Statement, full: Statement) -> bool:
    """``short``'s subject is the short form of ``full``'s named one: "Nat" of "Natsuki", "Sam"
    of "Samantha" (three letters or more)."""
    name, whole = short.subject or "", full.subject or ""
    return (
        len(name) >= 3
        and len(whole) > len(name)
        and whole.startswith(name)
        and name.isalpha()
        and f"name:{whole}" in full.values
    )


def _told_under(a: Statement, b: Statement) -> bool:
    """``a``'s subject is what ``b`` speaks of under its heading or entity: "Drills are the
    first Wednesday" and "Hosszúhetény ÖTE: drills the first Wednesday, 18:00"."""
    if b.heading is None or a.subject is None:
        return False
    thing = a.subject.removesuffix("s")
    if thing not in b.topic and _root(thing) not in _rooted(b.topic):
        return False
    return (b.subject or "") not in _words_of(b.text)


def _containment(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def same_slot(a: Statement, b: Statement, *, strict: bool = False) -> bool:
    """Whether ``a`` and ``b`` speak of the same slot (``strict``: topics all but equal and a
    named subject shared)."""
    if not _subjects_agree(a, b):
        return False
    left, right = _fielded(a.topic), _fielded(b.topic)
    named = a.subject is not None and a.subject == b.subject and a.subject != "we"
    named = named or (strict and _same_label(a, b))
    if not left or not right:
        # "Invoices go out on the 15th": the subject is the slot, when the line gives it a
        # value; a line with neither topic nor value ("Same here!") speaks of no slot. With
        # no topic on either side, names alone are no slot: "Solveig no longer does." is not
        # about her age in "I'm Solveig Brekke, 47."
        if not left and not right:
            return named and _valued(a) and _valued(b)
        if left and not right and {kind_of(v) for v in b.values} <= {"name", "id", "num"}:
            return False  # her swapped shifts are not what "I'm Beatrice Okoth, 41." says
        return named and bool(left or a.values) and bool(right or b.values)
    # a currency both count in is no slot both speak of: "KSh 3,000 to Dorothy on the 5th" and
    # "KSh 429,800 moved from Equity to the Sacco"
    shared = (_rooted(a.topic) & _rooted(b.topic)) - CURRENCIES
    if shared and not strict:
        # "Fana kulturhus" and "Skeie skole" are places, not what the line is about: leave a
        # name's trailing common word out of both, when a shared word no name spells is left
        mine = a.topic - _name_tails(a.text, a.topic, _names(a))
        theirs = b.topic - _name_tails(b.text, b.topic, _names(b))
        if (_rooted(mine) & _rooted(theirs)) - _capitalised(a.text) - _capitalised(b.text):
            left, right = _fielded(mine), _fielded(theirs)
    if (
        not shared
        and not (_found(_LIKING, a.text) and _found(_LIKING, b.text))
        and not (named and _attends(a) and _attends(b))
    ):
        return False  # a field alone ("written", "phone") joins two preferences, nothing else:
        # not "Orsi's on-call weekend" and "Orsi's own notes for the agent"
    if strict:
        return named and _containment(left, right) >= 0.99 and len(left ^ right) <= 1
    if _lost_in(a, b, shared) or _lost_in(b, a, shared):
        return False  # two words of a long rule about patients' numbers: not the drafting rule
    if len(shared) == 1 and not a.values & b.values and _named_apart(a, b):
        return False  # "M-10 training moves to Mondays" is not Lucía's hockey training
    if len(shared) == 1 and min(len(left), len(right)) == 1 and not a.values & b.values:
        # one word shared by a one-word line and a line under another heading, and no value:
        # "Calendar: M-10 training Mondays 18:30" is not "Tomás's GWO refresher: 17–19 October
        # at the training centre"
        headings = (a.heading or "").casefold(), (b.heading or "").casefold()
        if all(headings) and headings[0] != headings[1]:
            return False
    return _containment(left, right) >= 2 / 3


def _moved_whole(newer: Statement, older: Statement) -> bool:
    """A named someone's standing week moved whole, place and all: "Amparo: orchestra
    rehearsals Fridays 18:00–20:30, Parque Cultural" after "Amparo: rehearsals Saturdays
    10:00–13:00 at the Liceo" (or after "Rehearsals are Saturday mornings, 10:00 to 13:00": the
    thing by its common noun). Both give weekdays and clock times, the newer others of each,
    and the older's topic lies in the newer's."""
    if newer.subject in (None, "we") or newer.polarity != older.polarity:
        return False
    if newer.retain == "B" or _one_occasion(newer, older):
        return False  # what happened once, or one dated occasion
    if newer.subject == older.subject:
        if not older.topic or not older.topic <= newer.topic:
            return False
    # "Rehearsals are Saturday mornings, 10:00 to 13:00, in the hall of Claudio's liceo":
    # a thing said by its common noun, which the newer's topic holds
    else:
        noun = older.subject or _opening(older)
        if not noun or f"name:{noun}" in older.values or _root(noun) not in _rooted(newer.topic):
            return False
    new, old = family_values(newer), family_values(older)
    if not all(family in new and family in old for family in ("day", "when")):
        return False
    days = (
        {v for v in new["day"] if kind_of(v) == "day"},
        {v for v in old["day"] if kind_of(v) == "day"},
    )
    return not days[0] & days[1] and _other_values("when", new["when"], old["when"])


def _same_label(a: Statement, b: Statement) -> bool:
    """Two lines with no subject under one label, as a named subject: "Teatro del Puerto
    Steinway D: tuned to A=442" and "Teatro del Puerto Steinway: A=440" (the words of one
    label all in the other's; MEMORY.md entries carry no Retain letter)."""
    if a.subject is not None or b.subject is not None:
        return False
    if not (a.heading and b.heading and a.heading[:1].isupper() and b.heading[:1].isupper()):
        return False
    mine, theirs = _words_of(a.heading), _words_of(b.heading)
    return bool(mine and theirs) and (mine <= theirs or theirs <= mine)


_NAME_THEN_WORD = LazyPattern(r"\b([A-ZÀ-ÖØ-Þ][\w-]+) ([a-zà-öø-ÿ][\w-]+)")
_CAPITALISED = LazyPattern(r"\b[A-ZÀ-ÖØ-Þ][\w-]+")


@lru_cache(maxsize=16384)
def _capitalised(text: str) -> frozenset[str]:
    """Words written with a capital where no sentence starts: names, not "Rehearsals move"."""
    return frozenset(
        _root(found.group(0).casefold())
        for found in _CAPITALISED.finditer(text)
        if text[: found.start()].rstrip()[-1:] not in ("", ".", "!", "?", ":", ";")
    )


@lru_cache(maxsize=16384)
def _name_tails(text: str, topic: frozenset[str], names: frozenset[str]) -> frozenset[str]:
    """Topic words that stand right after one of ``names`` ("Fana kulturhus", "Skeie skole",
    "Hjellestad grendahus"): the rest of a place's name, as languages that write a place's
    common noun in lower case name it ("Choir rehearses" opens a sentence: no name)."""
    tails = set()
    for name, word in _NAME_THEN_WORD.findall(text):
        if name.casefold() not in names:
            continue
        bare = word.casefold()
        bare = bare[:-1] if bare.endswith("s") and bare[:-1] in topic else bare
        if bare in topic:
            tails.add(bare)
    return frozenset(tails)


def _attends(statement: Statement) -> bool:
    """A person's days somewhere: a topic all of the field ``attend`` and two or more weekdays
    ("Dávid: in the workshop Tuesday, Wednesday and Thursday"; "works Monday and Friday")."""
    days = family_values(statement).get("day", frozenset())
    return (
        len(days) >= 2
        and bool(statement.topic)
        and all(_field(word) == "field:attend" for word in statement.topic)
    )


def _exact(statement: Statement) -> frozenset[str]:
    return _exact_of(statement.values)


def _exact_now(statement: Statement) -> frozenset[str]:
    """Its numbers, days, times and dates, without those it says it replaces."""
    return _exact_of(statement.values - statement.replaced)


@lru_cache(maxsize=16384)
def _exact_of(values: frozenset[str]) -> frozenset[str]:
    return frozenset(v for v in values if kind_of(v) in _NUMERIC)


def _agree(a: Statement, b: Statement) -> bool:
    """One says less than the other and nothing else: its values (as they are now) are among
    the other's, and every family both give agrees ("Thursdays now" and "Thursday 16:30")."""
    left, right = _current(a), _current(b)
    shared = left.keys() & right.keys()
    # days and times are one arrangement each; a sum told with another number beside it ("R2,150
    # a day, paid in about 60 days") still tells the sum
    if not shared or any(left[f] != right[f] for f in shared if f not in ("name", "num")):
        return False
    said_a = {v for f, vs in left.items() if f != "name" for v in vs}
    said_b = {v for f, vs in right.items() if f != "name" for v in vs}
    return said_a <= said_b or said_b <= said_a


def _worded(a: Statement, b: Statement) -> tuple[frozenset[str], frozenset[str]]:
    """Each one's topic words (by their stems), with the names it gives that the other says as
    a word of its topic."""
    topic_a, topic_b = _rooted(a.topic), _rooted(b.topic)
    names_a, names_b = _rooted(_names(a)), _rooted(_names(b))
    return topic_a | (names_a & topic_b), topic_b | (names_b & topic_a)


def same_fact(a: Statement, b: Statement) -> bool:
    """Whether ``a`` and ``b`` state one fact (see the module rules)."""
    if a.polarity != b.polarity or not _subjects_agree(a, b) or choice(a, b) == "opposes":
        return False
    if _exact(a) != _exact(b) and not _agree(a, b):
        return False
    current_a, current_b = _current(a), _current(b)
    exact = {v for f, vs in current_a.items() if f != "name" for v in vs}
    other = {v for f, vs in current_b.items() if f != "name" for v in vs}
    same_one = a.subject is not None and a.subject == b.subject and a.subject != "we"
    same_terms = len(exact) >= 2 and exact == other  # the same two or more days, times, numbers
    subjects = {a.subject, b.subject}
    names_a, names_b = _names(a) - subjects, _names(b) - subjects
    # Other names are other things, unless one named subject keeps the same arrangement: "Aoife
    # Byrne needs the batch by Wednesday noon, back on Friday" and "Aoife reviews the Vestgaard
    # batches; needs files by Wednesday 12:00, returns them Friday".
    arrangement = same_one and same_terms and _ids(a) == _ids(b)
    if not (names_a <= names_b or names_b <= names_a) and not arrangement:
        return False
    now_a = {v for vs in current_a.values() for v in vs}
    now_b = {v for vs in current_b.values() for v in vs}
    if a.replaced & now_b or b.replaced & now_a:
        return False  # one says no to what the other says
    if same_one and not a.topic and not b.topic and _says_no_more(now_a, now_b):
        return True  # "Handball is on Thursdays at 16:30 now" after "... moves to Thursday 16:30"
    if same_terms and (names_a & names_b or same_one):
        return True  # the same day, time and place in other words: "needs it by Wednesday noon"
    if same_one and exact and exact == other and a.topic & b.topic:
        return True  # "Mamma's room number is 118" and "Mamma's room is 118, not 108"
    if (a.change in _UNDOES) != (b.change in _UNDOES):
        return False  # "the Trados switch is cancelled" undoes the switch, it does not repeat it
    # "It's Karin Hald, not Holm": names alone, no age or number ("Vicente Araya: 9" is not
    # what "Vicente Araya: asthma" says)
    if (not a.topic or not b.topic) and names_a and names_b and not (_exact(a) or _exact(b)):
        # "Correction: Hald, not Holm" inside "Karin Hald: baker (correction: Hald, not Holm)"
        return a.replaced == b.replaced and (names_a == names_b or bool(a.replaced))
    comparable = 3 * min(len(a.topic), len(b.topic)) >= max(len(a.topic), len(b.topic))
    # "running it", "runs it"; a name one gives is a word of the other's ("The DoJ pays panel
    # interpreters its tariff" and "DoJ panel tariff: R2,150 a day")
    contained = _containment(*_worded(a, b))
    # three words or more of one all in the other say what "we" do as the business does:
    # "we price and invoice in kilos" and "La Clairière prices, packs and invoices in kilos"
    whole = contained == 1 and min(len(a.topic), len(b.topic)) >= 3 and "we" in subjects
    if contained >= 2 / 3 and comparable and (a.values or a.subject == b.subject or whole):
        return True  # not "Bart's own list" inside "put the warning on her medicine list"
    if a.topic and b.topic and _containment(a.topic, b.topic) < 0.5:
        return False  # shared function words ("we always check ... before") are not a fact
    if bool(a.topic) != bool(b.topic) and (_exact(a) or _exact(b)):
        return False  # "Vicente Araya: 9" (an age) is not "Vicente Araya: asthma"
    from rapidfuzz import fuzz

    ratio = fuzz.token_set_ratio(a.text.casefold(), b.text.casefold())
    return ratio >= PARAPHRASE_RATIO


def retells(told: Statement, known: Sequence[Statement]) -> bool:
    """A line that tells again, of one named subject, what lines of the same note say: the
    same subject and polarity, no value either turns down, and two topic words in common with
    those lines together ("The members elected Krisztina Major …, and she takes the drills from
    Wednesday" and its Retain line "Krisztina Major: elected commander …; runs the drills from
    19 Nov"). The caller asks it only of lines of one note."""
    if told.subject is None or told.subject == "we":
        return False
    shared: set[str] = set()
    for other in known:
        if other.subject != told.subject or other.polarity != told.polarity:
            continue
        if told.replaced & other.values or other.replaced & told.values:
            return False
        shared |= _rooted(told.topic) & _rooted(other.topic)
    return len(shared) >= 2


def _clause_words(statement: Statement) -> frozenset[str]:
    """The folded words of the clause a statement's change cue stands in: a cancellation ends
    what that clause names ("Rõngu is off: Kaarel told Kadri …" ends nothing of Kadri's)."""
    return _words_of(change_clause(statement))


def _turned_there(newer: Statement, older: Statement) -> bool:
    """The words the two share stand in the clause of the newer's turn, where there is one:
    "Tich Maber is not buying the Otonglo plot after all (…); it buys 200 chairs for hire"
    turns the plot, not what "Jacinta: chairs Tich Maber" says."""
    shared = _rooted(newer.topic) & _rooted(older.topic)
    turn = change_clause(newer)
    clause = _words_of(turn)
    if not shared or not clause or turn == newer.text:
        return True
    return bool(shared & {_root(word) for word in clause})


def _words_of(text: str) -> frozenset[str]:
    return frozenset(_WORDS.findall(text.casefold()))


def _one_name_swapped(newer: Statement, older: Statement) -> bool:
    """The same named subject, one other name each, and not the same one ("Ines Morrow" and
    "Ines Marrow")."""
    if newer.subject is None or newer.subject != older.subject:
        return False
    mine = _names(newer) - {newer.subject}
    theirs = _names(older) - {older.subject}
    return len(mine) == 1 and len(theirs) == 1 and mine != theirs


def _renamed(newer: Statement, older: Statement) -> bool:
    """One first name with another surname after it in each ("Sanna Kärrman: the earlier
    spelling was a mishearing" and "… Sanna Kjellman, coming from Östra"): asked of a
    correction that speaks of naming, it is the person's name corrected."""
    mine, theirs = _names(newer), _names(older)
    said_new = f"{newer.heading or ''} {newer.text}".casefold()
    said_old = f"{older.heading or ''} {older.text}".casefold()
    for first in mine & theirs:
        if any(f"{first} {name}" in said_new for name in mine - theirs) and any(
            f"{first} {name}" in said_old for name in theirs - mine
        ):
            return True
    return False


def _about(newer: Statement, older: Statement, named: frozenset[str]) -> bool:
    """The newer speaks of the older's subject or shares a topic word with it."""
    return older.subject in newer.topic | named or bool(newer.topic & older.topic)


_PLACE_WORDS = frozenset("in at near".split())  # where, not where to


def _places(names: frozenset[str], text: str) -> bool:
    """Every one of ``names`` stands in ``text`` only as where something happens ("knee
    replacement on 16 December in Debrecen"): "The Debrecen trip is off" cancels no plan a
    named person has there."""
    words = [w.casefold() for w in _WORDS.findall(text)]
    for name in names:
        spots = [i for i, word in enumerate(words) if word == name]
        if not spots or any(i == 0 or words[i - 1] not in _PLACE_WORDS for i in spots):
            return False
    return True


def _restates(newer: Statement, older: Statement) -> bool:
    """Every value the older gives now (besides names) is among the newer's, family by family:
    the newer says again where a change landed."""
    new, old = _current(newer), _current(older)
    shared = (new.keys() & old.keys()) - {"name"}
    return bool(shared) and all(old[f] <= new[f] for f in shared)


def _other_value_ended(newer: Statement, older: Statement) -> bool:
    """A denial that names values of a family the older gives, none of them the older's: "The
    workshop no longer opens on Saturday mornings" ends nothing of "Dávid: in the workshop
    Tuesday, Wednesday and Thursday"."""
    gone = _families_of(frozenset(v for v in newer.replaced if ":" in v))
    held = _families_of(older.values)
    shared = (gone.keys() & held.keys()) - {"name"}
    return bool(shared) and not any(gone[f] & held[f] for f in shared)


def _ids(statement: Statement) -> set[str]:
    return {v for v in statement.values if kind_of(v) == "id"}


def _says_no_more(now_a: set[str], now_b: set[str]) -> bool:
    """One of two value sets (at least two values) holds nothing the other does not."""
    small, large = (now_a, now_b) if len(now_a) <= len(now_b) else (now_b, now_a)
    return len(small) >= 2 and small <= large


def _current(statement: Statement) -> Mapping[str, frozenset[str]]:
    """Its values by family, without the ones it says it replaces ("moved from Tuesday to
    Thursday" holds Thursday)."""
    return _current_of(statement.values, statement.replaced)


@lru_cache(maxsize=4096)
def _current_of(values: frozenset[str], replaced: frozenset[str]) -> Mapping[str, frozenset[str]]:
    kept = {f: v - replaced for f, v in _families_of(values).items()}
    return MappingProxyType({f: v for f, v in kept.items() if v})


def _within(part: str, clock: str) -> bool:
    """Whether a clock time (``19:00``) falls in a part of the day (``evening``)."""
    first, last = _PART_HOURS.get(part, (0, 0))
    hour = int(clock.split(":", 1)[0])
    return first <= hour < last or first <= hour + 24 < last


def _other_values(family: str, new: frozenset[str], old: frozenset[str]) -> bool:
    """Whether two statements give other values of one family: a part of the day and clock
    times are another value only when no time falls in it ("rehearsal evening" is not other
    than "19:00-21:30")."""
    if new == old:
        return False
    if family == "when":
        parts = [{v.split(":", 1)[1] for v in vs if kind_of(v) == "part"} for vs in (new, old)]
        times = [{v.split(":", 1)[1] for v in vs if kind_of(v) == "time"} for vs in (new, old)]
        for side in (0, 1):
            own_parts, own_times, other_times = parts[side], times[side], times[1 - side]
            if own_parts and not own_times and other_times and not parts[1 - side]:
                return not all(any(_within(p, t) for t in other_times) for p in own_parts)
    return True


_ALSO = LazyPattern(r"\b(?:also|too|as\s+well|besides|another)\b", re.IGNORECASE)


def _goes_elsewhere(newer: Statement, older: Statement) -> bool:
    """The same thing now goes to someone else: "Crowns and bridges now go to Campanar
    Prótesis" after "crowns and bridges go to Turia Dental Lab" (every topic word of the
    older but a contact's is the newer's, the names all new, no "also")."""
    if newer.change != "now" or newer.subject is not None or older.subject is not None:
        return False
    names_new, names_old = _names(newer), _names(older)
    if not names_new or not names_old or names_new & names_old or _found(_ALSO, newer.text):
        return False
    shared = _rooted(newer.topic) & _rooted(older.topic)
    return len(shared) >= 2


def _differs(newer: Statement, older: Statement) -> bool:
    """Another value of a family both have; or, in one field ("prefers voice notes", "prefers
    written messages"), other words for the thing itself. Other plain numbers alone count only
    between statements of a like size: "Bow rehair goes up to 22 000 Ft" changes no number of
    "I make violins … at Mária utca 9: repairs, setups, bow rehairs and rentals", which only
    shares two of its many topic words."""
    new, old = _current(newer), _current(older)
    if _goes_elsewhere(newer, older):
        return True
    ids_new, ids_old = _ids(newer) - newer.replaced, _ids(older) - older.replaced
    if newer.change is not None and ids_new and ids_old and not ids_new & ids_old:
        return True  # "deliverables in ISN2016 from 1 September" after "… in ISN93"
    shared = (new.keys() & old.keys()) - {"name"}  # other names are other things, not values
    other = {family for family in shared if _other_values(family, new[family], old[family])}
    if other - {"num"}:
        return True
    if other and 3 * min(len(newer.topic), len(older.topic)) >= max(
        len(newer.topic), len(older.topic)
    ):
        return True
    fields = {w for w in _fielded(newer.topic) if w.startswith("field:")}
    fields &= _fielded(older.topic)  # both speak of the field: calls and messages, say
    own = {w for w in newer.topic if f"field:{_FIELD_OF.get(w, '')}" in fields}
    if own and not own <= older.topic:
        return True
    # a field's word said as a name: "by WhatsApp" after "by SMS"
    named = {_FIELD_OF[n] for n in _names(older) | older.topic if n in _FIELD_OF}
    own_names = {n for n in _names(newer) if _FIELD_OF.get(n) in named}
    return bool(own_names - _names(older) - older.topic)


def choice(a: Statement, b: Statement) -> str | None:
    """``"agrees"`` or ``"opposes"`` when both choose between the same two things (see the
    module rules); else None."""
    if not (a.taken and a.refused and b.taken and b.refused):
        return None
    agree = len(a.taken & b.taken) + len(a.refused & b.refused)
    oppose = len(a.taken & b.refused) + len(a.refused & b.taken)
    if oppose > agree and oppose >= 2:
        return "opposes"
    if agree > oppose and agree >= 2:
        return "agrees"
    return None


def relation(newer: Statement, older: Statement) -> str | None:
    """``"same"`` when the two state one fact, ``"replaces"`` when ``newer`` replaces
    ``older``, else ``None`` (one pass: what a timeline asks of each pair)."""
    if newer.text.rstrip().endswith(("?", "？")):
        return None  # a question states nothing, so it replaces nothing
    if _same_terms(newer, older) or _confirms(newer, older) or _same_correction(newer, older):
        return "same"  # "Coach Tõnu's message: from 23 March Tue and Thu 18:00–19:30, Raatuse"
    if _opinion_denied_elsewhere(newer, older):
        return None
    if (
        _calls_off_dates(newer, older)
        or _takes_back(newer, older)
        or _calls_off_named(newer, older)
    ):
        return "replaces"  # "The Cork trip of 12–16 June is cancelled", whoever it names first
    if _put_in_place(newer, older) or _moved_whole(newer, older) or _shares_out(newer, older):
        return "replaces"  # "Hollis Print prints the programmes in place of Copyzone"
    if not _subjects_agree(newer, older) and not _kin_named(newer, older):
        return "replaces" if _hands_over(newer, older) else None
    if choice(newer, older) == "opposes":
        return "replaces"  # "prefers in-ears now; wedges are out" after "wedges, not in-ears"
    if _hands_over(newer, older):
        return "replaces"  # "Marta is head coach now that Pavel has moved away"
    if same_fact(newer, older):
        # the same fact said with more: "moved to room 108, ground floor, on 18 March" after
        # "to move to a ground-floor room" is what the entry should now say
        return "replaces" if _says_more(newer, older) else "same"
    return "replaces" if _replaces(newer, older) or _fuller(newer, older) else None


def _same_correction(a: Statement, b: Statement) -> bool:
    """Two lines that turn down the same misspelt name and give the same one in its place:
    "Coetser, with an s: not Coetzee, as I have had her since January" and "Marisa Coetser:
    the name is Coetser, not Coetzee"."""
    gone = {v for v in a.replaced & b.replaced if v.startswith("name:")}
    if not gone or a.polarity != b.polarity:
        return False
    # a spelling put right, not a choice made twice ("… instead of Distribution Boréal")
    if not any(x.change == "correction" or _found(_NAMING, x.text) for x in (a, b)):
        return False
    now_a = _names_of(_current(a).get("name", frozenset()))
    now_b = _names_of(_current(b).get("name", frozenset()))
    said_a = _words_of(f"{a.heading or ''} {a.text}")
    said_b = _words_of(f"{b.heading or ''} {b.text}")
    return any(n in said_a and n in said_b for n in now_a | now_b)


_VERDICT_WORDS = frozenset({"true", "wrong", "right", "fair"})


def _opinion_denied_elsewhere(newer: Statement, older: Statement) -> bool:
    """A Retain opinion taken back ("O(c=0.2) @Sipho: disorganised and can't be trusted with
    the roll — not true") ends the view, not a fact about its subject that shares a word with
    it ("Sipho is chief interpreter and will send the roll on Thursdays"): the older must hold
    half the words of the view denied."""
    if newer.retain != "O" or newer.polarity >= 0 or older.retain == "O":
        return False
    words = _rooted(newer.topic) - _VERDICT_WORDS
    return bool(words) and 2 * len(words & _rooted(older.topic)) < len(words)


def _confirms(newer: Statement, older: Statement) -> bool:
    """The newer says "now" of a slot the older already gives as current, with part of its
    terms and nothing else: "Thursday 15:15 is in everyone's calendar weekly now" after "the
    weekly team meeting will be on Thursdays at 15:15 (to 15:45), from 22 May". The same days
    (fewer days would be a change), the other terms among the older's, a topic word or a
    subject in common."""
    if newer.change not in (None, "now") or newer.replaced or newer.polarity != older.polarity:
        return False
    if older.change in _ENDS or older.polarity < 0:
        return False
    mine, theirs = _current(newer), _current(older)
    terms = {f: v for f, v in mine.items() if f not in ("name", "id")}
    if "day" not in terms or terms["day"] != theirs.get("day"):
        return False
    if not all(v <= theirs.get(f, frozenset()) for f, v in terms.items()):
        return False
    if len({v for vs in terms.values() for v in vs}) < 2:
        return False
    same_one = newer.subject is not None and newer.subject == older.subject
    return same_one or bool(_rooted(newer.topic) & _rooted(older.topic))


def _calls_off_dates(newer: Statement, older: Statement) -> bool:
    """A cancellation of the dates a plan gives: "The Cork trip of 12–16 June is cancelled"
    ends "Niamh and Toni fly to Cork 12–16 June for Deirdre's 50th" though each line opens with
    another name. Its dates are all the older's, and it names two of them or shares a name or
    a word of what with it."""
    if newer.change != "cancelled" or older.change in _ENDS or older.polarity < 0:
        return False
    dates = {v for v in newer.values if v.startswith("date:")}
    if not dates or not dates <= older.values:
        return False
    names = {v for v in newer.values & older.values if v.startswith("name:")}
    return len(dates) >= 2 or bool(names) or bool(_rooted(newer.topic) & _rooted(older.topic))


def _calls_off_named(newer: Statement, older: Statement) -> bool:
    """A cancellation of a plan by the name the older gives it, whoever each line speaks of:
    "So the Atacama week is dead" ends "Patricio: organising the Atacama week". The clause of
    its cue names a thing by a name and a word of what ("Atacama week", "Lisbon trip") that
    the older says in the same two words."""
    if newer.change != "cancelled" or older.change in _ENDS or older.polarity < 0:
        return False
    if _called_off_once(newer, older):
        return False
    said = older.text.casefold()
    return any(
        f"{name.casefold()} {word.casefold()}" in said
        for name, word in _NAME_THEN_WORD.findall(change_clause(newer))
        if _root(word.casefold()) in _rooted(older.topic)
    )


def _takes_back(newer: Statement, older: Statement) -> bool:
    """A decision taken back in its own verb, whoever each line opens with: "Not selling the
    Corolla to Zé after all" ends "Tonight Celeste and Dev decided to sell it to her cousin
    Zé". The older decided or planned it; the newer turns down a word of the older's (by its
    stem) and names someone or something the older names."""
    if newer.change != "reversed" or newer.polarity >= 0 or older.polarity < 0:
        return False
    if older.change in _ENDS or not _found(_PLANNED, older.text):
        return False
    if not _rooted(newer.refused) & _rooted(older.topic):
        return False
    return bool((_names(newer) & _names(older)) - {newer.subject or "", "we"})


def _says_more(newer: Statement, older: Statement) -> bool:
    """The older told of one named subject with no number, day, time or date; the newer gives
    them ("to move to a ground-floor room", then "moved to room 108 … on 18 March")."""
    if newer.subject is None or newer.subject == "we" or newer.subject != older.subject:
        return False
    said = _exact_now(older)
    return not said and bool(_exact_now(newer))


def _same_terms(a: Statement, b: Statement) -> bool:
    """The same three or more days, times, dates and numbers, a name in common, the same
    polarity, and neither turns down what the other says: one arrangement told by two people
    ("Coach Tõnu: from 23 March the team trains Tuesdays and Thursdays 18:00–19:30 in the
    Raatuse hall" and "Liisa: from 23 March handball is Tuesdays and Thursdays 18:00–19:30 at
    the Raatuse hall")."""
    # what one turns down the other may turn down too ("not on Sunday night" and "no more
    # Sunday 19:00 handover"), never say; a "no more" of what it replaces, beside the values
    # it gives now, is no "no"
    if _stance(a) != _stance(b) or a.replaced & (b.values - b.replaced):
        return False
    if b.replaced & (a.values - a.replaced):
        return False
    said = _exact_now(a)
    if len(said) < 3 or said != _exact_now(b):
        return False
    # a name of the place or the thing, not of whom each speaks: Oscar Ward's swimming and Ella
    # Ward's netball at the same hours are two arrangements
    own = _full_name(a) | _full_name(b)
    if (_names(a) & _names(b)) - own:
        return True
    # one names no one at all: three words of the thing in common say it is the same one ("the
    # kids change houses on Mondays after school" and "… change houses on Monday after school")
    unnamed = not _names(a) or not _names(b)
    return unnamed and len(_rooted(a.topic) & _rooted(b.topic)) >= 3


_MOVED_IN = LazyPattern(
    r"\bmov(?:e|ed|es|ing)\s+(?:into|in\s+with|over\s+to|to)\s+(?:a\s+|the\s+|her\s+|his\s+)?"
    r"(?-i:[A-ZÀ-Þ])|\bmov(?:e|ed|es|ing)\s+(?:into|in\s+with)\b",
    re.IGNORECASE,
)
_LIVES = LazyPattern(
    r"\b(?:lives?|living|stays?)\s+(?:(?:on\s+(?:his|her|their)\s+own|alone)\s+)?"
    r"(?:in|at|with|on)\b",
    re.IGNORECASE,
)


def _moved_house(newer: Statement, older: Statement) -> bool:
    """Someone moved (into a home, in with someone) whose older line says where they live."""
    person = newer.subject
    if newer.change != "moved" or person in (None, "we") or not _found(_MOVED_IN, newer.text):
        return False
    if not _found(_LIVES, older.text) or older.polarity < 0:
        return False
    return person == older.subject or person in _names(older)


def _lost_in(small: Statement, big: Statement, shared: frozenset[str]) -> bool:
    """A long line (eight topic words or more, four times the other's) shares two words at most
    with a line of two or more, and no kind of day, time, date or number with it: the words
    are in passing there ("… for everything I write — messages to staff, lab orders …" beside
    "Staff messages are drafted in Spanish")."""
    if len(shared) > 2 or len(small.topic) < 2 or len(big.topic) < max(8, 4 * len(small.topic)):
        return False
    kinds = {kind_of(v) for v in _exact_of(small.values)}
    return not kinds & {kind_of(v) for v in _exact_of(big.values)}


def _named_apart(a: Statement, b: Statement) -> bool:
    """Both name things (names, ids; not whom they are about: "Gonzalo Paz: training Tuesdays"
    names no thing), and neither names, or speaks of, one the other names."""
    mine, theirs = _names(a) - _whom(a), _names(b) - _whom(b)
    if not mine or not theirs or mine & theirs:
        return False
    return not (mine & _rooted(b.topic) or theirs & _rooted(a.topic))


def _whom(statement: Statement) -> set[str]:
    """The name a line stands under as its heading's subject ("Gonzalo Paz: …"), if any."""
    heading = _words_of(statement.heading or "")
    return _full_name(statement) if statement.subject in heading else set()


# A "no" told as a reason or a report: "told the team why Joaquín won't play".
_REPORTED_NO = LazyPattern(
    r"\b(?:why|because|since|as)\s+(?:[\w'’-]+\s+){0,3}?(?:won'?t|can'?t|isn'?t|aren'?t|"
    r"doesn'?t|didn'?t|wasn'?t|couldn'?t|not)\b|"
    # not yet, rather than no: "the blade can't be done until there's a calm day"
    r"\b(?:can'?t|cannot|won'?t|not)\b[^.;]{0,40}\buntil\b",
    re.IGNORECASE,
)


def _gone(statement: Statement) -> frozenset[str]:
    """What a statement turns down, a date's month aside when the date is there ("was 14
    March" turns down the 14th, not every line of March)."""
    dates = {v[5:7] for v in statement.replaced if v.startswith("date:") and len(v) == 10}
    return statement.replaced - {f"month:{month}" for month in dates}


_KIN = frozenset(
    """
    mum mom mam mamma mama mother dad father pappa papa granny gran grandma grandmother grandad
    grandpa grandfather nan nana aunt auntie uncle
    """.split()
)


def _kin_named(newer: Statement, older: Statement) -> bool:
    """One speaks of a relative by the kin word, the other by name, and the newer turns down
    the very date, time or number the older gives, about the same thing: "Mamma's hip
    replacement … Tuesday 6 March", then "@Gunvor Brekke: hip replacement moved to 19
    February (was 6 March)"."""
    if not ({newer.subject, older.subject} & _KIN):
        return False
    gone = _exact_of(_gone(newer))
    shared = _rooted(newer.topic) & _rooted(older.topic)
    return bool(gone) and gone <= older.values and len(shared) >= 2


def _stance(statement: Statement) -> int:
    """Its polarity, a "no more" of only what it replaces read as the yes it gives now."""
    if statement.polarity < 0 and statement.replaced and _exact_now(statement):
        return 1
    return statement.polarity


def _full_name(statement: Statement) -> set[str]:
    """The subject, its heading's words and the word after the subject where the line names
    it ("Oscar Ward: …")."""
    if statement.subject is None:
        return set(_words_of(statement.heading or ""))
    words = [w.casefold() for w in _WORDS.findall(f"{statement.heading or ''} {statement.text}")]
    after = {words[i + 1] for i, w in enumerate(words[:-1]) if w == statement.subject}
    return {statement.subject} | after | set(_words_of(statement.heading or ""))


def _fuller(newer: Statement, older: Statement) -> bool:
    """The newer says all the older gave one named subject and more: "Márton: deposit paid 27
    Nov; 41 cm viola, 2 600 000 Ft, delivery 30 April" after "Márton: viola body changed to
    41 cm". The older's numbers, days, times and dates (two or more, or one and a topic word
    shared) are all among the newer's, the newer gives more of them, and neither turns down
    what the other says."""
    if newer.subject is None or newer.subject == "we" or newer.polarity != older.polarity:
        return False
    if older.subject != newer.subject or newer.retain == "B" or newer.replaced & older.values:
        return False
    said = _exact_now(older)
    more = _exact_now(newer)
    if not said or not said < more:
        return False
    return len(said) >= 2 or bool(_rooted(newer.topic) & _rooted(older.topic))


# Roles one person holds at a time, in a place ("chief engineer on the Skelwick", "our
# accountant", "head coach of the U12s"): topic words as the statement reader gives them.
_ROLE_NOUNS = frozenset(
    """
    engineer manager accountant coach chair chairman chairwoman treasurer secretary director
    head lead captain skipper master principal headteacher editor officer warden supervisor
    foreman owner landlord landlady caretaker rep representative liaison administrator
    coordinator organiser organizer doctor gp dentist vet physio teacher tutor instructor
    trainer receptionist deputy president ceo cto cfo worker keyworker conductor bandmaster
    choirmaster chairperson partner chief interpreter
    """.split()
)
_ROLE_WORDS = _ROLE_NOUNS | {f"{noun}s" for noun in _ROLE_NOUNS}
# a duty told verb first, as a role's line gives it ("signs the work orders")
_DUTY = LazyPattern(
    r"^(?:\S+:\s+)?(?:signs|sends|approves|handles|runs|manages|orders|books|pays|checks|"
    r"collects|coordinates|organi[sz]es|schedules|prepares|answers|covers|opens|closes|locks|"
    r"supervises|trains|leads|chairs|teaches|keeps\s+the)\b",
    re.IGNORECASE,
)
_GAVE_UP_ROLE = LazyPattern(GAVE_UP_ROLE, re.IGNORECASE)  # the statement reader's cue
# "is a nurse", "as one of the coaches": a role many hold at once.
_INDEFINITE = LazyPattern(r"\b(?:is|as|was|'s|’s)\s+(?:a|an|one\s+of)\s", re.IGNORECASE)


def _takes_role(newer: Statement, older: Statement) -> bool:
    """Another named person in the role an older statement gave someone, in the same place:
    "Lorna Spence is chief engineer on the Skelwick" after "Erlend Drever: chief engineer on
    the Skelwick". The older's topic is all in the newer's, one of its words is a role, a
    place the older names (besides its subject) is named again, and neither says "a nurse"."""
    # Asked of every pair a timeline compares: most name no role, which one intersection says.
    roles = {w.removesuffix("s") for w in (older.topic | _names(older)) & _ROLE_WORDS}  # "our GP"
    roles.discard(older.subject or "")
    if not roles or newer.polarity < 0 or older.polarity < 0:
        return False
    holder = {older.subject or ""}
    if older.subject in (None, "we"):  # "my partner is Lucía Ferrando": whom the role names
        holder = _holder(older.text, roles)
    if newer.subject in (None, "we") or not holder or newer.subject in _names(older) | holder:
        return False  # the holder again: "from 1 October he's head coach" retells "Tomás is"
    if not roles & {w.removesuffix("s") for w in _words_of(ASIDE.sub(" ", newer.text))}:
        return False  # "Special meeting (plot, treasurer, meeting day)": an agenda, no holder
    again = {word.removesuffix("s") for word in newer.topic | _names(newer)}
    # "Gonzalo Paz: head coach of the M-10; Tomás assists", then "Tomás is head coach": the
    # one who assisted is named in the older's words, and assisting is no part of the role
    rest = _rooted(older.topic) - _rooted(newer.topic) - _DEPUTY_WORDS
    rest -= {_root(newer.subject or "")}
    # "Xavi Peris is Dad's key worker from 2 June" after "His key worker is Amparo — sixties,
    # from Xàtiva": a line that says the role is someone else's now may leave the rest unsaid
    if not roles <= again or (rest and newer.change != "now"):
        return False
    places = _names(older) - holder - _names_of(frozenset(newer.replaced))
    if not places & _names(newer) and len(places) > 1:
        return False
    return not (_INDEFINITE.search(older.text) or _INDEFINITE.search(newer.text))


_NAMED_AFTER_IS = LazyPattern(r"\bis\s+((?-i:[A-ZÀ-Þ])[\w'’-]*(?:\s+(?-i:[A-ZÀ-Þ])[\w'’-]*)?)")


def _holder(text: str, roles: set[str]) -> set[str]:
    """The name a line gives its role's holder after "is": "His key worker on days is Amparo",
    "my partner is Lucía Ferrando" (the words of the name, folded), or nothing."""
    folded = text.casefold()
    at = min((folded.find(role) for role in roles if role in folded), default=-1)
    if at < 0:
        return set()
    found = _NAMED_AFTER_IS.search(text, at)
    if found is None or found.start() - at > 60:
        return set()
    return {word.casefold() for word in found.group(1).split()}


# A slip told in the first person and the past: what was done instead of what should have been.
_SLIPPED = LazyPattern(
    r"\b(?:I|we)\s+(?:\w+\s+){0,2}?(?:posted|sent|put|wrote|booked|paid|gave|took|forwarded|"
    r"added|entered|typed|rang|texted|e-?mailed|used|picked|ordered|read|copied|pasted|filed|"
    r"moved|shared|replied)\b[^.;]{0,80}\binstead\s+of\b",
    re.IGNORECASE,
)
_DEPUTY_WORDS = frozenset(_root(w) for w in "assist assists assistant helps deputy vice".split())
_AUXILIARY = LazyPattern(
    r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|will|won't|has|have|had|does|doesn't|"
    r"did|didn't|not|no longer)\b",
    re.IGNORECASE,
)


def _actor(statement: Statement) -> frozenset[str]:
    """The stems of the words before a statement's first auxiliary or negation: who does or
    does not do something ("The Roskilde rowing club" of "… is not renting the boathouse")."""
    found = _AUXILIARY.search(statement.text)
    if found is None:
        return frozenset()
    return frozenset(_root(w.casefold()) for w in _WORDS.findall(statement.text[: found.start()]))


def _too_small(older: Statement, newer: Statement) -> bool:
    """A bare clause ("not at home.": one topic word, no value) is no slot that a long line
    sharing its one word changes ("the pilot coming off doesn't drive home in the dark")."""
    return not older.values and len(older.topic) <= 1 and len(newer.topic) >= 4


def _other_holder(newer: Statement, older: Statement) -> bool:
    """A role both name is held by someone else now, under one heading: "Tomás Ruiz: captain
    now Raúl Gil" after "Tomás Ruiz: captain Iker Sanz" (the heading is whose team it is, and
    the names beside it are who holds the role)."""
    heading = (newer.heading or "").casefold()
    if not heading or heading != (older.heading or "").casefold():
        return False
    if not {w.removesuffix("s") for w in newer.topic & older.topic} & _ROLE_NOUNS:
        return False
    mine = _names(newer) - _full_name(newer)
    theirs = _names(older) - _full_name(older)
    return bool(mine) and bool(theirs) and not mine & theirs


_ALL_ALONE = LazyPattern(r"\b(?:herself|himself|themselves|myself|alone|all)\b", re.IGNORECASE)
_OWN_VERB = LazyPattern(r"^\s*([a-z]+s)\b")


def _shares_out(newer: Statement, older: Statement) -> bool:
    """Work one person did all of, another now does (part of): "Benja tunes the
    Conservatorio's 12 practice-room uprights on his own from 4 June" ends "Conservatorio
    Porteño: Javiera tunes all 14 pianos herself". The newer announces it and opens with the
    older's verb, the older says all or alone, the newer names the older's subject and
    someone the older does not."""
    if newer.change is None or newer.polarity < 0 or older.polarity < 0 or newer.retain == "B":
        return False
    verb = _OWN_VERB.match(newer.text)
    subject = newer.subject
    if verb is None or subject in (None, "we") or older.subject in (None, "we", subject):
        return False
    said = _words_of(older.text)
    if verb.group(1) not in said or not _found(_ALL_ALONE, older.text):
        return False
    return older.subject in _words_of(newer.text) | _names(newer) and subject not in said


def _put_in_place(newer: Statement, older: Statement) -> bool:
    """Another named one does what the older's named subject did, in its place: "Hollis Print
    prints the choir's programmes in place of Copyzone" ends "Copyzone prints the choir's
    programmes and posters". The newer turns down the older's subject by name and shares a
    word of what with it besides."""
    if newer.change != "instead" or newer.polarity < 0 or older.polarity < 0:
        return False
    if newer.retain == "B" or _found(_SLIPPED, newer.text):
        return False  # what happened once, or a slip
    opening = _opening(older)
    subject = older.subject or opening
    if subject in ("", "we") or f"name:{subject}" not in newer.replaced:
        return False  # "Copyzone prints …" opens with the name it turns down
    if not opening or (opening != subject and subject not in _names(older)):
        return False
    return bool((_rooted(newer.topic) & _rooted(older.topic)) - {_root(subject)})


def _hands_over(newer: Statement, older: Statement) -> bool:
    """Who the older says someone is passes on: another in the role, a named successor, or the
    name itself spelled again ("Marta is head coach now", "Bjørn's successor", "Kalvestad.
    With a v.")."""
    return (
        _takes_role(newer, older)
        or _succeeds(newer, older)
        or _misspelt(newer, older)
        or _has_theirs_now(newer, older)
    )


def _has_theirs_now(newer: Statement, older: Statement) -> bool:
    """Someone else has the older's subject's charge now: "Gunnar Páll: has Hrefna's files
    now" ends "Hrefna: handles subdivisions and Kvarði's files with the town" (her name with
    a possessive, a word of what the older says she has, and "now")."""
    person = older.subject
    if person in (None, "we") or newer.subject in (None, "we", person) or newer.change != "now":
        return False
    if newer.polarity < 0 or older.polarity < 0:
        return False
    found = re.search(rf"\b{re.escape(person)}['’]s\s+(\w+)", newer.text, re.IGNORECASE)
    return found is not None and _root(found.group(1).casefold()) in _rooted(older.topic)


_SUCCESSOR = LazyPattern(
    r"\b(?:successor|succeed(?:s|ed|ing)?|(?:takes|taking|took|taken) over from|in (?:his|her|"
    r"their) place|in place of)\b",
    re.IGNORECASE,
)


def _succeeds(newer: Statement, older: Statement) -> bool:
    """The newer names someone as the successor of the older's subject, whose line says what
    they are ("Hanne Leirvåg: named as Bjørn's successor" after "Bjørn Tveit: losoldermann at
    Fedje"): the role passes on, whatever its word. When the newer names the role ("the dugnad
    coordinator, taking over from Solveig"), only a line of that role ends; a bare successor
    ends a short line of what they are. A line with a number, a day or a time is something the
    predecessor does, not what they are, and stays."""
    person = older.subject
    if person is None or person == "we" or newer.subject in (None, "we", person):
        return False
    if person not in _names(newer) or older.polarity < 0 or newer.polarity < 0 or _exact(older):
        return False
    if not _found(_SUCCESSOR, newer.text) or not _is_what(older):
        return False
    named = _rooted(newer.topic) - _SUCCESSION_WORDS
    if not named:
        return f"name:{person}" in older.values and len(older.topic) <= 3
    return len(named & _rooted(older.topic)) >= min(2, len(named))


_SUCCESSION_WORDS = frozenset(
    stem(word)
    for word in """successor succeed named appointed taking taken took take over says said tell
    told announced confirmed wrote writes""".split()
)


_NAME_RUN = LazyPattern(r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]*(?:\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]*)*")


def _whole_names(shared: frozenset[str], newer: str, older: Statement) -> frozenset[str]:
    """``shared`` without the words that are only part of a longer name in ``newer`` whose
    other words ``older`` does not have: "Fana Ved dropped" drops the firewood supplier, not
    the rehearsals at Fana kulturhus (an older that says two words of it names it: "Café
    Pájaro Verde" is the "pájaro verde" of a chat)."""
    if not shared:
        return shared
    said = _words_of(older.text) | _names(older) | older.topic | {older.subject or ""}
    kept = set(shared)
    for run in _NAME_RUN.findall(newer):
        words = [w.casefold() for w in run.split()]
        words = [w for w in words if w not in STOP_WORDS and w not in OPENERS]  # "The Debrecen"
        if len(words) > 1 and not set(words) <= said and len(set(words) & said) < 2:
            kept -= set(words)  # two words of it said are that name: "pájaro verde" of a chat
    return frozenset(kept)


def _misspelt(newer: Statement, older: Statement) -> bool:
    """A correction that spells a name of the older another way ("Kalvestad. With a v." after
    "Trude Kaldestad: chair of the sauna club"): the same first letter, five letters or more,
    one or two letters apart, and the older says who that is."""
    if newer.change != "correction" or _exact(older) or not _is_what(older):
        return False  # a line that tells what they did keeps its fact, whatever the spelling
    return bool(respelt(newer, older))


_WRONG_SPELLING = LazyPattern(
    r"\b(?:writing|wrote|written|spell(?:ed|ing|t)?|calling\s+(?:her|him|them)|not)\s+"
    r"(?-i:([A-ZÀ-ÖØ-Þ][\w'’-]+))",
    re.IGNORECASE,
)


def respelt(newer: Statement, older: Statement) -> dict[str, str]:
    """The names of ``older`` that the correction ``newer`` spells another way, each with the
    right spelling (folded): the same first letter, five letters or more, one or two letters
    apart. A name the correction says was written ("you have been writing Odera", "not
    Odera") is the wrong one."""
    if newer.change != "correction":
        return {}
    wrong = {m.group(1).casefold() for m in _WRONG_SPELLING.finditer(newer.text)}
    spelled = (set(_names(newer)) | ({newer.subject} - {None, "we"})) - wrong
    theirs = _names(older) - spelled
    if not theirs:
        return {}
    from rapidfuzz.distance import Levenshtein  # imported when a correction names someone

    found = {
        old: new
        for new in sorted(name for name in spelled if name)
        for old in theirs
        if new[0] == old[0]
        and min(len(new), len(old)) >= 5
        and Levenshtein.distance(new, old, score_cutoff=2) <= 2
    }
    # "Kwesi Ampofo, with an o": a line of someone else of that name (Abena) is not his
    others = spelled - set(found.values())
    return found if not others or others & _names(older) else {}


_BODY_WORDS = LazyPattern(r"[^\W\d_][\w'’-]*")


def _opening(statement: Statement) -> str:
    """The first word of a statement's text, folded ("" when it has none): what a line with
    no subject read as one speaks of ("Copyzone prints …", "Rehearsals are …")."""
    found = _BODY_WORDS.match(statement.text)
    return found.group(0).casefold() if found else ""


_LINKS = frozenset("is was the a an our their his her its also still".split())


def _is_what(statement: Statement) -> bool:
    """The line says what its subject is, a noun first ("losoldermann at Fedje", "is the club's
    treasurer"), not what they do or like ("likes fishing", "retires in May")."""
    words = [w.casefold() for w in _BODY_WORDS.findall(statement.text)]
    while words and (f"name:{words[0]}" in statement.values or words[0] == statement.subject):
        words = words[1:]  # the subject's own name opens a plain sentence
    words = [w for w in words if w not in _LINKS]
    if not words:
        return False
    first = words[0].removesuffix("'s").removesuffix("’s").rstrip("'’")  # "the korps' …"
    verb = first in OPENERS or first.endswith(("ed", "ing"))
    return not verb and (first in statement.topic or first.removesuffix("s") in statement.topic)


def replaces(newer: Statement, older: Statement) -> bool:
    """Whether ``newer`` replaces ``older`` (see the module rules; ``newer`` is the later)."""
    return relation(newer, older) == "replaces"


def _bare(values: frozenset[str]) -> frozenset[str]:
    """Names as their words: ``name:linnétryck`` is ``linnétryck``, as a topic word says it."""
    return frozenset(v[5:] if v.startswith("name:") else v for v in values)


def _only_the_word(newer: Statement, older: Statement) -> bool:
    """The newer shares with an older line about a named someone (its own subject, or the name
    it stands under) only the word it turns down, and does not name that someone."""
    if newer.values & older.values or (_rooted(newer.topic) & _rooted(older.topic)) - _rooted(
        newer.replaced
    ):
        return False
    if newer.subject is not None and newer.subject in older.topic:
        return False  # it names the older's thing: "Okinawa is cancelled"
    if _names(newer) & older.topic:
        return False  # … also where the older writes it in lower case ("selling the ronisch")
    subject = older.subject
    if subject is not None and f"name:{subject}" in older.values:
        return subject not in _names(newer) and newer.subject != subject
    if older.heading is None or not older.heading[:1].isupper():
        return False
    said = _words_of(newer.text) | _words_of(newer.heading or "")
    return not _words_of(older.heading) & said  # "Okafor & Co: … papers by 31 January"


_ENDS = ("cancelled", "no-longer")  # an end said again agrees with the first


def _one_occasion(newer: Statement, older: Statement) -> bool:
    """The newer names only dated days ("works Saturday 28 June … and is off Monday 30 June
    instead", "the lunch moves to Sunday 20 July instead of Saturday 19 July") and the older
    standing weekdays ("works Monday to Friday", "opens Monday to Saturday"): one occasion
    moved, not the week."""
    standing = _dated_days(older.text)
    return _dated_days(newer.text) == 1.0 and standing is not None and standing < 1.0


# a cancellation of today's occasion, not of the week: "Football called off this afternoon";
# not "from today", "as of tonight"
_TODAY_ONLY = LazyPattern(
    r"(?<!\bfrom\s)(?<!\bof\s)(?<!\bstarting\s)\b(?:this\s+(?:morning|afternoon|evening)|"
    r"today|tonight|just\s+this\s+once|for\s+once)\b",
    re.IGNORECASE,
)
_STANDING_DAYS = LazyPattern(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b", re.IGNORECASE)


def _called_off_once(newer: Statement, older: Statement) -> bool:
    """The newer calls off today's occasion of what the older holds every week: "Football
    called off this afternoon: the pitch is under water" leaves "football Tuesdays and
    Thursdays 17:00"."""
    if newer.change != "cancelled":
        return False
    said = f"{newer.heading or ''} {newer.text}"
    return _found(_TODAY_ONLY, said) and _found(_STANDING_DAYS, older.text)


@lru_cache(maxsize=16384)
def _dated_days(text: str) -> float | None:
    """The share of a text's weekdays that name one dated day ("Saturday 19 July"; "from
    Monday 23 June, off on Saturdays and Sundays": a third), or None when it names none. Asked
    of every pair a timeline compares, so kept per text."""
    days = len(_WEEKDAY.findall(text))
    return min(1.0, len(_DATED_DAY.findall(text)) / days) if days else None


_WEEKDAY = LazyPattern(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.IGNORECASE)
# "Saturday 28 June", "Monday the 30th": one day, not "Wednesdays 17:30"
_DATED_DAY = LazyPattern(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?"
    r"(?![:.]?\d)\b",
    re.IGNORECASE,
)


def _says_all_of(newer: Statement, older: Statement) -> bool:
    """Every word of the older is in the newer, which turns none of them down ("not at home"
    in "the confirmation party is not at home")."""
    return _words_of(older.text) <= _words_of(newer.text) and not newer.replaced & (
        older.values | older.topic
    )


def _reversed_there(newer: Statement, older: Statement) -> bool:
    """A reversal about a named someone's plan reverses nothing the older line says without
    naming them ("Reversed: Eirik's confirmation party is at Hjellestad grendahus" ends no
    meeting held there)."""
    subject = newer.subject
    if subject in (None, "we"):
        return True
    return subject in _words_of(older.text) | _words_of(older.heading or "") | _names(older)


def _unplaced(newer: Statement, older: Statement, beyond: frozenset[str]) -> bool:
    """A newer line that names nothing and no one turns down a word of an older line about
    named someone or something, and shares with it at most one other word (``beyond``, the
    shared words it does not turn down): it speaks of another thing ("the spare eyewash bottle
    goes with the first-aid kit, not in the sterilisation room" is not where "Dad moved into
    Els Tarongers: room 14, first floor")."""
    if newer.subject not in (None, "we") or _names(newer) or not _names(older):
        return False
    return len(beyond) < 2


def _other_role(newer: Statement, older: Statement, named_subject: bool) -> bool:
    """A newer statement that puts one person in place of another ("Bart rather than
    Jesper") speaks of another role than an older one naming that person, when the two share
    no topic word, no subject and no naming ("surname", "spelt"), it is no correction and its
    subject is not a person the older names."""
    values = {v for v in newer.replaced if ":" in v}
    people = bool(values) and all(kind_of(v) in ("name", "id") for v in values)
    return (
        people
        and newer.change != "correction"
        and newer.subject not in _names(older)  # "it's Ingrid Solberg, not Solheim": her name
        and not named_subject
        and not newer.topic & older.topic
        and not _found(_NAMING, newer.text)
    )


def _replaces(newer: Statement, older: Statement) -> bool:
    """:func:`replaces` once :func:`same_fact` said no and the subjects agree."""
    if newer.retain == "B" and older.retain != "B" and newer.change in (None, "instead"):
        return False  # an episode: "the lesson went in at 15:30 instead of 16:30" happened once
    if newer.change == "instead" and _found(_SLIPPED, newer.text):
        return False  # "I posted them to the family group instead of the chama's": a slip
    if _moved_house(newer, older):
        return True  # "Dad moved into Els Tarongers" ends "Dad lives on his own in Benimaclet"
    if _one_occasion(newer, older) or _called_off_once(newer, older):
        return False
    common = _rooted(newer.topic) & _rooted(older.topic) or newer.values & older.values
    common = common or newer.replaced  # "rehearsals move" shares "rehearses"
    # a name the older writes in lower case ("we're selling the ronisch" in a chat)
    common = common or (_names(newer) & older.topic)
    # "Okinawa is cancelled" after "Spring break: Okinawa 24–28 March": the subject the
    # cancellation names is a word of the older's slot
    called_off = newer.change == "cancelled" and _found(_CALLED_OFF, newer.text)
    subject_named = (
        called_off and newer.subject not in (None, "we") and newer.subject in older.topic
    )
    if not (common or subject_named) and (newer.subject is None or newer.subject != older.subject):
        return False  # nothing in common: no slot to share
    # A named someone else's line must share more than the word it turns down: "Gordon says
    # the insurance is renewed through the club, not by e-mail" shares only "e-mail" with "his
    # quote came by e-mail".
    other = newer.subject not in (None, "we", older.subject)
    aside = newer.replaced if other else frozenset()
    common = (newer.topic & older.topic) - aside
    if common <= CURRENCIES and (_names(older) - _whom(older)) - _names(newer):
        # a currency is all it shares with a line about something it does not name: "raised
        # from KSh 2,000" is not the Sacco's entrance fee of KSh 2,000
        common = frozenset()
    shared = bool(common) or bool((newer.values & older.values) - newer.replaced)
    named_subject = newer.subject is not None and newer.subject == older.subject
    if _only_the_word(newer, older):
        return False  # "incident reports are no longer on paper" ends no tax adviser's papers
    if _gone(newer) & (older.values | older.topic) and (shared or named_subject):
        if _other_role(newer, older, named_subject):
            return False  # "preceptor rather than Jesper" leaves Jesper's swap of nights
        if older.polarity < 0:
            return False  # "stayed instead of going to Nairobi" agrees with "isn't in Nairobi"
        if older.change in _ENDS:
            return False  # "no more Fana Ved" agrees with "Fana Ved dropped"
        if named := newer.replaced & {v for vs in _current(older).values() for v in vs}:
            return True
        # all it turns down is in the older, a name said there as a word of its slot included
        whole = _bare(newer.replaced) <= _bare(older.values) | older.topic
        beyond = (_rooted(newer.topic) & _rooted(older.topic)) - _rooted(_bare(newer.replaced))
        more = beyond or named_subject or (newer.values & older.values) - newer.replaced
        if whole and (more or len(newer.replaced) >= 2):
            return True  # it shares more with the older than one word it turns down
        if not whole and _unplaced(newer, older, beyond):
            return False  # "the eyewash goes in the first-aid kit, not the sterilisation room"
        # "Brian eats breakfast at the table instead of in the van" shares only "van" with
        # "the van owner keeps the term's fee": the same slot, or nothing
        return same_slot(newer, older)
    older_names = _names_of(_current(older).get("name", frozenset()))
    if newer.change == "correction" and newer.replaced & older.values:
        fixed = {v.split(":", 1)[-1] for v in newer.replaced} & older_names
        if fixed and (_names(newer) - fixed or _NOT_FIRST.match(newer.text)):
            return True  # "Surname is Whelan; earlier notes wrongly say Phelan", "Not Phelan: …"
    if (
        newer.change == "correction"
        and _found(_NAMING, newer.text)
        and (_one_name_swapped(newer, older) or _renamed(newer, older))
    ):
        return True  # "Her surname is Morrow; the earlier spelling was misheard" ends "Marrow"
    if newer.change == "no-longer" and newer.polarity < 0 and older.change not in _ENDS:
        gone = {v for v in newer.replaced if kind_of(v) in ("name", "id")}
        if gone and gone & older.values and len(newer.replaced & (older.values | older.topic)) >= 2:
            return True  # "Stopped buying lime from Clarke's" ends "our lime comes from Clarke's"
        not_its = newer.replaced - older.values - older.topic  # "no longer the containers"
        if not gone and not not_its and len(_names(newer) & older_names) >= 2:
            return True  # "Southern Vet Labs no longer used" ends "bloods go to Southern Vet Labs"
    ended = _clause_words(newer) if newer.change == "cancelled" else None
    singular = {w.removesuffix("s") for w in ended or ()}
    if ended is not None and not (older_names | older.topic) & (ended | singular):
        return False  # "Rõngu is off: Kaarel told Kadri …" ends nothing Kadri does
    holder = named_subject or older.subject in _names(newer)  # "At the AGM Greta Holm stood …"
    gave_up = ended is not None and holder and _found(_GAVE_UP_ROLE, newer.text)
    if gave_up and {w.removesuffix("s") for w in older.topic} & _ROLE_NOUNS:
        return True  # "Lajos stood down after 22 years" ends "Lajos: commander of the ÖTE"
    duty = "day" in family_values(older) or _found(_DUTY, older.text)
    if gave_up and named_subject and older.polarity > 0 and duty:
        # "Nomvula retired on 4 March" ends "Nomvula: sends the roll on Thursdays", and
        # "Hernán retired from the Teatro" his "signs the work orders"
        return True
    planned = older.change is not None or _found(_PLANNED, older.text)
    planned = planned or bool(older.heading and _found(_PLANNED, older.heading))
    planned = planned or "date" in family_values(older)  # "Apple Day on Sunday 10 October"
    cancels = newer.change in ("cancelled", "reversed") and planned
    named = _names(newer) | ({newer.subject or ""} if subject_named else set())
    context = newer.subject and newer.subject not in _words_of(newer.text)
    if newer.change == "reversed" and context:
        # "Quoyfield: decision reversed …: the Rayburn comes out" reverses the Rayburn decision;
        # the house it stands under (a heading, a Retain entity) is where, not what: its
        # building warrant stays
        named -= {newer.subject or ""}
    if ended is not None:  # a reversal names what it reverses after: "reversed: …"
        named &= ended
    overlap = _whole_names((older_names | older.topic) & named, newer.text, older)
    elsewhere = older.subject in older_names and _places(overlap, older.text)
    # "The rowing club is not renting the boathouse after all" names who calls off what: the
    # club is the one acting, and its other plans and facts stand
    actor = _actor(newer)
    both = {_root(word) for word in overlap} | (_rooted(newer.topic) & _rooted(older.topic))
    acting = newer.polarity < 0 and bool(actor) and both <= actor
    acting = acting and bool(_rooted(newer.topic) - actor)
    if newer.change == "reversed" and newer.polarity > 0 and not _reversed_there(newer, older):
        cancels = False  # "Reversed: the party is at Hjellestad grendahus" ends no AGM there
    if cancels and overlap and not acting and (_about(newer, older, named) or not elsewhere):
        return True  # "the Trados switch is off" ends the decision to switch to Trados
    taken_back = newer.change == "reversed" and newer.polarity != older.polarity
    taken_back = taken_back and (older.change == "cancelled" or _found(_REFUSED, older.text))
    if taken_back and (named_subject or len(newer.topic & older.topic) >= 2):
        return True  # "taking on the limekiln after all" after "turned down the limekiln"
    said_no = newer.change is None and newer.polarity < 0 < older.polarity
    said_no = said_no and not _found(_REPORTED_NO, newer.text)  # "told them why he won't"
    if said_no and planned and overlap and newer.topic & older.topic:
        return True  # "not going on the Thredbo exchange" after "decided to go on the exchange"
    if newer.change is not None:
        if not same_slot(newer, older) or _too_small(older, newer):
            return False
        if newer.polarity == older.polarity and (
            newer.change == older.change == "reversed" or _says_all_of(newer, older)
        ):
            return False  # "Reversed: the party is not at home" tells the reversal again
        if newer.polarity != older.polarity:
            # a clause with no topic of its own ("stopped by Aileen on 22 Feb" under the club's
            # heading) is no slot a "no" or a "yes" about something else can turn
            topical = bool(newer.topic) == bool(older.topic)
            if not _turned_there(newer, older):
                return False  # "not buying the plot after all; it buys 200 chairs" ends no chair
            return topical and not _other_value_ended(newer, older)
        if newer.change == "now" and older.change in ("moved", "now") and _restates(newer, older):
            return False  # "visits are on Sundays now" after "visits move to Sundays"
        changed = _differs(newer, older) or _other_holder(newer, older)
        return changed or newer.change in ("cancelled", "reversed")
    if _names(newer) != _names(older) and _unaside(newer) != _unaside(older):
        # without a cue, other names are other things ("Service r3a", "r4a"); the names of an
        # aside say why or who told ("A=440 (the Filarmónica's new chief conductor, …)"); a
        # week moved whole with its place (:func:`_moved_whole`) was read before
        return False
    if newer.polarity != older.polarity:
        return same_slot(newer, older, strict=True)
    return same_slot(newer, older, strict=True) and _differs(newer, older)
