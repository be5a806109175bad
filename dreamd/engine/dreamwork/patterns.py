"""The pattern library: recurring corrections and errors as ``memory/patterns/p-<slug>.md``.

Rules:

* an *occasion* is a correction or an error: a tagged line of the notes (its kind and topic
  from :mod:`dreamd.engine.graph.fragments`) or an entry of ``.learnings/``; occasions with the
  same kind and topic recur. Seen on at least :data:`MIN_OCCASIONS` occasions over at least
  :data:`MIN_DAYS` days, they become a pattern ``p-<kind>-<topic>``; before that, none;
* a pattern's page has the seed's frontmatter (``name``, ``trigger``, ``response``,
  ``examples``, ``created``, ``updated``, ``entity``, ``facets``, ``episode_id``, and
  ``sources``), parsed and written with python-frontmatter (imported only when a pattern is
  read or written). ``created`` stays what the page says; ``updated`` is the latest occasion's
  day; later occasions add examples (the newest :data:`MAX_EXAMPLES` are kept);
* the ``trigger`` and ``response`` are the occasions' own words: the topic and the latest
  occasion (what was corrected, or what failed), without a model. A configured model may
  phrase them (``phrasing``, checked by :mod:`~dreamd.engine.dreamwork.prose`); the page then
  says ``phrased: model`` and keeps those words, its examples and ``updated`` still growing,
  until the model phrases it again;
* a page whose bytes are not what dreamd last wrote (the ledger's digest), or that dreamd never
  wrote, was edited by a person: it is never written again, only reported as kept.

Pure; every page is redacted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dreamd.engine.dreamwork.learnings import Learning
from dreamd.engine.graph.fragments import Tagged, slug
from dreamd.engine.graph.keywords import line_keywords
from dreamd.engine.snapshot import TextFile
from dreamd.layout import PATTERNS_DIR
from dreamd.redaction import redact

__all__ = [
    "MIN_DAYS",
    "MIN_OCCASIONS",
    "Occasion",
    "PatternPage",
    "occasions_of",
    "pattern_id",
    "plan_patterns",
    "read_pattern",
]

MIN_OCCASIONS = 3
MIN_DAYS = 2
MAX_EXAMPLES = 8
PATTERN_KINDS = frozenset({"correction", "error"})


@dataclass(frozen=True, slots=True)
class Occasion:
    """One correction or error: kind, topic, day, its words and where it is."""

    kind: str
    topic: str
    day: str
    text: str
    source: str


@dataclass(frozen=True, slots=True)
class PatternPage:
    """A pattern as planned: its page, whether it changes, and what happened to it."""

    path: str
    name: str
    text: str
    change: str  # "created", "updated (+n examples)", "unchanged", "kept: edited by hand"
    meta: Mapping[str, Any]


def _clean(text: str) -> str:
    return " ".join(text.lstrip("-*+ ").split())


def occasions_of(tagged: Iterable[Tagged], learnings: Iterable[Learning]) -> list[Occasion]:
    """Every correction and error of the notes and ``.learnings/``, in day order."""
    found = [
        Occasion(t.kind, t.topic, t.day, _clean(t.text), f"{t.path}:{t.line}")
        for t in tagged
        if t.kind in PATTERN_KINDS and t.topic and t.day
    ]
    for entry in learnings:
        words = line_keywords(entry.text)
        if entry.kind in PATTERN_KINDS and words:
            found.append(
                Occasion(entry.kind, words[0], entry.day, entry.text, f"{entry.path}:{entry.line}")
            )
    return sorted(found, key=lambda o: (o.day, o.source))


def _frontmatter() -> Any:
    import frontmatter  # python-frontmatter: only a sweep with patterns pays for yaml

    return frontmatter


def _meta(text: str) -> dict[str, Any]:
    try:
        return dict(_frontmatter().loads(text).metadata)
    except Exception:  # noqa: BLE001 - a page a person broke is theirs; it is only read
        return {}


def pattern_id(kind: str, topic: str) -> str:
    """The id (and file stem) of the pattern of ``kind`` about ``topic``."""
    return f"p-{kind}-{slug(topic)}"


def _page(
    kind: str,
    topic: str,
    group: list[Occasion],
    created: str,
    phrased: tuple[str, str] | None = None,
) -> tuple[str, dict[str, Any]]:
    latest = group[-1]
    name = f"recurring {kind}: {topic}"
    if phrased is not None:
        trigger, response = phrased
    elif kind == "correction":
        trigger = f"{topic} comes up: it has been corrected {len(group)} times"
        response = f"use the latest correction: {latest.text}"
    else:
        trigger = f"{topic} fails again: seen {len(group)} times"
        response = f"check what happened last time ({latest.source}): {latest.text}"
    meta: dict[str, Any] = {
        "name": name,
        "trigger": trigger,
        "response": response,
        "examples": [o.text for o in group[-MAX_EXAMPLES:]],
        "created": created,
        "updated": latest.day,
        "entity": "pattern",
        "facets": [f"{kind}.{slug(topic)}", f"{kind}_group"],
        "episode_id": pattern_id(kind, topic),
        "sources": [o.source for o in group[-MAX_EXAMPLES:]],
    }
    if phrased is not None:
        meta["phrased"] = "model"
    days = len({o.day for o in group})
    body = (
        f"# {name}\n\n"
        f"Seen on {len(group)} occasions over {days} days, from {group[0].day} to {latest.day}.\n"
    )
    post = _frontmatter().Post(body, **meta)
    text = _frontmatter().dumps(post, sort_keys=False, allow_unicode=True, width=1000)
    return redact(text.rstrip("\n") + "\n"), meta


def _kept_phrasing(old: Mapping[str, Any]) -> tuple[str, str] | None:
    """The model's words a page dreamd wrote holds (``phrased: model``), if any."""
    trigger, response = old.get("trigger"), old.get("response")
    if old.get("phrased") != "model" or not isinstance(trigger, str):
        return None
    return (trigger, response) if isinstance(response, str) else None


def plan_patterns(
    occasions: Iterable[Occasion],
    pages: Mapping[str, TextFile],
    written: Mapping[str, str],
    *,
    phrasing: Mapping[str, tuple[str, str]] | None = None,
) -> list[PatternPage]:
    """The pattern pages the occasions call for (see the module rules), by path; ``phrasing``
    holds a model's checked (trigger, response) by pattern id."""
    phrasing = phrasing or {}
    groups: dict[tuple[str, str], list[Occasion]] = {}
    for occasion in occasions:
        groups.setdefault((occasion.kind, occasion.topic), []).append(occasion)
    planned = []
    for (kind, topic), group in sorted(groups.items()):
        if len(group) < MIN_OCCASIONS or len({o.day for o in group}) < MIN_DAYS:
            continue
        key = pattern_id(kind, topic)
        path = f"{PATTERNS_DIR}/{key}.md"
        current = pages.get(path)
        if current is not None and current.exists:
            old = _meta(current.text)
            if written.get(path) != current.digest:
                name = str(old.get("name") or path)
                planned.append(PatternPage(path, name, current.text, "kept: edited by hand", old))
                continue
            created = str(old.get("created") or group[MIN_OCCASIONS - 1].day)
            phrased = phrasing.get(key) or _kept_phrasing(old)
            text, meta = _page(kind, topic, group, created, phrased)
            known = [str(e) for e in old.get("examples") or ()]
            added = sum(1 for example in meta["examples"] if example not in known)
            change = "unchanged" if text == current.text else f"updated (+{added} examples)"
            planned.append(PatternPage(path, meta["name"], text, change, meta))
            continue
        text, meta = _page(kind, topic, group, group[MIN_OCCASIONS - 1].day, phrasing.get(key))
        planned.append(PatternPage(path, meta["name"], text, "created", meta))
    return planned


def read_pattern(path: str, text: str) -> dict[str, Any]:
    """A pattern page as ``memory patterns --json`` lists it (a broken page: empty fields)."""
    meta = _meta(text)

    def field_of(name: str) -> str:
        value = meta.get(name)
        return redact(str(value)) if value is not None else ""

    examples = meta.get("examples")
    return {
        "path": path,
        "name": field_of("name") or path.rsplit("/", 1)[1].removesuffix(".md"),
        "trigger": field_of("trigger"),
        "response": field_of("response"),
        "examples": [redact(str(e)) for e in examples] if isinstance(examples, list) else [],
        "created": field_of("created"),
        "updated": field_of("updated"),
    }
