"""One result per fact, and what is true now before what was.

Rules, over the ranked hits of a search (best first):

- **One result per fact.** Hits that state one fact (:func:`dreamd.engine.facts.relations.
  same_fact`: the same sentence in several notes, a paraphrase, the ``MEMORY.md`` copy of a note
  line) are one hit: the best-ranked speaks, and ``also`` holds the others, best first (a
  search records them all as recalled: each was found).
- **Current first.** Dated hits are read as a timeline (:mod:`dreamd.engine.facts.timeline`;
  a hit's day is its note's, a ``MEMORY.md`` entry's the day of the note it cites). A hit that a
  newer one replaces is not a result of its own: it is folded into the newest line of its chain
  as ``was`` ("was …, until <day>"), and that line takes the better of their places. A line
  of several clauses that the newer one changes only in part ("rehearses Thursdays; director
  Joan Puig" before "rehearsals moved to Wednesdays") is also a result of its own, at its own
  place, saying only the clauses nothing replaced.
- **"Now" questions** ("now", "currently", "still", "these days"...: :func:`tense_of`) never
  answer with a superseded line; the newer lines about the slot the best hits speak of are looked
  for even when they miss the question's words ("Swimming moved to Thursdays" for "when is the
  lesson now?"), through ``probe``: a search for the hits' subject, topic and names over the
  days after them, whose results count only as what may replace a hit. Among the results, a
  newer line gains up to :data:`NOW_RECENCY` over an older one: what was said last about a
  thing is likelier what is true now, even where the fact model sees no change. Unless the
  question is answered yes or no ("Do we still …?"), a line that only says what no longer
  holds ("no more orders from Wendler") counts as the oldest and loses as much again: it
  does not say who, where or when.
- **"What was true in <month>"** (a window of days in the past and "was", "were", "used to"...:
  a state, not an event, which a later note may tell): what was current then. Lines dated after
  the window end nothing in it and come after the others.
- Lines said by different people (a speaker label: ``- Gina: I ...``) are about their speakers:
  "I" is the speaker, so one person's line never replaces another's. In a transcript the
  person and their agent are one "we" (a guest is not). A question states nothing:
  it neither replaces nor repeats a line. Two lines of very different extent (a sentence, and a
  paragraph that says it among much else) are not one statement.

The fact model is loaded only when it can change the answer: a "now" or "past" question, or two
of the first hits that could be one fact (most of their words shared, not all: the same words
said again are one fact without it) or one a change of the other (a word shared, and in the
newer a change word such as "moved", "now", "no longer", "cancelled", or "from … to"; or two
words shared and values of one kind: weekdays, months, numbers). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date

from dreamd.engine.hits import Earlier, Hit
from dreamd.patterns import LazyPattern
from dreamd.recall.analysis import STOP_WORDS, stems, words
from dreamd.recall.dates import DayWindow

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from dreamd.engine.facts.statement import Statement

__all__ = ["NOW_RECENCY", "Probe", "Reader", "one_per_fact", "tense_of"]

# probe(words, after_day) -> (hit, speaker label) pairs: the lines about ``words`` dated from
# ``after_day`` on.
Probe = Callable[[str, str], list[tuple[Hit, str]]]
# read(texts) -> their statements, in order (read_statement's, maybe kept from an earlier turn).
Reader = Callable[[Sequence[str]], Sequence["Statement"]]

_NOW = LazyPattern(
    r"\b(?:now|currently|current|still|these\s+days|nowadays|at\s+the\s+moment|at\s+present"
    r"|any\s?more|jetzt|aktuell|derzeit|zurzeit|maintenant|actuellement|d[ée]sormais|ahora"
    r"|actualmente|todav[ií]a)\b"
    # our plans as they stand: "what are we doing over spring break?", "what's the plan for …"
    r"|\b(?:what|where|when|how)\s+(?:are|'re)\s+we\s+(?:doing|going|having|staying|getting)\b"
    r"|\bwhat(?:'s|’s|\s+is)\s+(?:the|our)\s+plan\b",
    re.IGNORECASE,
)
# A question about a state in the past: what something was, not what someone did (an event is
# often told in a later note: "what did Gina do on May 23" is answered on May 24).
_PAST = LazyPattern(
    r"\b(?:was|were|used\s+to|back\s+(?:in|then)|at\s+the\s+time|as\s+of|war|waren"
    r"|[ée]tait|era|estaba)\b",
    re.IGNORECASE,
)
# Words a line that changes an earlier one tends to hold (the fact model has the full rules).
_CUES = frozenset(
    """
    moved move moves switched switch changed change rescheduled shifted swapped migrated
    upgraded now longer anymore stopped quit instead rather not actually correction corrected
    wrong reversed reverted back cancelled canceled called dropped scrapped abandoned shelved
    off raised increased reduced lowered cut extended renamed updated new jetzt nicht mehr
    statt anstatt eigentlich korrektur abgesagt verschoben gewechselt désormais maintenant
    plus annulé ahora ya vez lugar cancelado cambió
    """.split()
)
_WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays"
    " thursdays fridays saturdays sundays".split()
)
_MONTHS = frozenset(
    "january february march april may june july august september october november december".split()
)
_SOURCE = LazyPattern(
    r"\s*\((?:chat\s+)?[\w./-]*\d{4}-\d{2}-\d{2}[\w./-]*#L\d+(?:-L?\d+)?(?:;[^()]*)?\)\s*$"
)
_FROM_TO = LazyPattern(r"\bfrom\b[^.;]{1,60}?\bto\b", re.IGNORECASE)
_TRANSCRIPT = LazyPattern(r"^\s*\[[^\]\s]+#L\d+\]\s+(?:(?P<who>Guest|Assistant to guest)|\w+):\s*")
_LIST = LazyPattern(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_FIRST_PERSON = frozenset({"we", "i", "me", "my", "our", "us"})
_PROBED = 3  # the best hits whose later lines a "now" question looks for
# For a "now" question the newest of the first lines gains this much over the oldest (the best
# line's value being 1): what was said last about a thing is likelier what is true now. Set,
# not fitted: LoCoMo asks almost nothing about the present.
NOW_RECENCY = 0.25


def tense_of(question: str, window: DayWindow | None, today: date) -> str | None:
    """``now`` for a question about the present, ``past`` for one about a state in a window of
    days that has ended ("what was true in October", "what was Jo currently doing in June"),
    else ``None``."""
    ended = window is not None and window.last < today
    if _NOW.search(question):
        return "past" if ended else "now"  # "what was Jo currently doing in June 2023"
    if ended and _PAST.search(question):
        return "past"
    return None


def _content(text: str) -> frozenset[str]:
    return frozenset(word for word in stems(text) if word not in STOP_WORDS and len(word) > 1)


def _valued(text: str) -> frozenset[str]:
    """The kinds of value a line gives: weekday, month, number."""
    found = set()
    folded = set(words(text))
    if folded & _WEEKDAYS:
        found.add("day")
    if folded & _MONTHS:
        found.add("month")
    if any(char.isdigit() for char in text):
        found.add("num")
    return frozenset(found)


def _plausible(hits: Sequence[Hit], same: Sequence[int]) -> bool:
    """True when two of ``hits`` that are not the same words (``same[i]``: the first hit with
    ``hits[i]``'s words) could be one fact, or one a change of the other (see the module rules):
    only then is the fact model worth loading."""
    content = [_content(_claim(hit.snippet)) for hit in hits]
    valued = [_valued(hit.snippet) for hit in hits]
    for j, later in enumerate(hits):
        for i in range(j):
            a, b = content[i], content[j]
            shared = len(a & b)
            if same[i] == same[j] or not shared:
                continue
            if shared / len(a | b) >= 0.5:
                return True  # a paraphrase, maybe
            earlier = hits[i]
            if earlier.day is None or later.day is None or earlier.day == later.day:
                continue
            newer = later if later.day > earlier.day else earlier
            if not _CUES.isdisjoint(words(newer.snippet)) or _FROM_TO.search(newer.snippet):
                return True  # a change, maybe
            if shared >= 2 and valued[i] & valued[j]:
                return True  # another value of one slot, maybe
    return False


def _same_words(hits: Sequence[Hit]) -> list[int]:
    """For each hit, the first hit whose claim has the very same words (itself, mostly)."""
    first: dict[str, int] = {}
    return [first.setdefault(" ".join(words(_claim(hit.snippet))), i) for i, hit in enumerate(hits)]


def _claim(snippet: str) -> str:
    """The words of a line that state its fact: no list marker, transcript prefix or visible
    ``(2026-11-20.md#L4)`` source."""
    text = _TRANSCRIPT.sub("", _LIST.sub("", snippet, count=1), count=1)
    return _SOURCE.sub("", text)


def _said(hit: Hit, speaker: str) -> tuple[str, str]:
    """The words of ``hit`` to read as a statement, and who says them (a speaker's "I" is the
    speaker)."""
    text = _claim(hit.snippet)
    transcript = _TRANSCRIPT.match(_LIST.sub("", hit.snippet, count=1))
    if transcript is not None:  # the person and their agent are one "we"; a guest is not
        speaker = "guest" if transcript.group("who") else ""
    if speaker and text.startswith(f"{speaker}:"):
        text = text[len(speaker) + 1 :].lstrip()
    return text, speaker


def _statements(pairs: Sequence[tuple[Hit, str]], read: Reader | None) -> list[Statement]:
    """The hits (with their speaker labels) read as statements, by ``read`` when given."""
    said = [_said(hit, speaker) for hit, speaker in pairs]
    if read is None:
        from dreamd.engine.facts.statement import read_statement

        statements = [read_statement(text) for text, _ in said]
    else:
        statements = list(read([text for text, _ in said]))
    return [
        _as_speaker(statement, speaker)
        for statement, (_, speaker) in zip(statements, said, strict=True)
    ]


def _as_speaker(statement: Statement, speaker: str) -> Statement:
    if speaker and statement.subject in (*_FIRST_PERSON, None):
        first = stems(speaker)[:1]
        return statement.replace(subject=first[0] if first else speaker.lower())
    return statement


def _keys(statement: Statement) -> frozenset[str]:
    """What two related statements share at least one of."""
    keys = {f"t:{word}" for word in statement.topic}
    keys.update(f"v:{value}" for value in statement.values if value.startswith(("name:", "id:")))
    if statement.subject and statement.subject != "we":
        keys.add(f"v:name:{statement.subject}")
    return frozenset(keys)


def _probe_words(statement: Statement) -> str:
    """What a later line about the same slot would name: the subject, the topic, the names."""
    names = sorted(value.split(":", 1)[1] for value in statement.values if value[:5] == "name:")
    parts = dict.fromkeys([statement.subject or "", *sorted(statement.topic), *names])
    return " ".join(part for part in parts if part and part != "we")


class _Chains:
    """Which hit speaks for which (one fact) and which replaced which (the timeline)."""

    def __init__(self, size: int) -> None:
        self.group = list(range(size))  # the hit that speaks for those stating the same fact
        self.ended: dict[int, tuple[int, str]] = {}  # hit -> (the hit that replaced it, day)
        self.rest: dict[int, str] = {}  # a hit replaced in part -> what still holds of it

    def head(self, index: int) -> int:
        """The newest line of ``index``'s chain, as the hit that speaks for it."""
        seen = set()
        while index in self.ended and index not in seen:
            seen.add(index)
            index = self.group[self.ended[index][0]]
        return self.group[index]


def one_per_fact(
    hits: Sequence[Hit],
    speakers: Sequence[str],
    *,
    question: str,
    window: DayWindow | None,
    today: date,
    limit: int,
    probe: Probe | None = None,
    read: Reader | None = None,
) -> list[Hit]:
    """At most ``limit`` results made of ``hits`` (best first; ``speakers[i]`` is the speaker
    label of ``hits[i]``'s line, or ``""``), one per fact, current first (see the module
    rules). ``read`` reads lines as statements (default: the fact model, line by line)."""
    tense = tense_of(question, window, today)
    pool = list(hits[: max(2 * limit, limit + 10)])
    told = list(speakers[: len(pool)])
    same = _same_words(pool)  # the same words said again: one fact, no model needed
    if not tense and not _plausible(pool, same):
        chains = _Chains(len(pool))
        chains.group = list(same)
        if window is None:  # "in May 2023": the May line speaks
            _newest_speaks(pool, chains, len(pool))
        return _assemble(pool, len(pool), chains, cutoff=None, newest=None, limit=limit)
    from dreamd.engine.facts.relations import same_fact
    from dreamd.engine.facts.timeline import Dated, plan_timeline

    statements = _statements(list(zip(pool, told, strict=True)), read)
    found = len(pool)
    if tense == "now" and probe is not None:
        extras: list[tuple[Hit, str]] = []
        known = {(hit.path, hit.start_line) for hit in pool}
        for hit, statement in list(zip(pool, statements, strict=True))[:_PROBED]:
            terms = _probe_words(statement)
            if hit.day is None or not terms:
                continue
            for extra, speaker in probe(terms, hit.day):
                if (extra.path, extra.start_line) not in known:
                    extras.append((extra, speaker))
                    known.add((extra.path, extra.start_line))
        pool.extend(extra for extra, _ in extras)
        statements.extend(_statements(extras, read))
    chains = _Chains(len(pool))
    # A question states nothing; a line of other extent (a short sentence, a paragraph that
    # mentions it among much else) is not the same statement.
    stated = [_states(_claim(hit.snippet)) for hit in pool]
    keys = [_keys(statement) for statement in statements]
    sizes = [len(statement.topic | statement.values) for statement in statements]
    for j in range(1, found):
        if same[j] != j:
            chains.group[j] = chains.group[same[j]]
            continue
        for i in range(j):
            related = stated[i] and stated[j] and chains.group[i] == i and keys[i] & keys[j]
            extent = min(sizes[i], sizes[j]) >= max(sizes[i], sizes[j]) / 2
            if related and extent and same_fact(statements[i], statements[j]):
                chains.group[j] = i
                break
    if window is None:
        _newest_speaks(pool, chains, found, same=same, best_ranked=tense != "now")
    cutoff = window.last.isoformat() if tense == "past" and window is not None else None
    dated = [
        Dated(str(i), hit.day, statements[i], hit.start_line)
        for i, hit in enumerate(pool)
        if hit.day is not None and stated[i] and (cutoff is None or hit.day <= cutoff)
    ]
    timeline = plan_timeline(dated)
    for ref, ending in timeline.ended.items():
        chains.ended[int(ref)] = (int(ending.by), ending.day)
    chains.rest = _remains(pool, chains, found)
    newest = _newest(pool, found) if tense == "now" else None
    if newest is not None and not _YES_NO.match(question):
        own, recent = newest
        for index in range(found):
            if _only_ends(statements[index]):  # "no more orders from Wendler" says who not
                own[index] -= NOW_RECENCY
                recent[index] = 0.0
    return _assemble(pool, found, chains, cutoff=cutoff, newest=newest, limit=limit)


# A question answered yes or no ("Do we still order from Wendler?"): a denial answers it.
_YES_NO = LazyPattern(
    r"^\s*(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would|should|shall)\b",
    re.IGNORECASE,
)


# A question asked for someone else: "Bastien asks what the Rang 9 cave should read".
_REPORTED_QUESTION = LazyPattern(
    r"\b(?:asks?|asked|asking|wonders?|wondered|wants\s+to\s+know)\s+(?:me\s+)?"
    r"(?:what|whether|if|when|who|how|which|where|why)\b",
    re.IGNORECASE,
)


def _states(claim: str) -> bool:
    """A line that states something: not a question, asked or reported."""
    return not claim.rstrip().endswith(("?", "？")) and not _REPORTED_QUESTION.search(claim)


def _newest_speaks(
    pool: Sequence[Hit],
    chains: _Chains,
    found: int,
    *,
    same: Sequence[int] = (),
    best_ranked: bool = False,
) -> None:
    """Of the hits that state one fact, all dated, the newest speaks (in the words it was said
    last: a name spelled right from 12 June on), at the best place of them all; on one day,
    the best-ranked. With ``best_ranked`` (a question that does not ask what holds now), of
    lines in other words (``same``: the same-words groups) that spell no name two ways, the
    best-ranked speaks: "Jua Power solar kit for the shop, KSh 68,000" answers what the kit
    cost, "Jua Power kit installed on 11 June" does not. A person's own line (no day) speaks
    for the notes that repeat it."""
    members: dict[int, list[int]] = {}
    for index in range(found):
        members.setdefault(chains.group[index], []).append(index)
    for group in members.values():
        if len(group) < 2 or any(pool[i].day is None for i in group):
            continue
        speaker = max(group, key=lambda i: (pool[i].day or "", -i))
        worded = len({same[i] for i in group}) > 1 if same else False
        if best_ranked and worded and _names_agree([pool[i].snippet for i in group]):
            speaker = min(group)
        for index in group:
            chains.group[index] = speaker


def _names_agree(texts: Sequence[str]) -> bool:
    """No two lines spell one name two ways ("Jacinta Odera", "Jacinta Odero"): the names are
    the capitalised words of the lines as written."""
    every = {
        word.removesuffix("'s").removesuffix("’s")
        for text in texts
        for word in _CAPITALISED_WORD.findall(text)
    }
    return not any(a < b and _spelled_alike(a, b) for a in every for b in every)


_CAPITALISED_WORD = LazyPattern(r"\b[A-ZÀ-ÖØ-Þ][\w'’-]{3,}")


def _spelled_alike(a: str, b: str) -> bool:
    """Two names a letter or two apart ("Odera" and "Odero", "Lindqvist" and "Lindquist"),
    not two short words. Compared in place, or with one letter left out; nothing is imported,
    as a recall on every turn must not load a fuzzy-matching library for it."""
    a, b = a.casefold(), b.casefold()
    if a == b or min(len(a), len(b)) < 5:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 2
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return len(long) - len(short) == 1 and any(
        long[:k] + long[k + 1 :] == short for k in range(len(long))
    )


def _only_ends(statement: Statement) -> bool:
    """A line that says what no longer holds and nothing that does: for "who / where / when …
    now", it answers less than the line that gives the current value."""
    ending = statement.polarity < 0 or statement.change in ("cancelled", "no-longer")
    return ending and not statement.taken


def _remains(pool: Sequence[Hit], chains: _Chains, found: int) -> dict[int, str]:
    """The hits a newer line replaced in part: a line of several clauses or sentences
    ("conductor Lars Mjelde; rehearses Mondays at Skeie; fee 1,900 kr") of which the newer
    changes one. Hit -> the words of the clauses nothing in the newer line touches."""
    from dreamd.engine.facts.parts import remaining_text, statements_of
    from dreamd.engine.facts.relations import untouched

    rest: dict[int, str] = {}
    for index, (by, _) in chains.ended.items():
        if index >= found:
            continue
        text = _claim(pool[index].snippet)
        mine = statements_of(text)
        if len(mine) < 2:
            continue
        left = remaining_text(text, untouched(statements_of(_claim(pool[by].snippet)), mine))
        if left is not None:
            rest[index] = left
    return rest


def _newest(pool: Sequence[Hit], found: int) -> tuple[list[float], list[float]]:
    """For a "now" question: each line's value (its second-stage sum over the best one's, or its
    place when it has none) and how recent its day is among the lines' days (oldest 0, newest 1;
    undated 0)."""
    values = [dict(hit.why).get("rerank") for hit in pool[:found]]
    best = max((v for v in values if v is not None), default=0.0)
    own = [
        value / best if value is not None and best > 0 else 1 - index / max(1, found)
        for index, value in enumerate(values)
    ]
    days = [date.fromisoformat(hit.day).toordinal() if hit.day else None for hit in pool]
    known = [day for day in days if day is not None]
    low, span = min(known, default=0), max(known, default=0) - min(known, default=0)
    recent = [(day - low) / span if span and day is not None else 0.0 for day in days]
    return own, recent


def _assemble(
    pool: list[Hit],
    found: int,
    chains: _Chains,
    *,
    cutoff: str | None,
    newest: tuple[list[float], list[float]] | None,
    limit: int,
) -> list[Hit]:
    """The results: each chain's head at the best place of its lines, with what it speaks for;
    for a "now" question, by the best value of its lines plus its own recency."""
    place: dict[int, int] = {}  # head -> the best rank among the lines it speaks for
    members: dict[int, list[int]] = {}
    for index in range(found):
        head = chains.head(index)
        place.setdefault(head, index)
        members.setdefault(head, []).append(index)
    rests = [i for i in sorted(chains.rest) if i not in place]  # each also its own result
    later = [h for h in (*place, *rests) if cutoff is not None and (pool[h].day or "") > cutoff]
    if newest is not None:
        own, recent = newest
        value = {h: max(own[i] for i in members[h]) + NOW_RECENCY * recent[h] for h in place}
        value.update({i: own[i] + NOW_RECENCY * recent[i] for i in rests})
        order = sorted((*place, *rests), key=lambda h: (-value[h], place.get(h, h), h))
    else:
        order = sorted((*place, *rests), key=lambda h: (h in later, place.get(h, h), h))
    results = []
    for head in order[:limit]:
        if head not in place:  # what still holds of a line replaced in part
            results.append(pool[head].replace(snippet=chains.rest[head]))
            continue
        also: list[Hit] = []
        was: list[Earlier] = []
        for index in members[head]:
            if index == head:
                continue
            hit = pool[index]
            if index in chains.ended or chains.head(index) != chains.group[index]:
                ending = chains.ended.get(index) or chains.ended.get(chains.group[index])
                until = ending[1] if ending else (pool[head].day or "")
                was.append(Earlier(hit.snippet, hit.source, hit.day, until))
            else:
                also.append(hit)
        was.sort(key=lambda earlier: earlier.until, reverse=True)  # the latest change first
        results.append(pool[head].replace(also=tuple(also), was=tuple(was)))
    return results
