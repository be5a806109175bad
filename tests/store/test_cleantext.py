"""Bank lines known clean are shown without the detectors; anything else is redacted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamd.redaction import redact
from dreamd.store import cleantext
from dreamd.store.cleantext import CLEAN_FILE, redact_known

CLEAN = "Peter prefers concise replies on WhatsApp."
SECRET = "The staging token is ghp_9zXq2LmN4pR7sT1vW3yB5dF8hJ0kA6cE2gQ4."


def test_clean_lines_are_remembered_and_secrets_never(tmp_path: Path) -> None:
    """The first answer runs the detectors and keeps the clean line's digest only."""
    shown = redact_known(tmp_path, [CLEAN, SECRET])
    assert shown == [CLEAN, redact(SECRET)] and shown[1] != SECRET
    kept = json.loads((tmp_path / CLEAN_FILE).read_text())
    assert len(kept["clean"]) == 1
    assert "Peter" not in (tmp_path / CLEAN_FILE).read_text()
    assert (tmp_path / CLEAN_FILE).stat().st_mode & 0o777 == 0o600


def test_a_known_line_is_shown_without_the_detectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Known clean under the rules in force: shown as it is, redact() not called."""
    redact_known(tmp_path, [CLEAN])
    monkeypatch.setattr("dreamd.redaction.redact", lambda _: pytest.fail("redacted again"))
    assert redact_known(tmp_path, [CLEAN]) == [CLEAN]


def test_other_rules_start_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A digest kept under other rules does not vouch for anything."""
    redact_known(tmp_path, [CLEAN])
    monkeypatch.setattr(cleantext, "rules_fingerprint", lambda: "other rules")
    calls: list[str] = []
    monkeypatch.setattr("dreamd.redaction.redact", lambda text: calls.append(text) or text)
    assert redact_known(tmp_path, [CLEAN]) == [CLEAN]
    assert calls == [CLEAN]


@pytest.mark.parametrize("garbage", [b"", b"[]", b'{"rules": 1}', b"\xff", b'{"clean": 3}'])
def test_an_unreadable_cache_only_costs_a_pass(tmp_path: Path, garbage: bytes) -> None:
    """Whatever the file holds, text is redacted as if there were none."""
    (tmp_path / CLEAN_FILE).parent.mkdir(parents=True)
    (tmp_path / CLEAN_FILE).write_bytes(garbage)
    assert redact_known(tmp_path, [CLEAN, SECRET]) == [CLEAN, redact(SECRET)]


def test_a_symlinked_state_folder_is_not_written_through(tmp_path: Path) -> None:
    """memory/.dreams as a link elsewhere: nothing is cached there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    (tmp_path / "ws" / "memory" / ".dreams").symlink_to(elsewhere)
    assert redact_known(tmp_path / "ws", [CLEAN]) == [CLEAN]
    assert list(elsewhere.iterdir()) == []
