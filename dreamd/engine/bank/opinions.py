"""Opinions: beliefs whose confidence follows the evidence, by small steps.

An opinion is founded by an opinion fact that no earlier opinion holds (facts are taken by
day, note, line). Its statement is that fact's text, its starting confidence the fact's own
``O(c=…)`` (:data:`DEFAULT_CONFIDENCE` when it gives none), its entities the fact's.

**Reading a fact.** Each fact is read with the facts model
(:func:`~dreamd.engine.facts.statement.read_statement`, its first entity as the subject): its
slot (topic), values and polarity. A fact *negates* when its words do ("not", "no longer",
"stopped", "dislikes", "doesn't like"...; "X, not Y" is a correction, not a negation); it is
*low* when it is a Retain opinion with ``c < 0.5``. "Too slow to leave alone with it" is a view
against, and so is a judgement against its subject in a word or two when nothing in the line
praises ("overkill for a team of fourteen", "unreliable", "a waste of money", "cement traps the
damp"); of a comparison that turns round ("slower"/"faster", "worse"/"better",
"harder"/"easier", "dearer"/"cheaper") the lesser end is a view against, and both ends are one
word (pace, quality, ease, cost) that the two views share. A low fact is a denial whatever
its words: ``O(c=0.4) @Peter: No longer prefers voice notes`` and ``O(c=0.2) @Peter: Prefers
voice notes`` both deny "Prefers voice notes"; a low fact never supports anything.

**How a later fact bears on an opinion** (their entities overlap, or neither has any):

- it says *the same thing* when the two state one fact
  (:func:`~dreamd.engine.facts.relations.relation` is ``same``), or one only flips the other's
  polarity, or (without another value) the share of shared content words over the shorter
  statement's (negations, like/dislike words and the entities' names set aside) is at least
  :data:`MATCH`;
- an opinion of the same entity that turns the other way (the other polarity) says the same
  thing when it shares two content words with it ("won't finish the rota unless chased" and
  "finished the rota unprompted"), or one and announces the turn ("any more", "no longer",
  "now", "actually"), or when both judge the whole of it in a first clause of four words or
  fewer ("hype;" and later "worth the money;"): a reversal in other words;
- it is a *rival* when it speaks of the same slot with another value of a family both give
  ("prefers calls after 4pm" after "prefers calls in the morning"; "prefers written messages"
  after "prefers voice notes");
- two views that each pick the best of one kind of thing (a word both share: "best",
  "better", "suits", "prefer") and name another one, by the capitalised word before that
  word, are rivals too ("WhatsApp reminders work better" after "SMS reminders suit them best";
  "Campanar is the better lab" after "Turia's lab is slow but the best fit we've had"), when
  the newer does not name the older's (of any two entities: the labs are two);
- a *choice* between two things is read whole, before the rest
  (:func:`~dreamd.engine.facts.relations.choice`: "Wedges, not in-ears"; "won't get on with
  in-ears; keep her on wedges"; "prefers in-ears now; wedges are out of her mix"): a fact
  whose choice agrees with the opinion's is for it, one whose choice opposes it is against
  it, whatever their polarity words say.

A *retraction* (an opinion fact with entities that takes back its writer's view: "she had
Hanne wrong", "I take back every word about the solar"; :mod:`dreamd.engine.bank.retractions`)
contradicts every earlier opinion of its entities that it does not say again (a share of
content words below :data:`MATCH`), and founds its own: what follows the retraction is the
view now held.

Then, for a fact that is neither low nor negating (it *affirms*): it supports the opinion that
says the same thing with the same polarity (the closest one), and contradicts every opinion that
says the same thing with the other polarity and every rival. A negating fact supports the
closest same-polarity opinion that says the same thing and contradicts every opposite one; it
never touches a rival (what it denies is not the rival's value). A low fact contradicts the one
opinion it is closest to (two shared content words are enough). An opinion fact founds its own
opinion when it supports none, or when it says two or more content words the one it supports
does not ("pre-translation needs more fixing than it saves" beside "pre-translation saves
time"); not when it is low and bears on some opinion, nor when it negates and says nothing
beyond what it denies (a pure denial: "No longer prefers voice notes" ends an opinion, it is
not one; "Dislikes cilantro" is one). So a reversal lowers the old opinion and the new
value becomes (or reinforces) its own.

**The confidence rule** (:func:`evolve`), day by day in date order, from the starting confidence:

- a day with more supporting than contradicting facts moves ``c`` up one step:
  ``c + UP · (1 − c)`` (UP = 0.1);
- a day with more contradicting than supporting facts moves it down one step:
  ``c − DOWN · c`` (DOWN = 0.15);
- a day with as many of each, or none, leaves it.

So ``c`` stays in [0, 1]; more support never lowers it and more contradiction never raises it;
the order of one day's facts does not matter; and one day moves it by at most 0.15, so a large
move needs evidence on several distinct days (from 0.95, three days of contradiction reach
0.58). ``updated`` is the latest day of the founding fact and its evidence. Pure.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from dreamd.engine.bank.facts import Fact
from dreamd.engine.bank.retractions import retracts
from dreamd.engine.facts.relations import choice, family_values, relation, same_slot
from dreamd.engine.facts.statement import Statement, read_statement
from dreamd.engine.text.tokens import token_set

__all__ = [
    "DEFAULT_CONFIDENCE",
    "DOWN",
    "MATCH",
    "UP",
    "Evidence",
    "Opinion",
    "Reading",
    "evolve",
    "plan_opinions",
    "read_fact",
]

UP = 0.1
DOWN = 0.15
DEFAULT_CONFIDENCE = 0.6
MATCH = 0.5
_NEGATIONS = frozenset(
    "not no never nobody nothing cannot dont doesnt didnt isnt wasnt wont stopped longer"
    " dislikes dislike hates hate avoids avoid nunca ya jamais pas nicht kein keine nie".split()
)
_LIKES = frozenset("prefers prefer likes like loves love enjoys enjoy wants want".split())
_FILLER = frozenset(
    "a an the to of and or in on for is are be it that this with at by as than over now still"
    " anymore currently really very much his her their its our my we even too also just quite"
    " one ones so".split()
)
_TURNS = frozenset({"no-longer", "reversed", "correction", "now"})
# "Too slow to leave alone with it", "too hard for the tenors": a view against.
_TOO = re.compile(r"\btoo\s+(?!much\b|many\b|often\b|soon\b)[a-z]{3,}\b(?=\s+\w)", re.I)
# A judgement against its subject in one word or two: "overkill for a team of fourteen",
# "unreliable", "a waste of money", "cement traps the damp". Unless the line also praises
# ("not bad, and reliable"), it is a view against, as a negation is.
_FAULTED = re.compile(
    r"\b(?:overkill|unreliable|useless|pointless|overpriced|overrated|clunky|flaky|rubbish|"
    r"terrible|awful|hopeless|a\s+(?:waste|pain|nightmare|faff)|not\s+worth|"
    r"traps?|ruins?|damages?|rots?|leaks?|breaks?\s+down|lets?\s+(?:us|me|you)\s+down|"
    r"uneven|patchy|shoddy|sloppy|substandard|second-rate|inferior|disappointing|"
    r"(?:over)?hyped?|a\s+gimmick|gimmicky|cocky|arrogant|careless|reckless|lazy|rude|"
    r"a\s+box-?ticker|box-?ticking|a\s+jobsworth|pedantic|nit-?picking|obstructive|"
    r"disorgani[sz]ed|chaotic|a\s+(?:mess|shambles|circus|toy)|messy|slapdash|unhelpful|"
    r"not\s+up\s+to|not\s+(?:as|so|very|that|really|quite)?\s*(?:good|great|reliable)|"
    # "no place to buy piano parts", "past saving", "beyond repair"
    r"no\s+place\s+(?:to|for)|not\s+the\s+place\s+(?:to|for)|past\s+saving|beyond\s+repair|"
    r"no\s+good|not\s+fit\s+for)\b",
    re.I,
)
# Praise said with a "not" before it is none: "not as good as Wendler's".
_NOT_PRAISE = re.compile(
    r"\bnot\s+(?:as|so|very|that|really|quite)?\s*(?:good|great|reliable|fine|worth)\b", re.I
)
_PRAISED = re.compile(
    r"\b(?:reliable|dependable|great|excellent|brilliant|worth|works\s+well|fine|good|best|"
    r"love[sd]?|better|perfect|spot\s+on|careful|thorough|helpful|solid|superb|sharp|capable|"
    r"competent|clever|trustworthy|organi[sz]ed|efficient|punctual|quick|practical|"
    r"pragmatic|meticulous|conscientious|diligent|precise|responsive|prompt|tidy|tidiest|"
    r"neat|fair|honest)\b",
    re.I,
)
# Comparisons that turn round: the lesser of each pair is a view against; both ends are one
# thing to compare ("slower than the old form" and "faster than the old form" share pace).
_COMPARED = {
    "slower": ("~pace", True),
    "faster": ("~pace", False),
    "quicker": ("~pace", False),
    "worse": ("~quality", True),
    "better": ("~quality", False),
    "harder": ("~ease", True),
    "easier": ("~ease", False),
    "dearer": ("~cost", True),
    "pricier": ("~cost", True),
    "cheaper": ("~cost", False),
}
_FIRST_CLAUSE = re.compile(r"\s*[;:,—–.]\s*")
_JUDGED_WORDS = 4
_APOSTROPHE = re.compile(r"(\w)['’](t)\b")
_AVERSION = re.compile(
    r"\b(?:dislik|hat|avoid|detest|loath)(?:e|es|ed|ing)\b|\bcan'?t\s+stand\b", re.I
)


@dataclass(frozen=True, slots=True)
class Evidence:
    """One fact's bearing on an opinion: on ``day``, supporting or not."""

    fact: str
    day: str
    supports: bool


def evolve(start: float, evidence: Iterable[Evidence]) -> float:
    """The confidence after ``evidence``, from ``start`` (the rule in the module header)."""
    days: dict[str, list[int]] = {}
    for item in evidence:
        counts = days.setdefault(item.day, [0, 0])
        counts[0 if item.supports else 1] += 1
    c = min(1.0, max(0.0, start))
    for day in sorted(days):
        up, down = days[day]
        if up > down:
            c = c + UP * (1.0 - c)
        elif down > up:
            c = c - DOWN * c
    return round(min(1.0, max(0.0, c)), 4)


@dataclass(frozen=True, slots=True)
class Reading:
    """A fact as the opinion rules read it: its statement, content words and stance."""

    statement: Statement
    words: frozenset[str]
    negates: bool
    low: bool
    keys: frozenset[str]
    view: bool = False  # an opinion fact (Retain O), not a world fact or an episode
    judged: bool = False  # a judgement of its subject in a word: "hype", "worth the money"
    retracts: bool = False  # takes back its writer's earlier view: "I had Hanne wrong"
    praises: bool = False  # praises its subject in so many words: "the best", "reliable"


def _words(text: str, entities: Sequence[str] = ()) -> tuple[frozenset[str], bool]:
    """Content words (the entities' names aside), and whether the text negates."""
    tokens = token_set(_APOSTROPHE.sub(r"\1\2", text))
    negated = not tokens.isdisjoint(_NEGATIONS)
    names = token_set(" ".join(entities).replace("-", " "))
    kept = tokens - _NEGATIONS - _LIKES - _FILLER - names
    # one word for one thing: "rentals" and "rental", "hairs" and "hair"
    return frozenset(_singular(word) for word in kept if len(word) > 1), negated


@lru_cache(maxsize=4096)  # a pick is compared with every view held, each pair afresh
def _all_words(text: str) -> frozenset[str]:
    """The content words of ``text``, names included."""
    return _words(text)[0]


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def read_fact(fact: Fact) -> Reading:
    """``fact`` read for the opinion rules (see the module header)."""
    names = frozenset(w.casefold() for e in fact.entities for w in e.replace("-", " ").split())
    statement = read_statement(fact.text, known=names)
    if fact.entities:
        statement = statement.replace(
            subject=fact.entities[0].replace("-", " ").split()[0].casefold()
        )
    words, _ = _words(fact.text, fact.entities)
    compared = [_COMPARED[w] for w in words if w in _COMPARED]
    words = words - _COMPARED.keys() | {kind for kind, _ in compared}
    praised = bool(_PRAISED.search(_NOT_PRAISE.sub(" ", fact.text)))
    faulted = bool(_FAULTED.search(fact.text)) and not praised
    against = statement.polarity < 0 or bool(_TOO.search(fact.text)) or faulted
    against = against != any(lesser for _, lesser in compared)  # "isn't slower" is for it
    low = fact.kind == "opinion" and fact.confidence is not None and fact.confidence < 0.5
    keys = frozenset("-".join(e.lower().split()) for e in fact.entities)
    view = fact.kind == "opinion"
    # a judgement of the whole thing: in its first clause of four words or fewer ("hype;",
    # "worth the money;"), not "great with the volunteers on a Saturday"
    head = _FIRST_CLAUSE.split(fact.text.strip(), maxsplit=1)[0]
    # "too green to trust with SARS" judges the whole of her however many words it takes
    whole = len(head.split()) <= _JUDGED_WORDS or bool(_TOO.match(head))
    judged = whole and (bool(_FAULTED.search(head)) or bool(_TOO.search(head + " x"))) != bool(
        _PRAISED.search(_NOT_PRAISE.sub(" ", head)) and statement.polarity > 0
    )
    retraction = view and bool(keys) and retracts(fact.text)
    praises = not against and _PRAISED.search(_NOT_PRAISE.sub(" ", _whole(statement))) is not None
    return Reading(statement, words, against, low, keys, view, judged, retraction, praises)


def _share(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def _other_value(new: Statement, old: Statement) -> bool:
    """Another value of a family both give (a name is another thing, not another value)."""
    left, right = family_values(new), family_values(old)
    return any(left[f] - new.replaced != right[f] for f in (left.keys() & right.keys()) - {"name"})


# "the best", "works better", "suits them best", "prefer": a view that picks one thing of a kind
_PICKS = re.compile(r"\b(?:best|better|suits?|prefer(?:s|red)?|go-to)\b", re.I)
_TOKEN = re.compile(r"[\w'’-]+")


def _option(text: str, noun: str) -> str | None:
    """The name a view gives the thing of kind ``noun`` it speaks of: the capitalised word
    nearest before it ("SMS reminders", "Turia's lab", "Campanar is the better lab")."""
    words = _TOKEN.findall(text)
    for at, word in enumerate(words):
        if _singular(word.casefold()) != noun:
            continue
        for before in reversed(words[max(0, at - 4) : at]):
            if before[:1].isupper():
                return _APOSTROPHE_S.sub("", before).casefold()
    return None


_APOSTROPHE_S = re.compile(r"['’]s$")


def _whole(statement: Statement) -> str:
    """The line a statement was read from, a heading it opened with included."""
    return f"{statement.heading}: {statement.text}" if statement.heading else statement.text


def _picks_another(fact: Reading, held: Reading) -> bool:
    """Both views pick the best of one kind of thing, and name another one ("WhatsApp reminders
    work better" after "SMS reminders suit them best"; "Campanar is the better lab" after
    "Turia's lab is slow but worth the wait; the best fit we've had")."""
    new, old = _whole(fact.statement), _whole(held.statement)
    if not (_PICKS.search(new) and _PICKS.search(old)):
        return False
    for noun in _all_words(new) & _all_words(old):  # the entities' names too: "Fenwick Garage"
        if noun in _COMPARED or _PICKS.fullmatch(noun) or _PRAISED.fullmatch(noun):
            continue  # "better" is how both pick, not what they pick
        mine, theirs = _option(new, noun), _option(old, noun)
        if mine and theirs and mine != theirs and mine not in old.casefold():
            return True
    return False


def _bearing(fact: Reading, held: Reading) -> tuple[str, float] | None:
    """``("same", closeness)`` or ``("rival", 0)`` when ``fact`` bears on the opinion ``held``."""
    if fact.keys != held.keys and not (fact.keys and held.keys):
        return None
    share = _share(fact.words, held.words)
    stance = choice(fact.statement, held.statement)
    if stance is not None and fact.keys & held.keys:
        return stance, 1.0 + share  # a choice read whole
    found = relation(fact.statement, held.statement)
    if found == "same":
        return "same", 1.0 + share
    flips = fact.negates != held.negates
    ends = fact.statement.replaced & (held.statement.topic | held.statement.values)
    rival = same_slot(fact.statement, held.statement) and _other_value(
        fact.statement, held.statement
    )
    rival = rival or (fact.view and held.view and _picks_another(fact, held))
    if not flips and (rival or found == "replaces" or ends):
        return "rival", 0.0  # "prefers written messages" after "prefers voice notes"
    if found == "replaces":
        return "same", share
    if flips and fact.view and held.view and fact.keys & held.keys:
        shared = len(fact.words & held.words)
        if shared >= 2 or (shared and fact.statement.change in _TURNS):
            return "same", share  # "can't be relied on any more" after "reliable"
        if shared and fact.keys == held.keys and fact.praises != held.praises:
            return "same", share  # "the best chisel counter" after "no place to buy chisels"
        # one entity judged again ("worth the money" after "hype"), also when the later line
        # names someone else beside it ("sharp; found what Ashwin missed")
        one = fact.keys == held.keys or (
            held.keys <= fact.keys and fact.statement.subject == held.statement.subject
        )
        if fact.judged and held.judged and one:
            return "same", share
    if share >= MATCH or (fact.low and len(fact.words & held.words) >= 2):
        return "same", share
    return None


@dataclass
class _Held:
    founder: Fact
    reading: Reading
    support: list[Fact] = field(default_factory=list)
    against: list[Fact] = field(default_factory=list)


@dataclass(frozen=True)
class Opinion:
    """One opinion with its confidence and evidence (fact ids, the founding fact first)."""

    id: str
    statement: str
    entities: tuple[str, ...]
    confidence: float
    start: float
    updated: str | None
    founder: Fact
    supporting: tuple[Fact, ...]
    contradicting: tuple[Fact, ...]

    def as_json(self) -> dict[str, object]:
        """The opinion as ``memory reflect --json`` prints it."""
        return {
            "id": self.id,
            "statement": self.statement,
            "entities": list(self.entities),
            "confidence": self.confidence,
            "updated": self.updated,
            "supporting": [fact.id for fact in self.supporting],
            "contradicting": [fact.id for fact in self.contradicting],
        }


def _order(fact: Fact) -> tuple[str, str, int, str]:
    return (fact.day or "", fact.path, fact.line, fact.id)


def _agrees(fact: Reading, held: Reading, kind: str) -> bool:
    """Whether a fact that bears on an opinion is for it: by the choice both make, else by
    their polarity."""
    if kind in ("agrees", "opposes"):
        return kind == "agrees"
    return fact.negates == held.negates


def _weigh(fact: Fact, reading: Reading, held: list[_Held], near: Iterable[int]) -> bool:
    """Add ``fact`` as evidence to the opinions it bears on; True when it founds none of its
    own (it supports one, or it is a denial)."""
    if reading.retracts:
        for index in near:  # every earlier view of its entities it does not repeat
            if _share(reading.words, held[index].reading.words) < MATCH:
                held[index].against.append(fact)
        return False  # and the view it holds now is one of its own
    same: list[tuple[float, int]] = []
    rivals: list[int] = []
    kinds: dict[int, str] = {}
    for index in near:
        found = _bearing(reading, held[index].reading)
        if found is None:
            continue
        if found[0] != "rival":
            same.append((found[1], index))
            kinds[index] = found[0]
        else:
            rivals.append(index)
    same.sort(key=lambda item: (-item[0], -item[1]))  # the closest, then the newest
    if reading.low:
        if same:
            held[same[0][1]].against.append(fact)
        return bool(same or rivals)
    agreeing = [i for _, i in same if _agrees(reading, held[i].reading, kinds[i])]
    opposing = [i for _, i in same if not _agrees(reading, held[i].reading, kinds[i])]
    if agreeing:
        held[agreeing[0]].support.append(fact)
    for index in opposing:
        held[index].against.append(fact)
    if not reading.negates:
        for index in rivals:
            held[index].against.append(fact)
    if agreeing:
        home = held[agreeing[0]].reading
        # Two or more words of its own: a view of its own as well ("pre-translation needs
        # more fixing than it saves" beside "pre-translation saves time").
        return len(reading.words - home.words) < 2
    if reading.negates and opposing:
        denied = frozenset().union(*(held[i].reading.words for i in opposing))
        aversion = _AVERSION.search(fact.text) is not None  # "dislikes X" is a view of its own
        # a denial ends an opinion; with a reason of two words or more it is a view as well
        return len(reading.words - denied) < 2 and not aversion
    return False


def plan_opinions(facts: Iterable[Fact]) -> tuple[Opinion, ...]:
    """Every opinion ``facts`` found, with its evidence and confidence (see the module rules)."""
    held: list[_Held] = []
    by_entity: dict[str, list[int]] = {}  # entity key ("" for none) -> opinions about it
    for fact in sorted(facts, key=_order):
        reading = read_fact(fact)
        if not reading.words:
            continue
        near = sorted({i for key in reading.keys or {""} for i in by_entity.get(key, ())})
        done = _weigh(fact, reading, held, near)
        if reading.view and not reading.negates and _PICKS.search(fact.text):
            for index in set(range(len(held))) - set(near):  # another entity's pick
                if held[index].reading.view and _picks_another(reading, held[index].reading):
                    held[index].against.append(fact)
        if not done and fact.kind == "opinion":
            held.append(_Held(fact, reading))
            for key in reading.keys or {""}:
                by_entity.setdefault(key, []).append(len(held) - 1)
    opinions = []
    for entry in held:
        founder, support, against = entry.founder, entry.support, entry.against
        start = founder.confidence if founder.confidence is not None else DEFAULT_CONFIDENCE
        evidence = [Evidence(f.id, f.day or "", True) for f in support]
        evidence += [Evidence(f.id, f.day or "", False) for f in against]
        days = [f.day for f in (founder, *support, *against) if f.day]
        digest = hashlib.sha1(founder.id.encode(), usedforsecurity=False).hexdigest()[:10]
        opinions.append(
            Opinion(
                id=f"o-{digest}",
                statement=founder.text,
                entities=founder.entities,
                confidence=evolve(start, evidence),
                start=start,
                updated=max(days) if days else None,
                founder=founder,
                supporting=(founder, *support),
                contradicting=tuple(against),
            )
        )
    return tuple(opinions)
