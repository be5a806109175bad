"""Dates of birth and identity-document numbers, found after the words that name them.

Dates and codes alone are memory (``2026-03-01``, ``B12``); after a word that names a birth
or a document, in the languages notes are written in, they are personal data:

* **Dates of birth**: ``DOB``, ``date of birth``, ``born``, ``Geburtsdatum``, ``geb.``,
  ``geboren (am/op)``, ``né le``, ``fecha de nac.``, ``nata a Napoli il``, ``data de
  nascimento``, ``urodzony``, ``дата рождения``, ``doğum tarihi``, ``född``, ``生年月日``,
  ``出生日期``, ``생년월일``, ``ngày sinh``, ``tanggal lahir``, ``जन्म तिथि``,
  ``تاريخ الميلاد``, ``תאריך לידה``, ``ημερομηνία γέννησης``, ``дата народження``,
  ``дата на раждане``, ``datum rođenja``, ``gimimo data``, ``sünniaeg``, ``fæðingardagur``,
  ``petsa ng kapanganakan``… then a date with its year, written any common way
  (``1990-05-17``, ``02.07.1966.``,
  ``17.05.1990``, ``1990.05.17``, ``12 mars 1985``, ``3 de marzo de 1985``,
  ``March 3rd, 1988``, ``1992年4月5日``, ``1990년 5월 17일``). A word naming a birthday
  (``birthday``, ``Geburtstag``, ``生日``, ``誕生日``, ``생일``) is followed by the date
  directly (``Birthday: …``, ``誕生日は…``); a word naming the birth date itself may have a few
  words between (``date of birth (for the insurance form): …``); ``born`` and its
  equivalents a place (``nata a Napoli il …``). A pet or a project that was born
  (``the cat was born on …``) and a form's field (``Date of Birth field added on …``) give no
  one's birth date. A genealogy file (GEDCOM) gives it on the ``DATE`` line under ``BIRT``.
* **Document numbers**: a passport (``passport``, ``Reisepass``, ``passeport``, ``pasaporte``,
  ``passaporto``, ``paspoort``, ``паспорт``, ``旅券``, ``护照``, ``여권``…), a driving licence
  (``driving licence``, ``DL#``, ``Führerschein``, ``permis de conduire``, ``patente di
  guida``, ``rijbewijs``, ``prawo jazdy``, ``運転免許``, ``驾驶证``…) or an identity card
  (``Personalausweis``, ``carte d'identité``, ``dowód osobisty``, ``documento de
  identidad``…), compounds included (``paspoortnummer``, ``Führerscheinnummer``), then at
  most three short words (``n°``, ``No.``, ``number``, ``番号``, ``номер``, ``số``…; whose it
  is, ``Ewy``; an aside in brackets, ``(Filipino)``, ``(renewed, the old one is void):``),
  then a code of six or more letters and digits holding a digit (``C01X00T47``, ``4508
  123456``, ``W426-545-30-761-0``); or a label of up to five words ending in a colon between
  the word and the code (``Passnummer für den Antrag: …``). Passports are named in more
  languages too: ``paspor``, ``hộ chiếu``, ``पासपोर्ट``, ``جواز السفر``, ``דרכון``,
  ``διαβατήριο``, ``หนังสือเดินทาง``, ``pasoš``, ``putovnica``, ``paso numeris``,
  ``passi number``, ``pases numurs``, ``vegabréf``, ``passaport``, ``পাসপোর্ট``, ``ගමන්
  බලපත්‍ර``, ``கடவுச்சீட்டு``…; and a Hebrew driving licence (``רישיון נהיגה``), a Maltese
  identity card (``karta tal-identità``). A date, a year or a short code (``Klasse B``,
  ``gate B12``) is not one. Machine-readable zones are :mod:`dreamd.redaction.mrz`'s.

Pure.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import find_words

__all__ = ["find_documents_and_births"]

# Words naming the date of birth itself (a few words may come before the date).
_BIRTH_DATE_WORDS = (
    "dob;d.o.b.;d.o.b;bday;date of birth;birth date;birthdate;geburtsdatum;geb.;date de naissance"
    ";fecha de nacimiento;fecha de nac.;f. de nac.;f. nac.;data di nascita;data de nascimento"
    ";geboortedatum;data urodzenia;дата рождения;д.р.;doğum tarihi;födelsedatum;fødselsdato"
    ";syntymäaika;生年月日;出生日期;생년월일;ngày sinh;ngay sinh;tanggal lahir;tgl lahir;tgl. lahir"
    ";tarikh lahir;जन्म तिथि;जन्मतिथि;जन्म दिनांक;जन्म तारीख;জন্ম তারিখ;জন্মতারিখ;تاريخ الميلاد"
    ";تاريخ الولادة;تاریخ تولد;תאריך לידה;תאריך הלידה;ημερομηνία γέννησης;дата народження"
    ";datum narození;datum narozeni;data nașterii;data nasterii;születési dátum;születési idő"
    ";วันเดือนปีเกิด;дата на раждане;datum rođenja;datum rodjenja;датум рођења;datum rojstva"
    ";dátum narodenia;gimimo data;dzimšanas datums;sünniaeg;sünnikuupäev;fæðingardagur"
    ";fæðingardagsetning;petsa ng kapanganakan;data de naixement;jaiotze data;data de nacemento"
    ";datëlindja;data e lindjes;doğum tarixi;туған күні;төрсөн огноо;tarehe ya kuzaliwa"
    ";dyddiad geni;geboortedatum;დაბადების თარიღი;ծննդյան ամսաթիվ;የትውልድ ቀን;የልደት ቀን"
    ";जन्म मिति;जन्ममिति;জন্মদিন;születési dátuma;születési ideje;narozen dne;narozena dne"
    ";ημερομηνία γεννήσεως;তারিখ জন্ম;出生年月日;出生年月"
).split(";")
# Words naming a birthday (the date comes right after them).
_BIRTHDAY_WORDS = (
    "birthday;geburtstag;anniversaire;cumpleaños;compleanno;verjaardag;生日;誕生日;생일;วันเกิด"
    ";sinh nhật"
).split(";")
# Words saying someone was born (a place may come before the date).
_BORN_WORDS = (
    "born;geboren;né;née;nee;nacido;nacida;nato;nata;nascido;nascida;urodzony;urodzona;ur."
    ";родился;родилась;född;født;doğdu;народився;народилася;נולד;נולדה;γεννήθηκε;lahir"
    ";роден;родена;rođen;rođena;рођен;рођена;rojen;rojena;narodený;narodená;gimęs;gimusi"
    ";dzimis;dzimusi;sündinud;fæddur;fædd;ipinanganak;nascut;nascuda;jaio;alizaliwa"
    ";amezaliwa;narozen;narozena;született;syntynyt;născut;născută;nascut;gimęs;ተወለደ;ተወለደች"
    ";জন্ম;जन्मे;जन्मी;เกิด"
).split(";")
_DOCUMENT_WORDS = (
    "passport;passeport;pasaporte;passaporto;passaporte;reisepass;paspoort;paszport;pasaport"
    ";паспорт;загранпаспорт;загран;passnummer;旅券;护照;護照;여권;パスポート;driving licence"
    ";driving license"
    ";driver's licence;driver's license;drivers licence;drivers license;driver license"
    ";driver licence;licence no;license no;licence number;license number;dl#;dl #;führerschein"
    ";permis de conduire;carnet de conducir;permiso de conducir;carta de condução"
    ";carteira de motorista;patente di guida;patente;rijbewijs;prawo jazdy;ehliyet;körkort"
    ";運転免許;免許証;驾驶证;驾照;운전면허;водительское удостоверение;personalausweis"
    ";ausweisnummer;ausweis-nr;carte d'identité;carte nationale d'identité;carta d'identità"
    ";documento de identidad;cartão de cidadão;bilhete de identidade;identiteitskaart"
    ";dowodu osobistego;dowód osobisty;dowod osobisty;id card number;identity card"
    ";paspor;hộ chiếu;ho chieu;पासपोर्ट;جواز السفر;جواز سفر;דרכון;διαβατήριο;διαβατηρίου"
    ";หนังสือเดินทาง;útlevél;pașaport;cestovní pas;pasoš;pasoša;пасош;пасоша;putovnica"
    ";putovnice;potni list;cestovný pas;paso numeris;paso nr;passi number;passi nr;pase"
    ";pases numurs;vegabréf;pasaporte;pasport;passaport;pasaportea;pasaportë;পাসপোর্ট"
    ";گذرنامه;pasipoti;pasi ya kusafiria"
    # Sinhala (its ZWJ dropped, as the rules read it), Tamil, Telugu, Khmer passports; a Hebrew
    # driving licence; a Maltese identity card
    ";ගමන් බලපත්ර;ගමන් බලපත්‍ර;கடவுச்சீட்டு;పాస్‌పోర్ట్;పాస్పోర్ట్;លិខិតឆ្លងដែន;רישיון נהיגה"
    ";רשיון נהיגה;karta tal-identità;karta tal-identita"
).split(";")
_NUMBER_WORDS = frozenset(
    "n nº no nr num number nummer numéro número numero numer номер серия de di da of der des"
    " del do dowodu osobistego conducir conduire guida is ist est es 番号 号码 號碼 번호"
    " numaram numarası numarasi numara nomor nombor saya my mein mon mi nombor numurs numeris"
    " broj број ng নম্বর नंबर شماره رقم số අංකය අංක எண் సంఖ్య నంబర్ លេខ מספר שלי numru tiegħi hu"
    " hija".split()
)
# Between a document's word and its number: an aside in brackets, or whose it is (a name,
# perhaps with its possessive: ``Ewy``, ``Anna's``).
_ASIDE = re.compile(r"\([^()\d]{1,30}\)")
_OWNER = re.compile(r"[A-Z][a-z]{1,15}(?:'s)?")
# The words as the rules compare them: marks of scripts that write vowels apart dropped.
_NUMBER_KEYS = _NUMBER_WORDS | frozenset(re.sub(r"\W", "", word) for word in _NUMBER_WORDS)
# Words after a birth date's name that make it a form's field, not a date given.
_DESCRIBING = frozenset("field fields column columns format input label validation".split())
# Who is born, when it is not a person: a pet, a project (``the cat was born on …``).
_NOT_PERSONS = frozenset(
    "cat cats dog dogs puppy puppies kitten kittens pet pets horse foal calf hamster rabbit"
    " parrot project company startup app product idea band".split()
)
# A compound's tail: letters, and the vowel signs and marks of scripts that write them apart
# (Devanagari, Thai), which are no word characters to a regular expression.
_TAIL = r"(?:[\w'-]|[\u0300-\u036f\u0900-\u0dff\u0e31\u0e34-\u0e3a\u0e47-\u0e4e])*"
_MONTH = r"[^\W\d_]{3,12}\.?"
# Dates of other calendars: a Japanese era's or the Republic of China's year (昭和17年5月21日,
# 民國74年5月26日), a Thai month's abbreviation and a Buddhist year (24 พ.ค. 2537), a Hebrew
# date in letters (כ״ח בחשוון תשנ״ב), a Bikram Sambat date with its Nepali month (२०४४ पुस ६,
# its digits read as ASCII); and the spaced dots of Czech and Hungarian dates (8. 9. 1968,
# 2001. 03. 13.).
_ERAS = r"(?:明治|大正|昭和|平成|令和|民國|民国)"
_THAI_MONTH = r"(?:[ก-ฮ]{1,2}\.[ก-ฮ]{1,2}\.|ม\.ค\.|มี\.ค\.)"
_HEBREW_MONTH = (
    r"ב?(?:תשרי|חשוון|חשון|מרחשוון|כסלו|כסליו|טבת|שבט|אדר(?: [אב][׳'])?|ניסן|אייר|סיוון|סיון"
    r"|תמוז|אב|אלול)"
)
_NEPALI_MONTH = (
    r"(?:बैशाख|वैशाख|जेठ|जेष्ठ|असार|आषाढ|साउन|श्रावण|भदौ|भाद्र|असोज|आश्विन|कात्तिक|कार्तिक"
    r"|मंसिर|मङ्सिर|पुस|पौष|माघ|फागुन|फाल्गुन|चैत|चैत्र)"
)
_OTHER_CALENDARS = (
    rf"|{_ERAS}\s?(?:\d{{1,2}}|元)\s?年\s?\d{{1,2}}\s?月\s?\d{{1,2}}\s?日"
    rf"|\d{{1,2}}\s?{_THAI_MONTH}\s?\d{{2,4}}"
    rf"|[א-ת]{{1,2}}[״\"׳']?[א-ת]?\s+{_HEBREW_MONTH}\s+ה?[א-ת]{{1,3}}[״\"][א-ת]"
    rf"|(?:वि\.\s?सं\.\s?)?\d{{4}}\s+{_NEPALI_MONTH}\s+\d{{1,2}}"
    r"|\d{1,2}\.\s\d{1,2}\.\s\d{4}|\d{4}\.\s\d{1,2}\.\s\d{1,2}\.?"
)
_DATE = LazyPattern(
    r"(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}(?!\d)"
    r"|\d{1,2}[-./]\d{1,2}[-./](?:\d{4}|\d{2})(?!\d|\.\d)"
    rf"|\d{{1,2}}(?:st|nd|rd|th|er|e|º|°)?\.?\s+(?:de\s+)?{_MONTH},?\s+(?:de\s+)?\d{{4}}"
    rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    r"|\d{4}\s?年\s?\d{1,2}\s?月\s?\d{1,2}\s?日|\d{4}\s?년\s?\d{1,2}\s?월\s?\d{1,2}\s?일"
    rf"{_OTHER_CALENDARS})"
)
_CODE = LazyPattern(r"[A-Z0-9](?:[A-Z0-9]|-(?=[A-Z0-9])|[ ](?=\d))*[A-Z0-9]")
_DATE_LIKE = LazyPattern(r"\d{4}|\d{4}-\d{2}(?:-\d{2})?|\d{1,2}-\d{1,2}-\d{2,4}")
# A sentence ends at a full stop after a word (not after an abbreviation: "no.", "geb.").
_SENTENCE_END = LazyPattern(r"(?<=[^\W\d_]{4})[.!?](?:\s|$)|[;。\n]")
_BIRTHDAY_GAP = frozenset(": = - is was ist war est es é è は是 は 是 为 為 는 은 이 의".split())
_LEADING = LazyPattern(r"[^\w]*")


def _alternation(words: list[str], *, compounds: bool = False) -> str:
    """One pattern for ``words``: Latin ones whole words (or starting a compound), the others
    (CJK) anywhere."""
    latin = sorted((w for w in words if not _is_cjk(w)), key=len, reverse=True)
    cjk = sorted((w for w in words if _is_cjk(w)), key=len, reverse=True)
    after = _TAIL if compounds else r"(?![^\W\d_])"
    body = "|".join(re.escape(w) for w in latin)
    parts = [rf"(?<![^\W\d_])(?:{body}){after}"]
    if cjk:
        tail = r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]*" if compounds else ""
        parts.append("(?:" + "|".join(re.escape(w) for w in cjk) + ")" + tail)
    return "|".join(parts)


def _is_cjk(word: str) -> bool:
    return any("\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af" for c in word)


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    birth = re.compile(
        rf"(?P<date>{_alternation(_BIRTH_DATE_WORDS)})|(?P<day>{_alternation(_BIRTHDAY_WORDS)})"
        rf"|(?P<born>{_alternation(_BORN_WORDS)})",
        re.IGNORECASE,
    )
    document = re.compile(
        rf"(?:{_alternation(_DOCUMENT_WORDS, compounds=True)})(?:\.(?!\d))?", re.IGNORECASE
    )
    return birth, document


@cache
def _anchors(kind: str) -> tuple[str, ...]:
    """The words of ``kind`` in lower case."""
    words = (
        _DOCUMENT_WORDS
        if kind == "document"
        else (_BIRTH_DATE_WORDS + _BIRTHDAY_WORDS + _BORN_WORDS)
    )
    return tuple(w.lower() for w in words)


def _candidates(low: str, kind: str) -> list[int]:
    """Where a word of ``kind`` may start."""
    return [match.start() for match in find_words(low, _anchors(kind))]


def _births(text: str, low: str) -> list[Finding]:
    birth, _ = _patterns()
    found = []
    starts = _candidates(low, "birth")
    for match in filter(None, (birth.match(text, start) for start in starts)):
        stop = _SENTENCE_END.search(text, match.end(), match.end() + 80)
        end = stop.start() if stop else min(len(text), match.end() + 80)
        date = _DATE.search(text, match.end(), end)
        if date is None:
            continue
        if match.lastgroup == "born" and _NOT_PERSONS & set(
            low[max(0, match.start() - 40) : match.start()].split()[-4:]
        ):
            continue  # "the cat was born on …": no person's birth date
        gap = text[match.end() : date.start()]
        words = [w.strip("():,") for w in gap.split()]
        words = [w for w in words if w]
        if any(c.isdigit() for c in gap):
            continue  # the date is not the first number after the word
        if _DESCRIBING & {w.lower() for w in words}:
            continue  # "Date of Birth field added on …": the date of a change to a form
        if match.lastgroup == "day" and not all(w.lower() in _BIRTHDAY_GAP for w in words):
            continue  # "birthday party on …": the date of something else
        if len(words) > (6 if match.lastgroup == "date" else 4):
            continue
        found.append(Finding("date-of-birth", date.start(), date.end()))
    return found


def _documents(text: str, low: str) -> list[Finding]:
    _, document = _patterns()
    found = []
    starts = _candidates(low, "document")
    for match in filter(None, (document.match(text, start) for start in starts)):
        line_end = text.find("\n", match.end(), match.end() + 48)
        end = line_end if line_end >= 0 else min(len(text), match.end() + 48)
        at, words, names, label = -1, [], 0, False
        skip = -1
        for word in re.finditer(r"\S+", text[match.end() : end]):
            raw = word.group(0)
            if word.start() < skip:
                continue
            if raw[0] == "(" and ")" not in raw:
                close = text.find(")", match.end() + word.start(), end)
                aside = text[match.end() + word.start() : close]
                if close > 0 and not any(c.isdigit() for c in aside):
                    skip = close - match.end()  # "Passport # (renewed, the old one is void):"
                    label = text.startswith(":", close + 1)
                    continue
            if any(c.isdigit() for c in raw):
                lead = _LEADING.match(raw)
                at = match.end() + word.start() + (lead.end() if lead else 0)
                break
            if _ASIDE.fullmatch(raw):
                continue  # "pasaporte (Filipino) …": an aside in brackets
            if _OWNER.fullmatch(raw):
                names += 1  # "numer paszportu Ewy …": whose it is
                continue
            words.append(re.sub(r"\W", "", raw.lower()))
            label = raw.endswith((":", "："))
        if at < 0 or len(words) + names > (5 if label else 3) or names > 1:
            continue
        if not label and any(w and w not in _NUMBER_KEYS for w in words):
            continue  # "Passnummer für den Antrag: …" is a label; a sentence is not
        code = _CODE.match(text, at)
        if code is None:
            continue
        value = code.group(0).rstrip(" -")
        alnum = sum(c.isalnum() for c in value)
        if alnum < 6 or not any(c.isdigit() for c in value) or _DATE_LIKE.fullmatch(value):
            continue
        found.append(Finding("document-number", code.start(), code.start() + len(value)))
    return found


# A genealogy file's birth: its BIRT record, and the DATE line under it (GEDCOM).
_GEDCOM_BIRTH = re.compile(r"^[ \t]*\d+[ \t]+BIRT\b[^\n]*\n[ \t]*\d+[ \t]+DATE[ \t]+([^\n]+)", re.M)


def find_documents_and_births(text: str, low: str) -> list[Finding]:
    """Dates of birth and document numbers after the words that name them (``low``: ``text``
    in lower case)."""
    found = _births(text, low) + _documents(text, low)
    if "BIRT" in text:
        found += [Finding("date-of-birth", *m.span(1)) for m in _GEDCOM_BIRTH.finditer(text)]
    return found
