"""Tokens whose shape names their vendor, and the long runs of text every token rule looks at.

A *run* is 16 or more characters without white space (:func:`runs`); only runs are searched for
vendor shapes, so prose is skipped at the speed of one regular expression. The shapes are our
own (about 120 prefixes and formats: ``sk-``, ``ghp_``, GitLab's ``glpat-``/``glptt-``/
``glsoat-``/``glcbt-``, Stripe's ``sk_``/``rk_``, Azure client secrets, AWS key ids and session
tokens, JWTs, bot tokens, chat webhooks of hosted services and the incoming hooks of
self-hosted ones, ``…/hooks/<id>``, ``…/api/webhook/<id>``…): these are the families no library
lists, and the first place a new vendor is added. A token's shape filled with ``x``, ``*`` or
words such as ``EXAMPLE`` or ``your`` is documentation's placeholder, not a token. A run none of
them explains goes on to :mod:`dreamd.redaction.entropy`. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from dreamd.redaction.finding import Finding

__all__ = ["find_vendor_tokens", "has_runs", "runs"]

MIN_RUN = 16

_RUN = re.compile(r"\S{16,}")

_SHAPES = (
    # Model providers
    r"sk-ant-[A-Za-z0-9_-]{20,}",
    r"sk-(?:or-v1|proj|svcacct|admin)-[A-Za-z0-9_-]{20,}",
    r"sk-[A-Za-z0-9_-]{20,}",
    r"sk_[a-f0-9]{48}",
    r"gsk_[A-Za-z0-9]{20,}",
    r"xai-[A-Za-z0-9]{20,}",
    r"pplx-[A-Za-z0-9]{20,}",
    r"r8_[A-Za-z0-9]{20,}",
    r"hf_[A-Za-z0-9]{30,}",
    r"fw_[A-Za-z0-9]{20,}",
    r"fc-[a-f0-9]{32}",
    r"tvly-(?:dev-)?[A-Za-z0-9]{24,}",
    r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}",
    r"pcsk_[A-Za-z0-9_]{40,}",
    r"BSA[A-Za-z0-9_-]{25,}",
    # Code hosting, registries, CI
    r"github_pat_[A-Za-z0-9_]{22,}",
    r"gh[pousr]_[A-Za-z0-9]{20,}",
    r"gl(?:pat|ptt|soat|cbt|dt|rt|imt|agent|oas|ft|ffct|rtr|wt|sa)-[A-Za-z0-9_-]{20,}",
    r"glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}",
    r"glc_[A-Za-z0-9+/=]{30,}",
    r"ATBB[A-Za-z0-9]{24,}",
    r"npm_[A-Za-z0-9]{30,}",
    r"pypi-[A-Za-z0-9_-]{40,}",
    r"rubygems_[a-f0-9]{48}",
    r"cio[A-Za-z0-9]{32}",
    r"dckr_pat_[A-Za-z0-9_-]{20,}",
    r"CCIP(?:AT|RJ)_[A-Za-z0-9]{20,}_[a-f0-9]{40}",
    r"bkua_[a-f0-9]{40}",
    r"sq[pau]_[a-f0-9]{40}",
    r"AKCp[A-Za-z0-9]{60,}",
    r"cmVmdGtu[A-Za-z0-9]{50,}",
    # Chat and messaging
    r"xox[abeoprs]-[A-Za-z0-9-]{10,}",
    r"xapp-[A-Za-z0-9-]{20,}",
    r"[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}",
    r"\d{8,10}:AA[A-Za-z0-9_-]{33}",
    r"SK[0-9a-fA-F]{32}",
    r"AC[0-9a-fA-F]{32}",
    r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",
    r"key-[0-9a-f]{32}",
    r"[0-9a-f]{32}-us\d{1,2}",
    r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}",
    # Cloud providers
    r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|APKA|ABIA|ACCA)[A-Z0-9]{16}",
    r"(?:IQoJb3JpZ2lu|FwoGZXIvYXdz)[A-Za-z0-9+/=]{80,}",
    r"AIza[A-Za-z0-9_-]{35}",
    r"ya29\.[A-Za-z0-9_-]{20,}",
    r"1//0[A-Za-z0-9_-]{40,}",
    r"4/0A[A-Za-z0-9_-]{40,}",  # Google's OAuth authorization code, as a redirect carries it
    r"GOCSPX-[A-Za-z0-9_-]{20,}",
    r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{60,}",
    r"[A-Za-z0-9_~.-]{3}[78]Q~[A-Za-z0-9_~.-]{31,34}",
    r"do[por]_v1_[a-f0-9]{64}",
    r"AccountKey=[A-Za-z0-9+/=]{40,}",
    r"LTAI[A-Za-z0-9]{12,20}",
    r"AKID[A-Za-z0-9]{32}",
    r"dapi[a-f0-9]{32}(?:-\d)?",
    r"SCW[A-Z0-9]{17}",
    r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}",
    # Payments and commerce
    r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}",  # pk_…: publishable, made for web pages
    r"whsec_[A-Za-z0-9]{20,}",
    r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
    r"sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{20,}",
    r"EAA[A-Za-z0-9]{60,}",
    r"IGQV[A-Za-z0-9_-]{60,}",
    r"access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}",
    r"shippo_(?:live|test)_[a-f0-9]{40}",
    r"rzp_(?:live|test)_[A-Za-z0-9]{14,}",
    r"FLWSECK(?:_TEST)?-[a-f0-9]{32}-X",
    r"pk_[a-f0-9]{34}(?![A-Za-z0-9])",  # Klaviyo's private key (its public one is six letters)
    # Developer tools and SaaS
    r"lin_api_[A-Za-z0-9]{30,}",
    r"api_[A-Za-z0-9]{22}\.[A-Za-z0-9]{22}",  # Close
    r"00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{60,}",
    r"pat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    r"CLOJARS_[a-f0-9]{60}",
    r"figd_[A-Za-z0-9_-]{30,}",
    r"ntn_[A-Za-z0-9]{30,}",
    r"secret_[A-Za-z0-9]{40,}",
    r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}",
    r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
    r"ATATT[A-Za-z0-9_=-]{40,}",
    r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9._-]{30,}",
    r"sntry[su]_[A-Za-z0-9_=+/.-]{40,}",
    r"nfp_[A-Za-z0-9]{30,}",
    r"vercel_[A-Za-z0-9]{20,}",
    r"tfp_[A-Za-z0-9]{30,}",
    r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}",
    r"pul-[a-f0-9]{40}",
    r"cfat_[A-Za-z0-9_-]{30,}",
    r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_-]{30,}",
    r"phc_[A-Za-z0-9]{30,}",
    r"rnd_[A-Za-z0-9]{30,}",
    r"HRKU-[A-Za-z0-9_-]{40,}",
    r"fm[12]_[A-Za-z0-9+/=,_-]{50,}",
    r"fly[A-Za-z0-9]*_[A-Za-z0-9]{40,}",
    r"hv[sbr]\.[A-Za-z0-9_-]{24,}",
    r"s\.[A-Za-z0-9]{24}\b",
    r"ops_[A-Za-z0-9_-]{40,}",
    r"NRAK-[A-Z0-9]{27}",
    r"NRII-[A-Za-z0-9_-]{32}",
    r"sbp_[a-f0-9]{40}",
    r"sb_secret_[A-Za-z0-9_-]{20,}",
    r"tskey-[a-z]+-[A-Za-z0-9]+-[A-Za-z0-9]{20,}",
    r"AGE-SECRET-KEY-1[A-Z0-9]{58}",
    r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}",
    r"sl\.[A-Za-z0-9_.-]{100,}",
    r"CFPAT-[A-Za-z0-9_-]{43}",
    r"pnu_[A-Za-z0-9]{36}",
    r"napi_[a-z0-9]{60,}",
    r"bb_live_[A-Za-z0-9_-]{20,}",
    r"oauth2:[A-Za-z0-9_-]{20,}",
    r"oauth:[a-z0-9]{30}(?![A-Za-z0-9])",  # a Twitch chat token as IRC clients take it
    r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    # Games: Roblox's session cookie, a warning then the token (the warning is part of it)
    r"_\|WARNING:-DO-NOT-SHARE-THIS\.[^|\s]{0,200}\|_[A-F0-9]{64,}",
)

_WEBHOOKS = (
    r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}",
    r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}",
    r"https://[A-Za-z0-9-]+\.webhook\.office\.com/webhookb2/\S{20,}",
    r"https://outlook\.office\.com/webhook/\S{20,}",
    r"https://hooks\.zapier\.com/hooks/catch/\d+/[A-Za-z0-9]+/?",
    r"https://maker\.ifttt\.com/(?:trigger/[^/\s]+/with/)?key/[A-Za-z0-9_-]{16,}",
    r"https://open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/[A-Za-z0-9-]{20,}",
    # A self-hosted chat's incoming hook (Mattermost, Rocket.Chat, Gitea…) and a home
    # automation's (Home Assistant's /api/webhook/…): whoever holds the address can post.
    r"https?://[^\s/]+/(?:[\w.-]+/)*?(?:hooks|hook|webhooks?)/(?=[\w-]*\d)(?=[\w-]*[A-Za-z])"
    r"[A-Za-z0-9_-]{16,}(?:/[A-Za-z0-9_-]{16,})?",
)


@cache
def _shapes() -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(_SHAPES) + ")")


@cache
def _webhooks() -> re.Pattern[str]:
    return re.compile("|".join(_WEBHOOKS))


def has_runs(text: str) -> bool:
    """Whether ``text`` has a run at all (one ``split``: faster than the search itself)."""
    return max(map(len, text.split()), default=0) >= MIN_RUN


def runs(text: str) -> Iterator[re.Match[str]]:
    """Every stretch of 16 or more characters without white space."""
    return _RUN.finditer(text)


# What documentation writes instead of a token: sk-xxxx…, AKIAXXXXXXXXXXXXXXXX, ghp_****,
# AKIAIOSFODNN7EXAMPLE, sk-...your-key-here.
_PLACEHOLDER = re.compile(r"[xX]{6,}|\*{4,}|\.{3}|…|(?i:example|your|replace|dummy|placeholder)")


def _documented_jwt(token: str) -> bool:
    """The JWT every tutorial prints (jwt.io's and RFC 7519's: subject 1234567890, John Doe):
    documentation's, like AWS's EXAMPLE keys."""
    import base64
    import binascii

    payload = token.split(".")[1]
    try:
        claims = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError):
        return False
    return '"sub":"1234567890"' in claims and '"name":"John Doe"' in claims


def find_vendor_tokens(text: str, start: int, end: int) -> list[Finding]:
    """Vendor-shaped tokens and webhooks inside ``text[start:end]`` (one run); placeholders
    written in a token's shape are not tokens."""
    found = [Finding("webhook", m.start(), m.end()) for m in _webhooks().finditer(text, start, end)]
    for match in _shapes().finditer(text, start, end):
        value = match.group(0)
        # A warning inside a token ("…steal-your-ROBUX…") is no placeholder: what follows it is
        if _PLACEHOLDER.search(value[value.rfind("|_") + 1 :]):
            continue
        if not any(f.start <= match.start() < f.end for f in found):
            kind = "jwt" if match.group(0).startswith("eyJ") else "vendor-token"
            if kind == "jwt" and _documented_jwt(match.group(0)):
                continue
            found.append(Finding(kind, match.start(), match.end()))
    return found
