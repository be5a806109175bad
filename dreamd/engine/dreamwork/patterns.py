"""The pattern library: recurring mistakes as ``memory/patterns/p-<slug>.md``.

Rules:

* a pattern is a group of occasions that tell the same mistake, in whatever words
  (:mod:`~dreamd.engine.dreamwork.recurrence`: notes and ``.learnings/``, never dreamd's own
  lines), seen :data:`~dreamd.engine.dreamwork.recurrence.MIN_OCCURRENCES` times over at least
  :data:`~dreamd.engine.dreamwork.recurrence.MIN_DAYS` days; before that, none;
* it is named for what goes wrong: the telling most like the others, its first clause; its
  id is ``p-`` and the words most tellings share (``p-nordlys-invoice-po``), and a page dreamd
  wrote for the same tellings keeps its path, so a pattern's file never moves;
* its ``trigger`` is the work the tellings share (those words), its ``response`` the fix that
  worked, as the notes or ``.learnings/`` record it, else the latest correction, else what went
  wrong last time and where; no model needed. A configured model may phrase them
  (``phrasing``, checked by :mod:`~dreamd.engine.dreamwork.prose`); the page then says
  ``phrased: model`` and keeps those words until the model phrases it again;
* the page has the seed's frontmatter (``name``, ``trigger``, ``response``, ``examples``,
  ``created``, ``updated``, ``entity``, ``facets``, ``episode_id``, ``sources``) and ``days``,
  parsed and written with python-frontmatter (imported only when a pattern is read or
  written). ``created`` stays what the page says; ``updated`` is the latest occasion's day;
* a page whose bytes are not what dreamd last wrote (the ledger's digest), or that dreamd never
  wrote, was edited by a person: it is never written again, only reported as kept.

Pure; every page is redacted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dreamd.engine.dreamwork.recurrence import MIN_DAYS, MIN_OCCURRENCES, Group
from dreamd.engine.graph.fragments import slug
from dreamd.engine.snapshot import TextFile
from dreamd.layout import PATTERNS_DIR
from dreamd.redaction import redact

__all__ = ["PatternPage", "pattern_name", "plan_patterns", "read_pattern"]

MAX_EXAMPLES = 8
MAX_NAME_CHARS = 100
_RETAIN = re.compile(r"^\s*[-*+]?\s*(?:W|B|S|O(?:\([^)]*\))?)\s+@[^:]*:\s*")
_LEAD = re.compile(r"^(?:[\w'’/-]+\s+){0,3}[\w'’/-]+:\s+(?=\S)")
_AGAIN = re.compile(
    r"[,;:\s(]*(?:once\s+more|again|(?:for\s+)?the\s+(?:second|third|fourth|\w+th)\s+time|"
    r"(?:second|third|fourth)\s+time)\W*$",
    re.IGNORECASE,
)
_AGAIN_LEAD = re.compile(
    r"^(?:(?:for\s+)?the\s+)?(?:(?:second|third|fourth|\w+th)\s+time|again|once\s+more)[,:]?\s+",
    re.IGNORECASE,
)
_CUT = re.compile(r";\s|\s[—–]\s|\.\s|:\s")


@dataclass(frozen=True, slots=True)
class PatternPage:
    """A pattern as planned: its page, whether it changes, and what happened to it."""

    path: str
    name: str
    text: str
    change: str  # "created", "updated (+n examples)", "unchanged", "kept: edited by hand"
    meta: Mapping[str, Any]
    days: tuple[str, ...] = ()
    fix: str = ""
    occurrences: int = 0


def _frontmatter() -> Any:
    import frontmatter  # python-frontmatter: only a sweep with patterns pays for yaml

    return frontmatter


def _meta(text: str) -> dict[str, Any]:
    try:
        return dict(_frontmatter().loads(text).metadata)
    except Exception:  # noqa: BLE001 - a page a person broke is theirs; it is only read
        return {}


def pattern_name(text: str) -> str:
    """What goes wrong, from one telling: its first clause, without a lead-in ("Third slip:")."""
    body = _RETAIN.sub("", " ".join(text.split()))
    lead = _LEAD.match(body)
    if lead is not None and len(body) - lead.end() > 20:
        body = body[lead.end() :]
    cut = _CUT.search(body)
    if cut is not None and cut.start() >= 20:
        body = body[: cut.start()]
    body = _AGAIN.sub("", _AGAIN_LEAD.sub("", body).rstrip(" .;:,")).rstrip(" .;:,")
    if len(body) > MAX_NAME_CHARS:
        body = body[: MAX_NAME_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return body[:1].upper() + body[1:]


def _listed(words: Iterable[str]) -> str:
    items = list(words)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _page(
    group: Group, key: str, created: str, phrased: tuple[str, str] | None = None
) -> tuple[str, dict[str, Any]]:
    tellings = group.occasions
    latest = tellings[-1]
    medoid = group.medoid or latest
    name = pattern_name(medoid.text)
    subject = _listed(group.keywords) if group.keywords else name
    corrections = [o for o in tellings if o.kind == "correction"]
    if phrased is not None:
        trigger, response = phrased
    else:
        trigger = f"work on {subject}"
        if group.fix:
            response = group.fix
        elif corrections:
            response = f"use the latest correction: {corrections[-1].text}"
        else:
            response = f"no fix recorded yet; last time ({latest.source}): {latest.text}"
    meta: dict[str, Any] = {
        "name": name,
        "trigger": trigger,
        "response": response,
        "examples": [o.text for o in tellings[-MAX_EXAMPLES:]],
        "created": created,
        "updated": latest.day,
        "entity": "pattern",
        "facets": [f"{group.kind}.{key.removeprefix('p-')}", f"{group.kind}_group"],
        "episode_id": key,
        "sources": [o.source for o in tellings[-MAX_EXAMPLES:]],
        "days": list(group.days),
    }
    if phrased is not None:
        meta["phrased"] = "model"
    days = group.days
    when = _listed(days) if len(days) <= 6 else f"{days[0]} to {days[-1]}"
    body = f"# {name}\n\nWent wrong {group.occurrences} times over {len(days)} days: {when}.\n"
    if group.fix:
        where = f" ({group.fix_source})" if group.fix_source else ""
        body += f"\nWhat worked: {group.fix}{where}\n"
    post = _frontmatter().Post(body, **meta)
    text = _frontmatter().dumps(post, sort_keys=False, allow_unicode=True, width=1000)
    return redact(text.rstrip("\n") + "\n"), meta


def _kept_phrasing(old: Mapping[str, Any]) -> tuple[str, str] | None:
    """The model's words a page dreamd wrote holds (``phrased: model``), if any."""
    trigger, response = old.get("trigger"), old.get("response")
    if old.get("phrased") != "model" or not isinstance(trigger, str):
        return None
    return (trigger, response) if isinstance(response, str) else None


def _key(group: Group) -> str:
    words = [slug(word) for word in group.keywords]
    stem = "-".join(word for word in words if word) or slug(pattern_name(group.occasions[0].text))
    return f"p-{stem[:60].strip('-') or 'mistake'}"


def _existing(
    group: Group, pages: Mapping[str, TextFile], metas: Mapping[str, Mapping[str, Any]]
) -> str | None:
    """The path of the page dreamd wrote for these tellings before (shared sources), if any."""
    sources = {o.source for o in group.occasions}
    for path in sorted(metas):
        known = metas[path].get("sources")
        if isinstance(known, list) and sources & {str(s) for s in known}:
            return path
    return None


def plan_patterns(
    groups: Iterable[Group],
    pages: Mapping[str, TextFile],
    written: Mapping[str, str],
    *,
    phrasing: Mapping[str, tuple[str, str]] | None = None,
) -> list[PatternPage]:
    """The pattern pages the groups call for (see the module rules), by path; ``phrasing``
    holds a model's checked (trigger, response) by pattern id."""
    phrasing = phrasing or {}
    metas = {
        path: _meta(page.text)
        for path, page in pages.items()
        if path.startswith(f"{PATTERNS_DIR}/") and page.exists
    }
    planned: list[PatternPage] = []
    taken: set[str] = set()
    for group in groups:
        if not group.is_pattern:
            continue
        path = _existing(group, pages, metas) or f"{PATTERNS_DIR}/{_key(group)}.md"
        if path in taken:
            continue
        taken.add(path)
        key = path.rsplit("/", 1)[1].removesuffix(".md")
        current = pages.get(path)
        first = _created(group)
        if current is not None and current.exists:
            old = _meta(current.text)
            if written.get(path) != current.digest:
                name = str(old.get("name") or path)
                planned.append(
                    PatternPage(path, name, current.text, "kept: edited by hand", old, group.days)
                )
                continue
            created = str(old.get("created") or first)
            phrased = phrasing.get(key) or _kept_phrasing(old)
            text, meta = _page(group, key, created, phrased)
            known = [str(e) for e in old.get("examples") or ()]
            added = sum(1 for example in meta["examples"] if example not in known)
            change = "unchanged" if text == current.text else f"updated (+{added} examples)"
            planned.append(
                PatternPage(
                    path, meta["name"], text, change, meta, group.days, group.fix, group.occurrences
                )
            )
            continue
        text, meta = _page(group, key, first, phrasing.get(key))
        planned.append(
            PatternPage(
                path, meta["name"], text, "created", meta, group.days, group.fix, group.occurrences
            )
        )
    return sorted(planned, key=lambda page: page.path)


def _created(group: Group) -> str:
    """The day the group became a pattern: the day of its third occurrence."""
    for day in group.days:
        tellings = tuple(o for o in group.occasions if o.day <= day)
        partial = Group(tellings, days=tuple(d for d in group.days if d <= day))
        if partial.occurrences >= MIN_OCCURRENCES and len(partial.days) >= MIN_DAYS:
            return day
    return group.days[-1]


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
