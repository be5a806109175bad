"""Redaction: secrets and personal data are found and masked before anything is stored or sent.

One function decides, and every path uses it: daily notes on their way to the recall store
and the recall index, transcripts on their way to the session corpus, grounded backfill,
reports, DREAMS.md, MEMORY.md (the entry and its trigger comment), chat replies, the control
API, model prompts and ``dreamd redact``. :func:`find_secrets` returns the findings of a text;
:func:`redact` masks them. Callers that cut a note into pieces run it on the *whole* note
first (:func:`blank_secret_lines`), so a key block or a token split over two lines is found
before any chunk could hold half of it.

Families, each in its module (most specific first when two overlap):

==============================  ===============================================================
``normalise``                   not a family: disguises undone before the rules read the text
                                (entities, invisible characters, NFKC, look-alike letters)
``phrases``                     not a family: passphrases, and the quotes and brackets a
                                value is put in
``blocks``                      key blocks (PEM, OpenSSH, PGP, PuTTY), service-account JSON,
                                Kubernetes secrets, ``.pgpass``/``.netrc``, split tokens,
                                wrapped JWTs
``vendors``                     about 120 vendor token shapes, JWTs, chat webhooks (our rules)
``entropy``                     random-looking strings and base64-wrapped credentials
                                (detect-secrets: plugins, entropy, filters)
``encoded``                     hex and percent-encoded runs, character codes and bits,
                                decoded and checked again
``disguises``                   values in shapes a person undoes at a glance (regional-indicator
                                and turned letters, dice, Roman numerals, a wrong keyboard
                                layout, ``%uXXXX``, CSS escapes, ``CHAR()`` chains, decimal
                                codes, ``-EncodedCommand``), decoded and read again
``fragments``                   keys in a link's fragment (a shared file's, a paste's, a
                                whiteboard's: ``https://mega.nz/file/…#<key>``)
``links``                       secrets in a link's path (a stream key, a bridge's user, a
                                channel's token) and proxy share links (``trojan://…@``)
``pairs``                       announced ``user / password`` pairs (our rules)
``commands``                    URL userinfo; ``mysql -pPW``, ``curl -u u:PW``, ``sshpass -p``…;
                                credentials in Go, PowerShell, Ruby and login calls; an
                                ``expect`` script's answer; what ``cat`` prints of a key file
``devices``                     key lines of routers, switches and NTP key files
``hashes``                      password hashes (crypt's ``$6$…``, bcrypt, Argon2, Django's)
``keys``                        values of secret-naming keys, in a dozen languages
``entries``                     name and value entries (a container's ``env:``, a Postman
                                environment): the value of one whose name names a secret
``services``                    keys after the name of the service that issued them
                                (``gotify app token …``), and vendor shapes under ambiguous
                                names (PagerDuty's ``routing_key``, an S3 store's key id)
``settings``                    secrets tools name in their own words (Z-Wave's ``S2_…`` keys,
                                a key as a list of bytes, ``sv_setsteamaccount``, HeidiSQL)
``cookiejar``                    session values of a ``cookies.txt`` file's lines
``markup``                      XML and HTML elements and attributes that name a secret
``tables``                      Markdown columns that name a secret or personal data
``inserts``                     values an SQL ``INSERT`` gives to a column that names a secret
``prose``                       passwords in sentences and on the next line, many languages
``answers``                     a chat export's answer to a question that asks for a secret
``locks``                       codes that open a lock, a safe, a key box or a door
``pins``                        PINs with words between their name and their digits (a
                                mobile-money wallet's: ``PIN yangu ya M-Pesa ni …``)
``spelled``                     secrets spelled out (``K as in kilo``, ``nine four one``) or
                                given in pieces
``phrasing``                    values given to a verb of access (``use X to log in``), named
                                after the value (``X is the password for``), spoilered
``defaults``                    fallbacks of secret-naming variables in code (our rules)
``literals``                    a token cut into string literals joined again
                                (``"sk_live_…" + "…"``)
``calls``                       secrets defined by a call: ``define('DB_PASSWORD', '…')``,
                                WordPress salts, ``ini_set``, ``Sys.setenv``
``personal``                    e-mail and postal addresses (spelled-out addresses too)
``documents``                   dates of birth, passport, id-card and licence numbers
``plates``                      number plates after the words that name them
``mrz``                         machine-readable zones of passports and id cards (ICAO 9303)
``numbers``                     phones (phonenumbers), cards, IBANs, national ids (python-stdnum)
``accounts``                    bank account numbers after their words, PIX keys
``codecards``                   a bank's codes on paper under the card's name (iTAN lists,
                                key cards, security cards, ``乱数表``)
``vouchers``                    gift card and voucher codes, store cards' codes
``records``                     medical record, health insurance, national id and tax numbers
                                after their names, where no check digit tells them apart
``wallets``                     wallet recovery phrases (the BIP39 lists and checksum: mnemonic,
                                and word runs a line names as one)
``onetime``                     one-time codes (SMS, e-mail) and authenticator setup keys
``published``                   not a family: client keys public by design (a Firebase web
                                config's, a CAPTCHA's site key, a Sentry DSN), left alone
``recovery``                    recovery codes under their heading, grouped recovery and backup
                                keys, BitLocker recovery keys
==============================  ===============================================================

Rules: a value found once is masked wherever it recurs in the same text (whole words only);
findings never overlap (a key block or an assignment absorbs what lies inside it); masks reveal
nothing but a vendor's prefix, keep the lines of the text (see :mod:`dreamd.redaction.finding`)
and are never findings themselves, so redacting twice changes nothing. The rules read the text
with its disguises undone (:mod:`dreamd.redaction.normalise`); findings are offsets into the
text as given. Precision matters as much as recall: counts
(``max_tokens=4096``), names (``author: …``), paths (``pwd: /srv/app``), references
(``${DB_PASSWORD}``), hashes, UUIDs, versions, SKUs, dates, private addresses, ports and prices
stay. Pure: text in, findings out.

May import: the standard library, its own modules and, lazily inside the functions that need
them, detect-secrets, phonenumbers, python-stdnum and mnemonic. Nothing else of dreamd, so
every layer can use it; importing it costs no library import.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import MASK, VENDOR_PREFIXES, Finding, mask_of, mask_token

__all__ = [
    "MASK",
    "Finding",
    "blank_secret_lines",
    "find_secrets",
    "holds_mask",
    "holds_secret",
    "is_secret_tag",
    "mask_findings",
    "mask_token",
    "redact",
    "rules_fingerprint",
]

_PRIORITY = (
    "private-key",
    "service-account",
    "k8s-secret",
    "seed-phrase",
    "split-token",
    "url-credential",
    "webhook",
    "jwt",
    "vendor-token",
    "base64-credential",
    "encoded-credential",
    "cli-credential",
    "password-hash",
    "secret-assignment",
    "netrc",
    "pgpass",
    "payment-card",
    "iban",
    "national-id",
    "bank-account",
    "document-number",
    "date-of-birth",
    "email",
    "phone",
    "postal-address",
    "high-entropy",
)
_RANK = {kind: rank for rank, kind in enumerate(_PRIORITY)}
_ABSORBING = frozenset(_PRIORITY[: _PRIORITY.index("netrc") + 1]) - {
    "webhook",
    "jwt",
    "vendor-token",
}
_NOT_REPEATED = frozenset({"private-key", "service-account", "split-token"})


@cache
def _masks() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A whole mask, and a mask inside a text: ``***`` (two side by side too), ``…redacted…``,
    a vendor prefix or a webhook's host before ``***``, and ``abcdef…wxyz`` (the masks of
    earlier versions)."""
    prefixes = "|".join(map(re.escape, VENDOR_PREFIXES))
    whole = re.compile(
        rf"(?:\*{{3}})+|…redacted…|.{{6}}….{{4}}|(?:{prefixes})\*{{3}}|https?://[^/\s]+/\*{{3}}",
        re.DOTALL,
    )
    inside = re.compile(
        rf"(?<![\w*])(?:\*\*\*)+(?![\w*])|[^\s…]{{6}}…[^\s…]{{4}}|…redacted…"
        rf"|(?<![\w.-])(?:{prefixes})\*\*\*(?![\w*])"
    )
    return whole, inside


# A random-looking tag, and vendor prefixes as a concept tag spells them (lower case, ``_`` as
# ``-``).
_RANDOM_TAG = LazyPattern(r"(?=[^-]*\d)(?=[^-]*[a-z])[a-z0-9_-]{16,}")
_VENDOR_TAG = LazyPattern(
    r"(?=.*\d)(?:(?:sk|rk|ghp|gho|ghu|ghs|ghr|github-pat|glpat|glptt|glsoat|glcbt|gldt|glrt"
    r"|xox[abeoprs]|xapp|hf|npm|pypi|dckr-pat|lin-api|ntn|figd|pmak|glsa|shpat|sbp|pcsk|lsv2"
    r"|tskey|dop-v1|r8|gsk|xai|pplx|whsec|hvs|sg)[-.](?:[a-z0-9]{2,8}[-.])?[a-z0-9]{6,}"
    r"|(?:akia|asia|aiza|ya29)[a-z0-9.-]{8,}).*"
)


MAX_RESCAN_DEPTH = 1
_LIBRARIES = ("detect_secrets", "phonenumbers", "stdnum", "mnemonic")


def _lower(text: str) -> str:
    """``text`` in lower case, one character for one (offsets stay valid)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _detect(text: str, depth: int) -> list[Finding]:
    from dreamd.redaction import (
        accounts,
        answers,
        blocks,
        calls,
        codecards,
        commands,
        cookiejar,
        defaults,
        devices,
        disguises,
        documents,
        encoded,
        entries,
        entropy,
        fragments,
        hashes,
        inserts,
        keys,
        links,
        literals,
        locks,
        markup,
        mrz,
        numbers,
        onetime,
        pairs,
        personal,
        phrasing,
        pins,
        plates,
        prose,
        published,
        records,
        recovery,
        services,
        settings,
        spelled,
        tables,
        vendors,
        vouchers,
        wallets,
    )

    low = _lower(text)
    runs = [(m.start(), m.end()) for m in vendors.runs(text)] if vendors.has_runs(text) else []

    def is_token(candidate: str) -> bool:
        """A vendor shape or a random string (the only families a wrapped token can be)."""
        return bool(vendors.find_vendor_tokens(candidate, 0, len(candidate))) or (
            entropy.is_random_token(candidate)
        )

    def rescan(decoded: str) -> bool:
        return depth < MAX_RESCAN_DEPTH and bool(_detect(decoded, depth + 1))

    found, public = blocks.find_blocks(text, low, runs=runs, is_token=is_token)
    for start, end in runs:
        tokens = vendors.find_vendor_tokens(text, start, end)
        found += tokens
        for piece in entropy.find_random_strings(text, start, end, public=public, rescan=rescan):
            if not any(t.start < piece.end and piece.start < t.end for t in tokens):
                found.append(piece)
    if runs and ("%" in text or any(c in text for c in "0123456789")):
        found += encoded.find_encoded_secrets(text, runs, lambda decoded: _redetect(decoded, depth))
    found += encoded.find_character_codes(text, lambda decoded: _redetect(decoded, depth))
    found += disguises.find_disguised_secrets(text, low, lambda decoded: _redetect(decoded, depth))
    if "://" in text:
        found += commands.find_url_credentials(text)
        found += links.find_link_secrets(text)
        if "#" in text:
            found += fragments.find_fragment_keys(text)
    found += keys.find_named_values(text, low)
    found += entries.find_entry_values(text, low)
    found += cookiejar.find_cookie_file_values(text)
    found += services.find_service_keys(text, low)
    found += settings.find_setting_secrets(text, low)
    found += markup.find_markup_secrets(text)
    found += tables.find_table_secrets(text)
    found += inserts.find_insert_secrets(text)
    found += prose.find_prose_passwords(text, low)
    found += answers.find_chat_answers(text)
    found += locks.find_lock_codes(text, low)
    found += pins.find_wallet_pins(text, low)
    found += spelled.find_spelled_secrets(text, low)
    found += phrasing.find_phrased_secrets(text, low)
    found += commands.find_command_credentials(text, low)
    found += devices.find_device_keys(text, low)
    found += hashes.find_password_hashes(text)
    found += personal.find_personal_data(text, low)
    found += documents.find_documents_and_births(text, low)
    found += mrz.find_machine_zones(text)
    found += plates.find_number_plates(text, low)
    found += numbers.find_numbers(text)
    found += accounts.find_account_numbers(text, low)
    found += codecards.find_code_cards(text, low)
    found += vouchers.find_voucher_codes(text, low)
    found += records.find_named_records(text, low)
    found += wallets.find_seed_phrases(text, low)
    found += onetime.find_one_time_codes(text, low)
    found += recovery.find_recovery_codes(text, low)
    found += pairs.find_credential_pairs(text, low)
    found += defaults.find_fallback_secrets(text)
    found += calls.find_defined_secrets(text)
    found += literals.find_joined_literals(text, is_token)
    return published.without_public(text, found)


def _redetect(decoded: str, depth: int) -> list[Finding]:
    """The findings of a decoded text, one level deeper (none past the deepest level)."""
    return _detect(decoded, depth + 1) if depth < MAX_RESCAN_DEPTH else []


def _mask_spans(text: str) -> list[tuple[int, int]]:
    if "…" not in text and "***" not in text:
        return []
    return [m.span() for m in _masks()[1].finditer(text)]


def _is_mask(text: str, finding: Finding, masks: list[tuple[int, int]]) -> bool:
    """A mask, or a piece of one (``abcdef`` of ``abcdef…wxyz``): nothing left to hide."""
    return bool(_masks()[0].fullmatch(text[finding.start : finding.end])) or any(
        start <= finding.start and finding.end <= end for start, end in masks
    )


def _resolve(text: str, found: Iterable[Finding]) -> list[Finding]:
    """Non-overlapping findings, the most specific first, masks left out."""
    masks = _mask_spans(text)
    ordered = sorted(
        (f for f in found if f.end > f.start and not _is_mask(text, f, masks)),
        key=lambda f: (_RANK.get(f.kind, len(_RANK)), f.start, f.start - f.end),
    )
    kept: list[Finding] = []
    for finding in ordered:
        clashes = [k for k in kept if k.start < finding.end and finding.start < k.end]
        if not clashes:
            kept.append(finding)
        elif (
            finding.kind in _ABSORBING
            and all(finding.start <= k.start and k.end <= finding.end for k in clashes)
            and finding.end - finding.start > sum(k.end - k.start for k in clashes)
        ):
            kept = [k for k in kept if k not in clashes] + [finding]
        else:  # what stands outside the findings kept is still masked: no "Pgp#" of a value left
            kept += _remainders(text, finding, clashes)
    return sorted(_repeated(text, kept), key=lambda f: (f.start, f.end))


def _remainders(text: str, finding: Finding, clashes: list[Finding]) -> list[Finding]:
    pieces, pos = [], finding.start
    for clash in sorted(clashes, key=lambda k: k.start):
        if clash.start > pos and text[pos : clash.start].strip():
            pieces.append(Finding(finding.kind, pos, clash.start))
        pos = max(pos, clash.end)
    if pos < finding.end and text[pos : finding.end].strip():
        pieces.append(Finding(finding.kind, pos, finding.end))
    return pieces


def _repeated(text: str, kept: list[Finding]) -> list[Finding]:
    """``kept`` plus every other whole-word occurrence of a value it masks."""
    values = {
        text[f.start : f.end]: f.kind
        for f in kept
        if f.kind not in _NOT_REPEATED and "\n" not in text[f.start : f.end]
    }
    for f in kept:  # a token split over lines: each piece of it, wherever else it stands
        if f.kind == "split-token":
            pieces = (p.strip() for p in text[f.start : f.end].split("\n"))
            values.update({p: f.kind for p in pieces if len(p) >= 8 and any(map(str.isdigit, p))})
    values = {value: kind for value, kind in values.items() if len(value.strip()) >= 3}
    if not values:
        return kept
    extra: list[Finding] = []
    taken = sorted((k.start, k.end) for k in kept)
    for value in sorted(values, key=len, reverse=True):
        index = text.find(value)
        while index >= 0:
            end = index + len(value)
            whole = not (index and text[index - 1].isalnum()) and not (
                end < len(text) and text[end].isalnum()
            )
            if whole and not any(a < end and index < b for a, b in taken):
                extra.append(Finding(values[value], index, end))
                taken.append((index, end))
            index = text.find(value, index + 1)
    return kept + extra


def find_secrets(text: str) -> list[Finding]:
    """Every secret and personal datum of ``text``, in order, never overlapping.

    The rules read the text with its disguises undone (:mod:`dreamd.redaction.normalise`);
    the findings are offsets into ``text`` as given.
    """
    if len(text) < 4:
        return []
    from dreamd.redaction.normalise import normalise

    normalised = normalise(text)
    if normalised is None:
        return _resolve(text, _detect(text, 0))
    found = []
    for finding in _detect(normalised.text, 0):
        start, end = normalised.span(finding.start, finding.end)
        found.append(Finding(finding.kind, start, end))
    return _resolve(text, found)


def redact(text: str) -> str:
    """``text`` with every finding masked (its lines kept); see the module rules."""
    return mask_findings(text, find_secrets(text))


def mask_findings(text: str, findings: Sequence[Finding]) -> str:
    """``text`` with ``findings`` (from :func:`find_secrets` on it) masked."""
    if not findings:
        return text
    parts, pos = [], 0
    for finding in findings:
        value = text[finding.start : finding.end]
        parts += [text[pos : finding.start], mask_of(finding.kind, value)]
        pos = finding.end
    parts.append(text[pos:])
    return "".join(parts)


def holds_secret(text: str) -> bool:
    """True when ``text`` holds anything :func:`redact` would mask."""
    return bool(find_secrets(text))


def holds_mask(text: str) -> bool:
    """True when ``text`` holds what is left of a secret: a mask :func:`redact` wrote (``***``
    standing alone, ``abcdef…wxyz``, ``…redacted…``). Such text was cut from a redacted copy
    (the recall index, the session corpus) and no longer matches its source."""
    if "…" not in text and "***" not in text:
        return False
    return _masks()[1].search(text) is not None


def blank_secret_lines(text: str) -> str:
    """``text`` with every line that a finding touches emptied (the newlines kept).

    The note is read whole first, so the lines of a key block, a service-account object or a
    token split over two lines are all blank before a chunker sees any of them.
    """
    findings = find_secrets(text)
    if not findings:
        return text
    spans: list[tuple[int, int]] = []
    for finding in findings:
        first = text.rfind("\n", 0, finding.start) + 1
        end = finding.end
        if finding.kind == "private-key" and "END" in text[end : end + 12]:
            end += 1  # the END marker's line goes with its block
        last = text.find("\n", max(finding.start, end - 1))
        spans.append((first, len(text) if last < 0 else last))
    parts, pos = [], 0
    for first, last in sorted(spans):
        if last <= pos:
            continue
        first = max(first, pos)
        parts += [text[pos:first], "\n" * text.count("\n", first, last)]
        pos = last
    parts.append(text[pos:])
    return "".join(parts)


def is_secret_tag(tag: str) -> bool:
    """True for a concept tag that could be a fragment of a secret, in any case.

    Tags are lower case with ``_`` turned into ``-``, so each is tried as written, in upper
    case and with ``_`` back; a tag that starts like a vendor token, or a long run of letters
    and digits that is not a word, is never a trigger either.
    """
    variants = {tag, tag.upper(), tag.replace("-", "_"), tag.replace("-", "_").upper()}
    if _RANDOM_TAG.fullmatch(tag) or (len(tag) >= 12 and _VENDOR_TAG.fullmatch(tag)):
        return True
    return any(holds_secret(v) for v in variants)


def _origin(name: str) -> str | None:
    """Where the top-level module ``name`` would be imported from, without importing it.

    What :func:`importlib.util.find_spec` does for a top-level name, asked of the import
    system's finders directly: importing :mod:`importlib.util` costs a per-turn process 2 ms.
    """
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find(name, None) if find is not None else None
        if spec is not None:
            return spec.origin if isinstance(spec.origin, str) else None
    return None


@cache
def rules_fingerprint() -> str:
    """What identifies the rules in force: this package's files and the detectors installed.

    Text redacted under the same fingerprint needs no second pass (redacting twice changes
    nothing), so a store of redacted text (the recall index) keeps the fingerprint it was
    redacted under and is redacted again, whole, when the rules change. Built from file names,
    sizes and modification times (an edit or an upgrade changes them), without importing the
    libraries.
    """
    parts = []
    sources = (p for p in Path(__file__).parent.iterdir() if p.suffix == ".py")
    for source in sorted(sources):
        stat = source.stat()
        parts.append(f"{source.name}:{stat.st_size}:{stat.st_mtime_ns}")
    for name in _LIBRARIES:
        found = _origin(name)
        origin = Path(found) if found else None
        if origin is None or not origin.exists():
            parts.append(f"{name}:absent")
            continue
        stat = origin.stat()
        parts.append(f"{name}:{origin}:{stat.st_size}:{stat.st_mtime_ns}")
    return ";".join(parts)
