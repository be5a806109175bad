"""Numbers a hospital, a health insurer or a state gives a person, after the words that name
them, where no check digit tells them from any other number.

:mod:`dreamd.redaction.numbers` finds national ids whose check digits it can verify
(python-stdnum); most of the world's health and identity numbers have none that a library
knows, or none at all, and are known only by the word before them:

* **Medical records**: ``MRN``, ``medical record number``, ``hospital no.``, ``patient
  number``, ``HN`` (a Thai hospital's), ``UHID``, ``historia clínica``, ``prontuário``,
  ``dossier médical``, ``Patientennummer``, a German hospital's ``Fallnummer``, ``cartella
  clinica``, ``תיק רפואי``, ``μητρώου ασθενούς``, ``potilasnumero``, ``rekam medis``,
  ``カルテ番号``, ``病历号``, ``환자번호``…
* **Health insurance**: ``BPJS``, ``BHXH``/``BHYT``, ``ABHA``, ``NHIF``/``SHIF``, ``NHIS``,
  ``PhilHealth``, ``Medicare card``, ``member ID``, ``subscriber ID``, ``מספר חבר``, ``card de
  sănătate``…
* **National ids**: ``NID``/``এনআইডি``, ``Fayda``/``ፋይዳ``, ``NIDA``, ``NIN``, ``PhilSys``, ``NIC``,
  ``ΑΔΤ``, ``CCCD``/``CMND``, ``NIK``/``KTP``, ``MyKad``, ``national ID number``…
* **Tax numbers**: ``TIN``, ``e-TIN``/``ই-টিআইএন``, ``cukai pendapatan``, ``NPWP``, ``KRA
  PIN``, ``mã số thuế``, ``tax ID``, ``taxpayer number``…

* **More national, tax and health numbers**: ``PPSN``, ``UTR``, ``UPN``, ``CHI``,
  ``A-Number``, a voter id (``EPIC``), Myanmar's ``NRC``, ``PINFL``, ``cédula de
  ciudadanía``/``de identidad``, ``CI``, ``NIT``, ``NUIT``, ``título de eleitor``, ``CNH``,
  ``tessera sanitaria``, ``dowód osobisty``, ``személyi szám``, ``NHI``, ``OHIP``, ``RAMQ``,
  ``CRN``, ``CIN``, ``الرقم المدني``, ``matricule``, ``D-nummer``…; an abbreviation of
  *number* between a name and its code (``No.``, ``nº``, ``#``).

* **Round twelve**: ``NISS``, ``número de utente``, ``Rentenversicherungsnummer`` and
  ``SV-Nummer``, ``PIS/PASEP``, ``registro geral``, ``personal number`` (``პირადი ნომერი``,
  ``жеке номер``), ``ՀԾՀ``, ``φορολογικής ταυτότητας``, ``Omang``, ``numéro personnel
  d'identification``, ``नागरिकता प्रमाणपत्र नं.``, ``تذکره``, ``این ٹی این``, ``káàdì
  ìdìbò``, ``在留カード番号``, ``基礎年金番号``, ``TRN``, ``UAN``, ``Known Traveler Number``;
  a name in a script written without spaces may run on into the sentence
  (``លេខអត្តសញ្ញាណប័ណ្ណគាត់៖``), and Azerbaijan's ``FİN kodu`` is seven capitals and
  digits.

A member's or a subscriber's number is a health insurer's only with a word of insurance or
health, or an insurer's name, on its line (``insurance card — Member ID …``, ``BCBS member ID
…``); a club's or a shop's member number is no one's health record.

Then at most three words without a digit (``ng pasyente``, ``ya mama``, ``Kesehatan ibu``, a
number word such as ``nambari``, ``নম্বর``, ``ቁጥሬ``, ``අංකය``), or a label of up to five
words ending in a colon, then a code: six letters and digits or more, four digits at least,
perhaps grouped by spaces, hyphens or slashes (``91-2700-7011-8026``, ``8632 5605 9542``), and
a series of one to three capitals before it (``ΑΚ 153184``). An abbreviation of four letters or
fewer counts only in capitals (``tin``, ``nic`` and ``hn`` are words or nothing). Words that
describe the number instead (``field``, ``format``, ``digits``, ``prefix``) mean none follows;
a date, a year or a count is none. Pure; standard library only.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import find_words, on_its_line

__all__ = ["find_named_records"]

_NAMES = (
    # medical records
    "mrn;medical record number;medical record no;medical record;hospital number;hospital no"
    ";patient number;patient no;patient id;hn;uhid;historia clínica;historia clinica"
    ";número de historia;prontuário;prontuario;dossier médical;numéro de dossier"
    ";patientennummer;patienten-nr;fallnummer;fall-nr;aufnahmenummer;cartella clinica"
    ";תיק רפואי;מספר תיק;μητρώου ασθενούς"
    ";αριθμός μητρώου;potilasnumero;pasientnummer;patientnummer;rekam medis;no. rm;nomor rm"
    ";カルテ番号;診察券番号;病歴番号;病历号;病案号;住院号;환자번호;병록번호;số hồ sơ bệnh án"
    # health insurance
    ";bpjs;bhxh;bhyt;abha;nhif;shif;nhis;philhealth;member id;member no;member number"
    ";subscriber id;mã số bảo hiểm;מספר חבר;card de sănătate;cardului de sănătate"
    ";cardul de sănătate;cnas;medicaid;medicare card;medicare number;medicare no"
    # national ids
    ";nid;এনআইডি;জাতীয় পরিচয়পত্র;fayda;ፋይዳ;nida;nin;philsys;psn;nic;ජාතික හැඳුනුම්පත්;αδτ"
    ";αριθμός ταυτότητας;cccd;cmnd;căn cước;nik;ktp;mykad;national id;national id number"
    ";national identification number;kitambulisho"
    ";ppsn;pps no;pps number;chi;chi number;unique pupil number;upn;a-number;alien number"
    ";alien registration number;uscis number;voter id;epic;epic number;nrc;indangamuntu"
    ";регистрийн дугаар;регистрийн;pinfl;jshshir;cédula de ciudadanía"
    ";cedula de ciudadania;cédula de identidad;cedula de identidad;ci;título de eleitor"
    ";titulo de eleitor;cnh;tessera sanitaria;numero di tessera;dowodu osobistego"
    ";dowód osobisty;dowod osobisty;személyi szám;szemelyi szam;személyi azonosító;nhi"
    ";nhi number;ohip;health card;carte soleil;ramq;crn;customer reference number;cin"
    ";البطاقة الوطنية;الرقم المدني;civil id;matricule;d-nummer;samordningsnummer"
    ";မှတ်ပုံတင်;မှတ်ပုံတင်အမှတ်"
    # tax numbers
    ";tin;e-tin;ই-টিআইএন;টিআইএন;cukai pendapatan;nombor cukai;npwp;kra pin;mã số thuế;tax id"
    ";taxpayer number;taxpayer id;tax file number;ntn;utr;unique taxpayer reference;nit;nuit"
    ";tax reference number;income tax reference"
    # round twelve: social security, health, identity and tax numbers of more countries, by
    # their names in their own languages (NISS, número de utente, Rentenversicherungsnummer,
    # RG, PIS/PASEP, Georgian, Kyrgyz, Armenian, Cypriot, Botswanan, Beninese, Nepali,
    # Afghan, Urdu, Nigerian, Japanese, Jamaican and Indian numbers, a traveller's number)
    ";niss;número de segurança social;numero de seguranca social;nº de utente;n.º de utente"
    ";número de utente;numero de utente;cartão de utente;rentenversicherungsnummer"
    ";rentenversicherungsnr;rv-nummer;sozialversicherungsnummer;sozialversicherungsnr"
    ";sv-nummer;registro geral;pis;pasep;pis/pasep;nis;personal no;personal number"
    ";personal id number;პირადი ნომერი;жеке номер;հծհ;φορολογικής ταυτότητας;αφτ;omang"
    ";numéro personnel d'identification;नागरिकता प्रमाणपत्र;नागरिकता;राष्ट्रिय परिचयपत्र"
    ";تذکره;تذکره الکترونیکی;tazkira;e-tazkira;این ٹی این;káàdì ìdìbò;kaadi idibo;voter card"
    ";voter's card;在留カード番号;在留カード;基礎年金番号;年金番号;trn;uan"
    ";known traveler number;known traveller number;ktn;redress number;passid"
    ";fin kodu;fİn kodu"
).split(";")
# Names of codes shorter than most: Azerbaijan's FIN (``FİN kodu``) is seven capitals and
# digits, one digit or more.
_SHORT_CODES = frozenset(("fin kodu", "fİn kodu"))
# Names in scripts written without spaces between words (Khmer, Thai, Lao, Myanmar): the
# sentence goes on right after them (``លេខអត្តសញ្ញាណប័ណ្ណរបស់ខ្ញុំ៖`` "my identity card number:").
_UNSPACED_NAMES = ("អត្តសញ្ញាណប័ណ្ណ", "ບັດປະຈຳຕົວ")
# Names that are a health insurer's only beside a word of insurance or health.
_MEMBERS = frozenset("member id;member no;member number;subscriber id".split(";"))
_INSURANCE = LazyPattern(
    r"(?i:insur|health|medic|dental|plan\b|versicher|assuran|seguro|bima|ביטוח|asigur|sănăt"
    r"|bcbs|blue cross|blue shield|aetna|cigna|humana|kaiser|anthem|unitedhealth|\buhc\b)"
)
_DESCRIBING = frozenset(
    "field fields format formats digits digit prefix prefixes column columns takes lookup"
    " search system label validation check length".split()
)
_CODE = LazyPattern(
    r"\d{1,2}/[A-Z][a-z]{1,3}(?:[A-Z][a-z]{1,3}){1,3}\([A-Z]{1,2}\)\d{6}"  # Myanmar's NRC
    r"|[A-Z0-9\u0391-\u03a9\u0401\u0410-\u042f\u04ae\u04e8]"
    r"(?:[A-Z0-9\u0391-\u03a9\u0401\u0410-\u042f\u04ae\u04e8]|[-/](?=[A-Z0-9])|[ ](?=\d)"
    r"|(?<=\d)\.(?=\d))*[A-Z0-9](?:[ ][A-Z]{1,2}(?![\w-]))?"
)
# The abbreviations of "number" that may stand between a name and its code (``National ID
# No. …``, ``PPS no. …``, ``CNH nº …``, ``health card # …``).
_NUMBER_WORDS = frozenset("no. nr. no nr nº n° n.º # num. número numero नं. नं №".split())
_SERIES = LazyPattern(r"[A-Z\u0391-\u03a9]{1,4}[ ]")
_NOT_SERIES = frozenset("ID NO NR ND".split())
_DATE = LazyPattern(r"\d{1,4}([-/.])\d{1,2}\1\d{1,4}")
_COUNTED = LazyPattern(r"[ \t]*(?i:digits?|chars?|characters|%|days?|years?)\b")
_WORD = LazyPattern(r"\S+")
_END = frozenset(".!?;\n")
MAX_WORDS = 3
MAX_LABEL = 5


def _code_after(text: str, pos: int, *, short: bool = False) -> tuple[int, int] | None:
    """The code the name ending at ``pos`` gives, if any (see the module rules; ``short``: a
    code of seven capitals and digits will do)."""
    words: list[str] = []
    label = False
    for word in _WORD.finditer(text, pos, min(len(text), pos + 100)):
        raw = word.group(0)
        if raw.lower().strip("(:") in _NUMBER_WORDS:
            pos = word.end()
            continue
        ended = any(c in _END for c in text[pos : word.start()]) or raw[-1] in ".!?"
        if ended and not any(c.isdigit() for c in raw):
            return None
        pos = word.end()
        if any(c.isdigit() for c in raw):
            return _code_at(text, word.start(), words, short=short)
        bare = raw.strip(",:;()[]—–-\"'").lower()
        if bare in _DESCRIBING:
            return None
        if bare:
            words.append(raw)
        label = raw.endswith((":", "："))
        if len(words) > (MAX_LABEL if label else MAX_WORDS + 1):
            return None
    return None


def _code_at(
    text: str, at: int, words: list[str], *, short: bool = False
) -> tuple[int, int] | None:
    while at < len(text) and not text[at].isalnum():
        at += 1
    code = _CODE.match(text, at)
    if code is None:
        return None
    value = code.group(0)
    digits = sum(c.isdigit() for c in value)
    shortened = short and len(value) == 7 and value.isalnum() and digits >= 1
    if not shortened and (digits < 4 or sum(c.isalnum() for c in value) < 6):
        return None
    if _DATE.fullmatch(value):
        return None
    if code.end() < len(text) and (text[code.end()].isalnum() or _COUNTED.match(text, code.end())):
        return None
    start = code.start()
    series = words[-1] if words else ""
    before = text[max(0, start - len(series) - 1) : start]
    if value[0].isdigit() and _SERIES.fullmatch(before) and series not in _NOT_SERIES:
        start -= len(before)  # "ΑΔΤ ΑΚ 153184": the series is the number's
    return start, code.end()


def _short(name: str) -> bool:
    return len(name) <= 4 and name.isascii() and name.isalpha()


def find_named_records(text: str, low: str) -> list[Finding]:
    """Medical record, health insurance, national id and tax numbers after their names
    (``low``: ``text`` in lower case)."""
    found = []
    matches = find_words(low, tuple(_NAMES), r"(?![\w-])")
    if not low.isascii() and any(name in low for name in _UNSPACED_NAMES):
        matches += find_words(low, _UNSPACED_NAMES)
    for match in matches:
        start, end = match.span()
        name = match.group(0)
        if name[0].isascii() and start and low[start - 1].isalnum():
            continue  # a Latin name is a whole word; a name of another script takes prefixes
        if _short(name) and not text[start:end].isupper():
            continue
        if name in _MEMBERS and not on_its_line(_INSURANCE, text, start, end):
            continue
        if text[end : end + 1] == ".":
            end += 1  # "hospital no.": an abbreviation's dot ends no sentence
        span = _code_after(text, end, short=name in _SHORT_CODES)
        if span is not None:
            found.append(Finding("national-id", *span))
    return found
