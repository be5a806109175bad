"""One file's part of the cone: its episodes, the nodes they reach and the edges between.

Rules, for every episode of the file (:mod:`dreamd.engine.graph.episodes`):

* attention: a line that is a pure greeting or acknowledgement is skipped
  (:func:`~dreamd.engine.text.salience.is_noise`); every other line is *tagged* with its kind
  (``event|decision|correction|completed|insight|error``) and its topic, the first of the
  episode's keywords it holds (else its own first keyword; a line with none has no topic); a
  topic is never the line's kind, a tag word, a number or a secret's name
  (:func:`~dreamd.engine.text.entities.is_topic_word`: no "error about error");
* entities (L4): ``@mentions``, the speaker of a ``- Name: ...`` line (a name of two words, or
  one the file also names inside a sentence: "Lunch: …" is a label), capitalised words inside
  a sentence (a lone one just after a colon only when the file names it inside a sentence too:
  "Assistant: Pencilled in …" opens a sentence), at a line's start once the file uses them
  inside one, and for a topic file the thing it is about; two to four capitalised words in a
  row are one name ("Yamane Tax Office", also after its ``@``), a sentence's first word (after
  a Retain letter too: "B Tax papers …") opens none unless the file names it or a name it
  starts elsewhere ("Met Jun Oda" names Jun Oda); each passes the one entity rule
  (:func:`~dreamd.engine.text.entities.is_entity_name`: no weekday or month, no tag word such
  as ``Correction`` or ``Error``, no verb such as ``Prefers``, no ``user``); an entity's text
  is its name plus the
  keywords of the lines that define it (``Atlas is ...``, ``Atlas: ...``) and, in a topic file,
  the file's keywords, so a query about what it is reaches the episodes that only name it;
* FacetPoints (L3): ``fp:<kind>.<topic>`` for each tagged line with a topic;
* Facets (L2): ``<kind>_group`` for the high-weight kinds, ``topic_<heading>`` for a section's
  heading, ``project_<name>`` for a project topic file;
* edges, tip to base, each with a reason: entity -> FacetPoint (0.2), entity -> episode (0.3),
  FacetPoint -> Facet (0.1), FacetPoint -> episode (0.2), Facet -> episode (0.4; 0.2 for the
  section's own heading). Edges into an episode name the line that made them.

Pure and local: a file's fragment depends on that file alone, so it is rebuilt only when the
file changes.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import PurePosixPath

import msgspec

from dreamd.engine.bank.retain import mentions
from dreamd.engine.graph.edge import Edge
from dreamd.engine.graph.episodes import Episode, episodes_of
from dreamd.engine.graph.keywords import keywords, line_keywords
from dreamd.engine.text.concepts import STOP_WORDS
from dreamd.engine.text.salience import HIGH, has_cue, is_noise, kind_of
from dreamd.engine.text.themes import EVERYDAY_WORDS

__all__ = [
    "EDGE_COSTS",
    "Edge",
    "EpisodeRef",
    "Fragment",
    "Node",
    "Tagged",
    "build_fragment",
    "entity_id",
    "slug",
]

EDGE_COSTS = {
    "entity-facetpoint": 0.2,
    "entity-episode": 0.3,
    "facetpoint-facet": 0.1,
    "facetpoint-episode": 0.2,
    "facet-episode": 0.4,
    "heading-episode": 0.2,
}
LAYERS = {"entity": 4, "fp": 3, "facet": 2, "ep": 1}
MAX_ENTITIES_PER_LINE = 6
_SPEAKER = re.compile(r"^\s*(?:[-*+]\s+)?([A-Z][\w'.-]*(?: [A-Z][\w'.-]*)?):\s+\S")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_FIRST = re.compile(r"[^\W\d_][\w-]*")
_PROPER = re.compile(r"(?<=[\w,;:)] )([A-Z][a-z][\w-]{1,30})\b")
# Two to four capitalised words in a row are one name ("Yamane Tax Office"), not three.
_RUN_BEFORE = re.compile(r"(?<![\w'’-])[A-Z][a-z][\w-]{1,30} $")
_RUN_AFTER = re.compile(r" [A-Z][a-z][\w-]{1,30}\b")
_RETAIN_LEAD = re.compile(r"^[BWOS](?:\(c=[\d.]+\))?\s+")
_NAME_RUN = re.compile(r"(?<![\w'’-])([A-Z][a-z][\w-]{1,30}(?: [A-Z][a-z][\w-]{1,30}){1,3})\b")
_AFTER_COLON = re.compile(r"(?<=: )([A-Z][a-z][\w-]{1,30})\b(?! [A-Z])(?!['’]s\b)")
_DEFINES = re.compile(r"^(?:is|are|was|means|=|:|—|-)\s", re.IGNORECASE)
_SLUG = re.compile(r"[^a-z0-9\u00c0-\uffff]+")
_TOPIC_NAME = re.compile(r"^(user|feedback|project|reference)_(.+)$")


class Node(msgspec.Struct, frozen=True, array_like=True):
    """A node: its id (``entity:``, ``fp:``, ``facet:``, ``ep:``), label and matchable text."""

    id: str
    layer: int
    label: str
    text: str


class EpisodeRef(msgspec.Struct, frozen=True, array_like=True):
    """Where an episode is: its id, file, lines, title, day and kind."""

    id: str
    path: str
    start_line: int
    end_line: int
    title: str
    day: str | None
    kind: str


class Tagged(msgspec.Struct, frozen=True, array_like=True):
    """A line attention kept: its place, kind, topic (may be empty), text and entities."""

    path: str
    line: int
    day: str | None
    kind: str
    topic: str
    text: str
    entities: tuple[str, ...] = ()
    episode: str = ""


class Fragment(msgspec.Struct, frozen=True):
    """Everything one file adds to the graph."""

    path: str
    digest: str
    nodes: tuple[Node, ...] = ()
    edges: tuple[Edge, ...] = ()
    episodes: tuple[EpisodeRef, ...] = ()
    tagged: tuple[Tagged, ...] = ()
    dropped: int = 0  # lines attention skipped as greetings or acknowledgements


def slug(text: str) -> str:
    """``text`` as a lowercase slug (``Billing DB`` -> ``billing-db``); CJK is kept."""
    folded = unicodedata.normalize("NFKC", text).lower()
    return _SLUG.sub("-", folded).strip("-")[:48] or "x"


def entity_id(name: str) -> str:
    """The node id of the entity called ``name``."""
    return f"entity:{slug(name)}"


def _body(line: str) -> str:
    """A line without its list marker."""
    return _BULLET.sub("", line).strip()


def _entities(
    line: str, known: frozenset[str] = frozenset(), inner: frozenset[str] = frozenset()
) -> list[str]:
    found: dict[str, str] = {}
    body = _body(line)
    first = _FIRST.match(body)
    if first and first.group(0) in known:  # a name the file uses elsewhere opens the line
        found[slug(first.group(0))] = first.group(0)
    speaker = _SPEAKER.match(line)
    if speaker and (" " in speaker.group(1) or speaker.group(1) in inner):
        found[slug(speaker.group(1))] = speaker.group(1)  # "Lunch: ..." is a label, no one
    from dreamd.engine.text.entities import is_entity_name  # a search needs no fact model

    opens = _opens(body)  # where the sentence starts: its first word is no name
    runs: dict[int, str] = {}  # where a name of several words starts -> the name
    for match in _NAME_RUN.finditer(body):
        parts = match.group(1).split()
        if not all(_plain_name(part) and is_entity_name(part) for part in parts):
            continue
        start = match.start(1)
        said = match.group(1) in known or parts[0] in known or parts[0] in _first_words(known)
        if start == opens and not said:
            if len(parts) < 3:
                continue  # "Met Jun": the opener and one name, which stays a word of its own
            start += len(parts[0]) + 1  # "Met Jun Oda at the cup": Jun Oda
            parts = parts[1:]
        runs[start] = " ".join(parts)
    inside = {start + offset for start, name in runs.items() for offset in range(len(name))}
    named_at = {name for name in runs.values() if f"@{name}" in body}
    for name in mentions(line) if "@" in line else ():
        whole = next((run for run in named_at if run.split()[0] == name), name)
        found.setdefault(slug(whole), whole)  # "@Yamane Tax Office" is the office, not Yamane
    for name in runs.values():
        found.setdefault(slug(name), name)
    opening = {m.start(1) for m in _AFTER_COLON.finditer(body)} | {opens}
    for match in _PROPER.finditer(body):
        word = match.group(1)
        if match.start(1) in inside:
            continue  # a word of a longer name
        if match.start(1) in opening and word not in inner:
            continue  # "Assistant: Pencilled in …", "Sofie: Batch 5 started": a sentence opens
        if _plain_name(word):
            found.setdefault(slug(word), word)
    named = [name for name in found.values() if is_entity_name(name)]
    return named[:MAX_ENTITIES_PER_LINE]


@lru_cache(maxsize=8)
def _first_words(known: frozenset[str]) -> frozenset[str]:
    """The first words of the names of several words in ``known``."""
    return frozenset(name.split()[0] for name in known if " " in name)


def _opens(body: str) -> int:
    """Where a line's sentence starts: after a Retain letter ("B Tax papers …"), else 0."""
    lead = _RETAIN_LEAD.match(body)
    return lead.end() if lead else 0


def _in_run(body: str, start: int, end: int) -> bool:
    """Whether the capitalised word at ``body[start:end]`` is a word of a longer name."""
    before = body[max(0, start - 32) : start]
    return bool(_RUN_BEFORE.search(before) or _RUN_AFTER.match(body, end))


def _plain_name(word: str) -> bool:
    """A capitalised word that is no stop word or everyday word ("Monday" may still be)."""
    return word.lower() not in STOP_WORDS and word.lower() not in EVERYDAY_WORDS


def _defines(line: str, name: str) -> bool:
    body = _body(line)
    speaker = _SPEAKER.match(line)
    if speaker:
        body = line[speaker.end(1) + 1 :].strip()
    if not body.lower().startswith(name.lower()):
        return False
    return _DEFINES.match(body[len(name) :].lstrip() + " ") is not None


class _Builder:
    def __init__(self, path: str) -> None:
        self.path = path
        self.nodes: dict[str, Node] = {}
        self.edges: dict[tuple[str, str], Edge] = {}
        self.texts: dict[str, list[str]] = {}

    def node(self, node_id: str, label: str, *words: str) -> None:
        if node_id not in self.nodes:
            self.nodes[node_id] = Node(node_id, LAYERS[node_id.split(":", 1)[0]], label, "")
            self.texts[node_id] = [label]
        held = self.texts[node_id]
        held.extend(word for word in words if word and word not in held)

    def edge(self, src: str, dst: str, kind: str, reason: str, line: int = 0) -> None:
        cost = EDGE_COSTS[kind]
        old = self.edges.get((src, dst))
        if old is None or cost < old.cost:
            self.edges[(src, dst)] = Edge(src, dst, cost, reason, line)

    def result(self) -> tuple[tuple[Node, ...], tuple[Edge, ...]]:
        nodes = tuple(
            Node(n.id, n.layer, n.label, " ".join(self.texts[n.id][:24]))
            for n in sorted(self.nodes.values(), key=lambda n: n.id)
        )
        return nodes, tuple(sorted(self.edges.values(), key=lambda e: (e.src, e.dst)))


def _topic_entity(path: str, title: str) -> tuple[str, str] | None:
    """(category, name) of a topic file: ``project_atlas.md`` is about Atlas."""
    found = _TOPIC_NAME.match(PurePosixPath(path).stem)
    if found is None:
        return None
    from dreamd.engine.text.entities import is_entity_name

    category = found.group(1)
    name = title if category == "project" else found.group(2).replace("-", " ")
    return (category, name) if is_entity_name(name) else None


def _names(
    text: str, known: frozenset[str], plain: dict[str, list[str]], inner: frozenset[str]
) -> list[str]:
    """``_entities(text, known)``, from the names found without ``known`` when the line's first
    word is not a known name (then both are the same list)."""
    found = plain.get(text)
    if found is None:
        return _entities(text, known, inner)
    first = _FIRST.match(_body(text))
    opens_known = first is not None and (
        first.group(0) in known or first.group(0) in _first_words(known)
    )  # "Brennan Tax Office does …" when the file names Brennan Tax Office elsewhere
    return _entities(text, known, inner) if opens_known else found


def _episode(
    b: _Builder,
    episode: Episode,
    tagged: list[Tagged],
    known: frozenset[str],
    plain: dict[str, list[str]],
    inner: frozenset[str] = frozenset(),
) -> int:
    """Add one episode's nodes and edges; return how many lines attention dropped."""
    texts = [text for _, text in episode.lines]
    words = keywords(texts)
    where = f"{episode.path} § {episode.title}"
    b.node(episode.id, episode.title, *words)
    if episode.kind == "daily" and not re.fullmatch(
        r"[\d\s:,/.apmAPM-]+|\d{4}-\d\d-\d\d.*", episode.title
    ):
        heading = f"facet:topic_{slug(episode.title)}"
        b.node(heading, episode.title)
        b.edge(heading, episode.id, "heading-episode", f"the section is headed {episode.title!r}")
    from dreamd.engine.text.entities import is_topic_word  # a search needs no fact model

    about = _topic_entity(episode.path, episode.title) if episode.kind == "topic" else None
    if about is not None:
        category, name = about
        b.node(entity_id(name), name, *words)
        b.edge(entity_id(name), episode.id, "entity-episode", f"{episode.path} is about {name}")
        if category == "project":
            facet = f"facet:project_{slug(name)}"
            b.node(facet, f"project {name}", *words[:4])
            b.edge(
                facet, episode.id, "facet-episode", f"{episode.path} is the project's topic file"
            )
    dropped = 0
    groups: dict[str, int] = {}
    cued = has_cue("\n".join(texts))
    for number, text in episode.lines:
        if len(text) < 24 and is_noise(_body(text)):
            dropped += 1
            continue
        kind = kind_of(text) if cued else "event"
        own = tuple(word for word in line_keywords(text) if is_topic_word(word, kind))
        topic = next((word for word in words if word in own), own[0] if own else "")
        names = _names(text, known, plain, inner)
        tagged.append(
            Tagged(
                episode.path,
                number,
                episode.day,
                kind,
                topic,
                text.strip(),
                tuple(names),
                episode.id,
            )
        )
        point = f"fp:{kind}.{slug(topic)}" if topic else ""
        if point:
            b.node(point, f"{kind} about {topic}", kind, topic, *own[:4])
            b.edge(
                point,
                episode.id,
                "facetpoint-episode",
                f"line {number} is a {kind} about {topic}",
                number,
            )
            if kind in HIGH:
                group = f"facet:{kind}_group"
                b.node(group, f"{kind} group", kind)
                b.edge(point, group, "facetpoint-facet", f"{kind} about {topic} is a {kind}")
                groups[group] = groups.get(group, 0) + 1
        for name in names:
            entity = entity_id(name)
            defining = [w for w in own if w != name.lower()] if _defines(text, name) else []
            b.node(entity, name, *defining)
            b.edge(
                entity,
                episode.id,
                "entity-episode",
                f"{name} is named on line {number} of {where}",
                number,
            )
            if point:
                b.edge(
                    entity, point, "entity-facetpoint", f"{name} is named in a {kind} about {topic}"
                )
    for group, count in sorted(groups.items()):
        kind = group.removeprefix("facet:").removesuffix("_group")
        b.edge(group, episode.id, "facet-episode", f"{where} holds {count} {kind} line(s)")
    return dropped


def build_fragment(path: str, text: str, digest: str) -> Fragment:
    """The fragment of one file (see the module rules)."""
    b = _Builder(path)
    tagged: list[Tagged] = []
    dropped = 0
    refs = []
    episodes = episodes_of(path, text)
    lines = [line for e in episodes for _, line in e.lines]
    inner = frozenset(
        m.group(1)
        for line in lines
        for m in _PROPER.finditer(_body(line))
        if _body(line)[max(0, m.start(1) - 2) : m.start(1)] != ": "
        and m.start(1) != _opens(_body(line))  # "B Tax papers …": a Retain line's first word
        and not _in_run(_body(line), m.start(1), m.end(1))  # "Tax" of "Brennan Tax Office"
    )
    inner |= frozenset(name for line in lines if "@" in line for name in mentions(line))
    plain = {line: _entities(line, inner=inner) for line in lines}
    known = frozenset(name for names in plain.values() for name in names)
    for episode in episodes:
        dropped += _episode(b, episode, tagged, known, plain, inner)
        refs.append(
            EpisodeRef(
                episode.id,
                path,
                episode.start_line,
                episode.end_line,
                episode.title,
                episode.day,
                episode.kind,
            )
        )
    nodes, edges = b.result()
    return Fragment(path, digest, nodes, edges, tuple(refs), tuple(tagged), dropped)
