"""Redaction corpus figures: detected, missed and false positives.

Run: ``python bench/redaction.py``. Uses the deterministic corpus in ``tests/redaction_corpus.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dreamd.redaction import redact
from tests.redaction_corpus import lookalikes, secret_samples


def main() -> int:
    secrets = secret_samples()
    others = lookalikes()
    missed = [text for text, secret in secrets if secret in redact(text)]
    false_positives = [text for text in others if redact(text) != text]
    rows = [
        ("secret and PII samples", len(secrets)),
        ("detected", len(secrets) - len(missed)),
        ("missed", len(missed)),
        ("look-alikes", len(others)),
        ("false positives", len(false_positives)),
    ]
    for name, value in rows:
        print(f"{name:<24} {value:>5}")
    print(f"{'recall':<24} {1 - len(missed) / len(secrets):>5.3f}")
    print(f"{'false-positive rate':<24} {len(false_positives) / len(others):>5.3f}")
    for text in missed + false_positives:
        print("  ", text[:100])
    return 1 if missed or false_positives else 0


if __name__ == "__main__":
    sys.exit(main())
