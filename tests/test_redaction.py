"""Redaction: every secret and personal datum in the corpus is masked; look-alikes survive."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.redaction import mask_token, redact
from tests.redaction_corpus import lookalikes, secret_samples

SECRETS = secret_samples()
LOOKALIKES = lookalikes()


def test_corpus_sizes() -> None:
    """The corpus holds at least 150 secrets/PII samples and 150 look-alikes."""
    assert len(SECRETS) >= 150
    assert len(LOOKALIKES) >= 150


@pytest.mark.parametrize(("text", "secret"), SECRETS, ids=[f"s{i}" for i in range(len(SECRETS))])
def test_every_secret_is_masked(text: str, secret: str) -> None:
    """The secret value never survives redaction."""
    assert secret not in redact(text)


@pytest.mark.parametrize("text", LOOKALIKES, ids=[f"l{i}" for i in range(len(LOOKALIKES))])
def test_lookalikes_survive(text: str) -> None:
    """Hashes, UUIDs, versions, dates, addresses without credentials and prose stay as they are."""
    assert redact(text) == text


def test_masks_keep_at_most_six_and_four() -> None:
    """Long tokens keep their first 6 and last 4 characters; short ones become ***."""
    assert mask_token("ghp_" + "a" * 36) == "ghp_aa…aaaa"
    assert mask_token("short-secret") == "***"
    assert redact("pw postgres://me:hunter22@db/app") == "pw postgres://me:***@db/app"
    pem = "-----BEGIN PRIVATE KEY-----\nMIIEv\nabc\n-----END PRIVATE KEY-----"
    assert redact(pem) == "-----BEGIN PRIVATE KEY-----…redacted…-----END PRIVATE KEY-----"


@given(st.text())
def test_redaction_never_crashes_and_is_stable(text: str) -> None:
    """Any text redacts without error, and redacting twice changes nothing more."""
    once = redact(text)
    assert redact(once) == once
