"""``dreamd redact``: the text as dreamd would store it, its findings, and bad input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from dreamd.cli.main import main

NOTE = "- Ana's mail is ana.silva@gmail.com\n- DB_PASSWORD=Hunter2!x\n- the backup runs at 03:00\n"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_text_output_is_the_stored_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The file is printed masked, line for line, nothing added."""
    note = tmp_path / "note.md"
    note.write_text(NOTE, encoding="utf-8")
    assert _run(capsys, "redact", str(note)) == (
        0,
        "- Ana's mail is ***\n- DB_PASSWORD=***\n- the backup runs at 03:00\n",
        "",
    )


def test_json_gives_findings_with_offsets_into_the_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json prints the text and each finding's kind and offsets; the offsets cut the input."""
    note = tmp_path / "note.md"
    note.write_text(NOTE, encoding="utf-8")
    code, out, err = _run(capsys, "redact", str(note), "--json")
    document = json.loads(out)
    assert (code, err) == (0, "")
    assert document == {
        "text": "- Ana's mail is ***\n- DB_PASSWORD=***\n- the backup runs at 03:00\n",
        "findings": [
            {"kind": "email", "start": 16, "end": 35},
            {"kind": "secret-assignment", "start": 50, "end": 59},
        ],
    }
    assert [NOTE[f["start"] : f["end"]] for f in document["findings"]] == [
        "ana.silva@gmail.com",
        "Hunter2!x",
    ]


def test_standard_input_is_read_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without FILE (or with -) the text comes from standard input."""
    for argv in (["redact"], ["redact", "-"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"call +44 20 7946 0958")))
        assert _run(capsys, *argv) == (0, "call ***", "")


def test_a_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that does not exist: dreamd: error, exit 1, nothing on stdout."""
    missing = tmp_path / "nope.md"
    assert _run(capsys, "redact", str(missing)) == (
        1,
        "",
        f"dreamd: error: {missing}: no such file\n",
    )


def test_undecodable_bytes_are_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bytes that are not UTF-8: dreamd: error naming the byte and its offset, exit 1."""
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"fine\n\xff\xfe")
    assert _run(capsys, "redact", str(bad)) == (
        1,
        "",
        f"dreamd: error: {bad} is not UTF-8 text (byte 0xff at offset 5)\n",
    )
