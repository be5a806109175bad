"""Recovery phrases, jotted-down logins, fallbacks in code, and the attacker corpus's first batch.

The attacker corpus's second batch is a measurement, not a test: ``python bench/redaction.py``
reports it as it stands.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from dreamd.redaction import find_secrets, redact
from tests import redaction_corpus_attacker

SAMPLES = redaction_corpus_attacker.secret_samples()
LOOKALIKES = redaction_corpus_attacker.lookalikes()


@pytest.mark.parametrize("sample", SAMPLES, ids=[f"{s.family}-{i}" for i, s in enumerate(SAMPLES)])
def test_attacker_secrets_are_masked(sample: redaction_corpus_attacker.Sample) -> None:
    out = redact(sample.text).lower()
    assert [s for s in sample.secrets if s.lower() in out] == []


@pytest.mark.parametrize(
    "lookalike", LOOKALIKES, ids=[f"{x.family}-{i}" for i, x in enumerate(LOOKALIKES)]
)
def test_attacker_lookalikes_survive(lookalike: redaction_corpus_attacker.Lookalike) -> None:
    assert redact(lookalike.text) == lookalike.text


def test_a_phrase_whose_checksum_holds_needs_no_keyword() -> None:
    """The BIP39 test vector "legal winner … yellow" checks out: masked in any sentence."""
    phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
    assert redact(f"jotted {phrase} here") == "jotted *** here"
    assert [f.kind for f in find_secrets(phrase)] == ["seed-phrase"]


def test_a_phrase_that_fails_its_checksum_needs_its_line_to_say_so() -> None:
    words = "abandon ability able about above absent absorb abstract absurd abuse access accident"
    assert redact(words) == words
    assert redact(f"wallet seed: {words}") == "wallet seed: ***"
    numbered = " ".join(f"{i}. {w}" for i, w in enumerate(words.split(), 1))
    assert "absorb" not in redact(f"my recovery words\n{numbered}")


def test_prose_of_list_words_is_not_a_phrase() -> None:
    """Sentences need words the list leaves out; even a long one of list words stays."""
    prose = "we talked about the plan and agreed to move the launch to spring after review"
    assert redact(prose) == prose


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("login for the router: admin / Zx9!qLm2", "Zx9!qLm2"),
        ("credentials for staging are deploy / Hx7#pp2q", "Hx7#pp2q"),
        ("creds: root:Pl@ntpot9", "Pl@ntpot9"),
        ("login for the camera: admin / admin", "admin / admin"),
        ("the wifi at the cabin is moonlight-Otter-42 btw", "moonlight-Otter-42"),
        ('password = os.environ.get("DB_PW", "fallbackPw123!")', "fallbackPw123!"),
        ('const k = process.env.API_KEY ?? "abcd1234efgh"', "abcd1234efgh"),
        ("psql -W ${DB_PASSWORD:-s3cretXY}", "s3cretXY"),
        ("the safe combination is 31-7-22", "31-7-22"),
        ("my garage opener code: 88213", "88213"),
        ("SSN: 219-09-9999", "219-09-9999"),  # never issued, but named: still an SSN
    ],
)
def test_jotted_credentials_are_masked(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "login options: google / github",
        "login page: /admin / settings",
        "the account is 12/2026 overdue",
        "account: savings / checking",
        "the wifi is down again",
        "wifi at the office was 5GHz-only",
        'host = os.getenv("DB_HOST", "localhost")',
        'os.getenv("DB_PASSWORD", "changeme")',
        "${PORT:-8080}",
        "run 219-09-9999 of the nightly batch is cached",
        "error code: 500 on the gate",
        "combination of 3-4-5 triangles",
    ],
)
def test_their_lookalikes_stay(text: str) -> None:
    assert redact(text) == text


def test_the_word_list_loads_only_for_long_runs_of_short_words() -> None:
    code = (
        "import sys, dreamd.redaction as r; r.redact('a short note: ship the fix on monday'); "
        "a = 'mnemonic' in sys.modules; "
        "r.redact('wallet seed: ' + ' '.join(['abandon'] * 11 + ['about'])); "
        "print(a, 'mnemonic' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "True"]
