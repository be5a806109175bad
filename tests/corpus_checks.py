"""What a redaction corpus's recall, false-positive and mask tests count, once for every corpus
that holds itself to them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest

from dreamd.redaction import MASK, find_secrets, redact
from dreamd.redaction.finding import BLOCK_MASK, VENDOR_PREFIXES, mask_of
from tests.redaction_corpus_fresh import Lookalike, Sample

__all__ = [
    "changed",
    "lookalike_cases",
    "masked",
    "planted",
    "rate_cases",
    "revealing",
    "sample_cases",
    "surviving",
]


def masked(text: str, secret: str) -> bool:
    """Whether redacting ``text`` removes ``secret`` (case aside)."""
    return secret.lower() not in redact(text).lower()


def sample_cases(samples: Sequence[Sample], reason: Callable[[Sample], str | None]) -> list[object]:
    """One test case per sample, named by its family and place; a sample ``reason`` gives a
    reason for is expected to fail (strictly: its passing is news)."""
    return _cases(samples, reason)


def lookalike_cases(
    lookalikes: Sequence[Lookalike], reason: Callable[[Lookalike], str | None]
) -> list[object]:
    """One test case per look-alike, as :func:`sample_cases` makes them: one ``reason`` gives a
    reason for (masked on purpose) is expected to fail, strictly."""
    return _cases(lookalikes, reason)


_Case = TypeVar("_Case", Sample, Lookalike)


def _cases(items: Sequence[_Case], reason: Callable[[_Case], str | None]) -> list[object]:
    cases: list[object] = []
    for index, item in enumerate(items):
        why = reason(item)
        marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
        cases.append(pytest.param(item, id=f"{item.family}-{index}", marks=marks))
    return cases


def rate_cases(samples: Sequence[Sample], lookalikes: Sequence[Lookalike]) -> list[object]:
    """The two counts a corpus holds to a rate, as test cases of (what is wrong, out of how
    many): planted items that survive redaction ("recall"), look-alikes it changes
    ("false-positives")."""
    return [
        pytest.param(lambda: surviving(samples), lambda: planted(samples), id="recall"),
        pytest.param(lambda: changed(lookalikes), lambda: len(lookalikes), id="false-positives"),
    ]


def planted(samples: Sequence[Sample]) -> int:
    """How many secrets ``samples`` plant."""
    return sum(len(s.secrets) for s in samples)


def surviving(samples: Sequence[Sample]) -> list[str]:
    """Each planted secret redaction leaves in its text (case aside), named by its family."""
    misses = []
    for sample in samples:
        out = redact(sample.text).lower()
        misses += [f"{sample.family}: {s!r}" for s in sample.secrets if s.lower() in out]
    return misses


def changed(lookalikes: Sequence[Lookalike]) -> list[str]:
    """Each look-alike redaction changes at all."""
    return [f"{x.family}: {x.text!r}" for x in lookalikes if redact(x.text) != x.text]


def revealing(samples: Sequence[Sample]) -> list[str]:
    """Each mask of a finding that is not ``***``, a block mask, or a vendor prefix the value
    starts with followed by ``***``: one that keeps more of a secret than its vendor."""
    allowed = {MASK, BLOCK_MASK} | {prefix + MASK for prefix in VENDOR_PREFIXES}
    found = []
    for sample in samples:
        for finding in find_secrets(sample.text):
            value = sample.text[finding.start : finding.end]
            mask = mask_of(finding.kind, value).rstrip("\n")
            kept = "" if mask == BLOCK_MASK else mask.removesuffix(MASK)
            if mask not in allowed or not value.startswith(kept):
                found.append(f"{value!r} -> {mask!r}")
    return found
