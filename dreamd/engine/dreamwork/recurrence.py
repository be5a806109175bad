"""Recurring mistakes by meaning: occasions of the notes and ``.learnings/``, grouped.

Rules:

* an *occasion* is a line of a daily note tagged ``error`` or ``correction``
  (:mod:`dreamd.engine.graph.fragments`), or an error or correction entry of ``.learnings/``
  (:mod:`~dreamd.engine.dreamwork.learnings`). Never one of dreamd's own lines: a line inside a
  managed block, a line that reads as dreaming's output or its staging
  (:func:`~dreamd.engine.text.contamination.is_contaminated`), an order addressed to the agent
  (:func:`~dreamd.engine.text.instructions.instruction_reason`) or a guest's turn;
* an occasion is read as *words* (its content words, stop words and the words every mistake
  shares, "error", "again", "third", left out; plurals and endings folded to a five-letter stem),
  *names* (the entities the graph found on the line, capitalised words inside it) and, for a
  learnings entry, its category and the ids it names as related;
* two occasions are alike by :func:`likeness`: the share of their words they have in common,
  each word weighted by how rare it is among all occasions (a word every mistake uses says
  little), the token-set similarity of their words (``rapidfuzz``, imported on first use), the
  names they share, the same specific learnings category, and one naming the other as related;
* occasions are grouped in day order: each joins the group it is most alike on average (at
  least :data:`JOIN`) or starts a new one (deterministic: same occasions, same groups);
* a group's *occurrences* count each day once per source (a note line and a learnings entry
  of the same day telling one incident are one occurrence; two note lines are two). A group is
  a pattern from :data:`MIN_OCCURRENCES` occurrences over :data:`MIN_DAYS` days on;
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
from functools import lru_cache

from dreamd.engine.dreamwork.learnings import Learning
from dreamd.engine.graph.fragments import Tagged
from dreamd.engine.phases.sessions import GUEST_LABEL
from dreamd.engine.text.blocks import managed_spans
from dreamd.engine.text.concepts import STOP_WORDS
from dreamd.engine.text.contamination import is_contaminated
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
    r"\bsent\s+back\b|\bslipped\b|\bcrept\b|\bwrong\b|\bmistake\b|\bnever\s+added\b",
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

    @property
    def restated(self) -> bool:
        """A Retain line: it restates what the day's prose tells."""
        return _RETAIN.match(self.text) is not None

    @property
    def words(self) -> frozenset[str]:
        """The stems of its content words (its category's words too)."""
        body = _RETAIN.sub("", self.text).split(":", 1)[-1] if self.restated else self.text
        return _stems(f"{body} {self.category.replace('_', ' ')}")


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
        """Each day once per source (see the module rules)."""
        total = 0
        for day in self.days:
            per_file: dict[str, int] = {}
            for o in self.occasions:
                if o.day == day:
                    name = o.source.rsplit(":", 1)[0]
                    per_file[name] = per_file.get(name, 0) + (0 if o.restated else 1)
            total += max(max(per_file.values()), 1)
        return total

    @property
    def is_pattern(self) -> bool:
        """Enough occurrences over enough days, and told as a mistake (see the module rules)."""
        told = any(o.origin != "notes" or _WRONG.search(o.text) for o in self.occasions)
        return told and self.occurrences >= MIN_OCCURRENCES and len(self.days) >= MIN_DAYS


def _fold(word: str) -> str:
    word = word.lower().replace("’", "'").split("'", 1)[0].strip("-")
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:5]


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    found = {word.lower() for word in _ACRONYM.findall(text) if word.lower() not in _MISTAKE_WORDS}
    for raw in _WORD.findall(text):
        word = raw.lower()
        if len(word) < 3 or word in STOP_WORDS or word in _MISTAKE_WORDS:
            continue
        for part in word.split("-"):
            if len(part) >= 2 and part not in STOP_WORDS and part not in _MISTAKE_WORDS:
                found.add(_fold(part))
    return frozenset(found)


def _names(text: str, known: Iterable[str] = ()) -> tuple[str, ...]:
    if _RETAIN.match(text):  # "B @Sofie: ...": the @name is whose note it is, not the subject
        text, known = text.split(":", 1)[-1], ()
    found = {name.lower() for name in known}
    found.update(m.lower() for m in _NAME.findall(text) if m.lower() not in STOP_WORDS)
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
    return (
        " ".join(text.lstrip("-*+ ").split()) if not _RETAIN.match(text) else " ".join(text.split())
    )


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
            names=_names(t.text, t.entities),
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
    return score


def group_occasions(occasions: Sequence[Occasion], fixes: Sequence[Occasion] = ()) -> list[Group]:
    """The occasions grouped by meaning, each group with its fix (see the module rules)."""
    weights = _weights(occasions)
    groups: list[list[Occasion]] = []
    for occasion in occasions:
        best, best_score = -1, 0.0
        for index, members in enumerate(groups):
            score = _linkage([occasion], members, weights)
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
        days = tuple(sorted({o.day for o in members}))
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
        stem = _fold(raw) if not _ACRONYM.fullmatch(raw) else raw.lower()
        if stem in counts and stem not in chosen and counts[stem] * 2 >= len(members):
            chosen[stem] = raw
    ranked = sorted(chosen, key=lambda stem: -counts[stem])  # stable: first written first
    return tuple(chosen[stem] for stem in ranked[:3])


def _linkage(a: Sequence[Occasion], b: Sequence[Occasion], weights: Mapping[str, float]) -> float:
    """Half the average likeness, half the best: a mistake told in new words still joins the
    telling it is most like, while a group held together by one chance likeness does not grow."""
    scores = [likeness(x, y, weights) for x in a for y in b]
    return (sum(scores) / len(scores) + max(scores)) / 2


def _merged(groups: list[list[Occasion]], weights: Mapping[str, float]) -> list[list[Occasion]]:
    """Groups the day-order pass kept apart merged while two are alike on average (greedy
    joining can split a mistake between the group its first telling started and another)."""
    while True:
        best, pair = JOIN, None
        for i, a in enumerate(groups):
            for j in range(i + 1, len(groups)):
                score = _linkage(a, groups[j], weights)
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
