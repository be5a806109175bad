"""Grading a lived month against its answer key: pure functions over the workspace's texts.

``bench/month.py`` lives the month and reads the files; everything here takes texts and returns
figures and the items that failed, so a grade can be checked on strings. The rules are
``docs/month-benchmark.md``'s "Grading"; what dreamd writes is read leniently, so a change of
format in an entry line does not change the grade:

* a ``MEMORY.md`` entry is a line that states something: HTML comments, ``[score=…]`` metadata,
  a ``Source: path#Lx-Ly`` tail and the list marker are taken off. The line(s) after a
  ``<!-- dreamd-memory-promotion:… -->`` (or ``-lineage:``, or OpenClaw's) marker, up to a blank
  line, a heading or the next marker, are one *generated* entry; every other entry is the
  person's;
* an opinion in ``bank/opinions.md`` is a list item with a ``(c=0.62 …)`` confidence;
* a diary entry in ``DREAMS.md`` is a chunk between ``---`` rules inside the diary block.

Every regular expression of a key is matched case-insensitively with ``re.search``; a list of
them matches a text when each one does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

__all__ = [
    "DERIVED",
    "Entry",
    "Hit",
    "check_key",
    "clean",
    "diary_entries",
    "grade_diary",
    "grade_entities",
    "grade_injections",
    "grade_memory",
    "grade_opinions",
    "grade_patterns",
    "grade_question",
    "is_derived",
    "is_present",
    "keyword_list",
    "matches",
    "memory_entries",
    "old_opinion_confidences",
    "opinion_items",
]

DERIVED = (
    "memory/dreaming/",
    "memory/dreams/",
    "memory/topics/",
    "memory/patterns/",
    "memory/graph/",
    "DREAMS.md",
    "memory/dream-log.md",
)
TOP = 5

_FENCE = re.compile(r"^\s*(```|~~~)")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_MARKER = re.compile(
    r"<!--\s*(?:dreamd|openclaw)-memory-(?:promotion|lineage)\s*:?\s*(.*?)\s*-->", re.DOTALL
)
_METADATA = re.compile(r"\s*\[(?:score|confidence)=[^\]]*\]")
_SOURCE = re.compile(r"\s*Source:\s*\S+#L\d+(?:-L?\d+)?")
_LIST = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
# "(2034-09-29.md#L8; replaces: Gonzalo Paz: head coach …)": what an entry replaced, named as
# gone; the entry does not state it
_REPLACED = re.compile(r";\s*replaces:.*\)\s*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(?:\s|$)")
_CONFIDENCE = re.compile(r"\(\s*c\s*=\s*([01](?:\.\d+)?)")
_DIARY_START = re.compile(r"<!--\s*dreamd:dreaming:diary:start\s*-->")
_DIARY_END = re.compile(r"<!--\s*dreamd:dreaming:diary:end\s*-->")
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_DATE_LINE = re.compile(r"^\s*[*_]{1,2}[^*_]+[*_]{1,2}\s*$")
_WORD = r"[\w'’-]+(?:\.[\w'’-]+)*"  # "db-02", "v1.2"; never a full stop
# three or more bare words joined by commas and "and", ending a sentence: "db-02, work and
# decision." (a diary that names the night's keywords instead of saying something)
_KEYWORD_RUN = re.compile(
    rf"(?<![\w'’-])({_WORD}(?:, {_WORD}){{1,}},? and {_WORD})(?=\s*(?:[.!?;:]|$))"
)
_ARTICLES = frozenset({"a", "an", "the", "my", "our", "his", "her", "their", "its", "some"})


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def matches(patterns: Sequence[str], text: str) -> bool:
    """Whether every regular expression of ``patterns`` is found in ``text`` (never for [])."""
    return bool(patterns) and all(_compiled(p).search(text) for p in patterns)


def clean(text: str) -> str:
    """``text`` without HTML comments, ``[score=…]`` metadata, a ``Source:`` tail, the words
    of what it replaced in its source label or a list marker, whitespace collapsed."""
    text = _COMMENT.sub(" ", text)
    text = _REPLACED.sub(")", text)
    text = _METADATA.sub("", text)
    text = _SOURCE.sub("", text)
    text = _LIST.sub("", text, count=1)
    return " ".join(text.split())


# --- the key -------------------------------------------------------------------------------

_LISTS = {
    "durable": ("id", "fact", "match"),
    "changed": ("id", "old", "old_match", "new_id", "changed_on"),
    "acceptable": ("id", "fact", "match"),
    "questions": ("q", "at", "kind", "answer"),
    "opinions": ("id", "entity", "old", "old_match", "new", "new_match"),
    "patterns": ("id", "what", "days", "match"),
    "entities": ("name", "current_match"),
}
_REGEX_FIELDS = (
    "match",
    "old_match",
    "new_match",
    "answer",
    "stale",
    "current_match",
    "not_current",
)
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


def check_key(key: Any) -> list[str]:
    """What is wrong with an answer key (empty when nothing is): missing fields, regular
    expressions that do not compile, a ``new_id`` that names no durable fact, a bad day."""
    if not isinstance(key, dict):
        return ["the key is not a JSON object"]
    problems: list[str] = []
    for name, required in _LISTS.items():
        items = key.get(name)
        if not isinstance(items, list):
            problems.append(f"{name}: expected a list")
            continue
        for index, item in enumerate(items):
            where = f"{name}[{index}]"
            if not isinstance(item, dict):
                problems.append(f"{where}: expected an object")
                continue
            problems.extend(f"{where}: missing {f!r}" for f in required if f not in item)
            for regex_field in _REGEX_FIELDS:
                patterns = item.get(regex_field, [])
                if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
                    problems.append(f"{where}.{regex_field}: expected a list of strings")
                    continue
                for pattern in patterns:
                    try:
                        _compiled(pattern)
                    except re.error as exc:
                        problems.append(
                            f"{where}.{regex_field}: {pattern!r} does not compile: {exc}"
                        )
    for name in ("not_entities", "injections", "junk_examples"):
        if not isinstance(key.get(name), list):
            problems.append(f"{name}: expected a list")
    for pattern in key.get("injections") or []:
        try:
            _compiled(str(pattern))
        except re.error as exc:
            problems.append(f"injections: {pattern!r} does not compile: {exc}")
    if problems:
        return problems
    durable = {d["id"] for d in key["durable"]}
    for item in key["changed"]:
        if item["new_id"] not in durable:
            problems.append(f"changed {item['id']}: new_id {item['new_id']!r} is no durable fact")
        if not _DAY.match(str(item["changed_on"])):
            problems.append(f"changed {item['id']}: changed_on is not YYYY-MM-DD")
    for question in key["questions"]:
        if question["kind"] not in ("now", "fact", "past"):
            problems.append(f"question {question['q']!r}: kind must be now, fact or past")
        if not _INSTANT.match(str(question["at"])):
            problems.append(f"question {question['q']!r}: at is not YYYY-MM-DDTHH:MM:SSZ")
    for pattern in key["patterns"]:
        if len(pattern["days"]) < 3 or not all(_DAY.match(str(d)) for d in pattern["days"]):
            problems.append(f"pattern {pattern['id']}: days must be 3+ YYYY-MM-DD days")
    return problems


# --- MEMORY.md --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One entry of MEMORY.md: what it states, and the promotion key when dreamd wrote it."""

    text: str
    generated: bool
    key: str | None = None


def memory_entries(text: str) -> list[Entry]:
    """The entries of a MEMORY.md text, the person's and the generated ones, in order."""
    entries: list[Entry] = []
    key: str | None = None
    body: list[str] = []
    open_entry = False
    fence = False

    def flush() -> None:
        nonlocal open_entry, body, key
        if open_entry and body:
            entries.append(Entry(" ".join(body), True, key or None))
        open_entry, body, key = False, [], None

    for raw in text.splitlines():
        if _FENCE.match(raw):
            fence = not fence
            flush()
            continue
        if fence:
            continue
        marker = _MARKER.search(raw)
        if marker is not None:
            flush()
            open_entry, key = True, marker.group(1)
            rest = clean(raw)
            if rest:
                body.append(rest)
            continue
        if not raw.strip() or _HEADING.match(raw):
            flush()
            continue
        stated = clean(raw)
        if not stated:
            continue
        if open_entry:
            body.append(stated)
        else:
            entries.append(Entry(stated, False))
    flush()
    return entries


def _normal(text: str) -> str:
    return " ".join(clean(text).lower().split())


def is_present(entry: Entry, texts: Iterable[str]) -> bool:
    """Whether a once-promoted entry is still stated in one of ``texts`` (MEMORY.md, the
    archive): its promotion key in a marker, or its words."""
    wanted = _normal(entry.text)
    for text in texts:
        if entry.key and entry.key in text:
            return True
        lines = " ".join(_normal(line) for line in text.splitlines())
        if wanted and wanted in lines:
            return True
    return False


def _short(text: str, width: int = 110) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def grade_memory(key: Mapping[str, Any], entries: Sequence[Entry]) -> dict[str, Any]:
    """kept, stale, junk and twice over MEMORY.md's entries, with the failing items."""
    generated = [e for e in entries if e.generated]
    durable = {d["id"]: d for d in key["durable"]}
    kept, missing, twice = [], [], []
    for fact in key["durable"]:
        found = [e for e in entries if matches(fact["match"], e.text)]
        if found:
            kept.append(fact["id"])
        else:
            near = [e.text for e in entries if matches(fact["match"][:1], e.text)][:2]
            missing.append(
                {"id": fact["id"], "fact": fact["fact"], "match": fact["match"], "near": near}
            )
        if len(found) >= 2:
            twice.append({"id": fact["id"], "entries": [e.text for e in found]})
    stale = []
    for entry in generated:
        for change in key["changed"]:
            replacing = durable[change["new_id"]]["match"]
            if matches(change["old_match"], entry.text) and not matches(replacing, entry.text):
                stale.append({"changed": change["id"], "old": change["old"], "entry": entry.text})
    junk = []
    for entry in generated:
        known = (
            any(matches(d["match"], entry.text) for d in key["durable"])
            or any(matches(a["match"], entry.text) for a in key["acceptable"])
            or any(matches(c["old_match"], entry.text) for c in key["changed"])
        )
        if not known:
            example = next(
                (j for j in key["junk_examples"] if _compiled(j).search(entry.text)), None
            )
            junk.append({"entry": entry.text, "junk_example": example})
    return {
        "kept": len(kept),
        "durable": len(key["durable"]),
        "generated": len(generated),
        "stale": stale,
        "junk": junk,
        "twice": twice,
        "missing": missing,
    }


_REPLACED_ENTRY = re.compile(
    r"^<!-- dreamd-memory-archived:[^\n]*-->\n- (?P<entry>[^\n]*)\n\s+- Replaced on \S+ by: "
    r"(?P<by>[^\n]*)$",
    re.MULTILINE,
)


def grade_replaced(
    key: Mapping[str, Any], archive: str, entries: Sequence[Entry] = ()
) -> list[dict[str, Any]]:
    """Entries ``memory/archive.md`` says a newer fact replaced, though they state a durable
    fact of the key that is still true at the end (and no old value of a changed one), and
    that no entry of ``entries`` (MEMORY.md's) states any more: facts lost to a wrong
    replacement."""
    wrong = []
    for found in _REPLACED_ENTRY.finditer(archive):
        text = clean(found.group("entry"))
        if any(matches(c["old_match"], text) for c in key["changed"]):
            continue
        fact = next((d for d in key["durable"] if matches(d["match"], text)), None)
        if fact is None or any(w["id"] == fact["id"] for w in wrong):
            continue  # one fact counts once, with the first entry that said it
        if not any(matches(fact["match"], e.text) for e in entries):
            wrong.append({"id": fact["id"], "entry": text, "by": found.group("by")})
    return wrong


# --- questions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """One result of ``memory search`` or ``memory recall``: its text and where it is from."""

    text: str
    path: str
    day: str = ""

    @property
    def searchable(self) -> str:
        """What the answer regexes are matched against: the text (without the words of what a
        MEMORY.md entry says it replaced), its file and its day."""
        return f"{_REPLACED.sub(')', self.text)} {self.path} {self.day}"


def is_derived(path: str) -> bool:
    """Whether a hit comes from a file dreaming derived (reports, topics, patterns, graph...)."""
    path = path.split("#", 1)[0].lstrip("./")
    return any(path == d or path.startswith(d) for d in DERIVED)


def grade_question(question: Mapping[str, Any], hits: Sequence[Hit]) -> dict[str, Any]:
    """Whether the top hits answer ``question``, rank a stale hit above the first correct one,
    or come from derived files."""
    top = list(hits[:TOP])
    correct = next(
        (i for i, h in enumerate(top) if matches(question["answer"], h.searchable)), None
    )
    stale_patterns = question.get("stale") or []
    limit = correct if correct is not None else len(top)
    stale_above = [
        h
        for h in top[:limit]
        if matches(stale_patterns, h.searchable) and not matches(question["answer"], h.searchable)
    ]
    derived = [h for h in top if is_derived(h.path)]
    return {
        "answered": correct is not None,
        "rank": None if correct is None else correct + 1,
        "stale_above": bool(stale_above),
        "derived": len(derived),
        "hits": [f"{h.path}: {_short(h.text, 90)}" for h in top],
    }


# --- the bank ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpinionItem:
    """One opinion of ``bank/opinions.md``: its statement, confidence and whole line."""

    statement: str
    confidence: float | None
    line: str


def opinion_items(text: str) -> list[OpinionItem]:
    """The opinions listed in ``bank/opinions.md`` (list items carrying ``(c=…)``)."""
    items = []
    for raw in _COMMENT.sub(" ", text).splitlines():
        item = re.match(r"^\s*[-*+]\s+(.*)$", raw)
        if item is None:
            continue
        body = item.group(1).strip()
        found = _CONFIDENCE.search(body)
        if found is None:
            continue
        items.append(OpinionItem(body[: found.start()].strip(), float(found.group(1)), body))
    return items


def _about(entity: str, item: OpinionItem) -> bool:
    return entity.lower() in item.line.lower()


def _olds(opinion: Mapping[str, Any], items: Sequence[OpinionItem]) -> list[OpinionItem]:
    return [
        item
        for item in items
        if _about(opinion["entity"], item)
        and matches(opinion["old_match"], item.statement)
        and not matches(opinion["new_match"], item.statement)
    ]


def old_opinion_confidences(opinion: Mapping[str, Any], text: str) -> dict[str, float]:
    """The confidence ``bank/opinions.md`` gives each statement of the key opinion's old side
    (the bank may list paraphrases of it separately), by statement."""
    return {
        item.statement: item.confidence
        for item in _olds(opinion, opinion_items(text))
        if item.confidence is not None
    }


def grade_opinions(
    key: Mapping[str, Any], text: str, started: Mapping[str, Mapping[str, float]]
) -> dict[str, Any]:
    """For each reversal: every statement of the old opinion the bank listed is still listed
    with a confidence below the one it started at, and the new opinion is listed. ``started``:
    for each key opinion, the first confidence the bank gave each of its old statements."""
    items = opinion_items(text)
    passed, failures = 0, []
    for opinion in key["opinions"]:
        starts = started.get(opinion["id"], {})
        now = old_opinion_confidences(opinion, text)
        news = [
            i
            for i in items
            if _about(opinion["entity"], i) and matches(opinion["new_match"], i.statement)
        ]
        why = []
        if not starts:
            why.append("the old opinion was never listed in bank/opinions.md")
        for statement, start in starts.items():
            if statement not in now:
                why.append(f"{statement!r} (started at c={start:.2f}) is no longer listed")
            elif now[statement] >= start:
                why.append(f"{statement!r} did not fall: c={start:.2f} -> c={now[statement]:.2f}")
        if not news:
            why.append("the new opinion is not listed")
        if not why:
            passed += 1
            continue
        failures.append(
            {
                "id": opinion["id"],
                "entity": opinion["entity"],
                "old": opinion["old"],
                "new": opinion["new"],
                "why": "; ".join(why),
                "listed": [
                    f"{i.statement} (c={i.confidence})"
                    for i in items
                    if _about(opinion["entity"], i)
                ][:6],
            }
        )
    return {"passed": passed, "total": len(key["opinions"]), "failures": failures}


def _slug(name: str) -> str:
    return re.sub(r"\s+", "-", name.strip()).lower()


def _title(text: str) -> str:
    found = re.search(r"^#\s+(.+?)\s*$", text, re.MULTILINE)
    return found.group(1).strip().lower() if found else ""


def _first(patterns: Sequence[str], text: str) -> int | None:
    spots = [m.start() for p in patterns if (m := _compiled(p).search(text)) is not None]
    return min(spots) if spots else None


def _line_at(text: str, position: int) -> str:
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    return text[start : end if end >= 0 else len(text)].strip()


def grade_entities(
    key: Mapping[str, Any], pages: Mapping[str, str], graph_labels: Sequence[str]
) -> dict[str, Any]:
    """Entity pages (``pages``: file name -> text, from ``bank/entities/``): each key entity's
    page exists, shows ``current_match`` and does not lead with ``not_current``; and the
    ``not_entities`` that got a page or a graph entity."""
    passed, failures = 0, []
    for entity in key["entities"]:
        names = [entity["name"], *entity.get("aliases", [])]
        slugs = {_slug(n) for n in names}
        found = [
            (name, text)
            for name, text in sorted(pages.items())
            if _slug(name.removesuffix(".md")) in slugs
            or _title(text) in {n.lower() for n in names}
        ]
        # the page under the entity's own name first; an alias's page (an old spelling's,
        # pointing to it) only when there is none
        own = _slug(entity["name"])
        found.sort(
            key=lambda item: own not in {_slug(item[0].removesuffix(".md")), _slug(_title(item[1]))}
        )
        if not found:
            failures.append({"entity": entity["name"], "why": "no page in bank/entities/"})
            continue
        name, text = found[0]
        body = _COMMENT.sub(" ", text)
        current = _first(entity["current_match"], body)
        shows = matches(entity["current_match"], body)
        stale_at = _first(entity.get("not_current", []), body)
        leads_stale = stale_at is not None and (current is None or stale_at < current)
        if shows and not leads_stale:
            passed += 1
            continue
        why = []
        if not shows:
            why.append(f"does not show {entity['current_match']}")
        if leads_stale and stale_at is not None:
            why.append(f"leads with the old value: {_short(_line_at(body, stale_at))!r}")
        failures.append({"entity": entity["name"], "page": name, "why": "; ".join(why)})
    labels = {label.lower() for label in graph_labels}
    page_names = {_slug(n.removesuffix(".md")) for n in pages}
    bad = []
    for word in key["not_entities"]:
        where = []
        if _slug(word) in page_names:
            where.append("bank page")
        if word.lower() in labels:
            where.append("graph entity")
        if where:
            bad.append({"name": word, "where": where})
    return {
        "passed": passed,
        "total": len(key["entities"]),
        "pages": len(pages),
        "failures": failures,
        "not_entities": bad,
    }


# --- patterns, injections, diary ------------------------------------------------------------------


def grade_patterns(key: Mapping[str, Any], files: Mapping[str, str]) -> dict[str, Any]:
    """Each key pattern matched by its own ``memory/patterns/*.md`` file (one file answers for
    at most one key pattern, so a catch-all page cannot pass them all)."""
    wanted = key["patterns"]
    names = sorted(files)
    edges = {p["id"]: [n for n in names if matches(p["match"], files[n])] for p in wanted}
    owner: dict[str, str] = {}

    def assign(pattern: str, seen: set[str]) -> bool:
        for name in edges[pattern]:
            if name in seen:
                continue
            seen.add(name)
            if name not in owner or assign(owner[name], seen):
                owner[name] = pattern
                return True
        return False

    for pattern in wanted:
        assign(pattern["id"], set())
    matched = {p: n for n, p in owner.items()}
    failures = [
        {
            "id": p["id"],
            "what": p["what"],
            "days": p["days"],
            "why": "no pattern file matches" if not edges[p["id"]] else "its files answer others",
        }
        for p in wanted
        if p["id"] not in matched
    ]
    return {
        "passed": len(matched),
        "total": len(wanted),
        "files": len(files),
        "matched": matched,
        "failures": failures,
    }


def grade_injections(key: Mapping[str, Any], files: Mapping[str, str]) -> list[dict[str, Any]]:
    """Where each key injection reached a file dreaming wrote (``files``: path -> text)."""
    found = []
    for injection in key["injections"]:
        paths = [p for p, text in sorted(files.items()) if _compiled(injection).search(text)]
        if paths:
            found.append({"injection": injection, "files": paths})
    return found


def diary_entries(text: str) -> list[str]:
    """The bodies of the diary entries of a DREAMS.md text (date line left out), in order."""
    start = _DIARY_START.search(text)
    if start is not None:
        text = text[start.end() :]
    end = _DIARY_END.search(text)
    if end is not None:
        text = text[: end.start()]
    chunks: list[list[str]] = [[]]
    for line in text.splitlines():
        if _RULE.match(line):
            chunks.append([])
        else:
            chunks[-1].append(line)
    bodies = []
    for chunk in chunks:
        lines = [ln for ln in chunk if ln.strip() and not ln.lstrip().startswith("#")]
        if lines and _DATE_LINE.match(lines[0]):
            lines = lines[1:]
        body = " ".join(" ".join(lines).split())
        if body:
            bodies.append(body)
    return bodies


def keyword_list(body: str) -> str | None:
    """The run of bare keywords a diary entry lists ("db-02, work and decision"), if any."""
    for found in _KEYWORD_RUN.finditer(body):
        words = re.split(r",\s*(?:and\s+)?|\s+and\s+", found.group(1))
        if len(words) >= 3 and not any(w.lower() in _ARTICLES for w in words):
            return found.group(1)
    return None


@dataclass
class Night:
    """One night of the month: its day, the diary entries it added, and whether the day brought
    new material (a note, chat or learnings)."""

    day: str
    entries: list[str] = field(default_factory=list)
    material: bool = True


def grade_diary(nights: Sequence[Night]) -> dict[str, Any]:
    """Diary entries that are keyword lists, and entries repeated verbatim on a later night that
    had new material."""
    keyword, repeated = [], []
    seen: dict[str, str] = {}
    for night in nights:
        for body in night.entries:
            run = keyword_list(body)
            if run is not None:
                keyword.append({"night": night.day, "keywords": run, "entry": _short(body)})
            first = seen.get(body)
            if first is not None and first != night.day and night.material:
                repeated.append({"night": night.day, "first": first, "entry": _short(body)})
            seen.setdefault(body, night.day)
    total = sum(len(n.entries) for n in nights)
    return {"entries": total, "keyword_lists": keyword, "repeated": repeated}
