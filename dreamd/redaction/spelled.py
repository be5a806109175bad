"""Secrets spelled out letter by letter, or given in pieces, after a word that names a secret.

People read a password out the way they would on the phone, and notes keep it so:

* **Spelled.** After a password, PIN or code word in the same sentence (within a few words:
  ``spelling it for you:``, ``she read it out:``), four items or more in a row, two of them
  at least spelling ones: a letter *as in* a word (``K as in kilo``, ``A comme Anatole``, ``R
  come Roma``, ``D wie Dora``), a letter's case (``capital T``, ``lowercase r``, ``small g``,
  ``großes A``), a word of a spelling alphabet (NATO's ``papa``, ``echo``…, the German
  ``Dora``, ``Nordpol``…, the French ``Anatole``, ``Zoé``…, the Italian ``Roma``,
  ``Torino``…), a number word in English, German, French, Italian, Spanish, Dutch or
  Portuguese (``nine``, ``vier``, ``neuf``, ``sette``…), ``the number 5``, or a symbol's name
  (``hash``, ``at sign``, ``star``, ``dièse``, ``chiocciola``, ``Raute``…); the others single
  letters and digits. Items are parted by commas, spaces, hyphens, an ellipsis, ``then`` or
  ``and``. The items are the secret: ``nine four one seven`` after ``the alarm code is``.
* **Dictated.** A voice note's transcript reads a password the same way in any language:
  a letter's case before it (``iso W``, ``pieni d`` in Finnish, ``velké D``, ``malé h`` in
  Czech, ``duże``, ``małe``, ``stora``…) or after it (``F kubwa``, ``x ndogo`` in Swahili, ``A
  besar``), number words (``nolla``, ``tři``, ``sifuri``, ``tano``…) and symbols' names
  (``huutomerkki``, ``tähti``, ``vykřičník``, ``alama ya kuuliza``…). A question between the
  secret word and the run (``the router password, ready? capital G, …``) does not end the
  search; and three letters or more given with their case in a run of four items need no
  secret word at all (``for the shop laptop it's capital G, lowercase y, capital Z, …``), nor
  do two with two digits or symbols' names among the items (``capital P, then 4, lowercase
  x, dollar sign, …``): no one dictates a word letter by letter with its case but a password.
* **Typed one at a time.** After a secret word (``login``, ``wifi`` and ``alarm`` among them)
  and a word that gives a value, six single characters or more, letters and digits mixed:
  ``the laptop login is M a r g o t 1 9 8 4``; after any label's colon, eight or more with
  letters of both cases and digits (``NAS: T o g g e n 8 4``, letter-spaced).
* **The rest of a value given in pieces.** After a line that gives the first part of a secret
  (``first half of the DB password: …``), a line that gives the rest (``second half``,
  ``other half``, ``the rest``, ``part 2``, ``zweite Hälfte``, ``deuxième moitié``…), then a
  colon and the value. And ``the two pieces glued together, Hollow and Pine#62``: after a
  secret word, pieces said to be joined, and the two values joined.

``Alpha, Bravo and Charlie teams`` (no secret word, three items), ``the call sign is Echo
Seven`` and ``Apartment 4B, B as in boy`` stay.

* **Said aloud.** ``double one`` and ``triple zero`` are two and three items of a run; within
  six words of a secret's word, a word (perhaps ``with a capital``), numbers and a sign's name
  last (``cenote 1997 Ausrufezeichen``, ``Cenote with a capital, then 547, then a dollar
  sign``); after a word that gives a value, digits read in groups between ellipses (``343…
  202…``); after a word that asks for a call, a phone number in seven number words or more
  (``oh two seven, five nine four, …``; in French, Spanish, Portuguese, Italian and German
  too, after ``rappelle``, ``móvil``, ``telemóvel``…). Pure; standard library only.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.prose import DESCRIBING as _DESCRIBING
from dreamd.redaction.prose import password_shaped
from dreamd.redaction.scan import find_words

__all__ = ["find_spelled_secrets"]

_TRIGGER_WORDS = tuple(
    "password;passwords;passwort;kennwort;passphrase;passcode;pw;pwd;pin;code;combo;combination"
    ";mot de passe;contraseña;clave;senha;wachtwoord;parola;hasło;lösenord;codice;código;kod"
    ";türcode;tür-code;digicode;tresorcode;salasana;salasanan;salasanaksi;heslo;hesla;nenosiri"
    ";nywila;neno la siri;jelszó;şifre;пароль;kata sandi;login;wifi;wi-fi;wlan;alarm;keypad"
    "".split(";")
)
_SPELLING_WORDS = (
    # NATO and ICAO
    "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo lima mike"
    " november oscar papa quebec romeo sierra tango uniform victor whiskey whisky x-ray xray"
    " yankee zulu"
    # German (DIN 5009, the names)
    " anton berta cäsar caesar dora emil friedrich gustav heinrich ida julius kaufmann ludwig"
    " martha nordpol otto paula quelle richard samuel siegfried theodor ulrich viktor wilhelm"
    " xanthippe ypsilon zacharias zeppelin"
    # French
    " anatole berthe célestin désiré eugène françois gaston henri irma joseph kléber louis"
    " marcel nicolas pierre quintal raoul suzanne thérèse ursule william xavier yvonne zoé"
    # Italian
    " ancona bologna como domodossola empoli firenze genova imola jolly kappa livorno milano"
    " napoli otranto padova quarto roma savona torino udine venezia washington xeres yacht zara"
).split()
_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine null eins zwei zwo drei vier fünf"
    " sechs sieben acht neun zéro un deux trois quatre cinq six sept huit neuf uno due tre"
    " quattro cinque sei sette otto nove cero dos tres cuatro cinco seis siete ocho nueve nul"
    " een twee drie vijf zes zeven negen um dois três quatro"
    # Finnish, Czech, Swahili, Polish, Swedish, Indonesian
    " nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän"
    " nula jedna jednička dva dvě tři čtyři pět šest sedm osm devět"
    " sifuri moja mbili tatu nne tano sita saba nane tisa"
    " jeden trzy cztery pięć sześć siedem osiem dziewięć"
    " noll ett två fyra fem sex sju åtta nio"
    " nol satu dua tiga empat lima enam tujuh delapan sembilan"
    # Hungarian
    " egy kettő három négy öt hat hét nyolc kilenc".split()
)
_SYMBOL_NAMES = (
    "hash;hashtag;pound sign;at sign;at-sign;dollar;dollar sign;percent;ampersand;star;asterisk"
    ";exclamation mark;exclamation point;bang;dash;hyphen;underscore;dot;period;plus;equals"
    ";slash;question mark;tilde;caret;dièse;arobase;étoile;tiret;tiret bas;point d'exclamation"
    ";chiocciola;cancelletto;asterisco;punto esclamativo;trattino;raute;klammeraffe;at-zeichen"
    ";ausrufezeichen;stern;bindestrich;unterstrich;prozent;arroba;almohadilla;guion"
    ";huutomerkki;tähti;risuaita;ät-merkki;alaviiva;viiva;piste;dollari;prosentti;kysymysmerkki"
    ";vykřičník;hvězdička;zavináč;mřížka;podtržítko;pomlčka;tečka;dolar;procento;otazník"
    ";alama ya kuuliza;alama ya mshangao;alama ya hashi;nyota;kistari;nukta;dola"
    ";wykrzyknik;gwiazdka;małpa;krzyżyk;podkreślnik;utropstecken;stjärna;snabel-a"
    ";signo de exclamación;signo de interrogación;exclamación;guion bajo;numeral"
    ";dollárjel;felkiáltójel;kérdőjel;kukac;kettőskereszt;csillag;alulvonás;kötőjel"
).split(";")
_AS_IN = r"(?:as in|like|wie in|wie|comme|come|como|jak)"
# Words that give a letter's case, before it (English, German, Finnish, Czech, Polish, Swedish,
# Hungarian) and after it (French, Italian, Spanish, Swahili, Indonesian).
_CASE_WORDS = tuple(
    "capital uppercase upper-case lowercase lower-case small big cap große großes kleine kleines"
    " iso pieni velké velká malé malá duże duża małe mała stora stort stor lilla litet liten"
    " nagy kis".split()
)
_CASE_WORDS_AFTER = tuple(
    "majuscule minuscule maiuscola minuscola mayúscula minúscula kubwa ndogo besar kecil".split()
)
_ALL_CASE_WORDS = _CASE_WORDS + _CASE_WORDS_AFTER
_CASES = "(?:" + "|".join(sorted(_CASE_WORDS, key=len, reverse=True)) + ")"
_CASES_AFTER = "(?:" + "|".join(sorted(_CASE_WORDS_AFTER, key=len, reverse=True)) + ")"
_SEPARATOR = re.compile(
    r"[ \t]*(?:\.{2,}|…|,|-|–|/|(?i:then|and|und|et|e|y|dann|puis|poi|ja|a|na)(?![\w']))?[ \t]*"
    r"(?:(?i:then|and|und|dann|puis|poi)[ \t]+)?"
)
# Words after a secret's word that make it name something else than the secret.
_NOT_THE_SECRET = _DESCRIBING | frozenset(
    "review reviews freeze base style team owners owner conduct name names words sign signs"
    " snippet snippets block blocks editor".split()
)
_GIVING = frozenset("is ist est es è é = : lautet was war sono são it's it’s".split())
_ENDS = re.compile(r"(?<!\.)\.(?!\.)|[!?;\n]")
# A short question between a secret word and what it spells (``ready?``, ``got it?``).
_ASIDE_WORDS = 3
_GIVEN_IN_PIECES = (
    "first half", "first part", "part 1", "part one", "erste hälfte", "première moitié",
    "prima metà", "primera mitad",
)  # fmt: skip
_JOINED_WORDS = ("together", "joined", "concatenated")
_REST = re.compile(
    r"(?im)^[ \t>*+-]*(?:second (?:half|part)|other half|the rest|last part|part (?:2|two)"
    r"|zweite hälfte|rest|deuxième moitié|seconde moitié|seconda metà|segunda mitad)"
    r"[^\n:]{0,60}:[ \t]*(?P<value>\S{4,64})[ \t]*$"
)
_JOINED = re.compile(
    r"(?i:(?:pieces|parts|halves|words|bits)[ \t]+(?:glued|joined|put|stuck|strung)[ \t]+"
    r"together|joined|concatenated)[,:]?[ \t]+(?P<first>[^\s,]{3,40})[ \t]+(?:and|\+|&|und|et)"
    r"[ \t]+(?P<second>[^\s,]{3,40})"
)


@cache
def _alternatives() -> tuple[str, str]:
    """The number words, and the other spelling items, as two alternations."""
    spelling_words = sorted(_SPELLING_WORDS, key=len, reverse=True)
    symbols = sorted(_SYMBOL_NAMES, key=len, reverse=True)
    spelling = (
        rf"[a-z0-9][ \t]+{_AS_IN}[ \t]+[\w-]+"
        rf"|(?:the[ \t]+)?(?:number|digit|zahl|chiffre|numero)[ \t]+\w+"
        rf"|(?:{'|'.join(map(re.escape, spelling_words))})|(?:{'|'.join(map(re.escape, symbols))})"
    )
    numbers = "|".join(map(re.escape, sorted(_NUMBER_WORDS, key=len, reverse=True)))
    return numbers, spelling


_CASED = rf"{_CASES}[ \t]+[a-z](?:[ \t]+{_AS_IN}[ \t]+[\w-]+)?|[a-z][ \t]+{_CASES_AFTER}"


@cache
def _item() -> re.Pattern[str]:
    numbers, spelling = _alternatives()
    return re.compile(
        rf"(?i:(?P<times>double|triple|doppel|doble|dubbel)[ \t]+(?={numbers}|\d(?!\d)))?"
        rf"(?i:(?P<number>{numbers})|(?P<cased>{_CASED})|(?P<spelling>{spelling})"
        r"|(?P<single>[a-z]|\d{1,2}))(?![\w'])"
    )


@cache
def _spelling() -> re.Pattern[str]:
    """A spelling item or a number word anywhere (a quick test before runs are read)."""
    numbers, spelling = _alternatives()
    return re.compile(rf"(?i:(?<![\w'])(?:{numbers}|{_CASED}|{spelling})(?![\w']))")


_SYMBOLS = frozenset(_SYMBOL_NAMES)
# Six single characters or more, one at a time: a value typed out (``M a r g o t 1 9 8 4``).
_TYPED = re.compile(r"(?<!\S)(?:\w[ \t]){5,}\w(?!\S)")
# After a label's colon, eight single characters or more, one at a time, letters of both cases
# and digits among them (``NAS: T o g g e n 8 4``, letter-spaced): no word is written so.
_LABELLED_TYPED = re.compile(r":[ \t]+(?P<value>(?:[^\W_][ \t]){7,63}[^\W_])(?![^\s.,;])")
_CASED_ITEM = re.compile(rf"(?i:(?<![\w'])(?:{_CASED})(?![\w']))")


def _run(
    text: str, pos: int, limit: int, *, given: bool, cased: int = 0, marks: int = 0
) -> tuple[int, int] | None:
    """The span of the spelled items that start at ``pos``, if they are four or more and two
    of them at least are spelling ones; number words alone only right after a word that gives
    a value (``given``: ``is``, ``ist``, a colon), or ``code review: one, two, three, four``
    would be a code; with no secret word, ``cased`` letters given with their case at least,
    and ``marks`` digits or symbols' names. Right after a word that gives a value, six single
    characters or more, letters and digits, are a value typed one at a time (``M a r g o t 1
    9 8 4``)."""
    item = _item()
    start, end, count, spelling, letters, case = -1, pos, 0, 0, 0, 0
    singles: list[str] = []
    symbols = 0
    while True:
        sep = _SEPARATOR.match(text, end, limit)
        at = sep.end() if sep and count else end
        match = item.match(text, at, limit)
        if match is None:
            break
        start = match.start() if count == 0 else start
        end, count = match.end(), count + 1
        times = (match.group("times") or "").lower()
        count += 2 if times == "triple" else 1 if times else 0  # "double one": two items
        spelling += match.group("single") is None
        letters += match.group("spelling") is not None or match.group("cased") is not None
        case += match.group("cased") is not None
        if match.group("single") is not None:
            singles.append(match.group("single"))
        symbols += match.group(0).lower() in _SYMBOLS or match.group(0).isdigit()
    typed = "".join(singles)
    if given and len(singles) == count >= 6 and not typed.isalpha() and not typed.isdigit():
        return start, end
    if count < 4 or spelling < 2 or not (letters or given) or case < cased or symbols < marks:
        return None
    return start, end


def _triggers(low: str) -> list[int]:
    """Where each secret word of ``low`` ends (a whole word)."""
    return [
        m.end()
        for m in find_words(low, _TRIGGER_WORDS, r"(?!\w)")
        if not (m.start() and low[m.start() - 1].isalnum())
    ]


def _spelled(text: str, ends: list[int]) -> list[Finding]:
    found: list[Finding] = []
    for trigger_end in ends:
        stop = _ENDS.search(text, trigger_end)
        if stop and len(text[trigger_end : stop.start()].split()) <= _ASIDE_WORDS:
            stop = _ENDS.search(text, stop.end())  # "the password, ready? capital G, …"
        limit = min(stop.start() if stop else len(text), trigger_end + 300)
        if len(_spelling().findall(text, trigger_end, limit)) < 2 and not _TYPED.search(
            text, trigger_end, limit
        ):
            continue  # two spelling items at least, or no run here is spelled or typed
        previous = ""
        for word in re.finditer(r"\S+", text[trigger_end : min(limit, trigger_end + 60)]):
            if previous.lower().strip(":,") in _NOT_THE_SECRET:
                break  # "code review:", "password hint:": the word names something else
            given = previous.lower() in _GIVING or previous.endswith(":")
            span = _run(text, trigger_end + word.start(), limit, given=given)
            previous = word.group(0)
            if span is not None:
                found.append(Finding("secret-assignment", *span))
                break
    return found


def _dictated(text: str) -> list[Finding]:
    """Runs holding three letters given with their case, wherever they stand (and the items
    right before the first: ``five, capital E, …``)."""
    found: list[Finding] = []
    end = 0
    for cased in _CASED_ITEM.finditer(text):
        if cased.start() < end:
            continue
        stop = _ENDS.search(text, cased.start())
        limit = stop.start() if stop else len(text)
        span = _run(text, cased.start(), limit, given=False, cased=3) or _run(
            text, cased.start(), limit, given=False, cased=2, marks=2
        )
        if span is None:
            continue
        floor = max(end, text.rfind("\n", 0, cased.start()) + 1, cased.start() - 40)
        for word in re.finditer(r"(?<![\w'])\w", text[floor : cased.start()]):
            earlier = _run(text, floor + word.start(), limit, given=False, cased=3) or _run(
                text, floor + word.start(), limit, given=False, cased=2, marks=2
            )
            if earlier is not None and earlier[0] == floor + word.start() and earlier[1] >= span[1]:
                span = earlier
                break
        if span is not None:
            found.append(Finding("secret-assignment", *span))
            end = span[1]
    return found


_THEN = r"(?:,?[ \t]+(?:then|dann|puis|luego|poi|and|und)?[ \t]*)"
_CAPITAL = r"(?:[ \t]+(?:with[ \t]+a[ \t]+capital(?:[ \t]+\w)?|capitalised|capitalized|groß))"


@cache
def _said() -> re.Pattern[str]:
    """A password said as a voice note says it: a word (perhaps ``with a capital``), numbers,
    and a sign's name last (``cenote 1997 Ausrufezeichen``, ``Cenote with a capital, then 547,
    then a dollar sign``)."""
    symbols = "|".join(map(re.escape, sorted(_SYMBOL_NAMES, key=len, reverse=True)))
    return re.compile(
        rf"(?i:(?P<value>[^\W\d_]{{3,20}}{_CAPITAL}?(?:{_THEN}\d{{2,6}})+{_THEN}"
        rf"(?:an?[ \t]+|ein[ \t]+|un[ \t]+|una?[ \t]+)?(?:{symbols}))(?![\w']))"
    )


# A code read out in groups, between ellipses: ``it's 343… 202…``.
_GROUPS = re.compile(r"(?P<value>\d{2,4}(?:(?:…|\.{3})[ \t]*\d{2,4}){1,3})(?:…|\.{3})?")
MAX_SAID_WORDS = 6


def _said_values(text: str, ends: list[int]) -> list[Finding]:
    """Passwords said as :func:`_said` reads them, and codes read out in groups, within a few
    words after a secret's word."""
    found: list[Finding] = []
    for trigger_end in ends:
        stop = _ENDS.search(text, trigger_end)
        limit = min(stop.start() if stop else len(text), trigger_end + 200)
        words = list(re.finditer(r"\S+", text[trigger_end:limit]))[: MAX_SAID_WORDS + 1]
        for index, word in enumerate(words):
            at = trigger_end + word.start()
            said = _said().match(text, at, limit)
            if said is not None:
                found.append(Finding("secret-assignment", *said.span("value")))
                break
            previous = words[index - 1].group(0).lower().strip(",:…") if index else ""
            groups = _GROUPS.match(text, at, limit + 1)
            if groups is not None and previous in _GIVING:
                found.append(Finding("secret-assignment", *groups.span("value")))
                break
    return found


# A phone number read out in number words after a word that asks for a call or names a phone
# (``call me back on oh two seven, five nine four, …``, ``rappelle-la au zéro six …``, ``el
# móvil de Ana es seis seis …``): seven digits' words or more, in English, French, Spanish,
# Portuguese, Italian or German.
_DIGIT_WORD = (
    r"(?:(?:double|triple)[ \t]+)?(?:oh|zero|one|two|three|four|five|six|seven|eight|nine"
    r"|zéro|un|deux|trois|quatre|cinq|sept|huit|neuf|cero|uno|dos|tres|cuatro|cinco|seis"
    r"|siete|ocho|nueve|um|dois|duas|três|quatro|sete|oito|nove|due|tre|quattro|cinque|sei|sette"
    r"|otto|null|eins|zwei|zwo|drei|vier|fünf|sechs|sieben|acht|neun)"
)
_SPOKEN_PHONE = re.compile(
    r"(?i:\b(?:call|ring|phone|text|reach|mobile|cell|number|r?appel\w*|portable|téléphone"
    r"|numéro|llam\w*|móvil|movil|celular|teléfono|número|lig\w*|telem[óo]vel|telefone"
    r"|chiam\w*|cellulare|telefono|numero|anruf\w*|handy|nummer)\b[^\n.!?]{0,24}?)"
    rf"(?i:(?P<value>{_DIGIT_WORD}(?:,?[ \t]+{_DIGIT_WORD}){{6,14}}))(?![\w'])"
)
# Number words common enough that a text holding none is read no further for a spoken phone.
_SPOKEN_ANCHORS = (
    " oh ", " zero ", " two ", " five ", " zéro ", " deux ", " cinq ", " dos ", " cinco ",
    " dois ", " due ", " zwei ", " null ",
)  # fmt: skip


def _pieces(text: str, low: str, ends: list[int]) -> list[Finding]:
    found: list[Finding] = []
    if any(words in low for words in _GIVEN_IN_PIECES):
        for rest in _REST.finditer(text):
            if password_shaped(rest.group("value")) or len(rest.group("value")) >= 6:
                found.append(Finding("secret-assignment", *rest.span("value")))
    joins = _JOINED.finditer(text) if any(w in low for w in _JOINED_WORDS) else iter(())
    for joined in joins:
        line = text.rfind("\n", 0, joined.start()) + 1
        if any(line < end <= joined.start() for end in ends):
            found += [Finding("secret-assignment", *joined.span(g)) for g in ("first", "second")]
    return found


def find_spelled_secrets(text: str, low: str) -> list[Finding]:
    """Secrets spelled out or given in pieces (see the module rules; ``low``: lower case)."""
    ends = _triggers(low)
    found = _spelled(text, ends) + _pieces(text, low, ends) if ends else []
    if ends and any(c.isdigit() for c in text):
        found += _said_values(text, ends)
    if any(anchor in low for anchor in _SPOKEN_ANCHORS):
        found += [Finding("phone", *m.span("value")) for m in _SPOKEN_PHONE.finditer(text)]
    if ":" in text and _TYPED.search(text):
        for typed in _LABELLED_TYPED.finditer(text):
            value = typed.group("value").replace(" ", "").replace("\t", "")
            mixed = not value.isupper() and not value.islower()
            if mixed and not value.isalpha() and not value.isdigit():
                found.append(Finding("secret-assignment", *typed.span("value")))
    if len(find_words(low, _ALL_CASE_WORDS, r"(?![\w'])")) >= 2:
        found += _dictated(text)
    return found
