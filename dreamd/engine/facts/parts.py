"""A line of memory as its facts: one statement per sentence, the lasting ones picked out.

A daily note's bullet often carries a fact among what happened: "Phoned Karin at 11:15 about
Gondel. She likes sorting term questions on the phone." Read whole, its values and topic mix two
things, and written whole into MEMORY.md it brings the call along. So a line is read sentence by
sentence (:func:`dreamd.engine.text.sentences.sentences`, after
:func:`dreamd.engine.facts.render.fact_text`), and a sentence that opens with a pronoun (she,
he, they, her, his) speaks of the name the sentences before it were about: "Karin likes sorting
term questions on the phone." The name a line opens with as its heading ("Aoife Byrne:
reviewer. Needs the batch by Wednesday.") is the subject of its later sentences too, and a
sentence that points back without a topic of its own ("Moved to Thursday morning.", "the Monday
19 May one is the last") speaks of the topic of the sentence before it (:func:`carried`).

:func:`lasting_text` gives what MEMORY.md keeps of a line: its lasting sentences
(:mod:`dreamd.engine.facts.lasting`), at most :data:`MAX_SENTENCES`, in their order; the whole
line when no sentence lasts on its own (the line as a whole may still); a sentence whose fact
MEMORY.md already holds is left out when another one remains, and one that says "there" of a
place keeps the sentence before it that names the place. :func:`lasting_line` judges a
line of several sentences by them: read whole, "He noticed because the breeds were wrong.
Second time with the two Dunnes." mixes a correction word with values of another sentence; a
line lasts when one of its sentences does, and only then. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence, Set

from dreamd.engine.facts.render import fact_text
from dreamd.engine.facts.statement import CUE_HEADS, RETAIN, Statement, read_statement
from dreamd.engine.text.sentences import sentences
from dreamd.engine.text.snippets import collapse

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:  # the lasting rules are imported where used: recall reads parts without them
    from dreamd.engine.facts.lasting import Lasting

__all__ = [
    "MAX_SENTENCES",
    "as_speaker",
    "carried",
    "ends_only",
    "fact_parts",
    "in_first_person",
    "lasting_line",
    "lasting_text",
    "mentioned",
    "remaining_text",
    "speaker_names",
    "statements_of",
]

MAX_SENTENCES = 2
MAX_SNIPPET = 280  # a chunk's snippet is cut at this many characters
_MENTION = re.compile(r"@([^\W\d_][\w'-]*)")
# A name heading: up to four words, each capitalised in any script ("Tadhg Ó Broin:").
_HEAD = re.compile(r"^([^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,3}):\s")
_SEMICOLON = re.compile(r";\s+")
_CLAUSE_HEAD = re.compile(r"^([^:;.]{1,48}?):\s+\S")
_PRONOUN = re.compile(r"^(she|he|they|her|his|their)\b(?:'s)?\s*", re.IGNORECASE)


def fact_parts(text: str, *, clauses: bool = False) -> list[str]:
    """The sentences of ``text`` as facts, a leading pronoun given the name before it;
    ``clauses``: a sentence's clauses joined by a semicolon are facts of their own."""
    whole = fact_text(text)
    parts = sentences(whole) or ([whole] if whole else [])
    cut = len(collapse(text)) >= MAX_SNIPPET - 2 and not collapse(text).endswith((".", "!", "?"))
    if cut and len(parts) > 1:
        parts = parts[:-1]  # a line cut at the snippet's length: its last sentence is half
    if clauses:
        parts = [clause for part in parts for clause in _clauses(part)]
    head = _HEAD.match(parts[0]) if parts else None
    if head is not None and (
        head.group(1).casefold() in CUE_HEADS
        or not all(word[0].isupper() for word in head.group(1).split())
    ):
        head = None
    out: list[str] = []
    name: str | None = None
    for index, part in enumerate(parts):
        if head is not None and index and head.group(1).split()[0] not in part:
            part = f"{head.group(1)}: {part}"  # "Aoife Byrne: ... Needs the batch by noon."
        found = _PRONOUN.match(part)
        if found and name is not None:
            possessive = found.group(1).lower() in ("her", "his", "their")
            owner = name + "'s" if possessive else name
            part = f"{owner} {part[found.end() :]}"
        statement = read_statement(part)
        named = statement.subject and f"name:{statement.subject}" in statement.values
        if named and statement.subject is not None:
            name = statement.subject[:1].upper() + statement.subject[1:]
        out.append(part)
    return out


def _clauses(sentence: str) -> list[str]:
    """ "Training Saturdays 10:00 on the pitch; Mick coaches the goalkeepers" as its two
    clauses, when each has three words or more (else the sentence whole)."""
    found = [clause.strip() for clause in _SEMICOLON.split(sentence)]
    if len(found) < 2 or any(len(clause.split()) < 3 for clause in found):
        return [sentence]
    lead = _CLAUSE_HEAD.match(found[0])  # "Bloco do Beato: batucada group; Sala 1 on …"
    head = lead.group(1) if lead else ""
    if not head[:1].isupper() or len(head.split()) > 5 or head.casefold() in CUE_HEADS:
        return found
    return [found[0], *(f"{head}: {clause}" for clause in found[1:])]


def mentioned(text: str) -> frozenset[str]:
    """The folded names ``text`` tags with ``@``, and the lowercase words of a Retain bullet's
    entity ("W @Stigbergets församlingshem: …" names the hall by both words; a capitalised
    word such as the "Lime" of "Stone & Lime" is a name where it is capitalised, and "buying
    lime" stays about lime)."""
    names = {m.casefold() for m in _MENTION.findall(text)}
    retain = RETAIN.match(collapse(text))
    if retain is not None and retain.group("entity"):
        words = retain.group("entity").split()[1:]
        names.update(w.casefold() for w in words if w[:1].islower() and w.isalpha())
    return frozenset(names)


_SELF_NAMED = re.compile(
    r"(?:^|[\s(\"'])(?:I'm|I’m|I am|[Mm]y name is|[Mm]y name's)\s+"
    r"([^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?)"
)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|I'd|I’d|[Mm]y|[Mm]e|[Mm]ine)\b")


def speaker_names(lines: Sequence[str]) -> tuple[str, ...]:
    """The folded names of whoever writes ``lines`` in the first person, in order, from the
    first line that introduces them ("I'm Solveig Brekke, 47.", "My name is Ana Duarte");
    capitalised words only, so "I'm the treasurer" names no one."""
    for line in lines:
        found = _SELF_NAMED.search(line)
        if found is None:
            continue
        words = [w for w in found.group(1).split() if w[:1].isupper()]
        if words and words == found.group(1).split()[: len(words)]:
            return tuple(word.casefold() for word in words)
    return ()


def as_speaker(statements: Sequence[Statement], names: Sequence[str]) -> list[Statement]:
    """``statements`` of a line written in the first person by the one ``names`` names: what
    speaks of "I" or of no one ("Harbour crane operator at Leixões" after "My name is Ana
    Duarte.") speaks of them, so it is not anyone else's fact."""
    if not names:
        return list(statements)
    me = names[0]
    values = frozenset(f"name:{name}" for name in names)
    return [
        s.replace(subject=me, values=s.values | values) if _of_speaker(s) else s for s in statements
    ]


def _of_speaker(statement: Statement) -> bool:
    """Whether a statement of a first-person line speaks of the writer: it names "I" or no
    one, or it is a fragment whose subject was only a name further on ("Crane operator with
    APDL at Leixões"), not "Ricardo is …", "the Braga ferry …" or "my brother Ricardo …"."""
    if statement.subject in (None, "we"):
        return True
    text = statement.text.casefold()
    at = text.find(statement.subject or "")
    before = text[:at].split() if at > 0 else []
    if not before or before[0] in _ARTICLES:
        return False
    return not _FIRST_PERSON.search(statement.text[:at])


_ARTICLES = frozenset({"the", "a", "an", "our", "their", "his", "her"})


def in_first_person(text: str) -> bool:
    """Whether ``text`` speaks as "I" ("I ring her every Sunday", "my mother")."""
    return _FIRST_PERSON.search(text) is not None


def statements_of(text: str, *, known: Set[str] = frozenset()) -> list[Statement]:
    """One statement per sentence or clause of ``text`` (:func:`fact_parts`); names it tags
    with ``@`` count as names wherever they stand."""
    names = known | mentioned(text)
    return carried([read_statement(part, known=names) for part in fact_parts(text, clauses=True)])


def carried(statements: Sequence[Statement]) -> list[Statement]:
    """``statements`` of one line, in order, where a sentence that names no topic of its own
    and points back (a change with nothing named to change: "Moved to Thursday morning."; "the
    Monday 19 May one", "it", "that") speaks of the topic of the sentence before it about the
    same subject ("Three slots I should never have offered."; "the weekly team meeting will be
    on Thursdays"), not of whatever else its heading covers. A clause that gives another
    attribute ("crane operator …; four nights on, four off") keeps its own."""
    found: list[Statement] = []
    topic: frozenset[str] = frozenset()
    subject: str | None = None
    for statement in statements:
        own = statement.topic - _heading_words(statement.heading)  # "Office:" is no topic
        if own:
            topic, subject = statement.topic, statement.subject
        elif topic and statement.subject == subject and _points_back(statement):
            statement = statement.replace(topic=statement.topic | topic)
        found.append(statement)
    return found


def _heading_words(heading: str | None) -> frozenset[str]:
    if not heading:
        return frozenset()
    words = {word.casefold() for word in _WORD.findall(heading)}
    return frozenset(words | {word.removesuffix("s") for word in words})


_WORD = re.compile(r"[^\W\d_][\w'-]*")


_BACK = re.compile(r"^(?:it|that|this)\b|\b(?:the|this|that) (?:[\w-]+ ){0,3}one\b", re.IGNORECASE)


def _points_back(statement: Statement) -> bool:
    valued = any(not value.startswith("name:") for value in statement.values)
    return valued and (statement.change is not None or _BACK.search(statement.text) is not None)


def lasting_text(text: str, *, known: Callable[[Statement], bool] | None = None) -> str:
    """What MEMORY.md keeps of ``text`` (see the module rules); ``known`` tells a sentence whose
    fact MEMORY.md already holds, which is left out when another sentence remains."""
    parts = fact_parts(text)
    if len(parts) <= 1:
        return parts[0] if parts else fact_text(text)
    from dreamd.engine.facts.lasting import lasting

    kept = [part for part in parts if lasting(part).durable]
    if known is not None:
        kept = [part for part in kept if not known(read_statement(part))] or kept
    kept = _with_place(parts, kept)[:MAX_SENTENCES]
    return _joined(kept) if kept else _joined(parts)


# "The crew meets there now": a place named by the sentence before ("there" of a place, not
# "there is", "there are").
_THERE = re.compile(
    r"\bthere\b(?!\s+(?:is|are|was|were|will|would|has|have|had|isn't|aren't|wasn't|weren't|'s|"
    r"must|may|might|can|could|should|seems?|used)\b)",
    re.IGNORECASE,
)


def _with_place(parts: list[str], kept: list[str]) -> list[str]:
    """``kept`` with the sentence before each one that says "there" of a place, where that
    sentence was left out: "First morning at the new base in the Parque Industrial. The crew
    meets there now" keeps both, or "there" names nowhere."""
    found: list[str] = []
    for part in kept:
        at = parts.index(part)
        if at and _THERE.search(part) and parts[at - 1] not in kept + found:
            found.append(parts[at - 1])
        found.append(part)
    return found


def _joined(parts: list[str]) -> str:
    """Sentences joined, a heading the previous one gave said once: "Morag Isbister: second
    engineer on the Skelwick. Works seven on, seven off." """
    said: list[str] = []
    last = ""
    for part in parts:
        found = _CLAUSE_HEAD.match(part)
        head = part[: found.end(1) + 1] if found else ""
        if head and head == last:
            part = part[len(head) :].lstrip()
            part = part[:1].upper() + part[1:]
        said.append(part)
        last = head or last
    return " ".join(said)


def remaining_text(text: str, standing: Sequence[bool]) -> str | None:
    """What ``text`` still says when only some of its statements hold (``standing``: one flag
    per statement of :func:`statements_of`, true where nothing replaced it): those sentences
    and clauses, a heading said once, clauses joined by semicolons. ``None`` when every one or
    none of them stands (the line is kept or ends whole), when ``standing`` does not fit, or
    when what stands cannot stand alone: only the facts of a record under a name's heading are
    kept apart ("Eirik Haugland: …; conductor Lars Mjelde"), never a clause that names no one
    ("closed on Sundays"), a sentence of a story, what someone said, or only what no longer
    holds."""
    parts = fact_parts(text, clauses=True)
    if len(parts) != len(standing) or all(standing) or not any(standing):
        return None
    kept = [part for part, holds in zip(parts, standing, strict=True) if holds]
    if not all(_headed(part) for part in kept):
        return None  # "closed on Sundays." or "The room takes 25." alone says nothing lasting
    if any(ends_only(read_statement(part)) for part in kept):
        return None  # "Brian no longer takes the van" without what took its place
    out = ""
    last = ""
    for part in kept:
        found = _CLAUSE_HEAD.match(part)
        head = part[: found.end(1) + 1] if found else ""
        if out and head and head == last:
            part = part[len(head) :].lstrip()
        last = head or last
        if not out:
            out = part
        elif out.endswith((".", "!", "?")):
            out += " " + part[:1].upper() + part[1:]
        else:
            out += "; " + part
    out = out.rstrip(" ;,:")
    return out if out.endswith((".", "!", "?")) else out + "."


def _headed(part: str) -> bool:
    """A fact of a record about someone or something named: "Eirik Haugland: conductor Lars
    Mjelde" (the name's heading of a line of several facts), not a sentence of a story, a
    clause that names no one, or what someone said ("Eirik: "Tuesday is fine"")."""
    found = _CLAUSE_HEAD.match(part)
    if found is None:
        return False
    head = found.group(1)
    body = part[found.end(1) + 1 :].lstrip()
    quoted = body[:1] in "\"'“‘«„"
    named = all(word[:1].isupper() for word in head.split())  # not "New rota:" or "Decided:"
    return named and len(head.split()) <= 5 and not quoted and head.casefold() not in CUE_HEADS


def ends_only(statement: Statement) -> bool:
    """It says what no longer holds: a denial, "no longer", a cancellation or a reversal."""
    return statement.polarity < 0 or statement.change in ("no-longer", "cancelled", "reversed")


def lasting_line(text: str, statement: Statement | None = None) -> Lasting:
    """Whether the line ``text`` lasts, judged by its sentences when it holds several: it
    lasts when one of them does (its verdict read whole, or that sentence's), and not when none
    does (the first sentence's reason). One sentence is read whole (``statement``: the line
    read whole, when the caller has it)."""
    from dreamd.engine.facts.lasting import lasting

    said = fact_text(text)  # "[main/main#L5] User: Remind me …" is read as what was said
    whole = lasting(said, statement or read_statement(said))
    parts = fact_parts(text)
    if len(parts) < 2 or whole.kind == "order seen":
        return whole  # what the agent did about a hidden order is no rule either
    verdicts = [lasting(part) for part in parts]
    durable = [v for v in verdicts if v.durable]
    if durable:
        return whole if whole.durable else durable[0]  # lasting_text keeps that sentence
    return verdicts[0] if whole.durable else whole
