"""Text already known to pass redaction unchanged, so a per-turn answer need not check it again.

``memory recall`` shows lines of the bank's pages, which a person may edit, so every one of
them is redacted on the way out. Loading and compiling every detector costs a fresh process
tens of milliseconds, for lines that are the same from one turn to the next. So the digests of
lines redaction left unchanged are kept in ``memory/.dreams/clean-text.json`` (mode 0600) with
the fingerprint of the rules that checked them (:func:`dreamd.redaction.rules_fingerprint`):

* A line whose digest is kept, under the rules in force, is shown as it is (redacting it would
  change nothing); any other line is redacted, and kept when redaction left it unchanged. Other
  rules (an upgrade, another detector installed) start the file again.
* A line that redaction changes is never kept: it is redacted every time it is shown.
* Only digests (sha256, 128 bits) are stored, never text; the newest :data:`KEPT` are kept. The
  file is a cache: written atomically without the workspace lock, a lost or unreadable one only
  costs the next answer one pass of the detectors.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from pathlib import Path

from dreamd.engine.text.digests import sha256_hex
from dreamd.errors import UnsafePathError
from dreamd.layout import STATE_DIR, check_workspace_folders
from dreamd.redaction import rules_fingerprint

__all__ = ["CLEAN_FILE", "KEPT", "redact_known"]

CLEAN_FILE = f"{STATE_DIR}/clean-text.json"
KEPT = 4096


def _digest(text: str) -> str:
    return sha256_hex(text.encode("utf-8", "surrogatepass"))[:32]


def _known(path: Path, rules: str) -> list[str]:
    try:
        document = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return []
    if not isinstance(document, dict) or document.get("rules") != rules:
        return []
    clean = document.get("clean")
    return [each for each in clean if isinstance(each, str)] if isinstance(clean, list) else []


def redact_known(root: Path, texts: Sequence[str]) -> list[str]:
    """``redact(text)`` for each of ``texts``, the detectors run only on text not known clean."""
    if not texts:
        return []
    path = root / CLEAN_FILE
    rules = rules_fingerprint()
    known = _known(path, rules)
    clean = set(known)
    digests = [_digest(text) for text in texts]
    unknown = [i for i, digest in enumerate(digests) if digest not in clean]
    if not unknown:
        return list(texts)
    from dreamd.redaction import redact

    shown = list(texts)
    fresh = []
    for i in unknown:
        shown[i] = redact(texts[i])
        if shown[i] == texts[i] and digests[i] not in clean:
            clean.add(digests[i])
            fresh.append(digests[i])
    if fresh:
        _save(root, rules, (known + fresh)[-KEPT:])
    return shown


def _save(root: Path, rules: str, clean: list[str]) -> None:
    from dreamd.store.writer import write_cache  # a miss loaded the detectors: this is cheap

    with contextlib.suppress(UnsafePathError):
        check_workspace_folders(root)  # never through a symlinked memory/.dreams
        write_cache(root / CLEAN_FILE, json.dumps({"rules": rules, "clean": clean}).encode())
