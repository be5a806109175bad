"""Which concept tags can be a REM theme: a theme names a thing people would act on.

Concept tags feed the deep score as they are (their count is a signal, so OpenClaw's scores stay
the same); a *theme* is held to more. A tag is not a theme when it is

* a stop word of any language the tokenizer handles (:data:`~dreamd.engine.text.concepts.
  STOP_WORDS`) or one of the everyday words those lists leave in: indefinites and quantities
  (``anyone``, ``nothing``, ``lot``), judgements and sizes (``fine``, ``small``, ``great``),
  times of day and weekdays, in English, Spanish, French and German;
* a single common verb, in any of its forms (``answered``, ``moves``, ``hizo``, ``fait``,
  ``gemacht``), or the -ed and -ing forms of one that is as often a noun (``worked``,
  ``checking``, ``blocking``; a ``review`` or a ``deploy`` can still be a theme);
* an id: an agent's id, a session id (``main/s1``, ``s12``), a line reference, a hash or uuid
  (seven or more hex digits with a digit in them);
* a number, a range, a time or a date (digits and the signs between them: ``1.00``, ``51-54``,
  ``10:30``, ``2026-04-16``), or a file name (``2026-04-16.txt``, ``notes.md``, ``a/b.json``:
  a name ending in a file extension of :data:`~dreamd.engine.text.concepts.FILE_EXTENSIONS`;
  ``.js`` names a framework as often as a file, so ``node.js`` stays);
* a word for the workspace's own machinery (``note``, ``files``, ``line``, ``daily``, ``score``:
  stop words of OpenClaw 2026.9 that rows tagged by earlier releases still carry).

Stored tags are re-normalised first (:func:`theme_tag`: NFKC, edge punctuation dropped, ``_`` as
``-``, lowercase, as OpenClaw reads them), so ``Note`` or ``notes:`` from a migrated store is the
same tag as ``note``. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from dreamd.engine.text.concepts import FILE_EXTENSIONS, STOP_WORDS

__all__ = ["COMMON_VERBS", "EVERYDAY_WORDS", "MACHINERY_WORDS", "is_theme", "theme_tag"]

_EVERYDAY = """
anyone anybody anything anywhere someone somebody somewhere everyone everybody everything
everywhere nobody nothing nowhere none whole lot lots bit kind sort stuff fine good great
okay nice bad better worse best worst little small big large long short quick quickly usual
usually actually basically really pretty enough first second third last next early late
morning afternoon evening night tonight week weeks month months day days hour hours minute
minutes time times monday tuesday wednesday thursday friday saturday sunday mondays tuesdays
wednesdays thursdays fridays saturdays sundays today yesterday tomorrow
nadie nada algo alguien alguno alguna todo bien mal bueno buena poco mucho mañana tarde noche
semana día días hora horas
personne rien quelque quelqu'un chose bien mal bon bonne petit grand matin soir nuit semaine
jour jours heure heures
niemand nichts etwas jemand alles gut schlecht klein groß morgen abend nacht woche tag tage
stunde stunden
"""
_VERB_STEMS = """
answer go went gone do did done make made get got gotten take took taken say said see saw seen
come came give gave given find found think thought tell told ask try tried keep kept let put
seem feel felt leave left finish talk meet met spend spent need want bring brought begin began
begun write wrote written read sit lose lost pay paid hear heard follow happen agree decide
discuss mention continue send sent catch caught handle add remove move
hacer hace hizo hecho tener tiene tuvo ir fue decir dijo ver vio dar dio estar estuvo poner puso
faire fait avoir eu aller allé dire dit voir vu mettre mis prendre pris venir venu
machen macht gemacht haben hatte gehabt gehen ging gegangen sagen sagte gesagt sehen sah gesehen
geben gab gegeben kommen kam gekommen nehmen nahm genommen
"""
# Verbs that are as often nouns ("a check", "the review"): only their -ed and -ing forms go.
_NOUN_VERB_STEMS = """
work call check look use show turn run set stand play open close wait stop change fix review
update plan note start help share test deploy release ship block
"""
EVERYDAY_WORDS: frozenset[str] = frozenset(_EVERYDAY.split())
MACHINERY_WORDS: frozenset[str] = frozenset(
    "note notes file files line lines daily text search score main subagent default called"
    " cjs mjs cts mts cpp".split()
)
_EDGE = re.compile(r"^[^\w]+|[^\w]+$")


def _forms(stem: str) -> set[str]:
    if not stem.isascii() or len(stem) < 3:
        return {stem}
    base = stem[:-1] if stem.endswith("e") else stem
    forms = {stem, f"{stem}s", f"{base}ing", f"{base}ed" if stem.endswith("e") else f"{stem}ed"}
    if stem.endswith("y"):
        forms |= {f"{stem[:-1]}ies", f"{stem[:-1]}ied"}
    if re.fullmatch(r".*[^aeiou][aeiou][bdgmnpt]", stem) and len(stem) <= 4:
        forms |= {f"{stem}{stem[-1]}ed", f"{stem}{stem[-1]}ing"}
    if stem.endswith(("sh", "ch", "x")):
        forms.add(f"{stem}es")
    return forms


def _verbal(stem: str) -> set[str]:
    forms = {form for form in _forms(stem) if form.endswith(("ed", "ing"))}
    return forms | {"ran", "stood"} if stem in ("run", "stand") else forms


COMMON_VERBS: frozenset[str] = frozenset(
    {form for stem in _VERB_STEMS.split() for form in _forms(stem)}
    | {form for stem in _NOUN_VERB_STEMS.split() for form in _verbal(stem)}
)
_HASH = re.compile(r"^(?=[0-9a-f]*\d)[0-9a-f]{7,}$|^[0-9a-f]{8}-[0-9a-f]{4}-")
_NUMERIC = re.compile(r"^(?=.*\d)[\d.,:;/+%×x~\u2010-\u2015-]+$")
_FILE_NAME = re.compile(r"^[^\s]*[^\s./]\.([a-z0-9]{1,5})$")
_SESSION = re.compile(r"^(?:[\w.-]+/)?s\d+(?:#l\d+)?$|^#?l\d+(?:-l?\d+)?$")


def theme_tag(tag: str) -> str | None:
    """A stored concept tag re-normalised (see the module rules); ``None`` when nothing is left."""
    text = _EDGE.sub("", unicodedata.normalize("NFKC", tag)).replace("_", "-").lower()
    return text if any(char.isalnum() for char in text) else None


def is_theme(tag: str, *, ids: Iterable[str] = ()) -> bool:
    """True when ``tag`` can name a REM theme (see the module rules)."""
    word = theme_tag(tag) or ""
    if not word or word in STOP_WORDS or word in EVERYDAY_WORDS or word in COMMON_VERBS:
        return False
    if word in MACHINERY_WORDS:
        return False
    if _HASH.match(word) or _SESSION.match(word) or _NUMERIC.match(word):
        return False
    name = _FILE_NAME.match(word)
    if name and name.group(1) in FILE_EXTENSIONS and name.group(1) != "js":
        return False
    known = {identifier.lower() for identifier in ids}
    if word in known:
        return False
    parts = re.split(r"[/#:]", word)
    return not (len(parts) > 1 and parts[0] in known)
