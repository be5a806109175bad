"""Random-looking strings no vendor shape explains, checked with detect-secrets.

A run (see :mod:`dreamd.redaction.vendors`) is cut into *pieces* of base64 characters (and
where a key's name ends inside one: ``request_id=…`` is a name and a value, judged apart); a piece
is a *suspect* when it is 16 or more characters long, mixes letters and digits (or both cases
past 24 characters), is not made of words (``S3BucketReplicationConfig2``), is not hexadecimal
(hashes, git SHAs, ETH addresses), not upper case and digits only (ULIDs, tracking numbers),
not a UUID, not a relative path of words, numbers and dates (``memory/logs/2026/03/2026-03-05``),
not a public key by its prefix (a bech32 ``npub1…``, a BIP32 ``xpub…``), and does not sit where
harmless random text lives: a URL's path (a query parameter's value
is judged: a one-time code, a ticket, a token; a tracker's click id and a playlist's are
not), a file path, a
``data:`` URI, an ``sha512-`` integrity value, an ``SHA256:`` fingerprint, a Go module's
``h1:`` hash, a crypt(3) hash, an SSH or age public key, a value named a public key
(``PublicKey = …``, or the line after one that names it: ``minisign public key …``), a
bech32 address, a header's or a field's id (``X-Amz-Cf-Id: …``), a span the caller marked
as public (a certificate), or a public object's id (a price, a customer, a base, or whatever
follows the word naming a track, a video, a channel, an order, an address…).
Cheap checks come first, so ordinary notes never import the library. A piece that is base64
(standard or URL-safe, padded or not) of readable text is judged by that text instead: a
credential (``user:password``, one word shaped like a password, text in which a rule finds a
secret) is a ``base64-credential``; anything else (a sentence, a name, a date, an API's global
id such as ``Package-57089116``, a certificate or a public key in PEM) is not a secret,
however random its base64 looks.

For each suspect, Yelp's detect-secrets decides (plugin objects built once, then cached): its
credential plugins (AWS, Azure storage, Artifactory, IBM, SoftLayer, Cloudant, Twilio, Square,
Mailchimp, basic auth) run on the line, and its high-entropy plugin's Shannon entropy must
reach a bar that grows with the length of the piece; its filters drop sequential strings,
UUIDs and values an ``…_id`` names. A suspect that is valid base64 of readable text is decoded
and scanned again: a credential wrapped in base64 (a Kubernetes secret, a Docker ``auth``) is a
``base64-credential``. Pure.
"""

from __future__ import annotations

import base64
import binascii
import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from dreamd.redaction.finding import Finding

__all__ = ["find_random_strings", "is_random_token", "is_wrapped_secret"]

_PIECE = re.compile(r"[A-Za-z0-9+/=_-]{16,}")
_SEGMENT_SPLIT = re.compile(r"[-_]")
MIN_SEGMENT = 16
# Integrity values, paths, bech32 addresses and public keys (``npub1…``), and BIP32 extended
# public keys (``xpub6C…``): public by nature.
_HARMLESS_START = re.compile(
    r"sha(?:1|224|256|384|512)-|/|(?:bc|tb|ltc|age|npub|nprofile)1[02-9ac-hj-np-z]{20,}$"
    r"|[xyztuvZYUV]pub[1-9A-HJ-NP-Za-km-z]{100,}$"
)
_WORDY = re.compile(r"[A-Z]?[a-z]*[aeiouy][a-z]*(?<=[a-z]{3})|[A-Z]{3,}(?![a-z])")
_HEX = re.compile(r"(?:0x)?[0-9a-fA-F]+")
_UPPER_DIGITS = re.compile(r"[A-Z0-9]+")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HARMLESS_BEFORE = re.compile(
    r"(?:base64,|(?i:sha)(?:1|224|256|384|512)[-:]|ssh-(?:rsa|dss|ed25519) |ecdsa-sha2-nistp\d+ "
    r"|sk-ssh-ed25519@openssh\.com |\$(?:2[abxy]?|argon2i?d?|[156]|pbkdf2[\w-]*|scrypt)\$\S*"
    r"|(?i:pub(?:lic)?[ _-]?key)[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"|\bh1:|(?i:[\w-]+-id)[ \t]*[:=][ \t]*)$"
)
# A line that names a public key: the line after it holds the key (minisign, signify).
_PUBLIC_LINE = re.compile(r"(?i:public[ _-]?key|pubkey)[^\n]*\n[ \t]*$")
# The name of the query parameter whose value starts where the text ends.
_QUERY_NAME = re.compile(r"[?&;]([\w.-]+)=$")
# Query parameters that carry a tracker's or a share link's id, random but no secret.
_TRACKERS = (
    "utm_",
    "fbclid",
    "gclid",
    "gbraid",
    "wbraid",
    "dclid",
    "msclkid",
    "yclid",
    "igshid",
    "mc_",
    "_ga",
    "_gl",
    "si",
    "ved",
    "ei",
    "oq",
    "gs_",
    "sca_esv",
    "feature",
    "list",
    "v",
)
# Where a key's name ends and its value starts inside one piece (``request_id=…``): an ``=``
# followed by more of the piece (base64 pads only at its end).
_INNER_EQUALS = re.compile(r"=+(?=[^=])")
_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_PATH_PART = re.compile(r"[a-z]+|\d+|\d{4}-\d{2}-\d{2}")
_PUBLIC_PEM = re.compile(r"\s*-----BEGIN (?!.*PRIVATE)[A-Z0-9 ]+-----")
_USER_PASSWORD = re.compile(r"[\w.@+-]{1,64}:\S{4,}")
_PASSWORD_SHAPED = re.compile(r"(?=.*[^\W\d_])(?=.*\d)\S{8,64}")
# A type's name and a long number: an API's global id (``Package-57089116``), no secret.
_TYPED_ID = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+)*[-:_/]\d{5,}")
# The ids of public objects, random but no secret: a payment API's price, product or
# customer (``price_1Ox…``, ``cus_Q8x…``) and its publishable key (``pk_live_…``, made to be
# put in web pages), a spreadsheet database's base, table or record (``appQ8xL2mN4r7TzY``);
# and a piece right after the word that names such an object (``Spotify track 4uLU6h…``,
# ``YouTube video …``, ``Airtable base …``).
_OBJECT_ID = re.compile(
    r"(?:price|prod|cus|sub|in|pi|ch|pm|txn|evt|acct|seti|po|plink|inv)_[A-Za-z0-9]{8,40}"
    r"|pk_(?:live|test)_[A-Za-z0-9]{20,120}"
    r"|(?:app|tbl|fld|rec|viw|wsp)[A-Za-z0-9]{14}"
)
_OBJECT_BEFORE = re.compile(
    r"(?i:(?<![\w-])(?:track|album|playlist|artist|episode|show|video|channel|base|table|record"
    r"|price|product|customer|invoice|order|page|post|tweet|status|message|commit|address)"
    r"(?:[ _-]?id)?)[ \t]*[:#=]?[ \t]*$"
)

# Shannon entropy a random piece of a given length reaches 99 times in 100 (base36 to base64).
_ENTROPY_BAR = ((16, 3.2), (20, 3.45), (24, 3.6), (32, 3.85), (40, 4.0), (48, 4.15), (64, 4.3))


def _bar(length: int) -> float:
    best = _ENTROPY_BAR[0][1]
    for size, bar in _ENTROPY_BAR:
        if length >= size:
            best = bar
    return best


def _classes(piece: str) -> tuple[bool, bool, bool]:
    return (
        any(c.isdigit() for c in piece),
        any(c.islower() for c in piece),
        any(c.isupper() for c in piece),
    )


def _is_suspect(piece: str) -> bool:
    """The cheap checks: mixed, not words, not hex, not an id shape."""
    segments = [s for s in _SEGMENT_SPLIT.split(piece) if s]
    if max(map(len, segments), default=0) < MIN_SEGMENT:
        return False  # words and ids joined by dashes: coredns-7db6d8ff4d-x2x9k
    if all(_HEX.fullmatch(s) or (s.isalpha() and len(s) <= 10) for s in segments):
        return False  # a name and a hexadecimal id: i-0abcd1234ef567890
    digit, lower, upper = _classes(piece)
    letters = lower or upper
    if not ((digit and letters) or (lower and upper and len(piece) >= 24)):
        return False
    if _HEX.fullmatch(piece) or _UPPER_DIGITS.fullmatch(piece) or _UUID.search(piece):
        return False
    if "/" in piece and all(_PATH_PART.fullmatch(part) for part in piece.split("/") if part):
        return False  # a workspace path such as memory/logs/2026/03/2026-03-05
    wordy = sum(len(m.group(0)) for m in _WORDY.finditer(piece))
    return wordy * 2 < len(piece)


def _in_url_or_path(text: str, run_start: int, piece_start: int) -> bool:
    before = text[run_start:piece_start]
    if "://" in before and "?" in before:
        query = _QUERY_NAME.search(before)
        if query is not None:  # a query's value: a code, a ticket, a token (a tracker's id not)
            return query.group(1).lower().startswith(_TRACKERS)
    return "://" in before or before.endswith(("/", "~", ".")) or before.startswith(("/", "~/"))


@cache
def _plugins() -> tuple[Any, tuple[Any, ...], tuple[Callable[..., bool], ...]]:
    """detect-secrets' entropy plugin, its credential plugins and its filters, built once."""
    from detect_secrets.filters.heuristic import (
        is_likely_id_string,
        is_potential_uuid,
        is_sequential_string,
    )
    from detect_secrets.plugins.artifactory import ArtifactoryDetector
    from detect_secrets.plugins.aws import AWSKeyDetector
    from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
    from detect_secrets.plugins.basic_auth import BasicAuthDetector
    from detect_secrets.plugins.cloudant import CloudantDetector
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString
    from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
    from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
    from detect_secrets.plugins.mailchimp import MailchimpDetector
    from detect_secrets.plugins.softlayer import SoftlayerDetector
    from detect_secrets.plugins.square_oauth import SquareOAuthDetector
    from detect_secrets.plugins.twilio import TwilioKeyDetector

    credentials = (
        AWSKeyDetector(),
        AzureStorageKeyDetector(),
        ArtifactoryDetector(),
        BasicAuthDetector(),
        CloudantDetector(),
        IbmCloudIamDetector(),
        IbmCosHmacDetector(),
        MailchimpDetector(),
        SoftlayerDetector(),
        SquareOAuthDetector(),
        TwilioKeyDetector(),
    )
    filters = (is_sequential_string, is_potential_uuid)
    return Base64HighEntropyString(), credentials, (*filters, is_likely_id_string)


def _line_of(text: str, index: int) -> str:
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return text[start : end if end >= 0 else len(text)]


def _named_by_plugin(piece: str, line: str) -> bool:
    _, credentials, _ = _plugins()
    for plugin in credentials:
        for value in plugin.analyze_string(line):
            if value and (value in piece or piece in value):
                return True
    return False


def _random(piece: str, line: str) -> bool:
    entropy, _, (sequential, uuid, named_id) = _plugins()
    if sequential(piece) or uuid(piece) or named_id(piece, line):
        return False
    return float(entropy.calculate_shannon_entropy(piece)) >= _bar(len(piece))


def is_random_token(token: str) -> bool:
    """Whether ``token`` alone (no context) is a random string by the rules above."""
    return _is_suspect(token) and _random(token, token)


def _decoded(piece: str) -> str | None:
    """The text ``piece`` is the base64 of (standard or URL-safe, padded or not), if any."""
    if len(piece) < 12:
        return None
    padded = piece + "=" * (-len(piece) % 4)
    if "-" in piece or "_" in piece:
        padded = padded.replace("-", "+").replace("_", "/")
    if not _BASE64.fullmatch(padded):
        return None
    try:
        decoded = base64.b64decode(padded, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return decoded if decoded.isprintable() else None


def _public_pem(piece: str) -> bool:
    """``piece`` is the base64 of a PEM block that holds no private key (its first line says:
    ``-----BEGIN CERTIFICATE-----``)."""
    head = piece[: len(piece[:96]) // 4 * 4]
    try:
        first = base64.b64decode(head).decode("ascii", "replace")
    except (binascii.Error, ValueError):
        return False
    return _PUBLIC_PEM.match(first) is not None


def is_wrapped_secret(decoded: str, rescan: Callable[[str], bool]) -> bool:
    """Whether decoded text is a credential: ``user:password``, one word shaped like a password
    (a letter, a digit and a third kind of character), or text holding a secret."""
    shaped = (
        _PASSWORD_SHAPED.fullmatch(decoded) is not None
        and _TYPED_ID.fullmatch(decoded) is None
        and not decoded.startswith(("{", "[", "<"))  # structured data: its content decides
        and sum(map(bool, (*_classes(decoded), not decoded.isalnum()))) >= 3
    )
    return bool(_USER_PASSWORD.fullmatch(decoded)) or shaped or rescan(decoded)


def _pieces(text: str, start: int, end: int) -> list[tuple[str, int]]:
    """(piece, start) of each piece of the run, cut where a key's name ends (``name=value``:
    the name and the value are judged apart)."""
    pieces = []
    for match in _PIECE.finditer(text, start, end):
        value, at = match.group(0), match.start()
        if "=" not in value.rstrip("="):
            pieces.append((value, at))
            continue
        cut = 0
        for inner in _INNER_EQUALS.finditer(value):
            pieces.append((value[cut : inner.end()], at + cut))
            cut = inner.end()
        pieces.append((value[cut:], at + cut))
    return pieces


def find_random_strings(
    text: str,
    run_start: int,
    run_end: int,
    *,
    public: Sequence[tuple[int, int]],
    rescan: Callable[[str], bool],
) -> list[Finding]:
    """High-entropy strings and base64-wrapped credentials in one run (see the module rules)."""
    found: list[Finding] = []
    starts = [start for start, _ in public]
    for match in _pieces(text, run_start, run_end):
        piece, start = match[0].strip("=_-"), match[1]
        start += match[0].index(piece[:1]) if piece else 0
        if len(piece) < 16 or _in_url_or_path(text, run_start, start):
            continue
        if _HARMLESS_START.match(piece):
            continue
        slot = bisect_right(starts, start) - 1
        if slot >= 0 and public[slot][0] <= start < public[slot][1]:
            continue
        if _HARMLESS_BEFORE.search(text, max(0, start - 64), start):
            continue
        if _PUBLIC_LINE.search(text, max(0, start - 160), start):
            continue
        if _OBJECT_ID.fullmatch(piece) or _OBJECT_BEFORE.search(text, max(0, start - 24), start):
            continue
        end = start + len(piece)
        if piece.startswith("LS0tLS1CRUdJTi") and _public_pem(piece):
            continue  # a certificate or a public key, base64-wrapped (a kubeconfig's CA data)
        decoded = _decoded(piece)
        if decoded is not None:
            # Base64 of text: a secret when the text is one; a sentence, a name or a date
            # wrapped in base64 ("SGVsbG8gV29ybGQh") is not, however random it looks.
            if is_wrapped_secret(decoded, rescan):
                found.append(Finding("base64-credential", start, end))
        elif _is_suspect(piece):
            line = _line_of(text, start)
            if _named_by_plugin(piece, line):
                found.append(Finding("vendor-token", start, end))
            elif _random(piece, line):
                found.append(Finding("high-entropy", start, end))
    return found
