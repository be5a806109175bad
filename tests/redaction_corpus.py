"""A deterministic corpus for redaction: secrets and personal data, and look-alikes that must stay.

Every secret sample is ``(text, secret)``: redaction must remove ``secret`` from ``text``. Every
look-alike is a text redaction must leave unchanged. The values are generated (fake, never real
credentials) from a fixed seed, so the corpus is the same on every run.
"""

from __future__ import annotations

import hashlib
import random
import string
import uuid

_RNG = random.Random(20261129)
_ALNUM = string.ascii_letters + string.digits


def _token(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _hex(length: int) -> str:
    return _token(length, "0123456789abcdef")


def _luhn_number(prefix: str, length: int) -> str:
    digits = prefix + "".join(_RNG.choice(string.digits) for _ in range(length - len(prefix) - 1))
    for check in string.digits:
        candidate = digits + check
        total = 0
        for index, char in enumerate(reversed(candidate)):
            value = int(char)
            if index % 2:
                value = value * 2 - 9 if value > 4 else value * 2
            total += value
        if total % 10 == 0:
            return candidate
    raise AssertionError("unreachable")


def _iban(country: str, length: int) -> str:
    body = "".join(_RNG.choice(string.digits) for _ in range(length - 4))
    numeric = "".join(str(int(c, 36)) for c in body + country + "00")
    check = 98 - int(numeric) % 97
    return f"{country}{check:02d}{body}"


def _vendor_tokens() -> list[str]:
    return [
        "sk-" + _token(48),
        "sk-proj-" + _token(64),
        "sk-ant-api03-" + _token(80),
        "sk-or-v1-" + _hex(64),
        "gsk_" + _token(52),
        "xai-" + _token(60),
        "pplx-" + _token(48),
        "r8_" + _token(37),
        "ghp_" + _token(36),
        "gho_" + _token(36),
        "ghu_" + _token(36),
        "ghs_" + _token(36),
        "ghr_" + _token(36),
        "github_pat_" + _token(22) + "_" + _token(59),
        "glpat-" + _token(20),
        "npm_" + _token(36),
        "pypi-AgEIcHlwaS5vcmc" + _token(60),
        "hf_" + _token(34),
        "dckr_pat_" + _token(27),
        "xoxb-" + "-".join(_token(12, string.digits) for _ in range(2)) + "-" + _token(24),
        "xoxp-" + "-".join(_token(12, string.digits) for _ in range(3)) + "-" + _hex(32),
        "xapp-1-A" + _token(10) + "-" + _token(13, string.digits) + "-" + _hex(64),
        "AKIA" + _token(16, string.ascii_uppercase + string.digits),
        "ASIA" + _token(16, string.ascii_uppercase + string.digits),
        "AIza" + _token(35),
        "ya29." + _token(120),
        "GOCSPX-" + _token(28),
        "dop_v1_" + _hex(64),
        "sk_live_" + _token(24),
        "sk_test_" + _token(24),
        "rk_live_" + _token(24),
        "whsec_" + _token(32),
        "shpat_" + _hex(32),
        "SG." + _token(22) + "." + _token(43),
        "key-" + _hex(32),
        "lin_api_" + _token(40),
        "figd_" + _token(40),
        "ntn_" + _token(46),
        "secret_" + _token(43),
        "PMAK-" + _hex(24) + "-" + _hex(34),
        "ATATT" + _token(60),
        "hvs." + _token(90),
        "glc_" + _token(40),
        "phc_" + _token(43),
        "AGE-SECRET-KEY-1" + _token(58, string.ascii_uppercase + string.digits),
        _token(9, string.digits) + ":AA" + _token(33),
        "M" + _token(25) + "." + _token(6) + "." + _token(38),
        "https://hooks.slack.com/services/T" + _token(8) + "/B" + _token(8) + "/" + _token(24),
        "https://discord.com/api/webhooks/" + _token(18, string.digits) + "/" + _token(68),
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI" + _token(30) + "." + _token(43),
        "SK" + _hex(32),
        "AC" + _hex(32),
        "LTAI" + _token(20),
        "EAA" + _token(90),
    ]


def secret_samples() -> list[tuple[str, str]]:
    """(text, secret) pairs: 150+ secrets and personal data in realistic sentences."""
    samples: list[tuple[str, str]] = []
    for token in _vendor_tokens():
        samples.append((f"the key is {token} so keep it safe", token))
        samples.append((f"export THING={token}", token))
    for name in (
        "OPENAI_API_KEY",
        "DB_PASSWORD",
        "SECRET_KEY",
        "GITHUB_TOKEN",
        "AUTH_TOKEN",
        "SMTP_PASSWD",
    ):
        value = _token(20)
        samples.append((f"{name}={value}", value))
        samples.append((f'set {name}: "{value}" in the env file', value))
    for field in (
        "apiKey",
        "password",
        "client_secret",
        "access_token",
        "refresh_token",
        "privateKey",
    ):
        value = _token(24)
        samples.append((f'{{"user": "bob", "{field}": "{value}"}}', value))
    for flag in ("--api-key", "--token", "--password", "--client-secret"):
        value = _token(22)
        samples.append((f"run tool {flag} {value} --verbose", value))
        samples.append((f"run tool {flag}={value}", value))
    for scheme in ("Bearer", "Basic", "Bot"):
        value = _token(40, _ALNUM + "._-")
        samples.append((f"Authorization: {scheme} {value}", value))
    value = _token(30)
    samples.append((f"curl -H 'authorization: bearer {value}' https://api.example.com", value))
    for scheme in ("postgres", "mysql", "mongodb+srv", "redis", "amqp", "https"):
        password = _token(14)
        samples.append((f"connect to {scheme}://admin:{password}@db.internal:5432/app", password))
    value = _token(32)
    samples.append((f"GET https://api.example.com/v1/items?access_token={value}&page=2", value))
    body = _token(64, _ALNUM + "+/")
    samples.append(
        (f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n{body}\n-----END RSA PRIVATE KEY-----", body)
    )
    samples.append(
        (f"-----BEGIN OPENSSH PRIVATE KEY----- {body} -----END OPENSSH PRIVATE KEY-----", body)
    )
    for _ in range(8):
        email = f"{_token(7, string.ascii_lowercase)}.{_token(5, string.ascii_lowercase)}@{_token(6, string.ascii_lowercase)}.com"
        samples.append((f"mail {email} about the rollout", email))
    for phone in (
        "+1 415 555 2671",
        "+44 20 7946 0958",
        "(415) 555-2671",
        "415-555-2671",
        "+49 30 12345678",
        "+33 1 42 68 53 00",
    ):
        samples.append((f"call me at {phone} tomorrow", phone))
    for prefix, length in (("4", 16), ("51", 16), ("37", 15), ("6011", 16), ("4", 16), ("35", 16)):
        number = _luhn_number(prefix, length)
        spaced = " ".join(number[i : i + 4] for i in range(0, len(number), 4))
        samples.append((f"card {spaced} expires soon", spaced))
    for country, length in (("DE", 22), ("GB", 22), ("FR", 27), ("NL", 18), ("ES", 24)):
        iban = _iban(country, length)
        samples.append((f"wire it to {iban} please", iban))
    return samples


def lookalikes() -> list[str]:
    """150+ texts that look technical but hold nothing secret; redaction must not change them."""
    texts = []
    for index in range(20):
        digest = hashlib.sha256(f"file {index}".encode()).hexdigest()
        texts.append(f"sha256 of the artifact is {digest}")
        texts.append(f"commit {digest[:40]} fixed the cache, then {digest[:7]} reverted it")
    for _ in range(15):
        texts.append(f"request id {uuid.UUID(int=_RNG.getrandbits(128))} failed once")
    for major in range(15):
        texts.append(
            f"upgraded postgres to {major}.{_RNG.randrange(10)}.{_RNG.randrange(20)} and python to 3.{major % 14}"
        )
    for day in range(1, 16):
        texts.append(f"meeting on 2026-11-{day:02d} at 09:{day:02d}, room 4{day}")
    for _ in range(10):
        texts.append(
            f"server 10.{_RNG.randrange(256)}.{_RNG.randrange(256)}.{_RNG.randrange(256)} answers on port 8443"
        )
    texts += [
        "the token bucket refills every second",
        "we rotate the api key monthly, see the runbook",
        "password rules: at least 12 characters and a passphrase",
        "secrets live in the vault now, not in env files",
        "the auth service moved to the new cluster",
        "use Bearer authentication for the internal API",
        "skill tree: sk-8 is the next level in the game",
        "ghost text in the editor is annoying",
        "the xox game ended in a draw",
        "AKIA is the prefix AWS uses for access keys",
        "order 4111-1111-1111-1112 was shipped",
        "ticket 1234567890123 was closed",
        "invoice INV-2026-000123 paid",
        "ISBN 978-3-16-148410-0 is the book",
        "flight LH1234 lands at 14:35",
        "https://example.com/docs?page=2&sort=asc",
        "https://github.com/org/repo/pull/1234",
        "postgres://db.internal:5432/app has no password in it",
        "user at example dot com is not an address",
        "the build took 1234 seconds",
        "the key insight: caching beats recomputing",
        "cookie banner text was updated",
        "signature block at the end of the email",
        "DE is the country code for Germany",
        "version v2.14.0-rc.1 ships next week",
        "docker image python:3.11-slim is the base",
        "path /var/lib/dreamd/state/host.json",
        "the ratio 3.14159265358979 is pi",
        "cron expression 0 3 * * * runs nightly",
        "temperature 21.5 degrees at 07:30",
    ]
    for index in range(20):
        texts.append(f"note {index}: the team agreed to ship the billing change on Friday")
    for index in range(12):
        texts.append(f"model gpt-4o-mini-2024-07-18 and llama3.1:8b gave run {index} results")
    return texts
