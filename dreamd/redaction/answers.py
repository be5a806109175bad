"""A chat export's answer to a question that asks for a secret.

An exported chat (WhatsApp's ``[12/03/2030, 14:22:01] Mum: …`` and ``14/05/30, 9:02 PM -
Kofi: …``, Signal's ``Sarah (2030-02-11 18:04): …``) holds one message a line, each after
its time and its sender. A message that asks for a password, a PIN or a code (``and the card
pin?``, ``what's the wifi password?``) and a next message, from someone else, that holds
nothing but one value: the value answers it. A PIN or a code is four to eight digits; a
password is shaped like one (:func:`dreamd.redaction.prose.password_shaped`). An answer of
words (``it's on the fridge``) is none.

A security question's answer is one too, on the question's line or the next: ``Security
question: cat's name? Answer: …`` (an e-Transfer's, a bank's), one word after ``Answer:``.
Pure; standard library only.
"""

from __future__ import annotations

from itertools import pairwise

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.prose import password_shaped

__all__ = ["find_chat_answers"]

_MESSAGE = LazyPattern(
    r"(?m)^(?:\[[^\]\n]{6,30}\][ \t]*(?P<a>[^:\n]{1,40})"
    r"|\d{1,4}[./-]\d{1,2}[./-]\d{2,4},?[ \t]+\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]*[APap]\.?[Mm]\.?)?"
    r"[ \t]+[-–][ \t]+(?P<b>[^:\n]{1,40})"
    r"|(?P<c>[^:\n()]{1,40}) \(\d{4}-\d{2}-\d{2}[^)\n]{0,12}\)):[ \t]*(?P<text>[^\n]*)$"
)
_ASKS_PIN = LazyPattern(
    r"(?i:\b(?:pin|pin code|passcode|pincode|code|kod|kód|código|codice|code pin|pin-kode)\b)"
)
_ASKS_PASSWORD = LazyPattern(
    r"(?i:\b(?:password|passwort|pw|pwd|pass|wifi|wi-fi|login|senha|contraseña|mot de passe"
    r"|wachtwoord|hasło|haslo|heslo|jelszó|parola|passord|adgangskode|salasana|lösenord)\b)"
)
_DIGITS = LazyPattern(r"\d{4,8}")
# The answer someone says they gave to a security question: ``mother's maiden name — I put
# …``, ``first pet? we used …``.
_ANSWER_GIVEN = LazyPattern(
    r"(?i:maiden[ \t]+name|security[ \t]+question|secret[ \t]+question|first[ \t]+pet"
    r"|memorable[ \t]+word)[^\n]{0,40}?\b(?i:I|we)[ \t]+(?i:put|used|gave|said|wrote|chose"
    r"|entered|typed)[ \t]+(?P<value>[A-Z][\w'-]{2,30})"
)
_SECURITY_ANSWER = LazyPattern(
    r"(?i:\b(?:security|secret|challenge)[ \t]+question\b)[^\n]{0,80}?\n?[^\n]{0,20}?"
    r"(?i:\banswer)[ \t]*[:=][ \t]*(?P<value>[^\s\"']+)"
)


def _messages(text: str) -> list[tuple[str, str, int, int]]:
    """(sender, message, start and end of the message's text) of each message line."""
    return [
        (
            (m.group("a") or m.group("b") or m.group("c") or "").strip(),
            m.group("text"),
            *m.span("text"),
        )
        for m in _MESSAGE.finditer(text)
    ]


def find_chat_answers(text: str) -> list[Finding]:
    """Values that answer a chat's question for a secret (see the module rules)."""
    found: list[Finding] = []
    low = text.lower()
    if "maiden" in low or "question" in low or "pet" in low or "memorable" in low:
        found += [
            Finding("secret-assignment", *m.span("value")) for m in _ANSWER_GIVEN.finditer(text)
        ]
    if "question" in low:
        for match in _SECURITY_ANSWER.finditer(text):
            start, end = match.span("value")
            while end > start and text[end - 1] in ".,;)":
                end -= 1
            found.append(Finding("secret-assignment", start, end))
    if "?" not in text or ":" not in text:
        return found
    lines = _messages(text)
    for (asker, question, _, ask_end), (sender, answer, start, _) in pairwise(lines):
        if sender == asker or not question.rstrip().endswith("?"):
            continue
        if text.count("\n", ask_end, start) != 1:
            continue  # the answer must be the very next line
        value = answer.strip()
        if not value or " " in value:
            continue
        at = start + answer.index(value)
        pin = _ASKS_PIN.search(question) is not None and _DIGITS.fullmatch(value) is not None
        password = _ASKS_PASSWORD.search(question) is not None and password_shaped(value)
        if pin or password:
            found.append(Finding("secret-assignment", at, at + len(value)))
    return found
