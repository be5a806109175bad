"""Secrets written in hexadecimal or percent-encoding, decoded and checked again.

* **Hexadecimal.** A run of 20 or more hexadecimal digits (an even number, not all decimal
  digits: those are numbers) whose bytes are
  readable text is that text written in hex (``6768705f…`` is ``ghp_…``): it is a secret when
  the text is one (the rules find a secret in it, or it is one word shaped like a password,
  see :func:`dreamd.redaction.entropy.is_wrapped_secret`). Hashes, ids and keys in hex decode
  to bytes no one reads, and stay.
* **Percent-encoding.** A run holding ``%XX`` escapes is decoded (``ghp%5F…``,
  ``redirect_uri=https%3A%2F%2F…%3Ft%3D…``, ``info%40example.com``) and the rules run on the
  decoded run; what they find is masked in the original, escapes included. Escapes that
  decode to no UTF-8 (``%ADMIN_PASS%``, a Windows variable whose name starts with hex
  letters) are no encoding and stay as written.

* **Character codes and bits.** A list of four or more character codes given to
  ``String.fromCharCode(…)``, ``chr``, ``bytes([…])`` or ``char[]`` (``83,117,110,…``), and
  four or more bytes written in binary (``01001000 01110101 …``), are decoded the same way
  and judged as hex is.
* **Morse, Braille and ascii85.** A run of four or more Morse letters (``-.... .-.. -....``),
  of Braille cells (``⠚⠁⠙⠋``; the number sign and the capital sign read), or an ascii85
  block (``<~…~>``) is decoded. It is a secret when what it spells is a credential (as hex
  is judged), when the rules find a secret in its line with the run read as it spells, or
  when a word naming a secret stands before it on the line (``pw in morse: …``,
  ``passphrase ⠏⠺ …``): nobody writes a note in Morse or Braille but to hide what it says.

Base64 is :mod:`dreamd.redaction.entropy`'s. One level deep: what a decoded text holds is not
decoded again. A uuencoded body (``begin 600 name`` … ``end``) and the lines of a hex dump
(``xxd``, ``hexdump -C``) are masked when they decode to a credential or stand under a file's
or a command's name that names one. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from dreamd.redaction.entropy import is_wrapped_secret
from dreamd.redaction.finding import Finding

__all__ = ["find_character_codes", "find_encoded_secrets"]

Detect = Callable[[str], list[Finding]]


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    hexadecimal = re.compile(r"(?:(?<![0-9A-Za-z])|(?<=\b0x))(?:[0-9a-fA-F]{2}){8,}(?![0-9A-Za-z])")
    escape = re.compile(r"%[0-9A-Fa-f]{2}")
    return hexadecimal, escape


def _percent_decoded(run: str) -> tuple[str, list[tuple[int, int]]]:
    """The decoded run and, for each decoded character, the stretch of the run it came from."""
    _, escape = _patterns()
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    raw = bytearray()
    raw_span = [0, 0]

    def flush() -> None:
        if raw:
            try:
                decoded = raw.decode("utf-8")
            except UnicodeDecodeError:  # %ADMIN_PASS%: a variable's name, not encoded text
                parts.append(run[raw_span[0] : raw_span[1]])
                spans.extend((i, i + 1) for i in range(raw_span[0], raw_span[1]))
            else:
                parts.append(decoded)
                spans.extend([(raw_span[0], raw_span[1])] * len(decoded))
            raw.clear()

    pos = 0
    for match in escape.finditer(run):
        if match.start() > pos:
            flush()
            parts.append(run[pos : match.start()])
            spans.extend((i, i + 1) for i in range(pos, match.start()))
        value = int(match.group(0)[1:], 16)
        if value < 0x80:
            flush()
            parts.append(chr(value))
            spans.append(match.span())
        else:
            if not raw:
                raw_span[0] = match.start()
            raw.append(value)
            raw_span[1] = match.end()
        pos = match.end()
    flush()
    parts.append(run[pos:])
    spans.extend((i, i + 1) for i in range(pos, len(run)))
    return "".join(parts), spans


def _escaped_findings(text: str, start: int, end: int, detect: Detect) -> list[Finding]:
    run = text[start:end]
    decoded, spans = _percent_decoded(run)
    if decoded == run:
        return []
    return [
        Finding(f.kind, start + spans[f.start][0], start + spans[f.end - 1][1])
        for f in detect(decoded)
        if f.end > f.start
    ]


def _readable(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text.isprintable() and not text.isspace() else None


def find_encoded_secrets(
    text: str, runs: Sequence[tuple[int, int]], detect: Detect
) -> list[Finding]:
    """Secrets in hex and percent-encoded runs of ``text`` (``detect``: the rules, one level
    deeper)."""
    hexadecimal, escape = _patterns()
    found: list[Finding] = []
    for start, end in runs:
        if "%" in text[start:end] and escape.search(text, start, end):
            found += _escaped_findings(text, start, end, detect)
        for match in hexadecimal.finditer(text, start, end):
            digits = match.group(0)
            if len(digits) < 20 or digits.isdigit():
                continue  # a number, or too short to say: 3558666666666667 is a float's digits
            decoded = _readable(bytes.fromhex(digits))
            if decoded is not None and is_wrapped_secret(decoded, lambda t: bool(detect(t))):
                found.append(Finding("encoded-credential", match.start(), match.end()))
    return found


# Character codes handed to a function that makes text of them, and bytes written in binary.
_CODES = re.compile(
    r"(?:fromCharCode|chr|bytes|char\[\])\W{0,12}?(?P<codes>(?:\d{2,3}[ \t]*,[ \t]*){3,}\d{2,3})"
)
_CODE_CALLS = ("fromCharCode(", "chr(", "bytes(", "char[]")
# Two bytes of printable text in binary, side by side (a quick test: it starts with a digit).
_BITS_HINT = re.compile(r"0[01]{7}[ \t]+0[01]{7}")
_BITS = re.compile(r"(?<![01])(?P<bits>(?:[01]{8}[ \t]+){3,}[01]{8})(?![01])")


_MORSE = dict(
    zip(
        ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...-"
        " .-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----.".split(),
        "abcdefghijklmnopqrstuvwxyz0123456789",
        strict=True,
    )
)
_MORSE_RUN = re.compile(r"(?<!\S)(?:[.-]{1,5}[ ]{1,3}(?:/[ ]+)?){3,}[.-]{1,5}(?!\S)")
# Braille cells (six dots, Unicode's patterns) of the letters; a number sign makes a-j digits.
_BRAILLE = dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵", "abcdefghijklmnopqrstuvwxyz", strict=True))
_BRAILLE_RUN = re.compile(r"[\u2800-\u28ff](?:[ ]?[\u2800-\u28ff]){3,}")
_ASCII85 = re.compile(r"<~[!-u\s]{5,400}?~>")
# A word before a run on its line that names a secret (the run is what it names).
_SECRET_WORD = re.compile(
    r"(?i:pass|pw|pwd|pin\b|code|key|token|secret|kennwort|mdp|clave|senha|contrase|parol|hasło"
    r"|heslo|salasana|пароль|credential)"
)


def _morse(run: str) -> str | None:
    letters = [_MORSE.get(code) for code in run.replace("/", " ").split()]
    return None if None in letters else "".join(filter(None, letters))


def _braille(run: str) -> str | None:
    out, number, capital = [], False, False
    for cell in run:
        if cell == " ":
            out.append(" ")
            number = False
        elif cell == "⠼":
            number = True
        elif cell == "⠠":
            capital = True
        elif cell in _BRAILLE:
            letter = _BRAILLE[cell]
            if number and letter in "abcdefghij":
                out.append("1234567890"["abcdefghij".index(letter)])
            else:
                out.append(letter.upper() if capital else letter)
            capital = False
        else:
            return None
    return "".join(out)


def _ascii85(run: str) -> str | None:
    import base64
    import binascii

    try:
        return _readable(base64.a85decode(run, adobe=True))
    except (ValueError, binascii.Error):
        return None


def _spelled_runs(text: str) -> list[tuple[int, int, str]]:
    """(start, end, what it spells) of each Morse, Braille and ascii85 run of ``text``."""
    decoded: list[tuple[int, int, str]] = []
    if ".-" in text or "-." in text:
        for match in _MORSE_RUN.finditer(text):
            plain = _morse(match.group(0))
            if plain and "." in match.group(0) and "-" in match.group(0):
                decoded.append((*match.span(), plain))
    if not text.isascii() and _BRAILLE_RUN.search(text):
        for match in _BRAILLE_RUN.finditer(text):
            plain = _braille(match.group(0))
            if plain and plain.strip():
                decoded.append((*match.span(), plain))
    if "<~" in text:
        for match in _ASCII85.finditer(text):
            plain = _ascii85(match.group(0))
            if plain:
                decoded.append((*match.span(), plain))
    return decoded


def _spelled_secrets(text: str, detect: Detect) -> list[Finding]:
    found = []
    for start, end, plain in _spelled_runs(text):
        line = text.rfind("\n", 0, start) + 1
        before = text[line:start]
        read = before + plain
        named = _SECRET_WORD.search(before) is not None
        inside = any(f.end > len(before) for f in detect(read))
        if named or inside or is_wrapped_secret(plain, lambda t: bool(detect(t))):
            found.append(Finding("encoded-credential", start, end))
    return found


# uuencode's body (``begin 644 name`` … ``end``) and a hex dump's lines (``xxd``'s and
# ``hexdump -C``'s: an offset, byte groups, the bytes as text).
_UUENCODED = re.compile(
    r"(?m)^(?:[ \t]*[-*+][ \t]+)?begin(?:-base64)? [0-7]{3} [^\n]+\n"
    r"(?P<body>(?:[!-`]{2,61}\n){1,40})`?\n?end\b"
)
_DUMP_LINE = re.compile(
    r"(?m)^[0-9a-f]{7,8}:?[ \t]+(?P<hex>(?:[0-9a-f]{2,4} ?){1,16})"
    r"[ \t]+\|?(?P<text>[^\n|]{1,16})\|?$"
)


def _uudecoded(body: str) -> str | None:
    import binascii

    try:
        data = b"".join(binascii.a2b_uu(line) for line in body.splitlines() if line.strip())
    except (binascii.Error, ValueError):
        return None
    return _readable(data)


def _dumps(text: str, detect: Detect) -> list[Finding]:
    """uuencoded bodies and hex dumps that decode to a credential, or under a file's or a
    command's name that names one (``begin 600 creds.txt``, ``$ xxd pw.txt``)."""
    found: list[Finding] = []
    for match in _UUENCODED.finditer(text) if "begin " in text else ():
        plain = _uudecoded(match.group("body"))
        header = text[match.start() : text.find("\n", match.start())]
        if plain is not None and (
            _SECRET_WORD.search(header) or is_wrapped_secret(plain, lambda t: bool(detect(t)))
        ):
            found.append(Finding("encoded-credential", *match.span("body")))
    lines = list(_DUMP_LINE.finditer(text))
    if lines:
        data = bytes.fromhex("".join(m.group("hex").replace(" ", "") for m in lines))
        plain = _readable(data)
        before = "\n".join(text[max(0, lines[0].start() - 120) : lines[0].start()].split("\n")[-2:])
        if plain is not None and (
            _SECRET_WORD.search(before) or is_wrapped_secret(plain, lambda t: bool(detect(t)))
        ):
            for line in lines:
                found += [
                    Finding("encoded-credential", *line.span("hex")),
                    Finding("encoded-credential", *line.span("text")),
                ]
    return found


def find_character_codes(text: str, detect: Detect) -> list[Finding]:
    """Secrets written as character codes, in binary, in Morse, in Braille or in ascii85 (see
    the module rules)."""
    found: list[Finding] = _spelled_secrets(text, detect)
    if "\n" in text:
        found += _dumps(text, detect)
    decoded: list[tuple[int, int, str]] = []
    if "," in text and any(call in text for call in _CODE_CALLS):
        for match in _CODES.finditer(text):
            codes = [int(c) for c in match.group("codes").replace(" ", "").split(",")]
            if all(32 <= c < 127 for c in codes):
                decoded.append((*match.span("codes"), "".join(map(chr, codes))))
    if _BITS_HINT.search(text):
        for match in _BITS.finditer(text):
            data = bytes(int(bits, 2) for bits in match.group("bits").split())
            readable = _readable(data)
            if readable is not None:
                decoded.append((*match.span("bits"), readable))
    for start, end, plain in decoded:
        if is_wrapped_secret(plain, lambda t: bool(detect(t))):
            found.append(Finding("encoded-credential", start, end))
    return found
