"""Redaction: secrets and personal data are masked before anything is stored or sent.

Applied to transcript text before it reaches the session corpus, the recall store, the index,
reports, logs and model prompts. Families (order matters: the most specific first):

* PEM private-key blocks keep their first and last lines around ``…redacted…``.
* Tokens with a known vendor shape (about 70 prefixes: ``sk-``, ``ghp_``, ``github_pat_``,
  ``xox?-``, ``AKIA``/``ASIA``, ``AIza``, ``ya29.``, ``hf_``, ``glpat-``, ``npm_``, ``sk_live_``…),
  JWTs, Telegram and Discord bot tokens, Slack and Discord webhooks.
* Values of secret-looking keys: ``FOO_TOKEN=…``, ``"password": "…"``, ``--api-key …``,
  ``Authorization: Bearer …``, ``?access_token=…``, URL userinfo (``postgres://u:pw@host``).
* Personal data: e-mail addresses, phone numbers, payment card numbers (Luhn-checked) and IBANs
  (mod-97-checked).

A masked token keeps at most its first 6 and last 4 characters (``ghp_AB…wxyz``) when it is
18 characters or longer; shorter secrets, secret values and personal data become ``***``.
Checksums keep look-alikes (hashes, UUIDs, version strings, order numbers) intact. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["mask_token", "redact"]

MASK = "***"


def mask_token(token: str) -> str:
    """``abcdef…wxyz`` for long tokens, ``***`` for short ones."""
    return f"{token[:6]}…{token[-4:]}" if len(token) >= 18 else MASK


_VENDOR_PREFIXES = (
    # OpenAI, Anthropic, OpenRouter, Groq, xAI, Perplexity, Replicate, Mistral-style keys
    r"sk-ant-[A-Za-z0-9_-]{20,}",
    r"sk-or-v1-[A-Za-z0-9]{20,}",
    r"sk-proj-[A-Za-z0-9_-]{20,}",
    r"sk-svcacct-[A-Za-z0-9_-]{20,}",
    r"sk-[A-Za-z0-9_-]{20,}",
    r"gsk_[A-Za-z0-9]{20,}",
    r"xai-[A-Za-z0-9]{20,}",
    r"pplx-[A-Za-z0-9]{20,}",
    r"r8_[A-Za-z0-9]{20,}",
    # GitHub, GitLab, Bitbucket, npm, PyPI, Hugging Face, Docker
    r"github_pat_[A-Za-z0-9_]{22,}",
    r"gh[pousr]_[A-Za-z0-9]{20,}",
    r"glpat-[A-Za-z0-9_-]{20,}",
    r"gldt-[A-Za-z0-9_-]{20,}",
    r"glrt-[A-Za-z0-9_-]{20,}",
    r"ATBB[A-Za-z0-9]{24,}",
    r"npm_[A-Za-z0-9]{30,}",
    r"pypi-[A-Za-z0-9_-]{40,}",
    r"hf_[A-Za-z0-9]{30,}",
    r"dckr_pat_[A-Za-z0-9_-]{20,}",
    # Slack, Discord, Telegram, Twilio, SendGrid, Mailgun, Mailchimp, Postmark
    r"xox[abeoprs]-[A-Za-z0-9-]{10,}",
    r"xapp-[A-Za-z0-9-]{20,}",
    r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}",
    r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}",
    r"[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}",
    r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b",
    r"SK[0-9a-fA-F]{32}",
    r"AC[0-9a-fA-F]{32}",
    r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",
    r"key-[0-9a-f]{32}",
    r"[0-9a-f]{32}-us\d{1,2}",
    # Cloud providers
    r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}",
    r"AIza[A-Za-z0-9_-]{35}",
    r"ya29\.[A-Za-z0-9_-]{20,}",
    r"GOCSPX-[A-Za-z0-9_-]{20,}",
    r"dop_v1_[a-f0-9]{64}",
    r"doo_v1_[a-f0-9]{64}",
    r"dor_v1_[a-f0-9]{64}",
    r"AccountKey=[A-Za-z0-9+/=]{40,}",
    r"sv=\d{4}-\d{2}-\d{2}&[^\s]*sig=[A-Za-z0-9%+/=]{20,}",
    # Payments and commerce
    r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,}",
    r"whsec_[A-Za-z0-9]{20,}",
    r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
    r"sq0(?:atp|csp)-[A-Za-z0-9_-]{20,}",
    r"EAA[A-Za-z0-9]{60,}",
    r"access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}",
    # Developer tools and SaaS
    r"lin_api_[A-Za-z0-9]{30,}",
    r"figd_[A-Za-z0-9_-]{30,}",
    r"ntn_[A-Za-z0-9]{30,}",
    r"secret_[A-Za-z0-9]{40,}",
    r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}",
    r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
    r"ATATT[A-Za-z0-9_=-]{40,}",
    r"dp\.pt\.[A-Za-z0-9]{40,}",
    r"sntrys_[A-Za-z0-9_=+/]{40,}",
    r"glc_[A-Za-z0-9+/=]{30,}",
    r"nfp_[A-Za-z0-9]{30,}",
    r"vercel_[A-Za-z0-9]{20,}",
    r"tfp_[A-Za-z0-9]{30,}",
    r"cfat_[A-Za-z0-9_-]{30,}",
    r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_-]{30,}",
    r"phc_[A-Za-z0-9]{30,}",
    r"rnd_[A-Za-z0-9]{30,}",
    r"fly[A-Za-z0-9]*_[A-Za-z0-9]{40,}",
    r"hvs\.[A-Za-z0-9_-]{24,}",
    r"s\.[A-Za-z0-9]{24}\b",
    r"ops_[A-Za-z0-9_-]{40,}",
    r"AGE-SECRET-KEY-1[A-Z0-9]{58}",
    r"sl\.[A-Za-z0-9_-]{100,}",
    r"LTAI[A-Za-z0-9]{12,20}",
    r"oauth2:[A-Za-z0-9_-]{20,}",
    r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
)
_VENDOR = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(_VENDOR_PREFIXES) + r")")

_PEM = re.compile(
    r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)[\s\S]*?"
    r"(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)"
)
_SECRET_WORDS = (  # words that name secrets; no secret here
    r"(?:api[_-]?key|apikey|token|secret|passwd|password|pwd|passphrase|credentials?|auth|"  # noqa: S105
    r"access[_-]?key|private[_-]?key|client[_-]?secret|session[_-]?key|cookie|signature)"
)
_ASSIGNMENT = re.compile(
    r"(?i)\b([A-Z0-9_]*" + _SECRET_WORDS + r"[A-Z0-9_]*)(\s*[=:]\s*)([\"']?)([^\s\"',;]{4,})\3"
)
_JSON_FIELD = re.compile(
    r"(?i)(\"(?:[a-z0-9_]*"
    + _SECRET_WORDS
    + r"[a-z0-9_]*|authorization)\"\s*:\s*\")([^\"]{4,})(\")"
)
_CLI_FLAG = re.compile(r"(?i)(--" + _SECRET_WORDS + r"[a-z-]*(?:=|\s+))([\"']?)([^\s\"']{4,})\2")
_AUTH_HEADER = re.compile(
    r"(?i)\b((?:proxy-)?authorization\s*[:=]\s*(?:bearer|basic|bot|token|digest)?\s*)([A-Za-z0-9._~+/=-]{6,})"
)
_BEARER = re.compile(r"(?i)\b((?:bearer|basic)\s+)(?=[A-Za-z._~+/=-]*\d)([A-Za-z0-9._~+/=-]{12,})")
_QUERY = re.compile(
    r"(?i)([?&](?:access_token|refresh_token|id_token|token|api_key|apikey|key|sig|signature|"
    r"password|secret|client_secret|auth)=)([^&\s#]{4,})"
)
_USERINFO = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^/\s:@]+:)([^@\s/]+)(@)", re.IGNORECASE)
_EMAIL = re.compile(
    r"(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b"
)
_PHONE = re.compile(
    r"(?<![\w+])(?:\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){1,5}"
    r"|\(\d{3}\)\s?\d{3}[\s.-]\d{4}|\b\d{3}[.-]\d{3}[.-]\d{4})(?![\w-])"
)
_CARD = re.compile(r"(?<![\w-])(?:\d[ -]?){12,18}\d(?![\w-])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b")


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _iban_ok(text: str) -> bool:
    compact = text.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    number = "".join(str(int(char, 36)) for char in moved)
    return int(number) % 97 == 1


def _card(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    return (
        MASK
        if 13 <= len(digits) <= 19 and _luhn(digits) and len(set(digits)) > 1
        else match.group(0)
    )


def _iban(match: re.Match[str]) -> str:
    return MASK if _iban_ok(match.group(0)) else match.group(0)


def _phone(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    return MASK if 7 <= len(digits) <= 15 else match.group(0)


_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]

_RULES: tuple[_Rule, ...] = (
    (_PEM, lambda m: f"{m.group(1)}…redacted…{m.group(2)}"),
    (_USERINFO, lambda m: f"{m.group(1)}{MASK}{m.group(3)}"),
    (_VENDOR, lambda m: mask_token(m.group(0))),
    (_AUTH_HEADER, lambda m: f"{m.group(1)}{MASK}"),
    (_BEARER, lambda m: f"{m.group(1)}{MASK}"),
    (_JSON_FIELD, lambda m: f"{m.group(1)}{MASK}{m.group(3)}"),
    (_CLI_FLAG, lambda m: f"{m.group(1)}{m.group(2)}{MASK}{m.group(2)}"),
    (_QUERY, lambda m: f"{m.group(1)}{MASK}"),
    (_ASSIGNMENT, lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}{MASK}{m.group(3)}"),
    (_EMAIL, lambda m: MASK),
    (_IBAN, _iban),
    (_CARD, _card),
    (_PHONE, _phone),
)


def redact(text: str) -> str:
    """``text`` with every secret and personal datum masked (see the module rules)."""
    for pattern, replace in _RULES:
        text = pattern.sub(replace, text)
    return text
