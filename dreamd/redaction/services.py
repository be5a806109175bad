"""Keys after the name of the service that issued them, and keys whose name says nothing but
whose value has the issuer's shape.

:mod:`dreamd.redaction.keys` reads ``Datadog application key: …``; people also write the
service, what kind of key, perhaps an aside, and the key with no separator:

* **After a service's name.** A service (``Gotify``, ``Wise``, ``Kakao``/``카카오``,
  ``PagerDuty``, ``Pushover``, ``ntfy``, ``Healthchecks``, ``Plausible``, ``Umami``…, and the
  vendors :mod:`dreamd.redaction.keys` knows by name), then at most four words that say what
  kind of key (``app token``, ``REST API 키``, ``API token``), perhaps an aside in brackets
  (``(read only, personal)``), then a value: a UUID, a hex string of 24 digits or more, or
  twelve letters and digits or more holding both. The service's name is what makes a UUID or
  a hex string a key: anywhere else they are ids.
* **An ambiguous name, a vendor's shape.** A ``routing_key`` (a message broker's is a dotted
  name, ``orders.created``) holding 32 letters and digits is PagerDuty's integration key; an
  ``access_key_id`` (``accessKeyId``, ``aws_access_key_id``) holding twenty capitals and
  digits is an S3-compatible store's key id (Wasabi, MinIO, Spaces), AWS's shape without its
  prefix. Documentation's values (``…EXAMPLE``) are none.
* **An app password.** After ``app password`` (``app-specific password``) in the same line,
  the shape Google and Apple give one: four groups of four lower-case letters, parted by
  spaces or hyphens (``abcd efgh ijkl mnop``; four groups alike, ``xxxx-xxxx-…``, describe
  the shape).

* **A list of services and their keys.** A service's name, a colon or ``=``, then a hex string
  of 32 to 128 digits or a UUID (``todoist: …``, ``abuseipdb = …``); not after a code host's
  name, where a hex string is a commit.

Pure; standard library only.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.keys import VENDORS
from dreamd.redaction.scan import find_words

__all__ = ["find_service_keys"]

_SERVICES = tuple(
    sorted(
        VENDORS
        | frozenset(
            "gotify wise kakao 카카오 pushover ntfy healthchecks plausible umami uptimerobot"
            " pagerduty opsgenie betterstack mattermost transferwise revolut paystack flutterwave"
            " mpesa daraja line viber todoist toggl pipedrive agora withings oura porkbun"
            " godaddy onesignal pubnub alpaca livekit mux stytch clerk tavily firecrawl"
            " browserbase llamacloud cohere jina voyage xendit midtrans iyzico asaas"
            # threat-intelligence lookups, listed in a tool's config
            " shodan abuseipdb hunter virustotal greynoise censys securitytrails ipinfo"
            " urlscan klaviyo".split()
        )
    )
)
_KINDS = frozenset(
    "api rest app application token key 키 토큰 secret access personal admin server client"
    " integration routing native javascript js certificate".split()
)
# A quick test: a key's kind is named somewhere (in ASCII; any other script is read).
_CHEAP_KINDS = ("key", "token", "secret", "api", "app")
_KIND_AFTER = r"(?![\w-])[ \t]+(?:" + "|".join(sorted(_KINDS, key=len, reverse=True)) + r")\b"
_VALUE = LazyPattern(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    r"|[0-9a-fA-F]{24,64}|(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{12,64}"
)
_ASIDE = LazyPattern(r"[ \t]*\([^)\n]{1,40}\)")
_WORD = LazyPattern(r"[ \t]+([^\s(]+)")
_SHAPED = LazyPattern(
    r"""(?i:["']?(?P<name>routing_key|routingkey|integration_key|service_key"""
    r"""|(?:aws_)?access_key_id|accesskeyid)["']?)[ \t]*[:=][ \t]*["']?"""
    r"(?P<value>[A-Za-z0-9]{20,32})(?![A-Za-z0-9])"
)
_APP_PASSWORD = LazyPattern(
    r"(?i:app[- ]?(?:specific[- ])?password)[^\n]{0,80}?(?<![\w-])"
    r"(?P<value>[a-z]{4}(?P<sep>[ -])[a-z]{4}(?P=sep)[a-z]{4}(?P=sep)[a-z]{4})(?![\w-])"
)
# Code hosts: after their name, a hex string is a commit as often as a key.
_CODE_HOSTS = frozenset("github gitlab bitbucket".split())
_LISTED = LazyPattern(
    r"[ \t]*[:=][ \t]*[\"']?"
    r"(?P<value>[0-9a-f]{32,128}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})(?![\w-])"
)
_HINTS = ("routing", "integration_key", "service_key", "access_key_id", "accesskeyid")
MAX_KINDS = 4


def _after_service(text: str, pos: int) -> tuple[int, int] | None:
    """The key the service's name ending at ``pos`` introduces, if any."""
    kinds = 0
    while True:
        aside = _ASIDE.match(text, pos)
        if aside is not None and kinds:
            pos = aside.end()
            continue
        word = _WORD.match(text, pos)
        if word is None:
            return None
        raw = word.group(1)
        bare = raw.rstrip(":=").lower()
        if bare in _KINDS and kinds < MAX_KINDS:
            kinds, pos = kinds + 1, word.end()
            continue
        if bare in ("is", "=") and kinds:
            pos = word.end()  # "App Certificate is …"
            continue
        value = _VALUE.fullmatch(raw.rstrip(".,;"))
        if value is None or not kinds:
            return None
        start = word.start(1)
        return start, start + len(value.group(0))


_EXAMPLE = LazyPattern(r"(?i:example|x{6,}|your)")


def _shaped(name: str, value: str) -> bool:
    if _EXAMPLE.search(value):
        return False  # AKIAIOSFODNN7EXAMPLE: documentation's
    if name.lower().startswith(("routing", "integration", "service")):
        return len(value) == 32 and not value.isdigit() and not value.isalpha()
    return len(value) == 20 and value.isupper() and not value.isalpha()


def find_service_keys(text: str, low: str) -> list[Finding]:
    """Keys after their service's name, and keys of a vendor's shape under an ambiguous name
    (``low``: ``text`` in lower case)."""
    found = []
    named = not low.isascii() or any(word in low for word in _CHEAP_KINDS)
    for match in (
        find_words(low, _SERVICES, _KIND_AFTER) if named else ()
    ):  # a kind's word must follow
        if match.start() and low[match.start() - 1].isalnum():
            continue
        span = _after_service(text, match.start() + len(match.group(0).split()[0]))
        if span is not None:
            found.append(Finding("secret-assignment", *span))
    if ":" in text or "=" in text:  # "todoist: <hex>", a list of services and their keys
        for match in find_words(low, _SERVICES, r"(?=[ \t]*[:=])"):
            name = match.group(0)
            if name in _CODE_HOSTS or (match.start() and low[match.start() - 1].isalnum()):
                continue
            listed = _LISTED.match(text, match.end())
            if listed is not None:
                found.append(Finding("secret-assignment", *listed.span("value")))
    if "app" in low and "password" in low:
        found += [
            Finding("secret-assignment", *m.span("value"))
            for m in _APP_PASSWORD.finditer(text)
            if len(set(m.group("value").split(m.group("sep")))) > 1  # "xxxx-xxxx-…": a shape
        ]
    if any(hint in low for hint in _HINTS):
        for shaped in _SHAPED.finditer(text):
            if _shaped(shaped.group("name"), shaped.group("value")):
                found.append(Finding("secret-assignment", *shaped.span("value")))
    return found
