"""Recurring mistakes by meaning: occasions of the notes and ``.learnings/``, grouped.

Rules:

* an *occasion* is a line of a daily note tagged ``error`` or ``correction``
  (:mod:`dreamd.engine.graph.fragments`), or an error or correction entry of ``.learnings/``
  (:mod:`~dreamd.engine.dreamwork.learnings`). Never one of dreamd's own lines: a line inside a
  managed block, a line that reads as dreaming's output or its staging
  (:func:`~dreamd.engine.text.contamination.is_contaminated`), an order addressed to the agent
  (:func:`~dreamd.engine.text.instructions.instruction_reason`) or a guest's turn;
* an occasion is read as *words* (its content words, stop words and the words every mistake
  shares, "error", "again", "third", left out; each word stemmed with ``snowballstemmer``;
  a share written "20 %", "20 per cent" or "twenty percent" is one word, ``20%``),
  *names* (the entities the graph found on the line, capitalised words inside it) and, for a
  learnings entry, its category and the ids it names as related;
* two occasions are alike by :func:`likeness`: the share of their words they have in common,
  each word weighted by how rare it is among all occasions (a word every mistake uses says
  little), the token-set similarity of their words (``rapidfuzz``, imported on first use), the
  names they share, the same specific learnings category, one naming the other as related, and
  one recalling the other's day (below);
* occasions are grouped in day order: each joins the group it is most alike on average (at
  least :data:`JOIN`) or starts a new one (deterministic: same occasions, same groups); groups
  then merge while two are alike on average. A telling that says it happened before ("again",
  "the same slip as", "the third time") names a recurrence: it joins, or merges its group
  with, the earlier telling it is most alike when that likeness reaches :data:`JOIN_REPEAT`
  and the two share at least two words; and two tellings of other days that share
  :data:`BOND_WORDS` rare words (weighing :data:`BOND_WEIGHT` together) are one mistake
  whatever their lengths;
* the days a telling names are not among its words (they say when, not what). A telling
  that counts its own recurrence and names the days it happened ("mixed up again (18 Feb,
  29 Feb, 9 Mar)", "the third time, after 3 May and 10 May"), or a mistake told with two or
  more earlier days ("woken on 16 Feb, 23 Feb and 6 Mar"), *recalls* each earlier day it names
  within :data:`RECALLED_DAYS` days; two occasions sharing words, one recalling the other's
  day, are the likelier one mistake (:data:`RECALL_BONUS`);
* a group's *occurrences* count each day once per source (a note line and a learnings entry
  of the same day telling one incident are one occurrence; two note lines are two), and each
  day only recalled once: the notes say it happened then. A group is a pattern from
  :data:`MIN_OCCURRENCES` occurrences over :data:`MIN_DAYS` days on;
* the *fix* of a group is the latest fix an occasion records (a learnings entry's resolution),
  else the latest line of the notes that says what worked ("the fix that worked", "from now
  on", "resolved by") and is alike to the group.

Pure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any

from dreamd.engine.dreamwork.learnings import Learning
from dreamd.engine.facts.render import strip_speaker
from dreamd.engine.facts.values import MONTHS
from dreamd.engine.graph.fragments import Tagged
from dreamd.engine.phases.sessions import GUEST_LABEL
from dreamd.engine.text.blocks import managed_spans
from dreamd.engine.text.concepts import STOP_WORDS
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.text.entities import is_entity_name
from dreamd.engine.text.instructions import instruction_reason

__all__ = [
    "JOIN",
    "MIN_DAYS",
    "MIN_OCCURRENCES",
    "Group",
    "Occasion",
    "fix_lines",
    "group_occasions",
    "likeness",
    "occasions_of",
]

MIN_OCCURRENCES = 3
MIN_DAYS = 2
RECALLED_DAYS = 120
RECALL_BONUS = 0.2
JOIN_REPEAT = 0.15
BOND_WORDS = 4
BOND_WEIGHT = 10.0
JOIN = 0.3
PRIOR = 20
PATTERN_KINDS = frozenset({"correction", "error"})
_WORD = re.compile(r"[^\W\d_][\w'’-]*[^\W_]|[^\W\d_]{2,}")
_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")
_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b([A-Z][\w'’-]+)")
_FIX = re.compile(
    r"\b(?:the\s+fix(?:\s+that\s+worked)?|fixed\s+by|resolved\s+by|solved\s+by|solution|"
    r"resolution|from\s+now\s+on|the\s+rule\s+is|agreed\s+rule|new\s+rule|what\s+worked|"
    r"now\s+(?:starts?|comes?|goes?)\s+from)\b",
    re.IGNORECASE,
)
# Words every mistake uses: they tell that something went wrong, not what.
_MISTAKE_WORDS = frozenset(
    """
    error errors fail failed fails failure wrong wrongly again third second first time times
    mistake mistakes correction corrected correct actually same another once more still twice
    slip mixup mix-up mixed issue problem bug broken oops sorry noticed caught spotted found
    """.split()
)
# What tells a mishap in a line without an error word: "came back", "again", "without the".
_MISHAP = re.compile(
    r"\bagain\b|\b(?:second|third|fourth|fifth)\s+time\b|\bsame\s+(?:mistake|thing|gap|problem|"
    r"reason|error|slip)\b|\bmix(?:ed)?[- ]?up\b|\bconfused\b|\bforgot\b|\bmissing\b|"
    r"\bwithout\s+(?:the|a|any|checking|looking|asking|copying)\b|\bcame\s+back\b|\bbounced\b|"
    r"\bsent\s+back\b|\bslipped\b|\bcrept\b|\bwrong\b|\bmistake\b|\bnever\s+added\b|"
    # what was done set against what was asked: "I said Thursday", "she'd asked for 10:00"
    r"\bi\s+said\b|\b(?:had|'d|’d)\s+asked\s+for\b|\bshould(?:n't|n’t|\s+not)\s+(?:have\s+)?happen|"
    # what did not happen or had to be done over: "skipped the copy", "the desk froze"
    r"\bskipp(?:ed|ing)\b|\bfroze(?:n)?\b|\bdid(?:n't|n’t|\s+not)\s+happen\b|"
    r"\bhad\s+to\s+be\s+re[a-z]+\b|\bdouble[- ]?booked\b",
    re.IGNORECASE,
)
# A line tells a mistake when it says so; "cold crash" or "bug hunt" alone is a word, not one.
_WRONG = re.compile(
    r"\b(?:error|errors|fail(?:ed|s|ure)?|exception|traceback|broke|broken|bug|outage|crashed|"
    r"wrong(?:ly)?|mistake|again|mix(?:ed)?[- ]?up|confused|forgot|missing|should\s+have|"
    r"(?:second|third|fourth)\s+time|actually|not\s+\w+,?\s+but)\b",
    re.IGNORECASE,
)
_RETAIN = re.compile(r"^\s*[-*+]?\s*(?:W|B|S|O(?:\([^)]*\))?)\s+@")
_PERCENT = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?|[a-z]+(?:-[a-z]+)?)\s*(?:%|per\s*cent\b|percent\b)",
    re.IGNORECASE,
)
_NUMBER_WORDS = {
    word: number
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
# A count of occasions: "the third time", "three times now".
_COUNT = (
    r"\b(?:second|third|fourth|fifth|sixth|\d+(?:st|nd|rd|th))\s+time\b|"
    r"\b(?:two|three|four|five|six|\d+)\s+times\b"
)
# A telling that says it happened before: "again", "once more", "the same slip as", a count.
_REPEAT = re.compile(
    rf"\bagain\b|\bonce\s+more\b|\bsame\s+(?:[\w'’-]+\s+){{0,2}}as\b|{_COUNT}", re.IGNORECASE
)
# A telling that counts its recurrence: "three times now", "the third time", "every time".
_COUNTED = re.compile(rf"{_COUNT}|\b(?:every|each)\s+time\b", re.IGNORECASE)
_AGAIN = re.compile(r"\bagain\b", re.IGNORECASE)
_MONTH_NAME = "|".join(sorted((re.escape(m) for m in MONTHS), key=len, reverse=True))
_NAMED_DAY = re.compile(
    rf"(?<![\w-])(?:(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\.?\s+(?:of\s+)?(?P<month>{_MONTH_NAME})"
    rf"|(?P<month2>{_MONTH_NAME})\.?\s+(?P<day2>[0-3]?\d)(?:st|nd|rd|th)?"
    r"|(?P<iso>\d{4}-\d{2}-\d{2}))(?![\w-])",
    re.IGNORECASE,
)
_GENERIC_CATEGORIES = frozenset(
    {"correction", "best_practice", "knowledge_gap", "insight", "error", "learning", ""}
)


@dataclass(frozen=True, slots=True)
class Occasion:
    """One correction or error: its kind, day, words, where it is, and what it is read as."""

    kind: str
    day: str
    text: str
    source: str
    origin: str = "notes"  # "notes" or "learnings"
    ident: str = ""
    category: str = ""
    refs: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    fix: str = ""
    detail: str = ""
    recalled: tuple[str, ...] = ()  # earlier days the telling says it happened on

    @property
    def restated(self) -> bool:
        """A Retain line: it restates what the day's prose tells."""
        return _RETAIN.match(self.text) is not None

    @property
    def words(self) -> frozenset[str]:
        """The stems of its content words, the days it names left out (a specific category's
        words too: "best practice" says nothing of what went wrong)."""
        body = _RETAIN.sub("", self.text).split(":", 1)[-1] if self.restated else self.text
        body = _NAMED_DAY.sub(" ", body)
        if self.category not in _GENERIC_CATEGORIES:
            body = f"{body} {self.category.replace('_', ' ')}"
        return _stems(body)


@dataclass(frozen=True)
class Group:
    """Occasions that tell the same mistake, in day order."""

    occasions: tuple[Occasion, ...]
    fix: str = ""
    fix_source: str = ""
    days: tuple[str, ...] = field(default=())
    medoid: Occasion | None = None  # the telling most like the others
    keywords: tuple[str, ...] = ()  # its words most of the tellings share, as written

    @property
    def kind(self) -> str:
        """``error`` when any telling is an error, else ``correction``."""
        return "error" if any(o.kind == "error" for o in self.occasions) else "correction"

    @property
    def occurrences(self) -> int:
        """Each day once per source, a day only recalled once (see the module rules)."""
        total = 0
        for day in self.days:
            per_file: dict[str, int] = {}
            for o in self.occasions:
                if o.day == day:
                    name = o.source.rsplit(":", 1)[0]
                    per_file[name] = per_file.get(name, 0) + (0 if o.restated else 1)
            total += max(max(per_file.values(), default=0), 1)
        return total

    @property
    def is_pattern(self) -> bool:
        """Enough occurrences over enough days, and told as a mistake (see the module rules)."""
        told = any(o.origin != "notes" or _WRONG.search(o.text) for o in self.occasions)
        return told and self.occurrences >= MIN_OCCURRENCES and len(self.days) >= MIN_DAYS


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer  # the Snowball (Porter 2) stemmer: imported when a mistake is read

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def _fold(word: str) -> str:
    """A word's stem: "stored", "store" and "storing" are one word, so are "copied" and
    "copy" (the Snowball English stemmer)."""
    word = word.lower().replace("’", "'").split("'", 1)[0].strip("-")
    return str(_stemmer().stemWord(word)) if word.isalpha() else word


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    found = {word.lower() for word in _ACRONYM.findall(text) if word.lower() not in _MISTAKE_WORDS}
    found.update(_percentages(text))
    for raw in _WORD.findall(text):
        word = raw.lower()
        if len(word) < 3 or word in STOP_WORDS or word in _MISTAKE_WORDS:
            continue
        for part in word.split("-"):
            stem = _fold(part)
            if len(stem) >= 2 and stem not in STOP_WORDS and stem not in _MISTAKE_WORDS:
                found.add(stem)
    return frozenset(found)


def _percentages(text: str) -> set[str]:
    """Each share the text names, one way: "20 %", "20 per cent" and "twenty percent" are
    ``20%`` (a rate is what a mistake is about more often than any other number)."""
    found = set()
    for m in _PERCENT.finditer(text):
        amount = m.group(1).lower().replace(",", ".")
        if not amount[0].isdigit():
            parts = [_NUMBER_WORDS.get(part) for part in amount.split("-")]
            if None in parts:
                continue
            amount = str(sum(p for p in parts if p is not None))
        found.add(f"{amount}%")
    return found


def _names(text: str, known: Iterable[str] = ()) -> tuple[str, ...]:
    if _RETAIN.match(text):  # "B @Sofie: ...": the @name is whose note it is, not the subject
        text, known = text.split(":", 1)[-1], ()
    found = {name.lower() for name in known}
    found.update(m.lower() for m in _NAME.findall(text) if is_entity_name(m))
    return tuple(sorted(found))


def _own_lines(sources: Mapping[str, str]) -> dict[str, frozenset[int]]:
    """The 1-based lines of each note inside dreamd's managed blocks."""
    return {
        path: frozenset(
            i + 1 for first, last in managed_spans(text) for i in range(first, last + 1)
        )
        for path, text in sources.items()
    }


def _foreign(text: str) -> bool:
    """Dreaming's own output, an order to the agent, or a guest's turn: never an occasion."""
    return (
        is_contaminated(text) or instruction_reason(text) is not None or f"{GUEST_LABEL}:" in text
    )


def _clean(text: str) -> str:
    """One line as told: no list marker, no transcript line's ``[agent/session#Ln] User:``."""
    text = strip_speaker(text)
    return (
        " ".join(text.lstrip("-*+ ").split()) if not _RETAIN.match(text) else " ".join(text.split())
    )


def _recalled(text: str, day: str, told: bool) -> tuple[str, ...]:
    """The earlier days a telling says the mistake happened on (see the module rules): only
    when it counts its recurrence, or is told as a mistake and says "again" or names two."""
    counted = _COUNTED.search(text) or (told and _AGAIN.search(text))
    if not counted and not told:
        return ()
    today = date.fromisoformat(day)
    found = set()
    for m in _NAMED_DAY.finditer(text):
        try:
            if m.group("iso"):
                named = date.fromisoformat(m.group("iso"))
            else:
                month = int(MONTHS[(m.group("month") or m.group("month2")).lower()])
                number = int(m.group("day") or m.group("day2"))
                named = date(today.year, month, number)
                if named > today:
                    named = date(today.year - 1, month, number)
        except ValueError:
            continue  # "31 Feb", "2028-13-01": not a day
        if 0 < (today - named).days <= RECALLED_DAYS:
            found.add(named.isoformat())
    return tuple(sorted(found)) if counted or len(found) >= 2 else ()


def occasions_of(
    tagged: Iterable[Tagged], learnings: Iterable[Learning], sources: Mapping[str, str]
) -> list[Occasion]:
    """Every correction and error of the notes and ``.learnings/``, in day order (``sources``:
    each note's text, to tell dreamd's own blocks)."""
    own = _own_lines(sources)
    found = [
        Occasion(
            t.kind,
            t.day,
            _clean(t.text),
            f"{t.path}:{t.line}",
            names=_names(_clean(t.text), t.entities),
            recalled=_recalled(t.text, t.day, t.kind in PATTERN_KINDS),
        )
        for t in tagged
        if (t.kind in PATTERN_KINDS or (t.kind != "decision" and _MISHAP.search(t.text)))
        and t.day
        and t.line not in own.get(t.path, frozenset())
        and not _foreign(t.text)
        and _stems(t.text)
    ]
    for entry in learnings:
        if entry.kind == "request" or _foreign(entry.text) or not _stems(entry.text):
            continue  # a lesson of LEARNINGS.md tells a mistake even without an error word
        found.append(
            Occasion(
                entry.kind if entry.kind in PATTERN_KINDS else "correction",
                entry.day,
                entry.text,
                f"{entry.path}:{entry.line}",
                origin="learnings",
                ident=entry.ident,
                category=entry.category.lower(),
                refs=entry.refs,
                names=_names(f"{entry.text} {entry.detail}"),
                fix="" if _foreign(entry.fix) else entry.fix,
                detail=entry.detail,
                recalled=_recalled(f"{entry.text} {entry.detail}", entry.day, True),
            )
        )
    return sorted(found, key=lambda o: (o.day, o.source))


def fix_lines(tagged: Iterable[Tagged], sources: Mapping[str, str]) -> list[Occasion]:
    """Lines of the notes that say what worked (see the module rules), as occasions."""
    own = _own_lines(sources)
    return [
        Occasion(t.kind, t.day, _clean(t.text), f"{t.path}:{t.line}", names=_names(t.text))
        for t in tagged
        if t.day
        and _FIX.search(t.text)
        and t.line not in own.get(t.path, frozenset())
        and not _foreign(t.text)
    ]


def _weights(occasions: Sequence[Occasion]) -> dict[str, float]:
    counts: dict[str, int] = {}
    for occasion in occasions:
        for word in occasion.words:
            counts[word] = counts.get(word, 0) + 1
    # A prior of PRIOR unseen occasions: among a few occasions, the words they share are what
    # makes them one mistake, not words too common to count.
    total = len(occasions) + PRIOR
    return {word: math.log(total / (n + 0.5)) for word, n in counts.items()}


def _fuzzy(a: frozenset[str], b: frozenset[str]) -> float:
    from rapidfuzz import fuzz  # imported when the first two occasions are compared

    if not a or not b:
        return 0.0
    return float(fuzz.token_set_ratio(" ".join(sorted(a)), " ".join(sorted(b)))) / 100


def likeness(a: Occasion, b: Occasion, weights: Mapping[str, float]) -> float:
    """How alike two occasions are, 0 to about 1.3 (see the module rules)."""
    if (a.ident and a.ident in b.refs) or (b.ident and b.ident in a.refs):
        return 1.0
    wa, wb = a.words, b.words
    norm = math.sqrt(
        sum(weights.get(w, 1.0) ** 2 for w in wa) * sum(weights.get(w, 1.0) ** 2 for w in wb)
    )
    shared = sum(weights.get(w, 1.0) ** 2 for w in wa & wb) / norm if norm else 0.0
    names = set(a.names) | set(b.names)
    named = len(set(a.names) & set(b.names)) / len(names) if names else 0.0
    score = 0.55 * shared + 0.3 * _fuzzy(wa, wb) * min(1.0, 2 * shared) + 0.15 * named
    if a.category == b.category and a.category not in _GENERIC_CATEGORIES:
        score += 0.3
    if shared and (a.day in b.recalled or b.day in a.recalled):
        score += RECALL_BONUS  # one says it happened on the other's day, and they share words
    return score


def group_occasions(occasions: Sequence[Occasion], fixes: Sequence[Occasion] = ()) -> list[Group]:
    """The occasions grouped by meaning, each group with its fix (see the module rules)."""
    weights = _weights(occasions)
    groups: list[list[Occasion]] = []
    for occasion in occasions:
        best, best_score = -1, 0.0
        for index, members in enumerate(groups):
            score = max(
                _linkage([occasion], members, weights), _repeats(occasion, members, weights)
            )
            if score > best_score:
                best, best_score = index, score
        if best >= 0 and best_score >= JOIN:
            groups[best].append(occasion)
        else:
            groups.append([occasion])
    groups = _merged(groups, weights)
    found = []
    for members in groups:
        fix, where = _fix_of(members, fixes, weights)
        days = tuple(sorted({d for o in members for d in (o.day, *o.recalled)}))
        medoid = max(
            members, key=lambda o: (sum(likeness(o, m, weights) for m in members), o.origin)
        )
        found.append(Group(tuple(members), fix, where, days, medoid, _keywords(members, medoid)))
    return found


def _keywords(members: Sequence[Occasion], medoid: Occasion) -> tuple[str, ...]:
    """Up to three words of the medoid, as written, whose stems most tellings share."""
    counts: dict[str, int] = {}
    for occasion in members:
        for word in occasion.words:
            counts[word] = counts.get(word, 0) + 1
    body = _RETAIN.sub("", medoid.text).split(":", 1)[-1] if medoid.restated else medoid.text
    chosen: dict[str, str] = {}
    spotted = [*_ACRONYM.finditer(body), *_WORD.finditer(body)]
    for raw in [m.group(0) for m in sorted(spotted, key=lambda m: m.start())]:
        stem = _fold(raw.split("-", 1)[0]) if not _ACRONYM.fullmatch(raw) else raw.lower()
        if stem in counts and stem not in chosen and counts[stem] * 2 >= len(members):
            chosen[stem] = raw
    ranked = sorted(chosen, key=lambda stem: -counts[stem])  # stable: first written first
    return tuple(chosen[stem] for stem in ranked[:3])


def _linkage(a: Sequence[Occasion], b: Sequence[Occasion], weights: Mapping[str, float]) -> float:
    """Half the average likeness, half the best: a mistake told in new words still joins the
    telling it is most like, while a group held together by one chance likeness does not grow."""
    scores = [likeness(x, y, weights) for x in a for y in b]
    return (sum(scores) / len(scores) + max(scores)) / 2


def _bonded(a: Occasion, b: Occasion, weights: Mapping[str, float]) -> bool:
    """Two tellings of other days that share :data:`BOND_WORDS` words or more, rare enough
    to weigh :data:`BOND_WEIGHT` together: the same mistake told at another length (a long
    learnings entry and a short note line share many words but few of either's)."""
    if a.day == b.day:
        return False
    shared = a.words & b.words
    return len(shared) >= BOND_WORDS and sum(weights.get(w, 1.0) for w in shared) >= BOND_WEIGHT


def _repeats(
    occasion: Occasion, members: Sequence[Occasion], weights: Mapping[str, float]
) -> float:
    """Evidence beyond likeness, on the scale of :data:`JOIN`: :data:`JOIN` when the telling
    is bonded to a member (:func:`_bonded`); for a telling that says it happened before
    ("again", "the second time"), its best likeness to an earlier telling it shares two words
    with, raised by ``JOIN / JOIN_REPEAT``; else 0."""
    if any(_bonded(occasion, member, weights) for member in members):
        return JOIN
    if not _REPEAT.search(occasion.text):
        return 0.0
    scores = [
        likeness(occasion, member, weights)
        for member in members
        if member.day < occasion.day and len(occasion.words & member.words) >= 2
    ]
    return max(scores, default=0.0) * JOIN / JOIN_REPEAT


def _merged(groups: list[list[Occasion]], weights: Mapping[str, float]) -> list[list[Occasion]]:
    """Groups the day-order pass kept apart merged while two are alike on average, or a telling
    of one says it repeats the other (greedy joining can split a mistake between the group its
    first telling started and another, and tellings of one day join each other first)."""
    while True:
        best, pair = JOIN, None
        for i, a in enumerate(groups):
            for j in range(i + 1, len(groups)):
                b = groups[j]
                score = max(
                    _linkage(a, b, weights),
                    max(_repeats(o, a, weights) for o in b),
                    max(_repeats(o, b, weights) for o in a),
                )
                if score >= best and (pair is None or score > best):
                    best, pair = score, (i, j)
        if pair is None:
            return groups
        i, j = pair
        joined = sorted([*groups[i], *groups[j]], key=lambda o: (o.day, o.source))
        groups = [g for k, g in enumerate(groups) if k not in pair] + [joined]
        groups.sort(key=lambda g: (g[0].day, g[0].source))


def _fix_of(
    members: Sequence[Occasion], fixes: Sequence[Occasion], weights: Mapping[str, float]
) -> tuple[str, str]:
    recorded = [o for o in members if o.fix]
    if recorded:
        return recorded[-1].fix, recorded[-1].source
    first = members[0].day
    near = []
    for line in fixes:
        score = _linkage([line], members, weights)
        if line.day >= first and score >= JOIN:
            near.append((not line.restated, line.day, score, line))
    if near:
        chosen = max(near, key=lambda item: item[:3])[3]
        return chosen.text, chosen.source
    return "", ""
