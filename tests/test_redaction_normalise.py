"""Disguised keywords and values: read as a person reads them, masked where they stand."""

from __future__ import annotations

import pytest

from dreamd.redaction import Finding, find_secrets, redact
from dreamd.redaction.normalise import normalise


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p\u200bassword = Qx7pL2mz!", "p\u200bassword = ***"),
        ("p\u0430ssword: Gr33n-Apple!", "p\u0430ssword: ***"),
        (
            "\uff30\uff21\uff33\uff33\uff37\uff2f\uff32\uff24\uff1d\uff3a\uff45\uff4e\uff12",
            "\uff30\uff21\uff33\uff33\uff37\uff2f\uff32\uff24\uff1d***",
        ),
        ("password&#58; Hunter-Moon-22", "password&#58; ***"),
        ("pass&shy;word: Entity-Hyphen-7", "pass&shy;word: ***"),
        ("contrasen\u0303a: Jam\u00f3n-Ib\u00e9rico9", "contrasen\u0303a: ***"),
        ("&lt;password&gt;Esc4ped!Pw&lt;/password&gt;", "&lt;password&gt;***&lt;/password&gt;"),
    ],
)
def test_a_disguised_keyword_is_read_and_only_the_value_masked(text: str, expected: str) -> None:
    """Zero-width, look-alike, fullwidth, entity and combining-mark disguises are undone."""
    assert redact(text) == expected


def test_findings_are_offsets_into_the_text_as_given() -> None:
    """A finding on the normalised text maps back to the original characters, invisible
    ones inside it included."""
    token = "sk-proj-Q7w2E9r4T1" + "\u200b" + "y8U3i6O5p0A2s7D4f9G1h6"
    text = f"p\u200bassword: Hx7!pq22Lm and {token}"
    found = find_secrets(text)
    assert [(f.kind, text[f.start : f.end]) for f in found] == [
        ("secret-assignment", "Hx7!pq22Lm"),
        ("vendor-token", token),
    ]
    assert found[0] == Finding("secret-assignment", 11, 21)


def test_normalise_maps_every_character_back() -> None:
    """Each stretch of the normalised text names the original characters it came from."""
    text = "a&amp;b\u200bc\uff24\ufb01x"
    normalised = normalise(text)
    assert normalised is not None
    assert normalised.text == "a&bcDfix"
    spans = [normalised.span(i, i + 1) for i in range(len(normalised.text))]
    assert [text[a:b] for a, b in spans] == [
        "a",
        "&amp;",
        "b",
        "c",
        "\uff24",
        "\ufb01",
        "\ufb01",
        "x",
    ]
    assert normalised.span(0, 4) == (0, 9)


def test_a_word_of_another_script_is_left_alone() -> None:
    """Cyrillic and Greek words are not read as Latin: only a Latin word with a look-alike is."""
    assert normalise("пароль от почты") is None
    assert normalise("Ελληνικά") is None
    assert normalise("plain ascii text") is None
    assert normalise("R&D costs") is None


def test_masks_keep_their_form() -> None:
    """A mask's ellipsis is not expanded, so a redacted text redacts to itself."""
    once = redact("Passw\u043ert: Birke#1990 and ghp_" + "Ab1Cd2" * 6 + " …redacted…")
    assert redact(once) == once
    assert "…redacted…" in once
