"""Wallet recovery phrases: runs of BIP39 words, found by the word list, not by a keyword.

A recovery phrase is 12, 15, 18, 21 or 24 words of the BIP39 list (``mnemonic``, the reference
implementation's package, holds the list and the checksum). A run of that length whose checksum
holds is a phrase wherever it stands; a run of 12 or more list words that fails the checksum (a
phrase copied with a typo, or one of the well-known test phrases) is one only when its line, or
the line before it, says so (``seed``, ``mnemonic``, ``recovery``, ``wallet``, in the
languages notes are written in: ``frase semilla``, ``Wiederherstellungsphrase``, ``fraza
odzyskiwania``, ``助记词``…, or counts its words: ``12 słów``, ``24 Wörter``). Prose almost
never strings twelve list words together: the list leaves out the words sentences are built of
(``the``, ``and``, ``for``, ``with``…).

May import: the standard library, :mod:`dreamd.redaction.finding` and, lazily on the first text
with a long enough run of short lower-case words, ``mnemonic``.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding

__all__ = ["find_seed_phrases"]

_LENGTHS = frozenset({12, 15, 18, 21, 24})
# Twelve or more short lower-case words, each optionally numbered ("1. abandon 2) ability").
_RUN = re.compile(
    r"(?<![A-Za-z])(?:(?:\d{1,2}[.):]\s*)?[a-z]{3,8}(?:[ \t,]+|\s*\n\s*)){11,}"
    r"(?:\d{1,2}[.):]\s*)?[a-z]{3,8}\b"
)
_WORD = re.compile(r"[a-z]{3,8}")
_SAYS_SO = re.compile(
    r"seed|mnemonic|recovery|wallet|backup phrase|secret phrase|passphrase|bip ?39"
    r"|semilla|frase de recuperaci|cartera|billetera|phrase de récupération|portefeuille"
    r"|wiederherstellungsphrase|wallet-phrase|frase di recupero|portafoglio|herstelzin"
    r"|fraza|odzyskiwani|portfel|kurtarma|cüzdan|сид|мнемони|кошел|гаманц|frasa pemulihan"
    r"|dompet|cụm từ khôi phục|助记词|助記詞|钱包|錢包|シードフレーズ|ウォレット"
    r"|니모닉|지갑|복구 문구"
    r"|\b(?:12|15|18|21|24)\s+(?:words|słów|wörter|mots|palabras|palavras|parole|woorden"
    r"|kelime|слов|từ|kata|단어|个单词|語)"
)


@cache
def _bip39() -> tuple[frozenset[str], object]:
    from mnemonic import Mnemonic

    words = Mnemonic("english")
    return frozenset(words.wordlist), words


def _checksum_holds(phrase: list[str]) -> bool:
    _, words = _bip39()
    return bool(words.check(" ".join(phrase)))  # type: ignore[attr-defined]


def find_seed_phrases(text: str, low: str) -> list[Finding]:
    """Every recovery phrase of ``text`` (``low`` is its lower case)."""
    if not _RUN.search(text):
        return []
    wordlist, _ = _bip39()
    found: list[Finding] = []
    for run in _RUN.finditer(text):
        listed: list[re.Match[str]] = []
        for word in _WORD.finditer(text, run.start(), run.end()):
            if word.group(0) in wordlist:
                listed.append(word)
                continue
            found += _phrase(text, low, listed)
            listed = []
        found += _phrase(text, low, listed)
    return found


def _phrase(text: str, low: str, words: list[re.Match[str]]) -> list[Finding]:
    if len(words) < 12:
        return []
    start, end = words[0].start(), words[-1].end()
    if len(words) in _LENGTHS and _checksum_holds([w.group(0) for w in words]):
        return [Finding("seed-phrase", start, end)]
    line = low.rfind("\n", 0, max(0, low.rfind("\n", 0, start))) + 1
    line_end = low.find("\n", end)
    if _SAYS_SO.search(low, line, len(low) if line_end < 0 else line_end):
        return [Finding("seed-phrase", start, end)]
    return []
