"""What can be an entity: the one rule for graph entities, bank pages and topic files.

Entities are people, organisations, projects, places and tools. A name is one when something
names it as such: an ``@mention``, a Retain bullet's entity, a page under ``bank/entities/``, a
speaker, or a capitalised word inside a sentence seen in several notes. Whatever the source,
:func:`is_entity_name` refuses:

* weekday and month names (and parts of the day), in every language
  :mod:`dreamd.engine.facts.values` reads, and their English short forms ("Feb", "Thu";
  not "Jun", which can name a person);
* the salience and note-taking tag words (``Correction``, ``Error``, ``Decision``, ``Lesson``,
  ``Update``, ``Note``, ``Retain``, the category headings and cue heads
  :mod:`dreamd.engine.facts.statement` knows...) and ``user``;
* verbs and sentence openers (``Prefers``, ``Decided``, ``Moved``, ``Switched``, the verbs
  :mod:`dreamd.engine.facts.statement` reads after a subject), function words;
* a letter's greeting ("Dear", "Estimada", "Liebe", "Hola");
* anything without a letter, or of one letter.

A name of several words is refused when its first word is refused ("Correction Ana" is not a
name; "Ana Lindgren" is; a leading "The" is set aside: "The Castle"). :func:`is_topic_word`
tells a FacetPoint's topic from a tag word or a
number. :data:`APPS` names messaging and office apps, which are tools, never projects. Pure.
"""

from __future__ import annotations

import re
import unicodedata

from dreamd.engine.text.concepts import STOP_WORDS
from dreamd.engine.text.salience import KINDS

__all__ = [
    "APPS",
    "CALENDAR",
    "CATEGORIES",
    "TAG_WORDS",
    "is_entity_name",
    "is_project_name",
    "is_topic_word",
]

# The word lists are written out here, not taken from engine.facts: the graph applies this rule
# while a search indexes notes, and a per-turn search must not load the fact model
# (tests/recall/test_current.py). tests/engine/test_entities.py keeps them in step with it.
CALENDAR = frozenset(
    """
    dienstag dienstags dimanche dimanches dinsdag domenica domingo domingos donderdag
    donnerstag donnerstags freitag freitags friday fridays giovedi giovedì jeudi jeudis
    jueves lundi lundis lunedi lunedì lunes maandag mardi mardis martedi martedì martes
    mercoledi mercoledì mercredi mercredis miercoles mittwoch mittwochs miércoles monday
    mondays montag montags quarta quarta-feira quinta quinta-feira sabado sabato samedi
    samedis samstag samstags saturday saturdays segunda segunda-feira sexta sexta-feira
    sonntag sonntags sunday sundays sábado sábados terca terça terça-feira thur thurs
    thursday thursdays tues tuesday tuesdays vendredi vendredis venerdi venerdì viernes
    vrijdag wednesday wednesdays woensdag zaterdag zondag
    abril agosto aout août april aprile august augustus avril december decembre dezember
    dezembro dicembre diciembre décembre enero febbraio febrero februar februari february
    fevereiro fevrier février gennaio giugno janeiro januar januari january janvier juillet
    juin julho juli julio july june junho juni junio luglio maart maerz maggio maio march
    mars marzo março mayo märz november novembre novembro noviembre october octobre octubre
    oktober ottobre outubro sept september septembre septiembre setembro settembre
    abends afternoon afternoons evening evenings lunchtime matin mañana morgens morning
    mornings nachmittags night nights soir tarde vormittags
    jan feb mar apr aug sep oct nov dec mon tue wed thu fri sat sun
    """.split()
)
# Feasts and holidays, alone: "Easter" is when, not who ("Christmas Market Committee" is who).
HOLIDAYS = frozenset(
    """
    easter christmas xmas ramadan eid diwali hanukkah chanukah passover pesach thanksgiving
    halloween pentecost whitsun advent lent carnaval karneval fasching midsummer ostern
    weihnachten pâques paques noël noel navidad páscoa pascoa
    """.split()
)
# Titles before a name ("Adv Pillay", "Dr Okafor"): the name is what follows.
TITLES = frozenset(
    """
    mr mrs ms miss mx dr prof adv advocate rev fr sr br sgt capt cllr hon judge sir dame
    """.split()
)
CATEGORIES = frozenset(
    """
    admin afternoon agenda background business call calls canceled cancelled change changed chat
    errands finances household house shopping
    client clients config configuration confirmed contact contacts context conversation
    corrected correction corrections daily decided decision decisions errors evening fact
    facts family finance follow-up follow-ups followups fyi health highlights home how-to
    howto ideas important inbox infra infrastructure journal kids learned learnings lesson
    lessons links log made meeting meetings memories memory misc miscellaneous mistakes
    money morning moved new note noted notes open operations ops people personal plan plans
    preference preferences procedure procedures project projects questions reminder
    reminders retain reversed rule rules schedule school setup status summary switched task
    tasks to-do today todo todos tomorrow transcript travel update updated updates week
    weekend work worklog yesterday
    """.split()
)
_SUBJECT_VERBS = frozenset(
    """
    agreed agrees already also always are asked asks called calls came can comes confirmed
    confirms could covered covers decided decides did does doesnt dont drives drove gets
    goes got had handled handles has hated hates have is joined joins just keeps kept knew
    knows leads leaves led left liked likes lived lives loved loves managed manages may
    might moved moves must needed needs never no now often only owned owns paid pays played
    plays preferred prefers ran really reviewed reviews runs said says sends sent should
    started starts stayed stays still stopped stops swam swims switched switches takes tells
    thinks thought told took trained trains used uses usually wanted wants was went were
    will worked works would writes wrote resigned retired stood stepped
    """.split()
)

TAG_WORDS = frozenset(
    {
        *KINDS,
        *CATEGORIES,
        *"""
        user users error errors mistake mistakes lesson lessons learning learnings insight
        insights correction corrections fix fixed bug bugs issue issues feedback todo done
        decision decisions completed event events note notes update updates reminder reminders
        retain summary important fyi warning warn info debug trivia status pending fact facts
        preference preferences opinion opinions observation observations world experience
        tomorrow today yesterday tonight morning afternoon evening night weekend week month year
        """.split(),
    }
)
# A letter's greeting before a name ("Estimada Javiera", "Dear Tom"): the name is no org.
SALUTATIONS = frozenset(
    """
    dear dearest estimada estimado estimados estimadas querida querido queridos liebe lieber
    chère cher gentile gentili egregio hola hello hi hey bonjour bonsoir buenas buenos saludos
    regards cheers olá prezado prezada
    """.split()
)
_VERBS = frozenset(
    """
    prefers prefer preferred likes like liked loves love hates hate dislikes dislike wants
    want needs need uses use used moved move switched switch changed change decided decide
    agreed agree stopped stop started start cancelled canceled reversed booked sent asked told
    said called emailed texted paid fixed tried remember remind check confirm confirmed keep
    kept avoid avoids always never also still just please thanks thank yes ok okay
    """.split()
)
APPS = frozenset(
    """
    whatsapp telegram signal slack discord teams zoom skype facetime messenger imessage sms
    email e-mail gmail outlook calendar notion excel word powerpoint docs sheets drive dropbox
    google github gitlab jira trello asana chatgpt openclaw dreamd
    """.split()
)
_LETTER = re.compile(r"[^\W\d_]")


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold().strip(".,;:!?'’\"()[]")


def _refused(word: str) -> bool:
    folded = _fold(word).removesuffix("'s").removesuffix("’s")
    if len(folded) < 2 or not _LETTER.search(folded):
        return True
    bare = folded.rstrip(".")
    if folded in CALENDAR or bare in CALENDAR or bare in TITLES:
        return True
    if folded in TAG_WORDS or folded in _VERBS or folded in STOP_WORDS or folded in SALUTATIONS:
        return True
    return folded in _SUBJECT_VERBS


def is_entity_name(name: str) -> bool:
    """True when ``name`` can name an entity (see the module rules)."""
    words = name.lstrip("@").replace("-", " ").replace("_", " ").split()
    if len(words) > 1 and (_fold(words[0]) == "the" or _fold(words[0]).rstrip(".") in TITLES):
        words = words[1:]  # "The Castle" is named by "Castle", "Adv Pillay" by "Pillay"
    if len(words) > 1 and len(words[0]) == 1 and words[0].isupper() and not words[0].isascii():
        words = words[1:]  # "Ó Dálaigh Stone & Lime" is named by "Dálaigh"
    if not words or _refused(words[0]):
        return False
    if len(words) == 1 and _fold(words[0]) in HOLIDAYS:
        return False
    return not (len(words) == 1 and _fold(words[0]).endswith(("ing", "ed")) and name.islower())


def is_project_name(name: str) -> bool:
    """An entity that can be a project: an entity name that is not an app or a channel."""
    return is_entity_name(name) and _fold(name.lstrip("@")) not in APPS


def is_topic_word(word: str, kind: str = "") -> bool:
    """A FacetPoint's topic: a word with letters, not the line's own kind, not a tag word."""
    folded = _fold(word)
    if folded == kind or folded in TAG_WORDS or not _LETTER.search(folded):
        return False
    return not any(part in folded for part in ("secret", "password", "token", "api-key"))
