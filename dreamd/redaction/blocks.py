"""Secrets that span lines, found on the whole text before anything cuts it into chunks.

* Key blocks: ``-----BEGIN … PRIVATE KEY-----`` to its ``END`` line (RSA, EC, DSA, OpenSSH,
  PKCS#8, encrypted, PGP ``PRIVATE KEY BLOCK``, SSH2's ``---- BEGIN SSH2 ENCRYPTED PRIVATE KEY
  ----``, OpenVPN's ``OpenVPN Static key V1``), whatever prefixes its lines carry (a list
  item, a quote, an indented fence, a JSON string with ``\\n`` escapes). The body between the
  two marker lines is the finding; a block cut off before its END line runs as far as its
  base64 lines do; a lone BEGIN line is a finding by itself.
* A key written as its bytes (Solana's ``id.json``: ``[174,47,154,…]``): 32 or 64 numbers
  from 0 to 255 in brackets.
* PuTTY key files: everything after the ``PuTTY-User-Key-File`` line up to ``Private-MAC``.
* Google service-account objects (``"type": "service_account"`` or a ``"private_key"`` holding a
  key): the whole JSON object, braces included.
* Kubernetes ``kind: Secret`` documents: every value under ``data:`` and ``stringData:``.
* ``.pgpass`` lines (``host:port:db:user:password``) and ``.netrc`` passwords.
* A token split over two lines: a run ending one line and a run starting the next, when the
  first is no token alone, the second no word (a CSV's next row starts ``Angajat 1,…``) and
  the two joined make a vendor token or a random string (:mod:`dreamd.redaction.vendors`,
  :mod:`dreamd.redaction.entropy`); the finding covers both.
  Not after words that name a public key (``minisign public key 3F3A1C2B`` and its key line),
  nor a command line's last flag (``--reusable``) and the next line.
* A token cut in two list items (``- ghp_1A2b…`` then ``- 8h9I…``); and the items of a list
  that the line before it or right after it says hold a secret cut into pieces (``wifi pw,
  split:``, ``the signing key is these three joined:``, ``(the admin key, split)``), each
  piece letters and digits, however short.
* A JWT wrapped over lines, or over list items (``- eyJ….`` ``- eyJ….`` ``- sig``): the
  lines that join into one are one finding.

Certificates and public-key blocks are returned as *public* spans, so the random-looking lines
inside them are not taken for secrets. A Markdown table's row whose cells the lines above call
a secret's parts (``both cells run together``), and a value cut by Markdown's hard breaks (a
line ending in ``\\``) under a secret's word, are masked piece by piece; a ``key=value`` line
under a list of values is no piece of the one before it. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from itertools import pairwise

from dreamd.redaction.finding import BLOCK_MASK, Finding
from dreamd.redaction.scan import ITEM, ITEM_MARKED

__all__ = ["find_blocks"]

_BEGIN = re.compile(
    r"-{4,5} ?BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?|OpenVPN Static key V\d) ?-{4,5}"
)
_PUBLIC = re.compile(
    r"-----BEGIN ((?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK|PGP SIGNATURE"
    r"|X509 CRL|CERTIFICATE REQUEST|SSH2 PUBLIC KEY))-----[\s\S]*?-----END \1-----"
)
_BODY_LINE = re.compile(r"[ \t>*+-]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z-]+: .*|=[A-Za-z0-9+/]{4})[ \t]*")
_BYTE_ARRAY = re.compile(r"\[[ \t]*((?:\d{1,3}[ \t]*,[ \t]*){31,63}\d{1,3})[ \t]*\]")
_PUTTY = re.compile(r"PuTTY-User-Key-File-\d: [^\n]*\n([\s\S]*?Private-MAC: *[0-9a-fA-F]+)")
_SERVICE_ACCOUNT = re.compile(
    r"\"type\"\s*:\s*\"service_account\"|\"private_key\"\s*:\s*\"-----BEGIN"
)
_DATA_ITEM = re.compile(r"\n([ \t]+)[\w.-]+:[ \t]*(\S[^\n]*)")
_K8S_SECRET = re.compile(r"(?m)^kind:\s*Secret\s*$")
_DATA_KEY = re.compile(r"(?m)^([ \t]*)(?:data|stringData):[ \t]*$")
# host:port:database:user:password, on a line of its own or (a message flattened) after a space;
# two-character groups and a password of digits only are a MAC address's or a time's.
_PGPASS = re.compile(
    r"(?<!\S)(?:\*|[A-Za-z0-9._-]{3,}):(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:(?=\S*[^\d:\s])(\S+)(?!\S)"
)
_NETRC = re.compile(r"\bmachine\s+\S+(?:\s+(?:login|account)\s+\S+)*\s+password\s+(\S+)")
_NEXT_LINE_KEY = re.compile(
    r"(?im)^[ \t>*+-]*(?:[\w .'-]{0,30}\s)?(?:password|passwd|passphrase|pwd|pass|secret"
    r"|token|api[ _-]?key|private[ _-]?key|passwort|kennwort|mot de passe|contraseña|senha)"
    r"[ \t]*[:=][ \t]*\n[ \t>*+-]*(?![A-Za-z_][A-Za-z_.-]*=[\w.:/-]*[ \t]*$)(\S{6,})[ \t]*$"
)  # a next line that is a key's own line (``Pwd=`` then ``AutoStart=1``) holds no value
_KEYED = re.compile(r"[A-Za-z_][\w.-]*=")
_PUBLIC_NAMED = re.compile(r"(?i:public[ _-]?key|pubkey)")
_RUN_END = re.compile(r"([A-Za-z0-9_+/=-]{4,})[ \t]*$")
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9_+/=][A-Za-z0-9_+/=-]{5,}")
_KEY_AT_LINE_END = re.compile(r"[:=][ \t]*\n")
_RUN_START = re.compile(r"[ \t>]*([A-Za-z0-9_+/=][A-Za-z0-9_+/=-]{5,})")
# A list item's or a quote's marker before the rest of a wrapped token.
_ITEM = ITEM
_ITEM_TOKEN = re.compile(r"^" + _ITEM + r"([A-Za-z0-9_+/=.-]{6,})[ \t]*$", re.M)
_JWT_HEAD = re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_.-]*(?![\w.-])")
_JWT_PIECE = re.compile(
    r"(?:[ \t]*\n" + _ITEM + r"|[ \t]+(?:(?:[-*+•>]|\d{1,2}[.)])[ \t]+)*)"
    r"([A-Za-z0-9_-][A-Za-z0-9_.-]*)(?![\w.-])"
)
_INLINE_ITEMS = re.compile(
    r"(?<!\S)[-*•][ \t]+([A-Za-z0-9_+/=.-]{6,})[ \t]+[-*•][ \t]+([A-Za-z0-9_+/=.-]{6,})(?!\S)"
)
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
# A list of pieces: items of one value each, perhaps labelled (``- first half: …``).
_PIECE_ITEMS = re.compile(
    r"(?:^" + ITEM_MARKED + r"(?:[^\W\d_][\w ]{0,20}:[ \t]*)?\S{4,64}[ \t]*(?:\n|$)){2,8}", re.M
)
_PIECE_VALUE = re.compile(
    r"^" + ITEM_MARKED + r"(?:[^\W\d_][\w ]{0,20}:[ \t]*)?(\S{4,64})[ \t]*$", re.M
)
# A line that says a secret was cut into pieces: "wifi pw, split:", "the key is these three
# joined:", "(the Algolia admin key, split)".
_SECRET_WORD = re.compile(
    r"(?i:\b(?:password|passwort|passphrase|pw|pwd|pass|token|secret|key|credentials?|creds)\b)"
)
_PIECES_WORD = re.compile(
    r"(?i:\b(?:split|joined|join|parts?|halves|half|pieces?|concat\w*|together|combined?"
    r"|cells)\b)"
)
# A piece: six characters or more, letters and digits, no version or number.
_PIECE_SHAPE = re.compile(r"(?![vV]?\d+(?:[.,:/-]\d+)*$)(?=.*[^\W\d_])(?=.*\d)\S{6,64}")
# A word as a line starts with one (``Angajat``, ``total``): no piece of a token.
_WORD = re.compile(r"[A-Z]?[a-z]{2,15}")
_PIECE_HINTS = re.compile("split|join|part|half|halves|piece|concat|together|combin")


@cache
def _end_marker(label: str) -> re.Pattern[str]:
    return re.compile(r"-{4,5} ?END " + re.escape(label) + r" ?-{4,5}")


def _key_blocks(text: str) -> list[Finding]:
    found = []
    for begin in _BEGIN.finditer(text):
        label = begin.group(1)
        end = _end_marker(label).search(text, begin.end())
        body = text[begin.end() : end.start()] if end else ""
        if end and body.strip(" \t\r\n\\n>") in ("", BLOCK_MASK):
            continue
        if not end and text.startswith(BLOCK_MASK, begin.end()):
            continue  # a cut-off block already redacted
        if end and begin.end() < end.start():
            found.append(Finding("private-key", begin.end(), end.start()))
            continue
        stop, pos = begin.end(), begin.end()
        while True:
            newline = text.find("\n", pos)
            if newline < 0:
                break
            line_end = text.find("\n", newline + 1)
            line_end = len(text) if line_end < 0 else line_end
            if not _BODY_LINE.fullmatch(text, newline + 1, line_end):
                break
            stop = pos = line_end
        found.append(
            Finding("private-key", begin.end(), stop)
            if stop > begin.end()
            else Finding("private-key", begin.start(), begin.end())
        )
    return found


def _byte_keys(text: str) -> list[Finding]:
    """A key written as the list of its bytes, as Solana's CLI and some wallets save one
    (``[174,47,154,…]``): 32 or 64 numbers from 0 to 255, not all alike, in brackets."""
    found = []
    for match in _BYTE_ARRAY.finditer(text):
        numbers = [int(n) for n in match.group(1).replace(" ", "").split(",")]
        if len(numbers) in (32, 64) and max(numbers) <= 255 and len(set(numbers)) > 16:
            found.append(Finding("private-key", *match.span(1)))
    return found


def _enclosing_object(text: str, inside: int) -> tuple[int, int] | None:
    depth, start = 0, -1
    for index in range(inside, -1, -1):
        char = text[index]
        if char == "}":
            depth += 1
        elif char == "{":
            if depth == 0:
                start = index
                break
            depth -= 1
    if start < 0:
        return None
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return start, index + 1
    return None


def _k8s_values(text: str) -> list[Finding]:
    found = []
    for kind in _K8S_SECRET.finditer(text):
        doc_start = text.rfind("\n---", 0, kind.start())
        doc_end = text.find("\n---", kind.end())
        doc_end = len(text) if doc_end < 0 else doc_end
        for data in _DATA_KEY.finditer(text, max(0, doc_start), doc_end):
            indent = len(data.group(1))
            item = _DATA_ITEM
            pos = data.end()
            while (row := item.match(text, pos)) and row.end() <= doc_end:
                if len(row.group(1)) <= indent:
                    break
                found.append(Finding("k8s-secret", row.start(2), row.end(2)))
                pos = row.end()
    return found


def _split_tokens(
    text: str, runs: Sequence[tuple[int, int]], is_token: Callable[[str], bool]
) -> list[Finding]:
    """Pairs of runs across a line break that only make a token together."""
    found = []
    for start, end in runs:
        after = len(text[end : end + 8]) - len(text[end : end + 8].lstrip(" \t"))
        if text[end + after : end + after + 1] == "\n":
            head = _RUN_END.search(text, start, end)
            tail = _RUN_START.match(text, end + after + 1)
            if head and tail:
                found += _joined(text, head.start(1), end, tail.start(1), tail.end(1), is_token)
        line_start = text.rfind("\n", 0, start)
        if line_start >= 0 and not text[line_start + 1 : start].strip(" \t>"):
            previous = text.rfind("\n", 0, line_start) + 1
            head = _RUN_END.search(text, previous, line_start)
            tail = _TOKEN_CHARS.match(text, start, end)
            if head and tail:
                found += _joined(text, head.start(1), head.end(1), start, tail.end(), is_token)
    return found


def _split_items(text: str, is_token: Callable[[str], bool]) -> list[Finding]:
    """Two list items (or quoted lines) in a row, each one short piece, that make a token
    together (``* AKIAQMXN9F`` ``* JA5TB4C08X``)."""
    found = []
    items = list(_ITEM_TOKEN.finditer(text))
    for first, second in pairwise(items):
        if second.start() != first.end() + 1:
            continue
        head, tail = first.group(1), second.group(1)
        if _KEYED.match(tail):
            continue  # "level-seed=…" then "view-distance=10": a key of its own, no piece
        if is_token(head + tail) and not (is_token(head) and is_token(tail)):
            found.append(Finding("split-token", first.start(1), second.end(1)))
    for pair in _INLINE_ITEMS.finditer(text):  # the same two items, joined into one line
        head, tail = pair.group(1), pair.group(2)
        if is_token(head + tail) and not (is_token(head) and is_token(tail)):
            found.append(Finding("split-token", pair.start(1), pair.end(2)))
    return found


def _announced_pieces(text: str) -> list[Finding]:
    """The items of a list that the line before it (or right after it) says hold a secret cut
    into pieces: each item is a piece, masked whatever it looks like alone, so long as it is
    no plain word."""
    found = []
    for items in _PIECE_ITEMS.finditer(text):
        before_start = text.rfind("\n", 0, max(0, items.start() - 1)) + 1
        before = text[before_start : items.start()]
        after_end = text.find("\n", items.end())
        after = text[items.end() : len(text) if after_end < 0 else after_end]
        if not any(
            _SECRET_WORD.search(line) and _PIECES_WORD.search(line) for line in (before, after)
        ):
            continue
        values = list(_PIECE_VALUE.finditer(text, items.start(), items.end()))
        if not all(_PIECE_SHAPE.fullmatch(value.group(1)) for value in values):
            continue  # "- print\n- store", "- v2.0\n- v3.1": steps and versions, not pieces
        found += [Finding("split-token", *value.span(1)) for value in values]
    return found


# A Markdown table's row of two to four cells, each a piece of a value.
_PIECE_ROW = re.compile(r"(?m)^[ \t]*\|((?:[ \t]*[^|\s]{4,64}[ \t]*\|){2,4})[ \t]*$")
_CELL = re.compile(r"[^|\s]{4,64}")
# A value broken by Markdown's hard breaks (a backslash ending the line) under a line that
# names a secret and ends with one too: ``Deploy key:\`` then ``xRN8…\`` then ``M-aA…``.
_HARD_BROKEN = re.compile(
    r"(?m)^(?P<head>[^\n]*)\\\n"
    r"(?P<body>(?:[ \t]*[^\s\\]{4,64}\\\n){1,6}[ \t]*[^\s\\]{4,64})[ \t]*$"
)


def _table_pieces(text: str) -> list[Finding]:
    """A table row whose cells are pieces of one value, when the lines before the table (or
    its header) say a secret is cut into parts or cells (``Wi-Fi key is both cells run
    together:``)."""
    found = []
    for row in _PIECE_ROW.finditer(text):
        cells = list(_CELL.finditer(text, row.start(1), row.end(1)))
        if not all(_PIECE_SHAPE.fullmatch(cell.group(0)) for cell in cells):
            continue
        before = text[max(0, row.start() - 240) : row.start()].split("\n")[-5:]
        if any(_SECRET_WORD.search(line) for line in before) and any(
            _PIECES_WORD.search(line) for line in before
        ):
            found += [Finding("split-token", *cell.span()) for cell in cells]
    return found


def _hard_broken(text: str, is_token: Callable[[str], bool]) -> list[Finding]:
    """The pieces of a value Markdown's hard breaks cut (see :data:`_HARD_BROKEN`)."""
    found = []
    for match in _HARD_BROKEN.finditer(text):
        if not _SECRET_WORD.search(match.group("head")):
            continue
        pieces = list(re.finditer(r"[^\s\\]+", match.group("body")))
        joined = "".join(piece.group(0) for piece in pieces)
        mixed = sum(
            any(test(c) for c in joined) for test in (str.isupper, str.islower, str.isdigit)
        )
        if is_token(joined) or (len(joined) >= 16 and mixed == 3):
            offset = match.start("body")
            found += [Finding("split-token", offset + p.start(), offset + p.end()) for p in pieces]
    return found


def _wrapped_jwts(text: str) -> list[Finding]:
    """JWTs whose payload or signature went on to the next lines, the next list items, or
    (a message flattened) after a space."""
    found = []
    for head in _JWT_HEAD.finditer(text):
        joined, end = head.group(0), head.end()
        if _JWT.fullmatch(joined):
            continue
        pos = end
        for _ in range(4):
            if joined.count(".") >= 2 and not joined.endswith("."):
                break
            piece = _JWT_PIECE.match(text, pos)
            if piece is None:
                break
            joined += piece.group(1)
            end = pos = piece.end(1)
        if end > head.end() and _JWT.fullmatch(joined):
            found.append(Finding("split-token", head.start(), end))
    return found


def _joined(
    text: str,
    head_start: int,
    head_end: int,
    tail_start: int,
    tail_end: int,
    is_token: Callable[[str], bool],
) -> list[Finding]:
    line_end = text.find("\n", tail_end)
    rest = text[tail_end : len(text) if line_end < 0 else line_end]
    if rest[:1] not in ("", " ", "\t", "\r"):
        return []
    if text[head_start - 1 : head_start] == "…":
        return []  # the end of a mask (``whsec_…8XQY``), not the start of a token
    line_start = text.rfind("\n", 0, head_start) + 1
    if _PUBLIC_NAMED.search(text, line_start, head_start):
        return []  # "minisign public key 3F3A1C2B" then the key's line: public, both of them
    head, tail = text[head_start:head_end], text[tail_start:tail_end]
    if _WORD.fullmatch(tail):
        return []  # "…093" then "Angajat 1,…": the next line starts with a word, not a piece
    if head.startswith("--"):
        return []  # "… --reusable" then what the command printed: a flag, no piece of a token
    if is_token(head + tail) and not is_token(head):
        return [Finding("split-token", head_start, tail_end)]
    return []


def find_blocks(
    text: str,
    low: str,
    *,
    runs: Sequence[tuple[int, int]],
    is_token: Callable[[str], bool],
) -> tuple[list[Finding], list[tuple[int, int]]]:
    """Multi-line findings, and the public spans (certificates, public keys)."""
    found: list[Finding] = []
    public: list[tuple[int, int]] = []
    if "[" in text and "," in text:
        found += _byte_keys(text)
    if "-----begin" in low or "---- begin" in low:
        found += _key_blocks(text)
        public = [(m.start(), m.end()) for m in _PUBLIC.finditer(text)]
    if "putty-user-key-file" in low:
        found += [Finding("private-key", m.start(1), m.end(1)) for m in _PUTTY.finditer(text)]
    if "service_account" in low or '"private_key"' in low:
        for match in _SERVICE_ACCOUNT.finditer(text):
            span = _enclosing_object(text, match.start())
            if span:
                found.append(Finding("service-account", *span))
    if "kind:" in low and "secret" in low:
        found += _k8s_values(text)
    if "machine" in low:
        found += [Finding("netrc", m.start(1), m.end(1)) for m in _NETRC.finditer(text)]
    if "eyJ" in text:
        found += _wrapped_jwts(text)
    if text.count(":") >= 4:
        found += [Finding("pgpass", m.start(1), m.end(1)) for m in _PGPASS.finditer(text)]
    if "\n" not in text:
        return found + _split_items(text, is_token), public
    if _KEY_AT_LINE_END.search(text):
        found += [
            Finding("secret-assignment", m.start(1), m.end(1))
            for m in _NEXT_LINE_KEY.finditer(text)
        ]
    found += _split_items(text, is_token)
    if _PIECE_HINTS.search(low):
        found += _announced_pieces(text)
        if "|" in text:
            found += _table_pieces(text)
    if "\\\n" in text:
        found += _hard_broken(text, is_token)
    taken = public + [
        (f.start, f.end) for f in found if f.kind in ("private-key", "service-account")
    ]
    found += [
        split
        for split in _split_tokens(text, runs, is_token)
        if not any(start < split.end and split.start < end for start, end in taken)
    ]
    return found, public
