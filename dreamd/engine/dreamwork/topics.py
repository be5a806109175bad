"""Topic files: ``memory/topics/{user,feedback,project,reference}_<slug>.md`` from what recurs.

Rules, each over the tagged lines of the daily notes (a guest's turn never counts):

* ``project_<slug>.md``: an entity that is never a speaker, can be a project
  (:func:`~dreamd.engine.text.entities.is_project_name`: the one entity rule, and no app such
  as WhatsApp) and is named in sections on at least :data:`MIN_DAYS` days
  (:data:`MIN_SECTIONS` sections): the lines that name it;
* ``feedback_<slug>.md``: an entity or topic corrected on at least :data:`MIN_DAYS` days: the
  corrections; when no one entity or topic is, but corrections were made on
  :data:`MIN_DAYS` days, ``feedback_corrections.md`` holds them all;
* ``user_preferences.md``: lines (not the assistant's turns) that state a preference
  (:func:`is_preference`: "prefers", "likes", "always use", "favourite", and their Spanish,
  French, German and CJK cues) on at least :data:`MIN_DAYS` days: the ones still current
  (none a later one replaced, :mod:`dreamd.engine.facts.timeline`; a pure denial such as "no
  longer prefers voice notes" is left out: it ends a preference);
* ``reference_<host>.md``: a web address whose host is named on at least :data:`MIN_DAYS` days:
  the lines that link to it (where things are documented).

A line that orders the agent about (:func:`~dreamd.engine.text.instructions.is_instruction`)
or sits in an HTML comment (no episode holds it) is in no topic file. Each file lists its
lines, high-weight kinds first, then newest, each with its source. At most
:data:`MAX_TOPICS` files a sweep, the most recurring first. A file a person edited (its bytes
are not what dreamd last wrote), or that dreamd never wrote, is never written. Pure; redacted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from dreamd.engine.facts.statement import read_statement
from dreamd.engine.facts.timeline import Dated, plan_timeline
from dreamd.engine.graph.fragments import Tagged, slug
from dreamd.engine.phases.sessions import GUEST_LABEL
from dreamd.engine.snapshot import TextFile
from dreamd.engine.text.entities import is_project_name
from dreamd.engine.text.instructions import is_instruction
from dreamd.engine.text.salience import HIGH
from dreamd.layout import TOPICS_DIR
from dreamd.redaction import redact

__all__ = ["MAX_TOPICS", "TopicPage", "is_preference", "plan_topics"]

MIN_DAYS = 2
MIN_SECTIONS = 3
MAX_TOPICS = 4
MAX_LINES = 10
_PREFERENCE = re.compile(
    r"\bprefer(?:s|red|ence|ences)?\b|\bfavou?rite\b|\bwould rather\b"
    r"|\b(?:i|user|they|he|she) (?:really )?(?:likes?|loves?|hates?|dislikes?)\b"
    r"|\b(?:always|never) (?:use|uses|wants?|asks? for)\b"
    r"|\bprefier[eo]\b|\bpréf[èé]r|\bbevorzug|喜欢|偏好|好き|선호",
    re.IGNORECASE,
)
_URL = re.compile(r"\bhttps?://(?:[^\s/@]+@)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)", re.IGNORECASE)
_TURN = re.compile(r"^(?:[-*+]\s+)?(?:\[[^\]]*\]\s+)?(\w+):")  # a session-corpus turn
_INTRO = {
    "project": "what the notes say about {title}",
    "feedback": "corrections about {title}",
    "corrections": "the corrections made in the notes",
    "user": "what the user prefers",
    "reference": "the notes' links to {title}",
}


def is_preference(text: str) -> bool:
    """True when ``text`` states a preference (see the module rules)."""
    return _PREFERENCE.search(text) is not None


def _speaker(text: str) -> str:
    """``Guest``, ``Assistant`` or ``User`` for a session-corpus turn; else ``""``."""
    turn = _TURN.match(text.strip())
    return turn.group(1) if turn and turn.group(1) in (GUEST_LABEL, "Assistant", "User") else ""


@dataclass(frozen=True, slots=True)
class TopicPage:
    """A topic file as planned."""

    path: str
    title: str
    text: str
    edited: bool


def _render(title: str, kind: str, lines: list[Tagged]) -> str:
    days = sorted({t.day or "" for t in lines})
    what = _INTRO[kind].format(title=title)
    out = [
        f"# {title}",
        "",
        f"From {len(lines)} line(s) of the notes, {days[0]} to {days[-1]}: {what}.",
        "dreamd rewrites this file as the notes grow; once you edit it, it is yours.",
        "",
    ]
    ordered = sorted(
        lines, key=lambda t: (t.kind not in HIGH, -int((t.day or "0").replace("-", "")), t.line)
    )
    for t in ordered[:MAX_LINES]:
        out.append(f"- {' '.join(t.text.lstrip('-*+ ').split())} ({t.path}:{t.line})")
    return redact("\n".join(out) + "\n")


def _current(lines: list[Tagged]) -> list[Tagged]:
    """The preference lines still current: none a later one replaced, and no pure denial
    ("no longer prefers voice notes" ends a preference, it is none)."""
    dated = [
        Dated(f"{t.path}#{t.line}", t.day or "", read_statement(t.text), t.line) for t in lines
    ]
    timeline = plan_timeline(dated)
    enders = {ending.by for ending in timeline.ended.values()}
    kept = []
    for item, t in zip(dated, lines, strict=True):
        denial = item.statement.polarity < 0 and item.ref in enders
        if timeline.current(item.ref) and not denial:
            kept.append(t)
    return kept


def plan_topics(
    tagged: Iterable[Tagged], pages: Mapping[str, TextFile], written: Mapping[str, str]
) -> list[TopicPage]:
    """The topic files to write (see the module rules)."""
    rows = [
        t
        for t in tagged
        if t.day and _speaker(t.text) != GUEST_LABEL and not is_instruction(t.text)
    ]
    speakers = set()
    for t in rows:
        head = t.text.lstrip("-*+ ").split(":", 1)[0]
        if head in t.entities:
            speakers.add(slug(head))
    named: dict[str, list[Tagged]] = {}
    labels: dict[str, str] = {}
    for t in rows:
        for name in t.entities:
            key = slug(name)
            if key not in speakers:
                named.setdefault(key, []).append(t)
                labels.setdefault(key, name)
    wanted: list[tuple[int, str, str, list[Tagged]]] = []
    for key, lines in named.items():
        sections = {t.episode for t in lines}
        if not is_project_name(labels[key]):
            continue  # a verb, a tag word, a month or an app is no project
        if len({t.day for t in lines}) >= MIN_DAYS and len(sections) >= MIN_SECTIONS:
            wanted.append((len(sections), f"project_{key}", labels[key], lines))
    corrected: dict[str, list[Tagged]] = {}
    corrections = [t for t in rows if t.kind == "correction"]
    titled: dict[str, str] = {}
    for t in corrections:
        for about in dict.fromkeys(slug(a) for a in (*t.entities, t.topic) if a):
            corrected.setdefault(about, []).append(t)
        for name in (*t.entities, t.topic):  # an entity's name titles it before a keyword
            if name:
                titled.setdefault(slug(name), name)
    grouped = False
    for key, lines in corrected.items():
        if len({t.day for t in lines}) >= MIN_DAYS:
            wanted.append((len(lines), f"feedback_{key}", titled[key], lines))
            grouped = True
    if not grouped and len({t.day for t in corrections}) >= MIN_DAYS:
        wanted.append((len(corrections), "feedback_corrections", "Corrections", corrections))
    said = [t for t in rows if _speaker(t.text) != "Assistant" and is_preference(t.text)]
    preferences = _current(said)
    if len({t.day for t in said}) >= MIN_DAYS and preferences:
        wanted.append((len(preferences), "user_preferences", "User preferences", preferences))
    hosts: dict[str, list[Tagged]] = {}
    for t in rows:
        for host in dict.fromkeys(h.lower().removeprefix("www.") for h in _URL.findall(t.text)):
            hosts.setdefault(host, []).append(t)
    for host, lines in hosts.items():
        if len({t.day for t in lines}) >= MIN_DAYS:
            wanted.append((len(lines), f"reference_{slug(host)}", host, lines))
    wanted.sort(key=lambda item: (-item[0], item[1]))
    planned = []
    for _, name, title, lines in wanted[:MAX_TOPICS]:
        path = f"{TOPICS_DIR}/{name}.md"
        kind = "corrections" if name == "feedback_corrections" else name.split("_", 1)[0]
        current = pages.get(path)
        if current is not None and current.exists and written.get(path) != current.digest:
            planned.append(TopicPage(path, title, current.text, True))
            continue
        planned.append(TopicPage(path, title, _render(title, kind, lines), False))
    return planned
