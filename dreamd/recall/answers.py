"""Recall for the agent: a natural question answered from the bank's pages and the index.

``recall(index, root, question, ...)`` returns results ``{"kind", "timestamp", "entities",
"content", "source", "confidence"?}`` ranked for the question's shape
(:func:`dreamd.recall.query.parse_query`):

- **entity** ("tell me about Alice", "who is Peter"): the entity's page
  (``bank/entities/<Slug>.md``, found by slug, case-insensitively) first — its summary, its
  opinions, its facts newest first — then what search finds about it;
- **time** ("what happened around Nov 27", "since last week", "what was true during November
  2025"): the hits of the question's other words inside that window (for a state, "what was
  true", up to its end: what was current then may have been written before it), then the
  window's Retain facts and lines, oldest first (a line a hit shows is not listed again);
- **opinion** ("what does Peter prefer?"): the opinions of ``bank/opinions.md`` about the
  subject, strongest first, with their confidence, then opinion facts search finds;
- anything else: search's hits.

``kind`` is a fact kind (world, experience, opinion, observation): a hit without one is typed by
the claim rule's kind test. A line search shows for the lines around it (``context``: it holds
no word of the question, and is often the answer to the line before) is shown too, and marked
(not under ``--kind`` or ``--entity``); it is not recorded. Results are cited
(``memory/2026-11-27.md#L12``, or the page line for a summary), deduplicated by source and cut
at ``k``; ``--kind``, ``--entity``, ``--since`` and ``--until`` filter all of them. The search
hits among them are handed back so the caller records them as recall traces exactly as ``memory
search`` does (listed window lines and page lines are not recalls). Reads pages, never writes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime
from pathlib import Path

from dreamd.engine.bank.kinds import FACT_KINDS, infer_kind
from dreamd.engine.hits import Earlier, Hit
from dreamd.layout import resolve_inside
from dreamd.patterns import LazyPattern
from dreamd.recall.candidates import Filters
from dreamd.recall.current import tense_of
from dreamd.recall.dates import DayWindow
from dreamd.recall.index import RecallIndex
from dreamd.recall.query import Query, parse_query
from dreamd.recall.search import search, window_hits
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:  # the bank's pages are read for entity, opinion and time questions only
    from typing import Any, Final

    from dreamd.engine.bank.pages import PageItem

__all__ = ["Answer", "Recalled", "entity_page_of", "recall"]

_SAME_LINE = LazyPattern(r"#L(\d+)-L\1$")


class Recalled(Value):
    """One result: a fact, a page line or a note line, with its citation; ``context`` marks a
    line shown for the lines around it (no word of the question in it), ``also`` cites the
    other places that state the same fact, ``was`` the older lines this one replaced."""

    __match_args__ = (
        "kind",
        "timestamp",
        "entities",
        "content",
        "source",
        "confidence",
        "context",
        "also",
        "was",
    )
    __slots__ = __match_args__
    kind: Final[str]
    timestamp: Final[str | None]
    entities: Final[tuple[str, ...]]
    content: Final[str]
    source: Final[str]
    confidence: Final[float | None]
    context: Final[bool]
    also: Final[tuple[str, ...]]
    was: Final[tuple[Earlier, ...]]

    def __init__(
        self,
        kind: str,
        timestamp: str | None,
        entities: tuple[str, ...],
        content: str,
        source: str,
        confidence: float | None = None,
        context: bool = False,
        also: tuple[str, ...] = (),
        was: tuple[Earlier, ...] = (),
    ) -> None:
        self.kind = kind
        self.timestamp = timestamp
        self.entities = entities
        self.content = content
        self.source = source
        self.confidence = confidence
        self.context = context
        self.also = also
        self.was = was

    def as_json(self) -> dict[str, Any]:
        """The result as ``memory recall --json`` prints it (``confidence`` only when known,
        ``context``, ``also`` and ``was`` only when set)."""
        document: dict[str, Any] = {
            "kind": self.kind,
            "timestamp": self.timestamp,
            "entities": list(self.entities),
            "content": self.content,
            "source": self.source,
        }
        if self.confidence is not None:
            document["confidence"] = self.confidence
        if self.context:
            document["context"] = True
        if self.also:
            document["also"] = list(self.also)
        if self.was:
            document["was"] = [
                {"content": e.snippet, "source": e.source, "timestamp": e.day, "until": e.until}
                for e in self.was
            ]
        return document


class Answer(Value):
    """What a question found; ``hits`` are the search hits among the results (to record),
    ``lines`` every line of the index among them (shown as stored when the index is current)."""

    __match_args__ = ("query", "results", "hits", "lines")
    __slots__ = __match_args__
    query: Final[Query]
    results: Final[tuple[Recalled, ...]]
    hits: Final[tuple[Hit, ...]]
    lines: Final[tuple[Hit, ...]]

    def __init__(
        self,
        query: Query,
        results: tuple[Recalled, ...],
        hits: tuple[Hit, ...],
        lines: tuple[Hit, ...] = (),
    ) -> None:
        self.query = query
        self.results = results
        self.hits = hits
        self.lines = lines


def _from_hit(hit: Hit) -> Recalled:
    kind = hit.kind if hit.kind in FACT_KINDS else infer_kind(hit.snippet)
    return Recalled(
        kind,
        hit.day,
        hit.entities,
        hit.snippet,
        hit.source,
        hit.confidence,
        hit.context,
        tuple(other.source for other in hit.also),
        hit.was,
    )


def _sources(hit: Hit) -> tuple[str, ...]:
    """Every line a hit shows: its own, the same fact elsewhere, what it replaced."""
    return (hit.source, *(o.source for o in hit.also), *(e.source for e in hit.was))


def _from_item(item: PageItem, entities: tuple[str, ...] = ()) -> Recalled:
    return Recalled(
        item.kind, item.day, item.entities or entities, item.content, item.source, item.confidence
    )


def entity_page_of(root: Path, name: str) -> str | None:
    """The workspace path of ``name``'s page under ``bank/entities/`` (by slug), if any."""
    from dreamd.engine.bank.pages import ENTITIES_DIR, entity_key

    key = entity_key(name)
    try:
        names = sorted(path.name for path in (root / ENTITIES_DIR).iterdir())
    except OSError:
        return None
    for file in names:
        if file.endswith(".md") and entity_key(file[:-3]) == key:
            return f"{ENTITIES_DIR}/{file}"
    return None


def _page(root: Path, path: str, kind: str = "world") -> list[PageItem]:
    """A page's items; a missing or unreadable page has none (recall never fails on one)."""
    from dreamd.engine.bank.pages import read_page

    try:
        target = resolve_inside(root, path)
        if target.is_symlink():
            return []
        text = target.read_bytes().decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return []
    return read_page(path, text, kind=kind)


def _entity(root: Path, subject: str) -> list[Recalled]:
    path = entity_page_of(root, subject)
    if path is None:
        return []
    items = _page(root, path)
    title = subject
    summary = [i for i in items if i.key == "summary"]
    opinions = sorted(
        (i for i in items if i.kind == "opinion"), key=lambda i: -(i.confidence or 0.0)
    )
    facts = [i for i in items if i.key != "summary" and i.kind != "opinion"]
    facts.sort(key=lambda i: i.day or "", reverse=True)
    return [_from_item(i, (title,)) for i in (*summary, *opinions, *facts)]


def _opinions(root: Path, subject: str | None) -> list[Recalled]:
    from dreamd.engine.bank.pages import OPINIONS_PAGE, entity_key

    items = [i for i in _page(root, OPINIONS_PAGE, "opinion") if i.kind == "opinion"]
    if subject:
        key = entity_key(subject)
        items = [i for i in items if any(entity_key(e) == key for e in i.entities)]
    items.sort(key=lambda i: -(i.confidence or 0.0))
    return [_from_item(i) for i in items]


def _facts_in(root: Path, window: DayWindow) -> list[Recalled]:
    from dreamd.engine.bank.pages import EXPERIENCE_PAGE, WORLD_PAGE

    found = []
    for path, kind in ((WORLD_PAGE, "world"), (EXPERIENCE_PAGE, "experience")):
        for item in _page(root, path, kind):
            if item.key != "summary" and window.holds(item.day):
                found.append(_from_item(item))
    return sorted(found, key=lambda r: (r.timestamp or "", r.source))


def _filled(
    found: Sequence[Recalled],
    hits: Sequence[Hit],
    keep: Callable[[Iterable[Recalled]], list[Recalled]],
    limit: int,
) -> bool:
    """True when what was found already fills the answer: more hits after it would not show."""
    listed = [*found, *(_from_hit(hit) for hit in hits if not hit.context)]
    return len(keep(listed)) >= limit


def _key(name: str) -> str:
    """An entity's key (:func:`dreamd.engine.bank.pages.entity_key`)."""
    from dreamd.engine.bank.pages import entity_key

    return entity_key(name)


def _kept(
    results: Iterable[Recalled],
    *,
    kinds: Sequence[str] | None,
    entity: str | None,
    first: str | None,
    last: str | None,
    k: int,
) -> list[Recalled]:
    seen: set[str] = set()
    kept = []
    wanted = _key(entity) if entity else None
    for result in results:
        cited = _SAME_LINE.sub(r"#L\1", result.source)  # a fact's line and its chunk are one
        if cited in seen or (kinds and result.kind not in kinds):
            continue
        if wanted is not None and not any(_key(e) == wanted for e in result.entities):
            continue
        day = result.timestamp
        if day and ((first and day < first) or (last and day > last)):
            continue
        seen.add(cited)
        kept.append(result)
        if len(kept) >= k:
            break
    return kept


def _answer_first(hits: Sequence[Hit]) -> list[Hit]:
    """``hits`` with the first line that holds the question's words ahead of the context lines
    before it, unless that line is itself a question: then the line around it (the reply) is
    the answer and stays first."""
    first = next((i for i, hit in enumerate(hits) if not hit.context), None)
    if not first or hits[first].snippet.rstrip().endswith(("?", "？")):
        return list(hits)
    return [hits[first], *hits[:first], *hits[first + 1 :]]


def recall(
    index: RecallIndex,
    root: Path,
    question: str,
    *,
    k: int = 25,
    now: datetime,
    first_day: str | None = None,
    last_day: str | None = None,
    entity: str | None = None,
    kinds: Sequence[str] | None = None,
) -> Answer:
    """Answer ``question`` (see the module rules)."""
    parsed = parse_query(question, today=now.date())
    subject = parsed.subject or entity
    found: list[Recalled] = []
    hits: list[Hit] = []
    lines: list[Hit] = []
    window = parsed.window
    if window is None and parsed.shape == "time" and (first_day or last_day):
        window = DayWindow(
            date.fromisoformat(first_day) if first_day else date.min,
            date.fromisoformat(last_day) if last_day else now.date(),
        )
    options: dict[str, Any] = {"k": k, "now": now, "first_day": first_day, "last_day": last_day}
    limit = max(0, k)

    def keep(ordered: Iterable[Recalled]) -> list[Recalled]:
        return _kept(ordered, kinds=kinds, entity=entity, first=first_day, last=last_day, k=limit)

    if parsed.shape == "entity" and subject:
        found += _entity(root, subject)
    elif parsed.shape == "opinion":
        found += _opinions(root, subject)
        hits += search(index, question, kinds=["opinion"], **options)
    if parsed.shape == "time" and window is not None:
        lower = max(first_day or "", window.first.isoformat())
        upper = min(last_day or "9999-12-31", window.last.isoformat())
        if parsed.terms:
            # "What was true in October": what was current then may have been written before;
            # search keeps what a later line had replaced by then out of the answer.
            state = tense_of(question, window, now.date()) == "past"
            inside = {**options, "first_day": first_day if state else lower, "last_day": upper}
            hits += search(index, question, **inside)
        found += _facts_in(root, window)
        # A line search found (or that a hit speaks for) is shown as search shows it.
        held = {source for hit in hits for source in _sources(hit)}
        listed = [
            h for h in window_hits(index, window, Filters(lower, upper), k) if h.source not in held
        ]
        found += [_from_hit(hit) for hit in listed]
        lines += listed
    elif parsed.terms and not (parsed.shape == "opinion" and _filled(found, hits, keep, limit)):
        hits += search(index, question, **options)  # an opinion's answer full: nothing to add
    # A line shown for the lines around it (``context``) is often the answer: it is shown as
    # search shows it, and, as there, not recorded as a recall; not under --kind or --entity,
    # which it would pass only for its own kind or tags, not for the question.
    if kinds or entity:
        hits = [hit for hit in hits if not hit.context]
    hits = _answer_first(hits)
    ordered = [*found[:1], *(_from_hit(h) for h in hits), *found[1:]]
    if parsed.shape in ("entity", "opinion"):
        ordered = [*found, *(_from_hit(h) for h in hits)]
    elif parsed.shape == "time" and hits:  # what the question asks about, then the window's
        ordered = [*(_from_hit(h) for h in hits), *found]
    results = keep(ordered)
    shown = {r.source for r in results}
    recalled: dict[str, Hit] = {}  # each line once, though both an opinion's searches found it
    for hit in hits:
        if hit.source in shown and not hit.context:
            recalled.setdefault(hit.source, hit)
    shown_lines = {(hit.source, hit.snippet): hit for hit in (*hits, *lines)}
    return Answer(parsed, tuple(results), tuple(recalled.values()), tuple(shown_lines.values()))
