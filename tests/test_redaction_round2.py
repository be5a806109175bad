"""The round-two corpus: written before the rules were read (languages, formats and vendors no
earlier corpus holds), held to 97 % recall and 3 % false positives; masks keep nothing of a
secret but a recognised vendor prefix."""

from __future__ import annotations

from tests import redaction_corpus_round2
from tests.corpus_checks import changed, planted, revealing, surviving

SAMPLES = redaction_corpus_round2.secret_samples()
LOOKALIKES = redaction_corpus_round2.lookalikes()


def test_the_corpus_is_large_and_mostly_look_alikes() -> None:
    """200+ planted items in 19+ languages of prose, and look-alikes are 40 % of the texts."""
    planted_items = planted(SAMPLES)
    languages = {s.family.split(": ")[1] for s in SAMPLES if s.family.startswith("prose: ")}
    share = len(LOOKALIKES) / (len(LOOKALIKES) + len(SAMPLES))
    assert (planted_items >= 200, len(languages) >= 19, share >= 0.4) == (True, True, True)


def test_recall_is_at_least_97_percent() -> None:
    """At most 3 % of the planted items survive redaction (they are listed when more do)."""
    misses = surviving(SAMPLES)
    assert len(misses) <= planted(SAMPLES) * 0.03, "\n".join(misses)


def test_false_positives_are_at_most_3_percent() -> None:
    """At most 3 % of the look-alikes are changed by redaction (they are listed when more are)."""
    positives = changed(LOOKALIKES)
    assert len(positives) <= len(LOOKALIKES) * 0.03, "\n".join(positives)


def test_a_mask_reveals_at_most_a_vendor_prefix() -> None:
    """Every mask of every finding in the corpus is ``***``, a block mask, or a vendor prefix
    the value starts with followed by ``***``: no first six or last four characters."""
    assert revealing(SAMPLES) == []
