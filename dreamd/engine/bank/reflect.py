"""Reflect: from the notes' facts to the bank's pages, as writes for the one writer.

``plan_reflect(bank, notes)`` is pure. It:

1. reads the facts of every note it was given the text of (:func:`~dreamd.engine.bank.facts.
   extract_facts`), reusing the ledger's facts when the note's digest is unchanged, and keeps
   the ledger's facts of the notes it was not given (a sweep reads only its lookback); facts of
   notes that are gone are dropped. With ``proposals`` (a model's checked facts for notes
   without a Retain section), those replace the deterministic ones of their notes;
2. links entities: a fact's ``@mentions`` that pass the one entity rule
   (:func:`~dreamd.engine.text.entities.is_entity_name`: no "@April", "@Correction"; a first
   name alone, "@Ana", read as the one full name it opens, "Ana Lindqvist"; a name whose surname
   a correction replaced read as the corrected one: after "correction: surname Kuusik, not
   Kuusk", "Sirje Kuusk" is "Sirje Kuusik" when the bank knows both, and so is a name the notes
   stopped writing once a spelling a letter away took over,
   :mod:`~dreamd.engine.bank.spellings`) plus the names its text says (as whole words): of pages
   the workspace already has under ``bank/entities/``, of mentions, and full names (two to four
   capitalised words, not a mention's tail, not a code in capitals) that facts of
   :data:`NAMED_NOTES` notes or more say, whole or by a first word that opens only one name
   ("Kadri Põder sent them" one day, "Kadri's Google Form" another); a person's own lines of
   ``MEMORY.md`` count as facts of one more note ("my partner Gergő Lakatos"), a parenthesis
   after a full name gives what it is called ("Orsolya Kertész (Orsi)"), and family named by a
   first name alone ("my mother Fumiko") that facts of as many notes say are people of their
   own, unless the name is a word of a name already known; once a full name that opens with it
   is known ("W @Fumiko Sato"), such a page points to the full name's, where its facts go;
3. plans the opinions (:mod:`dreamd.engine.bank.opinions`), each fact's validity
   (:mod:`dreamd.engine.bank.validity`: from its day, until a later fact replaced it) and the pages
   (:mod:`dreamd.engine.bank.pages`), each block merged around a person's edits
   (:mod:`dreamd.engine.bank.block`);
4. returns ``FileWrite`` entries of kind ``bank`` for the pages that change and for the ledger.

With no facts, no pages and no ledger there is nothing to plan: a workspace that never had a
bank gets none. Reflecting twice plans nothing the second time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from dreamd.engine.bank.block import body_digest, compose_page, merge, split_page
from dreamd.engine.bank.facts import (
    FACT_RULES,
    Fact,
    extract_facts,
    is_fact_source,
    make_fact,
)
from dreamd.engine.bank.ledger import Ledger, NoteFacts, PageRecord, decode_ledger, encode_ledger
from dreamd.engine.bank.opinions import Opinion, plan_opinions
from dreamd.engine.bank.pages import ENTITIES_DIR, Names, entity_key, plan_pages, title_of
from dreamd.engine.bank.spellings import respelled
from dreamd.engine.bank.validity import plan_validity
from dreamd.engine.facts.render import fact_text
from dreamd.engine.plan import FileWrite
from dreamd.engine.snapshot import BankFiles, NoteStat, TextFile
from dreamd.engine.text.entities import is_entity_name
from dreamd.engine.text.memory_entries import memory_entries
from dreamd.layout import BANK_LEDGER, MEMORY_FILE

__all__ = ["BankPlan", "PageResult", "plan_reflect"]

_TITLE = re.compile(r"^#\s+(.+?)\s*#*\s*$")
# A capitalised word turned down ("not Kuusk", "not **Flett**"): where a correction of a name
# can be; only such lines are read with the fact model.
_NAME_TURNED_DOWN = re.compile(
    r"\b(?i:not|nicht|pas|no)\s+\**[A-ZÀ-Þ]"
    r"|[A-ZÀ-Þ][\w'’-]*\s+(?i:was|is)\s+(?i:wrong|a\s+typo|a\s+mishearing|misheard|misspel)"
)
# A capitalised word (an apostrophe only before a capital: "O'Brien", not "Kadri's"), and two to
# four of them in a row: a full name ("Kadri Põder", "Tammelinna Hooldekodu").
_WORD = r"[A-ZÀ-ÖØ-Þ](?:[\w-]|['’](?=[A-ZÀ-ÖØ-Þ]))*"
_CAPITALISED = re.compile(rf"(?<![\w@'’-]){_WORD}")
# a particle inside a name: "Teatro del Puerto", "Festival Piano al Cerro", "Huis ten Bosch"
_PARTICLES = frozenset("del de la di da do dos das van von der den ten du le al el".split())
_PARTICLE = "(?:" + "|".join(sorted(_PARTICLES)) + ")"
_FULL_NAME = re.compile(
    rf"(?<![\w@'’-])({_WORD}(?:[ \t]+(?:{_PARTICLE}[ \t]+)?{_WORD}){{1,3}})(?![\w-])"
)
_IN_MENTION = re.compile(rf"@[\w'’.-]+(?:[ \t]+{_WORD})*[ \t]+$")  # the name goes on a mention
NAMED_NOTES = 2  # a full name facts of this many notes say is an entity


@dataclass(frozen=True)
class PageResult:
    """One planned page: its kind, the facts it holds, and whether a person edited its block."""

    path: str
    kind: str
    facts: tuple[str, ...]
    edited: bool
    kept: int
    changed: bool

    def as_json(self) -> dict[str, Any]:
        """``{"path", "kind", "facts"}`` as ``memory reflect --json`` prints it."""
        return {"path": self.path, "kind": self.kind, "facts": len(self.facts)}


@dataclass(frozen=True)
class BankPlan:
    """What one reflection would write, and what it found."""

    writes: tuple[FileWrite, ...] = ()
    pages: tuple[PageResult, ...] = ()
    opinions: tuple[Opinion, ...] = ()
    facts: tuple[Fact, ...] = ()
    read: tuple[str, ...] = ()  # notes whose facts were read afresh
    claims: Mapping[str, str] = field(default_factory=dict)  # notes read by the claim rule
    warnings: tuple[str, ...] = ()

    def summary(self) -> dict[str, Any]:
        """The sweep summary's ``reflect`` entry."""
        return {
            "facts": len(self.facts),
            "notesRead": len(self.read),
            "pages": len(self.pages),
            "pagesChanged": sum(1 for page in self.pages if page.changed),
            "opinions": len(self.opinions),
            "editedByHand": [page.path for page in self.pages if page.edited],
        }


def _entity_pages(pages: Mapping[str, TextFile]) -> tuple[dict[str, str], dict[str, str]]:
    """Entity key -> title, and key -> path, of every page under ``bank/entities/``."""
    titles: dict[str, str] = {}
    files: dict[str, str] = {}
    for path, page in sorted(pages.items()):
        if not path.startswith(f"{ENTITIES_DIR}/") or path.count("/") != 2:
            continue
        slug = path.rsplit("/", 1)[1].removesuffix(".md")
        first = page.text.split("\n", 1)[0]
        found = _TITLE.match(first)
        title = found.group(1) if found else title_of(slug)
        if entity_key(slug) and entity_key(slug) not in files:
            titles[entity_key(slug)] = title
            files[entity_key(slug)] = path
    return titles, files


def _aliases(facts: list[Fact], titles: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """What a name stands for: a name whose surname a correction replaced, or that the notes
    stopped writing for a spelling a letter away (:mod:`~dreamd.engine.bank.spellings`) -> the
    corrected name; a one-word name -> the one longer name it opens ("Ana" -> "Ana
    Lindqvist"), or the one full name a note gives it in brackets ("Dad (Denis Cotter, 86)").
    Returned whole, and the renamed ones alone."""
    known = {entity_key(t): title_of(t) for t in [*titles.values(), *_mentioned(facts)]}
    corrected = {**respelled(facts, known), **_corrected(facts, known)}
    longer: dict[str, set[str]] = {}
    for key, title in known.items():
        words = title.split()
        if len(words) > 1 and key not in corrected:
            longer.setdefault(entity_key(words[0]), set()).add(title)
    aliases = {key: next(iter(names)) for key, names in longer.items() if len(names) == 1}
    for key, name in _named_after(facts).items():
        if key in known and key not in aliases and key not in corrected:
            corrected[key] = name  # "Dad (Denis Cotter, 86)": @Dad is Denis Cotter
    return {**aliases, **corrected}, corrected


_NAMED_AFTER = re.compile(
    rf"(?<![\w@'’-])({_WORD})[ \t]*\(({_WORD}(?:[ \t]+{_WORD}){{1,3}})[ \t]*(?:[,;][^()]*)?\)"
)


def _named_after(facts: list[Fact]) -> dict[str, str]:
    """A one-word name followed by a full name in brackets, the full one first there: "Dad
    (Denis Cotter, 86)" -> ``{"dad": "Denis Cotter"}``; a word given two full names is none."""
    found: dict[str, set[str]] = {}
    for fact in facts:
        for match in _NAMED_AFTER.finditer(fact.text):
            short, name = match.group(1), " ".join(match.group(2).split())
            if is_entity_name(short) and all(is_entity_name(w) for w in name.split()):
                found.setdefault(entity_key(short), set()).add(name)
    return {key: next(iter(names)) for key, names in found.items() if len(names) == 1}


def _mentioned(facts: list[Fact]) -> list[str]:
    return [e for f in facts for e in f.entities]


def _corrected(facts: list[Fact], known: Mapping[str, str]) -> dict[str, str]:
    """Names a correction replaced -> the names it gives: "Correction: surname Kuusik, not
    Kuusk" makes "Sirje Kuusk" "Sirje Kuusik" when both are names the bank knows. Only a line
    read as a correction: "Café Central, not Café Landtmann" is a choice between two places."""
    from dreamd.engine.facts.statement import read_statement

    renamed: dict[str, set[str]] = {}
    for fact in facts:
        if not _NAME_TURNED_DOWN.search(fact.text):
            continue
        statement = read_statement(fact.text)
        if statement.change != "correction":
            continue
        old = {v[5:] for v in statement.replaced if v.startswith("name:")}
        new = {v[5:] for v in statement.values if v.startswith("name:")}
        new |= {entity.split()[-1].casefold() for entity in fact.entities if entity.split()}
        new -= old  # "W @Tomas Brant: our plumber (Brandt was a typo)" names Brant by its entity
        for key, title in known.items():
            words = title.split()
            if len(words) < 2 or words[-1].casefold() not in old:
                continue
            for name in new:
                target = entity_key(" ".join([*words[:-1], name]))
                if target in known and target != key:
                    renamed.setdefault(key, set()).add(known[target])
    return {key: next(iter(names)) for key, names in renamed.items() if len(names) == 1}


def _link(facts: list[Fact], titles: dict[str, str]) -> tuple[list[Fact], dict[str, str]]:
    """Every fact with its entities: mentions (a first name alone read as the one full name it
    opens), then the names its text says: pages', mentions' and full names facts of several
    notes say, whole or by a first word that opens only one of them; a renamed one (misspelt,
    corrected) read as the name it became. Returned with the renamed keys -> their names."""
    aliases, renamed = _aliases(facts, titles)
    named = []
    for fact in facts:
        kept = (aliases.get(entity_key(e), e) for e in fact.entities if is_entity_name(e))
        entities = tuple(dict.fromkeys(kept))
        named.append(replace(fact, entities=entities) if entities != fact.entities else fact)
    facts = named
    for fact in facts:
        for name in fact.entities:
            titles.setdefault(entity_key(name), title_of(name))
    for key, name in _named_in_notes(facts, titles).items():
        titles.setdefault(key, name)
    kin = _kin_words(facts)
    for key, name in _kin_named(facts, titles, kin).items():
        titles.setdefault(key, name)
    # "my brother Armando" is Armando Nhantumbo, once he is known: his page points there
    renamed = {**_kin_full_names(kin, titles, aliases), **renamed}
    said = {title: title for title in titles.values() if title}
    for key, title in renamed.items():
        if titles.get(key):
            said[titles[key]] = title  # "Jacinta Odera was at the lands office": Odero
    named_now = {key: title for key, title in titles.items() if key not in renamed}
    for word, title in _first_words(named_now).items():
        said.setdefault(word, title)
    for alias, key in _called(facts).items():
        if titles.get(key):
            said.setdefault(alias, titles[key])  # "Orsi" is Orsolya Kertész
    if not said:
        return facts, renamed
    names = sorted(said, key=len, reverse=True)
    spoken = re.compile(r"(?<![\w@-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")
    linked = []
    for fact in facts:
        seen = {entity_key(e) for e in fact.entities}
        extra = []
        for match in spoken.finditer(fact.text):
            title = said[match.group(1)]
            key = entity_key(title)
            if key not in seen:
                seen.add(key)
                extra.append(title)
        linked.append(replace(fact, entities=(*fact.entities, *extra)) if extra else fact)
    return linked, renamed


def _kin_full_names(
    kin: set[str], titles: Mapping[str, str], aliases: Mapping[str, str]
) -> dict[str, str]:
    """A one-word page of family ("my brother Armando", named so before his full name was
    known; ``kin``: the names facts give family) -> the one full name that opens with it: the
    page's facts go to the person."""
    found = {}
    for key, title in titles.items():
        longer = aliases.get(key)
        if title in kin and len(title.split()) == 1 and longer and longer.split()[0] == title:
            found[key] = longer
    return found


def _first_words(titles: Mapping[str, str]) -> dict[str, str]:
    """A full name's first word -> the name, when it opens no other name and is no entity of
    its own ("Kadri's form" is Kadri Põder's; "Tallinn" stays Tallinn)."""
    opened: dict[str, set[str]] = {}
    for title in titles.values():
        words = title.split()
        if len(words) > 1 and entity_key(words[0]) not in titles and is_entity_name(words[0]):
            opened.setdefault(words[0], set()).add(title)
    return {word: next(iter(names)) for word, names in opened.items() if len(names) == 1}


def _named_in_notes(facts: list[Fact], titles: Mapping[str, str]) -> dict[str, str]:
    """Full names no mention or page gives that facts of :data:`NAMED_NOTES` notes or more say,
    whole or by the first word alone when it opens no other name: "Kadri Põder sent them" on
    one day and "Kadri's Google Form" on another make Kadri Põder an entity."""
    full: dict[str, str] = {}
    for fact in facts:
        for match in _FULL_NAME.finditer(fact.text):
            if _IN_MENTION.search(fact.text, 0, match.start()):
                continue  # "Road Allotment Society" of "@Stonegate Road Allotment Society"
            name = " ".join(match.group(1).split())
            key = entity_key(name)
            parts = name.split()
            if key in titles or not any(_lettered(part) for part in parts):
                continue  # a plate or a code ("SY73 HWL") names no one
            if all(is_entity_name(part) for part in parts if part not in _PARTICLES):
                full.setdefault(key, name)
    if not full:
        return {}
    opening: dict[str, set[str]] = {}
    for key, name in full.items():
        opening.setdefault(name.split()[0], set()).add(key)
    called = {alias: key for alias, key in _called(facts).items() if key in full}
    notes: dict[str, set[str]] = {}
    for fact in facts:
        said = set(_CAPITALISED.findall(fact.text))
        for word in said & opening.keys():
            for key in opening[word]:
                alone = len(opening[word]) == 1 and is_entity_name(word)
                if alone or full[key] in fact.text:
                    notes.setdefault(key, set()).add(fact.path)
        for alias in said & called.keys():
            notes.setdefault(called[alias], set()).add(fact.path)
    return {key: full[key] for key, paths in notes.items() if len(paths) >= NAMED_NOTES}


_KIN = re.compile(
    r"\b(?:[Mm]y|[Oo]ur)\s+(?:(?:late|older|younger|little|big|eldest|youngest)\s+)?"
    r"(?:mother|mum|mom|father|dad|husband|wife|partner|son|daughter|brother|sister|"
    r"grandmother|grandma|granny|gran|grandfather|grandpa|grandad|aunt|auntie|uncle|cousin|"
    r"niece|nephew|stepson|stepdaughter|stepmother|stepfather|mother-in-law|father-in-law)"
    rf"\s+({_WORD})(?![\w-])"
)


def _kin_words(facts: list[Fact]) -> set[str]:
    """The names facts give family by a first name alone ("my mother Fumiko", "our son Ren")."""
    return {match.group(1) for fact in facts for match in _KIN.finditer(fact.text)}


def _kin_named(facts: list[Fact], titles: Mapping[str, str], said: set[str]) -> dict[str, str]:
    """Family named by a first name alone (``said``: :func:`_kin_words`), in facts of
    :data:`NAMED_NOTES` notes or more: a person of their own, unless the name opens or is a
    word of a name already known ("my husband Shun" is Shun Haraguchi)."""
    words = {word for title in titles.values() for word in title.split()}
    kin = {name for name in said if is_entity_name(name) and name not in words}
    if not kin:
        return {}
    paths: dict[str, set[str]] = {}
    for fact in facts:
        for word in kin & set(_CAPITALISED.findall(fact.text)):
            paths.setdefault(word, set()).add(fact.path)
    return {entity_key(name): name for name, seen in paths.items() if len(seen) >= NAMED_NOTES}


_CALLED = re.compile(rf"(?<![\w@'’-])({_WORD}(?:[ \t]+{_WORD}){{1,3}})[ \t]*\(({_WORD})\)")


def _called(facts: list[Fact]) -> dict[str, str]:
    """What a full name is called, from a parenthesis after it: "Orsolya Kertész (Orsi)" ->
    ``{"Orsi": key of Orsolya Kertész}``."""
    found: dict[str, str] = {}
    for fact in facts:
        for match in _CALLED.finditer(fact.text):
            name, alias = " ".join(match.group(1).split()), match.group(2)
            if is_entity_name(alias) and alias not in name.split():
                found.setdefault(alias, entity_key(name))
    return found


def _memory_facts(memory: TextFile | None) -> list[Fact]:
    """A person's own lines of ``MEMORY.md`` as world facts (origin ``memory``; promoted
    entries are the notes' facts again, so they are left out): "I live in Hosszúhetény with my
    partner Gergő Lakatos" says who Gergő is and names him for the notes' "Gergő"."""
    if memory is None or not memory.text.strip():
        return []
    found = []
    for entry in memory_entries(memory.text):
        if entry.key is not None:
            continue
        fact = make_fact(
            MEMORY_FILE, "world", fact_text(entry.text), (), None, entry.line, "memory"
        )
        if fact is not None:
            found.append(fact)
    return found


def _lettered(word: str) -> bool:
    """A word written with small letters ("Hooldekodu"), not a code in capitals ("HWL")."""
    return any(char.islower() for char in word)


def _note_facts(
    bank: BankFiles,
    notes: Mapping[str, NoteStat],
    ledger: Ledger,
    proposals: Mapping[str, tuple[Fact, ...]] | None,
) -> tuple[dict[str, NoteFacts], list[str], dict[str, str]]:
    kept: dict[str, NoteFacts] = {}
    read: list[str] = []
    claims: dict[str, str] = {}
    for path in sorted(notes):
        if not is_fact_source(path):
            continue
        text = bank.notes.get(path)
        old = ledger.notes.get(path)
        if text is None or not text.exists:
            if old is not None:
                kept[path] = old
            continue
        digest = f"{text.digest or ''}+r{FACT_RULES}"  # read again under newer rules
        if proposals is not None and path in proposals:
            kept[path] = NoteFacts(digest, proposals[path])
            continue
        if old is not None and old.digest == digest:
            kept[path] = old
            continue
        facts = extract_facts(path, text.text)
        read.append(path)
        if facts and all(f.origin in ("claim", "retraction") for f in facts):
            claims[path] = text.text
        kept[path] = NoteFacts(digest, facts)
    return kept, read, claims


def plan_reflect(
    bank: BankFiles,
    notes: Mapping[str, NoteStat],
    *,
    proposals: Mapping[str, tuple[Fact, ...]] | None = None,
) -> BankPlan:
    """Plan one reflection (see the module rules)."""
    ledger = decode_ledger(bank.ledger.text)
    warnings = [ledger.issue] if ledger.issue else []
    by_note, read, claims = _note_facts(bank, notes, ledger, proposals)
    titles, files = _entity_pages(bank.pages)
    raw = [fact for entry in by_note.values() for fact in entry.facts]
    raw += _memory_facts(bank.memory)
    raw.sort(key=lambda f: (f.day or "", f.path, f.line, f.id))
    facts, renamed = _link(raw, titles)
    opinions = plan_opinions(facts)
    validity = plan_validity(facts)
    plans = plan_pages(facts, opinions, Names(titles, files, renamed), bank.pages, validity)
    if not plans and not bank.ledger.exists:
        return BankPlan(facts=tuple(facts), read=tuple(read), warnings=tuple(warnings))
    writes: list[FileWrite] = []
    results: list[PageResult] = []
    records: dict[str, PageRecord] = {}
    for page in plans:
        current = bank.pages.get(page.path)
        parts = split_page(current.text) if current is not None else None
        if parts is not None and parts.broken:
            warnings.append(f"{page.path}: the bank block has no end marker; page left as it is")
            continue
        record = ledger.pages.get(page.path)
        body = parts.body if parts is not None else None
        merged = merge(
            body,
            page.lines,
            owned=record.lines if record and current else frozenset(),
            placed=record.keys if record and current else frozenset(),
        )
        text = compose_page(page.title, current.text if current else None, merged.body)
        edited = record is not None and body is not None and body_digest(body) != record.digest
        changed = current is None or text != current.text
        if changed:
            digest = current.digest if current is not None else None
            writes.append(FileWrite(page.path, text, digest, "bank"))
        records[page.path] = PageRecord(body_digest(merged.body), merged.owned, merged.keys)
        results.append(PageResult(page.path, page.kind, page.facts, edited, merged.kept, changed))
    fresh = Ledger(by_note, records)
    encoded = encode_ledger(fresh)
    if encoded != bank.ledger.text:
        writes.append(FileWrite(BANK_LEDGER, encoded, bank.ledger.digest, "bank"))
    return BankPlan(
        writes=tuple(writes),
        pages=tuple(results),
        opinions=opinions,
        facts=tuple(facts),
        read=tuple(read),
        claims=claims,
        warnings=tuple(warnings),
    )
