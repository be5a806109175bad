"""Text analysis: how recall turns text into searchable terms, the same way for notes and queries.

Rules:

- Words are runs of letters and digits (``[^\\W_]+``) after lowercasing and stripping Latin
  diacritics, as the index's ``unicode61 remove_diacritics 2`` tokenizer splits them; each word
  is then stemmed like FTS5's ``porter`` wrapper does (:mod:`dreamd.engine.text.stemming`), so a
  term here is a term in the index.
- CJK text has no spaces: a run of kana, ideographs or Hangul is one token to unicode61, so the
  index also stores every CJK character and every pair of adjacent ones (:func:`cjk_grams`), and
  a query's CJK run is searched as its pairs (a single character as itself).
- Stop words (function words of English, Spanish, French, German; CJK particles) and one-letter
  ASCII words are not query terms. Words that are also common English content words (``son``,
  ``war``, ``fur``...) are deliberately left out of the foreign lists.

Pure.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from dreamd.engine.text.stemming import stem
from dreamd.patterns import LazyPattern

__all__ = ["STOP_WORDS", "cjk_grams", "fold", "query_grams", "stems", "words"]

_ENGLISH = """
    a about above after again all also am an and any are as at be been before being below both
    but by can could did do does doing down during each else few for from further had has have
    having he her here hers him his how if in into is it its itself just me more most my no nor
    not now of off on once only or other our ours out over own same she should so some such than
    that the their theirs them then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    didn doesn isn wasn aren couldn shouldn wouldn hasn haven
"""
_SPANISH = """
    el la lo los las un una uno unos unas del al de en y o que por para con sobre entre pero
    como muy ese esa eso esos esas este esta esto estos estas su sus mis tus nos ellos ellas
    usted ustedes donde cuando porque tambien fue fueron ser es son_ esta estan hay habia yo
"""
_FRENCH = """
    le les des une et du au aux est sont pas pour_ par avec sans dans sur sous mais comme ces
    cet cette ses leur leurs nous vous ils elles qui quoi dont ou aussi ete etre avoir je tu il
    elle ne se sa mon ma mes ton ta tes
"""
_GERMAN = """
    der das den dem des ein eine einer eines einem einen und oder aber nicht mit von auf aus bei
    nach zum zur ist sind waren wird werden wurde wurden haben hatte sich auch noch schon sehr
    wie wer wo wann warum dass kein keine mehr nur alle alles diese dieser dieses jetzt hier dort
"""
_CJK_PARTICLES = """
    の は が を に へ と で や も か な ね よ から まで より です ます 的 了 是 在 和 与 或 也
    都 就 而 及 这 那 个 们 吗 呢 吧 은 는 이 가 을 를 에 의 와 과 도 로 으로 에서
"""
# A trailing "_" marks a word kept out on purpose (a common English content word).
STOP_WORDS: frozenset[str] = frozenset(
    word
    for block in (_ENGLISH, _SPANISH, _FRENCH, _GERMAN, _CJK_PARTICLES)
    for word in block.split()
    if not word.endswith("_")
)

_WORD = LazyPattern(r"[^\W_]+")
# Hiragana and katakana, CJK extension A, CJK unified ideographs, Hangul syllables and jamo.
_CJK_CLASS = "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u1100-\u11ff]"
# CJK runs; compiled when non-ASCII text first needs it (a wide class is slow to compile).
_CJK = LazyPattern(_CJK_CLASS + "+")


def _is_latin(char: str) -> bool:
    """Latin letters: the only ones whose accents ``remove_diacritics`` strips."""
    code = ord(char)
    return code < 0x250 or 0x1E00 <= code <= 0x1EFF


def fold(text: str) -> str:
    """Lowercase and strip the accents of Latin letters, as ``remove_diacritics 2`` does.

    Marks on other scripts stay: ``で`` is not ``て``.
    """
    lowered = text.lower()
    if lowered.isascii():
        return lowered
    kept: list[str] = []
    for char in unicodedata.normalize("NFD", lowered):
        if kept and unicodedata.combining(char) and _is_latin(kept[-1]):
            continue
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept))


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order (a CJK run is one word, as in the index)."""
    return _WORD.findall(fold(text))


def stems(text: str) -> list[str]:
    """The stemmed words of ``text``, in order: what the index stores for it."""
    return [stem(word) for word in _WORD.findall(fold(text))]


@lru_cache(maxsize=4096)
def cjk_grams(text: str) -> str:
    """Every CJK character of ``text`` and every adjacent pair, space-separated ("" without CJK)."""
    if text.isascii() or _CJK.search(text) is None:
        return ""
    grams: list[str] = []
    for run in _CJK.findall(text):
        grams.extend(run)
        grams.extend(run[i : i + 2] for i in range(len(run) - 1))
    return " ".join(grams)


def query_grams(word: str) -> list[tuple[str, str]]:
    """The terms one query word searches for, as (word for FTS5, stem in the index) pairs.

    A CJK run gives its character pairs (a lone character itself), leaving out pairs with a
    one-character particle; any other word gives its stem.
    Stop words and one-letter ASCII words give nothing.
    """
    runs = [] if word.isascii() else _CJK.findall(word)
    if not runs:
        if word in STOP_WORDS or (len(word) == 1 and word.isascii()):
            return []
        return [(word, stem(word))]
    grams: list[tuple[str, str]] = []
    for run in runs:
        if len(run) == 1:
            if run not in STOP_WORDS:
                grams.append((run, run))
            continue
        for pair in (run[i : i + 2] for i in range(len(run) - 1)):
            if pair[0] not in STOP_WORDS and pair[1] not in STOP_WORDS:  # skip particles
                grams.append((pair, pair))
    for part in _CJK.sub(" ", word).split():
        if part not in STOP_WORDS and len(part) > 1:
            grams.append((part, stem(part)))
    return grams
