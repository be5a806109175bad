"""Values public by design: client keys made to be put in a web page, where anyone reads
them, and the signatures and ids every mail carries.

A finding inside one of these is dropped:

* a Firebase web config's ``apiKey`` (``AIza…``) in an object that also names its
  ``authDomain`` or a ``firebaseapp.com`` host: the web SDK's key, restricted by the console's
  rules, not by being secret (an ``AIza…`` key anywhere else is still masked);
* a PostHog project key handed to ``posthog.init(…)`` (``phc_…``; a personal key, ``phx_…``,
  is secret);
* a CAPTCHA's site key (reCAPTCHA, hCaptcha, Turnstile) in ``data-sitekey`` or ``sitekey:``,
  or after ``site key`` in a sentence (its secret key is named ``secret``);
* Paddle's client-side token, given to ``Paddle.Initialize({token: …})`` in the page;
* the storage emulator's account key (Azurite's ``devstoreaccount1``), the same everywhere
  and printed in its documentation, as AWS's ``EXAMPLE`` keys are;
* a Sentry DSN's key (``https://<key>@o….ingest.sentry.io/…``), which the browser sends with
  every event;
* a client key whose own prefix says it is one: Xendit's ``xnd_public_…``, Midtrans's
  ``Mid-client-…`` (``SB-Mid-client-…`` in the sandbox), PubNub's subscribe key ``sub-c-…``
  (their secrets are ``xnd_production_…``, ``Mid-server-…`` and ``sec-c-…``);
* a Bitcoin address whose checksum holds (python-stdnum's ``bitcoin``): where money is sent,
  printed on donation pages, never a key;
* ciphertext a tool keeps in a config: SOPS's ``ENC[AES256_GCM,data:…,iv:…,tag:…]`` and
  Pulumi's ``secure: v1:…:…``, which only the key they were made with opens;
* a mail's signature headers (``DKIM-Signature``, ``ARC-Seal``, ``ARC-Message-Signature``,
  folded lines and all: a signature and a body hash every recipient reads) and its message
  ids (``Message-ID``, ``In-Reply-To``, ``References``: ``<…@host>`` names a message, not a
  person's address).

Pure; standard library only.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding

__all__ = ["public_spans", "without_public"]

_FIREBASE = LazyPattern(r"""apiKey["']?\s*:\s*["'](AIza[A-Za-z0-9_-]{35})["']""")
_POSTHOG = LazyPattern(r"""posthog\.init\(\s*["'](phc_[A-Za-z0-9]{20,})["']""")
_SITEKEY = LazyPattern(
    r"""(?i:data-sitekey|sitekey|site_key)["']?\s*[:=]\s*["']([\w-]{20,60})["']"""
    r"|(?i:site[ \t]key)[ \t]*:?[ \t]*([\w-]{20,60})(?![\w-])"
)
# Paddle's client-side token, which Paddle.js is initialised with in the page.
_PADDLE = LazyPattern(
    r"""Paddle\.(?:Initialize|Setup)\(\s*\{[^}]*?token["']?\s*:\s*["']((?:live|test)_\w{20,})["']"""
)
# The storage emulator's account key (Azurite, the Azure Storage Emulator: ``devstoreaccount1``),
# the same in every installation and printed in its documentation.
_EMULATOR_KEY = (
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)
_SENTRY = LazyPattern(r"https?://([0-9a-f]{32})@o?\d*\.?ingest\.(?:[a-z]{2}\.)?sentry\.io/\d+")
_CLIENT_KEY = LazyPattern(
    r"(?<![\w-])(?:xnd_public_[A-Za-z0-9_]+|(?:SB-)?Mid-client-[A-Za-z0-9_-]+"
    r"|sub-c-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w-])"
)
_BITCOIN = LazyPattern(r"[13][1-9A-HJ-NP-Za-km-z]{25,34}|bc1[02-9ac-hj-np-z]{11,71}")
_CIPHERTEXT = LazyPattern(
    r"ENC\[[A-Z0-9_]+,data:[^\]\n]*\]|(?<=secure:)[ \t]*v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+"
)
_MAIL_SIGNATURE = LazyPattern(
    r"(?im)^(?:DKIM-Signature|ARC-Seal|ARC-Message-Signature):([^\n]*(?:\n[ \t][^\n]*)*)"
)
_MESSAGE_IDS = LazyPattern(
    r"(?im)^(?:Message-ID|In-Reply-To|References):([ \t]*(?:<[^<>\s]+>\s*)+)"
)


def public_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the public client keys in ``text``."""
    spans: list[tuple[int, int]] = []
    if "AIza" in text and ("authDomain" in text or "firebaseapp.com" in text):
        spans += [m.span(1) for m in _FIREBASE.finditer(text)]
    if "posthog.init" in text:
        spans += [m.span(1) for m in _POSTHOG.finditer(text)]
    low = text.lower()
    if "sitekey" in low or "site_key" in low or "site key" in low:
        spans += [m.span(1) if m.group(1) else m.span(2) for m in _SITEKEY.finditer(text)]
    if "Paddle." in text:
        spans += [m.span(1) for m in _PADDLE.finditer(text)]
    at = text.find(_EMULATOR_KEY)
    if at >= 0:
        spans.append((at, at + len(_EMULATOR_KEY)))
    if "sentry.io" in text:
        spans += [m.span(1) for m in _SENTRY.finditer(text)]
    if "xnd_public_" in text or "Mid-client-" in text or "sub-c-" in text:
        spans += [m.span() for m in _CLIENT_KEY.finditer(text)]
    if "ENC[" in text or "secure:" in text:
        spans += [m.span() for m in _CIPHERTEXT.finditer(text)]
    if "signature:" in low or "arc-seal:" in low:
        spans += [m.span(1) for m in _MAIL_SIGNATURE.finditer(text)]
    if "message-id:" in low or "in-reply-to:" in low or "references:" in low:
        spans += [m.span(1) for m in _MESSAGE_IDS.finditer(text)]
    return spans


def _bitcoin_address(value: str) -> bool:
    """A Bitcoin address whose checksum holds (python-stdnum, imported when one could be)."""
    if not _BITCOIN.fullmatch(value):
        return False
    from stdnum import bitcoin

    return bool(bitcoin.is_valid(value))


def without_public(text: str, found: list[Finding]) -> list[Finding]:
    """``found`` less the findings inside a public client key of ``text``."""
    found = [f for f in found if not _bitcoin_address(text[f.start : f.end])]
    spans = public_spans(text)
    if not spans:
        return found
    return [f for f in found if not any(a <= f.start and f.end <= b for a, b in spans)]
