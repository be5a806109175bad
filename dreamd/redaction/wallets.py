"""Wallet recovery phrases: runs of list words, found by the word lists, and runs of words a
line names as one.

A recovery phrase is 12, 15, 18, 21 or 24 words of a BIP39 list (``mnemonic``, the reference
implementation's package, holds the lists of English, Spanish, French, Italian, Portuguese,
Czech and Turkish, and the checksum). A run of that length whose checksum holds is a phrase
wherever it stands; a run of 12 or more list words that fails the checksum (a phrase copied
with a typo) is one only when its line, or one of the four lines before it, says so
(``seed``, ``mnemonic``, ``recovery``, ``wallet``, ``paper key``, a wallet's maker such as
``Ledger`` or ``Trezor``, in the languages notes are written in: ``frase semilla``,
``Wiederherstellungsphrase``, ``fraza odzyskiwania``, ``助记词``…, or counts its words: ``12
słów``, ``24 Wörter``, ``twelve words``). Where a line says so, 12 or more short lower-case
words that are on no list (Monero's 25 words, a Keybase paper key, a list in another
language) are a phrase too, when the line says these are its words (``seed``, ``paper key``,
``recovery phrase``, ``Ledger words``, ``twelve words``: a shopping list under ``wallet:`` is
none), no comma parts them, and none of them is a word sentences are built of (``the``,
``and``, ``for``, ``de``, ``und``…: prose almost never strings twelve words together without
one). The words may be numbered (``1. abandon``, ``2) ability``) or stand in a table's cells
(``| 3 | dolphin |``). One word repeated through most of a phrase (``abandon abandon …
about``) is the published test vector, not a wallet's.

May import: the standard library, :mod:`dreamd.redaction.finding` and, lazily on the first text
with a long enough run of short lower-case words, ``mnemonic``.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache

from dreamd.redaction.finding import Finding

__all__ = ["find_seed_phrases"]

_LENGTHS = frozenset({12, 15, 18, 21, 24})
_LETTERS = "a-zß-öø-ÿā-ž"


def _run(letters: str, number: str) -> re.Pattern[str]:
    """A run of short lower-case words of ``letters``, each perhaps numbered, as long as it
    goes: each word is taken once and for all (a possessive repeat, so a note's prose is read
    in one pass; the runs too short to be a phrase are left by the caller)."""
    word = rf"{number}[{letters}]{{3,8}}(?![{letters}])"
    return re.compile(rf"(?<![{letters}A-Za-z])(?:{word}(?:(?:[ \t,]+|\s*\n\s*)(?={word}))?)++")


# Numbered "1. abandon", "2) ability"; in a table, "3 | dolphin", its pipes read as spaces.
# Each text is read by the narrowest pattern it needs (the wider ones are slower): ASCII
# letters or all, numbers with a mark or (a table's) without.
_NUMBERED = r"(?:\d{1,2}[.):]\s*)?"
_IN_CELLS = r"(?:\d{1,2}(?:[.):][ \t]*|[ \t]+))?"
_RUNS = {
    (True, False): _run("a-z", _NUMBERED),
    (False, False): _run(_LETTERS, _NUMBERED),
    (True, True): _run("a-z", _IN_CELLS),
    (False, True): _run(_LETTERS, _IN_CELLS),
}
_WORD = re.compile(rf"[{_LETTERS}]{{3,8}}")
_SAYS_SO = re.compile(
    r"seed|mnemonic|recovery|wallet|backup phrase|secret phrase|passphrase|bip ?39|paper key"
    r"|ledger|trezor|metamask|electrum|monero"
    r"|semilla|frase de recuperaci|cartera|billetera|phrase de récupération|portefeuille"
    r"|wiederherstellungsphrase|wallet-phrase|frase di recupero|portafoglio|herstelzin"
    r"|fraza|odzyskiwani|portfel|kurtarma|cüzdan|сид|мнемони|кошел|гаманц|frasa pemulihan"
    r"|dompet|cụm từ khôi phục|助记词|助記詞|钱包|錢包|シードフレーズ|ウォレット"
    r"|니모닉|지갑|복구 문구"
    r"|\b(?:12|15|18|21|24|twelve|fifteen|eighteen|twenty-one|twenty-four)\s+(?:words|słów"
    r"|wörter|mots|palabras|palavras|parole|woorden|kelime|слов|từ|kata|단어|个单词|語)"
)
# What a line says of words on no list for them to be a phrase: more than that it is a wallet
# or a recovery (a shopping list under "wallet:" is none), that these are its words.
_NAMES_PHRASE = re.compile(
    r"seed|mnemonic|recovery (?:phrase|words)|backup phrase|secret phrase|paper key"
    r"|phrase de récupération|frase de recuperaci|wiederherstellungsphrase|frase di recupero"
    r"|herstelzin|fraza odzyskiwania|(?:ledger|trezor|metamask|electrum|monero)\b[^\n]*\bwords"
    r"|\b(?:12|13|15|18|21|24|25|twelve|thirteen|fifteen|eighteen|twenty-one|twenty-four"
    r"|twenty-five)\s+(?:words|słów|wörter|mots|palabras|palavras|parole|woorden|слов)"
)
_LANGUAGES = ("english", "spanish", "french", "italian", "portuguese", "czech", "turkish")
# Words sentences are built of, in the languages notes are written in: a run holding one is
# prose, not a list of words.
_FUNCTION_WORDS = frozenset(
    "the and for with are was were this that these those you your our their his her its has"
    " have had not but all any can will from into out about then than them they she him who"
    " what when where which while just also very some such only own same too now here there"
    " los las del con por para una uno que como pero más sus les des une est pas dans sur"
    " avec pour qui que mais ses aux der die das und mit für ein eine ist nicht auf den dem"
    " von zum zur sich auch che per non gli della sono com uma não mas dos das"
    " het een van zijn niet voor ook".split()
)


@cache
def _wordlists() -> dict[str, tuple[str, ...]]:
    """Each list word (as typed: composed) and the languages whose list holds it."""
    from mnemonic import Mnemonic

    languages: dict[str, list[str]] = {}
    for language in _LANGUAGES:
        for word in Mnemonic(language).wordlist:
            languages.setdefault(unicodedata.normalize("NFC", word), []).append(language)
    return {word: tuple(names) for word, names in languages.items()}


def _checksum_holds(phrase: list[str], languages: tuple[str, ...]) -> bool:
    from mnemonic import Mnemonic

    for language in languages:
        words = Mnemonic(language)
        normalised = [unicodedata.normalize("NFKD", w) for w in phrase]
        if all(w in words.wordlist for w in normalised) and words.check(" ".join(normalised)):
            return True
    return False


def find_seed_phrases(text: str, low: str) -> list[Finding]:
    """Every recovery phrase of ``text`` (``low`` is its lower case)."""
    run_pattern = _RUNS[text.isascii(), "|" in text]
    if "|" in text:
        text = text.replace("|", " ")  # a table's cells: the words stand between its pipes
    runs = [run for run in run_pattern.finditer(text) if run.end() - run.start() >= 47]
    found: list[Finding] = []
    for run in runs:
        words = list(_WORD.finditer(text, run.start(), run.end()))
        if len(words) < 12:
            continue
        wordlist = _wordlists()
        listed: list[re.Match[str]] = []
        for word in words:
            if word.group(0) in wordlist:
                listed.append(word)
                continue
            found += _phrase(text, low, listed)
            listed = []
        found += _phrase(text, low, listed)
        if not found or found[-1].end <= run.start():
            found += _named_run(text, low, words)
    return found


def _says_so(low: str, start: int, end: int, says: re.Pattern[str] = _SAYS_SO) -> bool:
    """The line of a run, or one of the four lines before it, says it is a phrase."""
    line = start
    for _ in range(5):
        line = low.rfind("\n", 0, max(0, line - 1)) + 1
    line_end = low.find("\n", end)
    return says.search(low, line, len(low) if line_end < 0 else line_end) is not None


def _test_vector(words: list[re.Match[str]]) -> bool:
    """One word through most of the phrase: ``abandon abandon … about`` is published."""
    _, most = Counter(w.group(0) for w in words).most_common(1)[0]
    return most * 2 > len(words)


def _phrase(text: str, low: str, words: list[re.Match[str]]) -> list[Finding]:
    if len(words) < 12 or _test_vector(words):
        return []
    start, end = words[0].start(), words[-1].end()
    if len(words) in _LENGTHS:
        phrase = [w.group(0) for w in words]
        languages = tuple(dict.fromkeys(n for w in phrase for n in _wordlists().get(w, ())))
        if _checksum_holds(phrase, languages):
            return [Finding("seed-phrase", start, end)]
    if _says_so(low, start, end):
        return [Finding("seed-phrase", start, end)]
    return []


def _named_run(text: str, low: str, words: list[re.Match[str]]) -> list[Finding]:
    """Twelve or more words on no list, none a word sentences are built of, where a line says
    they are a phrase (Monero's, a paper key's, another language's)."""
    found = []
    segment: list[re.Match[str]] = []
    for word in [*words, None]:
        if word is not None and word.group(0) not in _FUNCTION_WORDS:
            segment.append(word)
            continue
        if len(segment) >= 12 and not _test_vector(segment):
            start, end = segment[0].start(), segment[-1].end()
            if "," not in text[start:end] and _says_so(low, start, end, _NAMES_PHRASE):
                found.append(Finding("seed-phrase", start, end))
        segment = []
    return found
