"""Secrets and personal data in Markdown tables, found by the column they stand in.

A table is a header row, a separator row (``|---|:--|``) and the rows after it. A column whose
header names a secret (``Password``, ``Passwort``, ``Mot de passe``, ``パスワード``, ``密码``,
``API Token``, ``Secret``, ``PIN``, ``CVV``: the header read as a key by
:func:`dreamd.redaction.keys.kind_of_name`) holds one in every cell whose value passes the
key's value rules; a cell with spaces in it is a note (``in 1Password``, ``✓ gesetzt``), a
bracketed one a comment (``(rotated)``), a run of letters of another script a sentence
(``管理者に確認``), none of them a secret. A column headed as a date of birth (``DOB``,
``Geburtsdatum``, ``生年月日``…) holds birth dates, one headed as a passport or licence number
holds document numbers, one headed as a national identity number (``SSN``, ``BSN``,
``Steuer-ID``…) holds those; one headed as a phone (``Phone``, ``Mobile``, ``Handy``,
``電話``…) holds phones, one headed as an address (``Address``, ``Adresse``, ``住所``…; not an
e-mail's, an IP's or a web address) holds postal addresses. A column of an authenticator's
seeds (``login_totp``, ``OTPAuth``) holds secrets too. A header that describes rather than
holds (``Password policy``,
``Secret name``, ``Token count``) names nothing. A table inside a list item keeps its columns,
and a table whose rows were joined into one line (``| User | Password | |---|---| | ana | … |``,
as a chat message is flattened) is read row by row all the same; so are CSV and TSV lines under
a header that names a column (``name,user,password``), the header perhaps a list item's; a
field quoted whole is read with its spaces and doubled quotes (``"a ""b"" 1!"``). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from itertools import pairwise

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.keys import kind_of_name, value_is_secret

__all__ = ["find_table_secrets"]

_SECRET_KINDS = frozenset({"password", "token", "pin", "card-code", "bare-key", "security"})
_PERSONAL = frozenset(
    {"date-of-birth", "document-number", "national-id", "phone", "postal-address"}
)
# A column of phones, and one of postal addresses (not an e-mail's, an IP's or a web address).
_PHONE_COLUMN = LazyPattern(
    r"\b(?:phone|phones|mobile|mobil|cell|cellphone|tel|telephone|telefon|telefone|teléfono"
    r"|téléphone|handy|móvil|movil|celular|cellulare|whatsapp|gsm|portable|puhelin)\b"
    r"|電話|携帯|电话|手机|전화|휴대폰|телефон|טלפון|هاتف|جوال"
)
_ADDRESS_COLUMN = LazyPattern(
    r"\b(?:address|home address|street|adresse|anschrift|dirección|direccion|indirizzo"
    r"|endereço|adres|adresa|osoite|adress)\b|住所|地址|주소|адрес|כתובת|عنوان"
)
_NOT_POSTAL = LazyPattern(r"(?i:mail|ip|mac|web|url|wallet|bitcoin|ethereum|btc|eth)")
_PHONE_VALUE = LazyPattern(r"\+?[\d ()./-]{7,22}")
_BIRTH = frozenset(
    "dob;d.o.b.;date of birth;birth date;birthdate;birthday;born;geburtsdatum;geburtstag"
    ";date de naissance;fecha de nacimiento;data di nascita;data de nascimento;geboortedatum"
    ";生年月日;出生日期;生日;誕生日;생년월일;дата рождения;data urodzenia;doğum tarihi"
    ";födelsedatum".split(";")
)
_DOCUMENT = LazyPattern(
    r"passport|passeport|pasaporte|passaporto|passaporte|reisepass|paspoort|paszport|паспорт"
    r"|licen[cs]e|führerschein|permis|ausweis|id card|identity card|旅券|护照|護照|여권"
    r"|免許|驾驶证|rijbewijs|patente"
)
_NATIONAL = LazyPattern(
    r"\b(?:ssn|social security|sin|bsn|nir|pesel|cpf|dni|nie|nif|codice fiscale|aadhaar"
    r"|steuer-?id|tax id|national id|personnummer|cpr|nino|ni number|cnp|curp|rfc|cuit|cuil"
    r"|rut|nin|bvn|rrn|hetu|henkilötunnus|fnr|fødselsnummer|rodné číslo|taj|rnokpp|nric"
    r"|mykad|nid|rijksregisternummer|burgerservicenummer|tckn|egn|oib|jmbg|amka)\b"
    r"|マイナンバー|身份证|주민등록번호|ת\.?ז|ІПН|РНОКПП"
)
# A column of an authenticator's seeds (a password manager's export: ``login_totp``,
# ``OTPAuth``, ``TOTP``): each cell a base32 key or an ``otpauth://`` link.
_SEED_COLUMN = LazyPattern(r"(?:^|[\W_])(?:totp|otp|otpauth|2fa|mfa)(?:$|[\W_])", re.I)
_SEPARATOR_ROW = LazyPattern(
    r"(?m)^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$"
)
_MARKER = LazyPattern(r"[ \t]*(?:>[ \t]*)*(?:(?:[-*+•]|\d{1,2}[.)])[ \t]*)*")
# A separator row inside a line: a table whose rows were joined (a chat message flattened).
_INLINE_SEPARATOR = LazyPattern(r"\|(?:[ \t]*:?-{2,}:?[ \t]*\|)+")
_DATE = LazyPattern(
    r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}[./]\d{1,2}[./]\d{1,2}"
    r"|\d{4}年\d{1,2}月\d{1,2}日"
)
_DOCUMENT_VALUE = LazyPattern(r"(?=[^\n]*\d)[A-Z0-9][A-Z0-9 -]{4,22}[A-Z0-9]", re.I)
_HEADER_FIELD = LazyPattern(r"[^\W\d_][\w-]*(?: [^\W_][\w-]*){0,2}")
_FOREIGN_WORDS = LazyPattern(r"[^\x00-\x7f\s]+")
_QUOTES = "`'\""


@cache
def _column_kind(header: str) -> str | None:
    """What the cells of a column headed ``header`` hold, or None."""
    name = header.strip().strip("*_`\"'").strip()
    low = name.lower()
    if low in _BIRTH:
        return "date-of-birth"
    if _PHONE_COLUMN.search(low) and not _NOT_POSTAL.search(low):
        return "phone"
    if _ADDRESS_COLUMN.search(low) and not _NOT_POSTAL.search(low):
        return "postal-address"
    if _NATIONAL.search(low):
        return "national-id"
    if _SEED_COLUMN.search(name):
        return "token"
    kind = kind_of_name(name)
    if kind in _SECRET_KINDS:
        return kind
    if kind is None and _DOCUMENT.search(low) and not low.endswith(("photo", "foto")):
        return "document-number"
    return None


def _bars(text: str, start: int, end: int) -> list[int]:
    return [i for i in range(start, end) if text[i] == "|" and text[i - 1 : i] != "\\"]


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each cell of the row ``text[start:end]``, bars left out (a list item's or
    a quote's marker before the first bar is no cell)."""
    bars = _bars(text, start, end)
    if not bars:
        return []
    edges = bars
    if not _MARKER.fullmatch(text, start, bars[0]):
        edges = [start - 1, *edges]
    if text[bars[-1] + 1 : end].strip():
        edges = [*edges, end]
    return [(a + 1, b) for a, b in pairwise(edges)]


def _value(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end - start >= 2 and text[start] in _QUOTES and text[end - 1] == text[start]:
        return start + 1, end - 1
    return start, end


def _holds(kind: str, value: str) -> bool:
    if not value or value in ("-", "—", "–", "n/a", "N/A"):
        return False
    if kind == "date-of-birth":
        return _DATE.fullmatch(value) is not None
    if kind == "phone":
        digits = sum(c.isdigit() for c in value)
        return _PHONE_VALUE.fullmatch(value) is not None and 7 <= digits <= 15
    if kind == "postal-address":
        has_letter = any(c.isalpha() for c in value)
        return 6 <= len(value) <= 160 and has_letter and any(c.isdigit() for c in value)
    if kind == "document-number":
        return _DOCUMENT_VALUE.fullmatch(value) is not None
    if kind == "national-id":
        return sum(c.isdigit() for c in value) >= 6 and _DOCUMENT_VALUE.fullmatch(value) is not None
    if any(c.isspace() for c in value) or _FOREIGN_WORDS.fullmatch(value):
        return False
    return value_is_secret(kind, value)


def _lines(text: str, start: int) -> Iterator[tuple[int, int]]:
    pos = start
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        yield pos, end
        pos = end + 1


def _column_kinds(text: str, cells: list[tuple[int, int]]) -> dict[int, str]:
    return {
        index: kind
        for index, (a, b) in enumerate(cells)
        if (kind := _column_kind(text[a:b])) is not None
    }


def _row_findings(
    text: str, kinds: dict[int, str], cells: list[tuple[int, int]]
) -> Iterator[Finding]:
    for index, kind in kinds.items():
        if index < len(cells):
            a, b = _value(text, *cells[index])
            value = text[a:b]
            if (a, b) != cells[index] and text[a - 1 : a] == '"' and " " in value:
                value = value.replace('""', '"').replace(" ", "")  # a CSV field quoted whole
            if _holds(kind, value):
                yield Finding(kind if kind in _PERSONAL else "secret-assignment", a, b)


def _joined_tables(text: str) -> list[Finding]:
    """Tables whose rows were joined into one line: ``| a | b | |---|---| | x | y |``."""
    found: list[Finding] = []
    for separator in _INLINE_SEPARATOR.finditer(text):
        line_start = text.rfind("\n", 0, separator.start()) + 1
        line_end = text.find("\n", separator.end())
        line_end = len(text) if line_end < 0 else line_end
        if not text[line_start : separator.start()].strip(" \t|"):
            continue  # a separator row of its own: a table as written
        width = separator.group(0).count("|") - 1
        before = _bars(text, line_start, separator.start())
        header = [(a + 1, b) for a, b in pairwise(before) if text[a + 1 : b].strip()][-width:]
        kinds = _column_kinds(text, header)
        if not kinds or len(header) != width:
            continue
        after = [separator.end() - 1, *_bars(text, separator.end(), line_end)]
        row: list[tuple[int, int]] = []
        for a, b in pairwise(after):
            if text[a + 1 : b].strip():
                row.append((a + 1, b))
                continue
            found += _row_findings(text, kinds, row) if len(row) == width else []
            row = []
        found += _row_findings(text, kinds, row) if len(row) == width else []
    return found


def _fields(text: str, start: int, end: int, delimiter: str) -> list[tuple[int, int]]:
    """The fields of a CSV or TSV line; a delimiter inside a field quoted whole is the field's
    (``"67 Main St, Springfield"``)."""
    edges, quoted, index = [start - 1], False, start
    while index < end:
        char = text[index]
        if char == '"' and quoted and text[index + 1 : index + 2] == '"':
            index += 1  # a doubled quote inside a quoted field is a quote
        elif char == '"' and (quoted or index == edges[-1] + 1):
            quoted = not quoted
        elif char == delimiter and not quoted:
            edges.append(index)
        index += 1
    edges.append(end)
    return [(a + 1, b) for a, b in pairwise(edges)]


def _delimited(text: str) -> list[Finding]:
    """CSV and TSV: a header line naming a secret's column, and the lines after it with as
    many fields."""
    found: list[Finding] = []
    lines = list(_lines(text, 0))
    for number, (start, end) in enumerate(lines[:-1]):
        marker = _MARKER.match(text, start, end)
        start = marker.end() if marker else start  # "- name,user,password": a list item's header
        line = text[start:end]
        if len(line) > 200 or ". " in line:
            continue
        for delimiter in ",;\t":
            if line.count(delimiter) < 1:
                continue
            header = _fields(text, start, end, delimiter)
            names = [text[a:b].strip().strip("\"'") for a, b in header]
            if not all(_HEADER_FIELD.fullmatch(name) for name in names):
                continue  # code, JSON or prose: a header holds names of a few words each
            kinds = _column_kinds(text, header)
            if not kinds:
                continue
            for row_start, row_end in lines[number + 1 :]:
                cells = _fields(text, row_start, row_end, delimiter)
                if len(cells) != len(header):
                    break
                found += _row_findings(text, kinds, cells)
            break
    return found


def find_table_secrets(text: str) -> list[Finding]:
    """Every secret or personal datum in a column that names it (see the module rules)."""
    found: list[Finding] = []
    if "\n" in text and ("," in text or ";" in text or "\t" in text):
        found += _delimited(text)
    if "|" not in text or "--" not in text:
        return found
    found += _joined_tables(text)
    for separator in _SEPARATOR_ROW.finditer(text):
        if "|" not in separator.group(0) or separator.start() == 0:
            continue
        header_start = text.rfind("\n", 0, separator.start() - 1) + 1
        kinds = _column_kinds(text, _cells(text, header_start, separator.start() - 1))
        if not kinds:
            continue
        for start, end in _lines(text, separator.end() + 1):
            if "|" not in text[start:end]:
                break
            found += _row_findings(text, kinds, _cells(text, start, end))
    return found
