"""The bank's pages: where each fact goes, and the lines dreamd writes for it.

Rules:

- ``bank/world.md`` holds world facts, ``bank/experience.md`` experience facts (what the agent
  did, first person), ``bank/opinions.md`` the opinions, ``bank/entities/<Slug>.md`` every fact
  and opinion about one entity. Observations appear on their entities' pages. A page is planned
  only when it has something to hold, or already exists.
- An entity is named by an ``@mention`` or by a page the workspace already has under
  ``bank/entities/`` (its ``# Title``). The slug keeps the name's case, with spaces as ``-``:
  ``The Castle`` and ``@The-Castle`` are ``The-Castle.md``, titled "The Castle". Names are
  compared by slug, case-insensitively.
- Each block opens with a one-line summary, then one bullet per fact (the newest
  :data:`MAX_PAGE_FACTS` on world and experience, oldest first; on an entity page the newest
  :data:`MAX_ENTITY_FACTS`, current ones first, newest first, then the superseded ones), each
  with its source as a link relative to the page (``../memory/2026-11-27.md#L12``); a text
  carried over from note to note is listed once, from its first note. A fact a later one
  replaced (:mod:`dreamd.engine.bank.validity`) is labelled ``superseded on <day>``.
- An entity page's summary leads with who or what it is now, under the name its current facts
  give (``Ana Lindgren — our accountant since 2024.``); a name a correction replaced is named
  after it, as superseded. The page a misspelt, corrected or bracketed name ("Dad (Denis
  Cotter, 86)") already had keeps one line, the name it stands for with a link to that page
  (:mod:`dreamd.engine.bank.spellings`).
- In ``bank/opinions.md`` each opinion is one bullet ``- <statement> (c=0.82, updated
  2026-11-27)``, then the entities it is about and its supporting and contradicting evidence
  as links to the facts' lines.
- :func:`read_page` reads a block back for recall: the summary, opinions and facts with their
  sources, and a person's own lines as they wrote them.

Pure.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence

from dreamd.engine.bank.block import Line, split_page
from dreamd.layout import BANK_DIR
from dreamd.patterns import LazyPattern
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:  # types only: recall reads pages without the fact rules
    from typing import Final

    from dreamd.engine.bank.facts import Fact
    from dreamd.engine.bank.opinions import Opinion
    from dreamd.engine.bank.validity import Validity

__all__ = [
    "ENTITIES_DIR",
    "EXPERIENCE_PAGE",
    "MAX_ENTITY_FACTS",
    "MAX_PAGE_FACTS",
    "OPINIONS_PAGE",
    "WORLD_PAGE",
    "Names",
    "PageItem",
    "PagePlan",
    "entity_key",
    "entity_page",
    "opinion_line",
    "plan_pages",
    "read_page",
    "slug_of",
    "title_of",
]

WORLD_PAGE = f"{BANK_DIR}/world.md"
EXPERIENCE_PAGE = f"{BANK_DIR}/experience.md"
OPINIONS_PAGE = f"{BANK_DIR}/opinions.md"
ENTITIES_DIR = f"{BANK_DIR}/entities"
MAX_PAGE_FACTS = 200
MAX_ENTITY_FACTS = 60
MAX_LINKS = 6
_UNSAFE = LazyPattern(r"[^\w.-]+")


def slug_of(name: str) -> str:
    """``The Castle`` -> ``The-Castle`` (empty when nothing usable is left)."""
    slug = _UNSAFE.sub("-", name.strip().lstrip("@").replace(" ", "-"))
    return re.sub(r"-{2,}", "-", slug).strip("-.")


@functools.lru_cache(maxsize=65_536)  # asked for every fact's every entity, many times a page
def entity_key(name: str) -> str:
    """What names are compared by."""
    return slug_of(name).lower()


def title_of(name: str) -> str:
    """``The-Castle`` -> ``The Castle``; other names as written (a name with a space is no
    slug: "Karl-Erik Lõhmus" keeps his hyphen)."""
    parts = name.lstrip("@").split("-")
    if len(parts) > 1 and " " not in name and all(part[:1].isupper() for part in parts):
        return " ".join(parts)
    return name.lstrip("@")


def entity_page(name: str) -> str:
    """``bank/entities/<Slug>.md``."""
    return f"{ENTITIES_DIR}/{slug_of(name)}.md"


def _href(fact: Fact, page: str) -> str:
    up = "../" * page.count("/")
    return f"[{fact.source}]({up}{fact.path}#L{fact.line})"


class Names(Value):
    """The entities known: key -> title, key -> the page it already has (if any), and the key
    of a name found misspelt or corrected -> the name it became."""

    __match_args__ = ("titles", "files", "renamed")
    __slots__ = __match_args__
    titles: Final[Mapping[str, str]]
    files: Final[Mapping[str, str]]
    renamed: Final[Mapping[str, str]]

    def __init__(
        self,
        titles: Mapping[str, str],
        files: Mapping[str, str],
        renamed: Mapping[str, str] | None = None,
    ) -> None:
        self.titles = titles
        self.files = files
        self.renamed = renamed or {}

    def page(self, key: str) -> str | None:
        """Where the entity's page is, or would be."""
        title = self.titles.get(key)
        return self.files.get(key) or (entity_page(title) if title else None)


def _about(entities: Iterable[str], names: Names, page: str) -> str:
    """Links to the entity pages of ``entities`` (the page's own entity left out)."""
    folder = "" if page.startswith(f"{ENTITIES_DIR}/") else "entities/"
    links = []
    for name in entities:
        key = entity_key(name)
        title = names.titles.get(key, title_of(name))
        target = names.page(key) or entity_page(title)
        if key and target != page:
            links.append(f"[{title}]({folder}{target.rsplit('/', 1)[1]})")
    return ", ".join(links)


def _until(fact: Fact, validity: Mapping[str, Validity]) -> str | None:
    held = validity.get(fact.id)
    return held.until if held is not None else None


def _fact_line(
    fact: Fact, page: str, names: Names, *, tagged: bool, until: str | None = None
) -> Line:
    ended = f", superseded on {until}" if until else ""
    if tagged:
        kind = f"({fact.kind}, {fact.day or fact.path}{ended}) "
    else:
        kind = f"(superseded on {until}) " if until else ""
    about = _about(fact.entities, names, page)
    about = f" — {about}" if about else ""
    return Line(fact.id, f"- {kind}{fact.text}{about} · {_href(fact, page)} ^{fact.id}")


def _evidence(facts: Sequence[Fact], page: str) -> str:
    links = [f"[{f.id}]({'../' * page.count('/')}{f.path}#L{f.line})" for f in facts[:MAX_LINKS]]
    more = f" and {len(facts) - MAX_LINKS} more" if len(facts) > MAX_LINKS else ""
    return ", ".join(links) + more


def opinion_line(opinion: Opinion, page: str, names: Names) -> Line:
    """``- <statement> (c=0.82, updated 2026-11-27) about …; supporting …; contradicting …``."""
    parts = [f"- {opinion.statement} (c={opinion.confidence:.2f}, updated {opinion.updated})"]
    about = _about(opinion.entities, names, page)
    tail = [f"about {about}"] if about else []
    tail.append(f"supporting {_evidence(opinion.supporting, page)}")
    if opinion.contradicting:
        tail.append(f"contradicting {_evidence(opinion.contradicting, page)}")
    return Line(opinion.id, f"{parts[0]} {'; '.join(tail)} ^{opinion.id}")


class PagePlan(Value):
    """One page's title, kind and planned lines, and the facts it holds."""

    __match_args__ = ("path", "kind", "title", "lines", "facts")
    __slots__ = __match_args__
    path: Final[str]
    kind: Final[str]  # world, experience, opinions or entity
    title: Final[str]
    lines: Final[tuple[Line, ...]]
    facts: Final[tuple[str, ...]]

    def __init__(
        self,
        path: str,
        kind: str,
        title: str,
        lines: tuple[Line, ...],
        facts: tuple[str, ...],
    ) -> None:
        self.path = path
        self.kind = kind
        self.title = title
        self.lines = lines
        self.facts = facts


def _span(facts: Sequence[Fact]) -> str:
    days = sorted(f.day for f in facts if f.day)
    if not days:
        return ""
    return f", {days[0]} to {days[-1]}" if days[0] != days[-1] else f", {days[0]}"


def _distinct(facts: Sequence[Fact]) -> list[Fact]:
    """``facts`` with a text carried over from note to note shown once (its first note)."""
    seen: set[str] = set()
    kept = []
    for fact in facts:
        key = " ".join(fact.text.lower().split())
        if key not in seen:
            seen.add(key)
            kept.append(fact)
    return kept


def _summary(text: str) -> Line:
    return Line("summary", f"{text} ^summary")


def _listing(
    path: str,
    kind: str,
    title: str,
    facts: Sequence[Fact],
    names: Names,
    noun: str,
    validity: Mapping[str, Validity],
) -> PagePlan:
    distinct = _distinct(facts)
    shown = distinct[-MAX_PAGE_FACTS:]
    more = f" (the latest {len(shown)} shown)" if len(shown) < len(distinct) else ""
    ended = sum(1 for f in facts if _until(f, validity))
    gone = f"; {ended} superseded by later ones" if ended else ""
    summary = _summary(f"{len(facts)} {noun} from the notes{_span(facts)}{more}{gone}.")
    listed = (_fact_line(f, path, names, tagged=False, until=_until(f, validity)) for f in shown)
    lines = [summary, Line(None, ""), *listed]
    return PagePlan(path, kind, title, tuple(lines), tuple(f.id for f in facts))


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _entity(
    path: str,
    title: str,
    facts: Sequence[Fact],
    opinions: Sequence[Opinion],
    names: Names,
    validity: Mapping[str, Validity],
) -> PagePlan:
    from dreamd.engine.bank.validity import display_name, who_line

    plain = [f for f in facts if f.kind != "opinion"]
    counts: dict[str, int] = {}
    for fact in facts:
        counts[fact.kind] = counts.get(fact.kind, 0) + 1
    tally = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    name = display_name(title, plain, validity)
    who = who_line(title, plain, validity)
    text = f"{name} — {who}." if who else name
    if facts:
        text += f"{' ' if who else ': '}{len(facts)} fact(s){_span(facts)} ({tally})."
    elif not who:
        text += "."
    if opinions:
        strongest = max(opinions, key=lambda o: (o.confidence, o.id))
        text += f" Holds: {_clip(strongest.statement, 120)} (c={strongest.confidence:.2f})."
    if name != title:
        text += f" Earlier notes say {title} (superseded)."
    shown = _distinct(plain)[-MAX_ENTITY_FACTS:]
    current = [f for f in reversed(shown) if not _until(f, validity)]
    ended = [f for f in reversed(shown) if _until(f, validity)]
    lines = [_summary(text), Line(None, "")]
    lines += [opinion_line(o, path, names) for o in opinions]
    lines += [_fact_line(f, path, names, tagged=True) for f in current]
    lines += [_fact_line(f, path, names, tagged=True, until=_until(f, validity)) for f in ended]
    return PagePlan(path, "entity", title, tuple(lines), tuple(f.id for f in facts))


def _pointer(path: str, title: str, name: str, names: Names) -> PagePlan:
    """The page of a name found misspelt or corrected: one line naming the name it became and
    linking its page, where everything about the entity now goes."""
    target = names.page(entity_key(name)) or entity_page(name)
    link = f"[{name}]({target.rsplit('/', 1)[1]})"
    text = f"{title} is {name}: see {link}."
    return PagePlan(path, "entity", title, (_summary(text),), ())


def plan_pages(
    facts: Sequence[Fact],
    opinions: Sequence[Opinion],
    names: Names,
    existing: Iterable[str] = (),
    validity: Mapping[str, Validity] | None = None,
) -> tuple[PagePlan, ...]:
    """Every page to plan (see the module rules)."""
    there = set(existing)
    valid: Mapping[str, Validity] = validity or {}
    plans = []
    for path, kind, title, noun in (
        (WORLD_PAGE, "world", "World", "world fact(s)"),
        (EXPERIENCE_PAGE, "experience", "Experience", "experience fact(s)"),
    ):
        chosen = [f for f in facts if f.kind == kind]
        if chosen or path in there:
            plans.append(_listing(path, kind, title, chosen, names, noun, valid))
    if opinions or OPINIONS_PAGE in there:
        rose = sum(1 for o in opinions if o.confidence > o.start)
        fell = sum(1 for o in opinions if o.confidence < o.start)
        summary = _summary(
            f"{len(opinions)} opinion(s); each confidence moves a small step per day of evidence "
            f"({rose} rose, {fell} fell)."
        )
        lines = [
            summary,
            Line(None, ""),
            *(opinion_line(o, OPINIONS_PAGE, names) for o in opinions),
        ]
        held = tuple(f.id for o in opinions for f in (*o.supporting, *o.contradicting))
        plans.append(PagePlan(OPINIONS_PAGE, "opinions", "Opinions", tuple(lines), held))
    about: dict[str, list[Fact]] = {}
    for fact in facts:
        for name in fact.entities:
            about.setdefault(entity_key(name), []).append(fact)
    held_by: dict[str, list[Opinion]] = {}
    for opinion in opinions:
        for name in opinion.entities:
            held_by.setdefault(entity_key(name), []).append(opinion)
    for key in sorted(set(about) | set(names.files)):
        label, page = names.titles.get(key), names.page(key)
        if not key or label is None or page is None:
            continue
        if key not in about and key in names.renamed:
            plans.append(_pointer(page, label, names.renamed[key], names))
            continue
        plans.append(_entity(page, label, about.get(key, []), held_by.get(key, []), names, valid))
    return tuple(plans)


class PageItem(Value):
    """One line of a page's block as recall reads it back (a person's lines included)."""

    __match_args__ = ("key", "kind", "content", "day", "source", "confidence", "entities")
    __slots__ = __match_args__
    key: Final[str | None]
    kind: Final[str]
    content: Final[str]
    day: Final[str | None]
    source: Final[str]
    confidence: Final[float | None]
    entities: Final[tuple[str, ...]]

    def __init__(
        self,
        key: str | None,
        kind: str,
        content: str,
        day: str | None,
        source: str,
        confidence: float | None = None,
        entities: tuple[str, ...] = (),
    ) -> None:
        self.key = key
        self.kind = kind
        self.content = content
        self.day = day
        self.source = source
        self.confidence = confidence
        self.entities = entities


_SUMMARY_LINE = LazyPattern(r"^(?P<text>.*?)\s*\^summary\s*$")
_OPINION_LINE = LazyPattern(
    r"^[-*] (?P<text>.+?) \(c=(?P<c>[0-9.]+), updated (?P<day>[0-9-]+|None)\)(?P<rest>.*?)"
    r"(?:\s\^(?P<key>o-[0-9a-f]{10}))?\s*$"
)
_FACT_LINE = LazyPattern(
    r"^[-*] (?:\((?P<kind>world|experience|opinion|observation), (?P<day>[0-9-]+|None)"
    r"(?:, superseded on (?P<until>[0-9-]+))?\) )?(?:\(superseded on (?P<ended>[0-9-]+)\) )?"
    r"(?P<text>.+?)(?: — (?P<about>.+?))? · \[(?P<source>[^\]]+)\]\([^)]*\)"
    r"(?:\s\^(?P<key>f-[0-9a-f]{10}))?\s*$"
)
_NAMES = LazyPattern(r"\[([^\]]+)\]\(")
_ABOUT = LazyPattern(r"^\s*about (.+?)(?:; supporting|$)")
_SPAN_DAYS = LazyPattern(r"(\d{4}-\d{2}-\d{2})")


def read_page(path: str, text: str, *, kind: str = "world") -> list[PageItem]:
    """The items of a page's block, in order; a line that is none of dreamd's shapes is read as
    the person wrote it, cited by its line of the page."""
    parts = split_page(text)
    if parts.body is None:
        return []
    first = len(parts.head) + 2  # 1-based line of the first body line
    items = []
    for offset, line in enumerate(parts.body):
        where = f"{path}#L{first + offset}"
        if not line.strip():
            continue
        if found := _SUMMARY_LINE.match(line):
            days = _SPAN_DAYS.findall(found.group("text"))
            items.append(
                PageItem(
                    "summary", "observation", found.group("text"), max(days, default=None), where
                )
            )
        elif found := _OPINION_LINE.match(line):
            about = _ABOUT.match(found.group("rest"))
            names = tuple(_NAMES.findall(about.group(1))) if about else ()
            day = found.group("day") if found.group("day") != "None" else None
            c = float(found.group("c"))
            items.append(
                PageItem(found.group("key"), "opinion", found.group("text"), day, where, c, names)
            )
        elif found := _FACT_LINE.match(line):
            names = tuple(_NAMES.findall(found.group("about") or ""))
            day = found.group("day")
            source = found.group("source")
            day = day if day and day != "None" else _day_of_source(source)
            items.append(
                PageItem(
                    found.group("key"),
                    found.group("kind") or kind,
                    found.group("text"),
                    day,
                    source,
                    None,
                    names,
                )
            )
        else:
            items.append(PageItem(None, "observation", line.lstrip("-* ").strip(), None, where))
    return items


def _day_of_source(source: str) -> str | None:
    found = _SPAN_DAYS.search(source)
    return found.group(1) if found else None
