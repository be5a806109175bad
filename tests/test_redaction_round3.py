"""The classes of secret the round-three corpus showed the rules missing, each held by cases of
our own in other words and languages (never the corpus's strings), and by look-alikes that
must come through unchanged."""

from __future__ import annotations

import pytest

from dreamd.redaction import redact


def _masked(text: str, secret: str) -> bool:
    return secret.lower() not in redact(text).lower()


# --- password and passphrase words in more languages -----------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Kata sandi router sudah diubah menjadi Melati#2027 kemarin.", "Melati#2027"),
        ("Kata laluan emel ditukar kepada Durian_88x minggu lepas", "Durian_88x"),
        ("รหัสผ่านอีเมลของพ่อคือ Chiang!Mai55 นะ", "Chiang!Mai55"),
        ("รหัสผ่านเราเตอร์ใหม่เป็น Tuk-Tuk2027 แล้ว", "Tuk-Tuk2027"),
        ("என் கடவுச்சொல் = Thamizh#99", "Thamizh#99"),
        ("وائی فائی کا پاس ورڈ Lahore@2025x ہے", "Lahore@2025x"),
        ("আমার পাসওয়ার্ড: Dhaka#2024", "Dhaka#2024"),
        ("Lösenfras: tranbär-kanel-skog-fjäll", "tranbär-kanel-skog-fjäll"),
        ("salalauseeni on revontuli-kuusi-järvi-hanki", "revontuli-kuusi-järvi-hanki"),
        ('the passphrase is "purple monkey dishwasher"', "purple monkey dishwasher"),
        ("heslo k wifi je „modrá velryba plave“", "modrá velryba plave"),
    ],
)
def test_password_words_of_more_languages_give_their_value(text: str, secret: str) -> None:
    """Indonesian and Malay changes, Thai copulas, Tamil, Urdu and Bengali words, passphrases
    of joined words, and a quoted phrase after the verb."""
    assert _masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        'the password is "whatever you set during setup"',
        "Lösenfrasen är lång, minst fyra ord.",
        "the passphrase should be long-and-easy-to-type",
        "รหัสผ่านคือวันเกิดของแม่",
        "heslo je „dlouhé a těžké“, říkal správce",
        "Kata sandi diubah menjadi lebih panjang.",
    ],
)
def test_password_talk_in_more_languages_stays(text: str) -> None:
    """A quoted sentence, a rule, words joined by short words, a value in words: no secret."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "If the vault asks for its passphrase, paste amber-lantern-ridge-falcon and press enter.",
            "amber-lantern-ridge-falcon",
        ),
        ("Beim Passwort-Dialog tippe Zugspitze#2962 ein", "Zugspitze#2962"),
        ("das Passwort [Brezel!Senf42] gilt ab heute", "Brezel!Senf42"),
        ("le mot de passe (« Lyon#Presqu1le ») reste le même", "Lyon#Presqu1le"),
        ("비밀번호 (Hangang!88) 잊지 마", "Hangang!88"),
        ("パスワード「Fuji#San2027」を使ってね", "Fuji#San2027"),
    ],
)
def test_a_value_handed_over_or_put_in_brackets_is_masked(text: str, secret: str) -> None:
    """A verb that hands the value over (type, paste, tippe), and a value in brackets or quotes
    right after the password word."""
    assert _masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "das Passwort (siehe Wiki) ist geändert",
        "le mot de passe (8 caractères minimum) est obligatoire",
        "For the password, use the manager and never paste it in chat.",
        "パスワード（8文字以上）を入力してください",
    ],
)
def test_brackets_and_verbs_without_a_value_stay(text: str) -> None:
    """A note in brackets and advice about where to type a password are no value."""
    assert redact(text) == text
