"""When two texts state the same claim: the near-duplicate rule of promotion.

A claim is compared as its *tokens*: NFKC, case-folded words of any script (accents kept), each
CJK character (kana, ideograph, Hangul) a token of its own, so Chinese, Japanese and Korean
compare like spaced languages. Two texts state the same claim when

* their token sequences are equal (the same text, whatever its punctuation, case or list
  marker), or
* the token-set similarity (``rapidfuzz.fuzz.token_set_ratio``: an edit distance over the
  sorted tokens, so a typo or an inflection still counts as close) is at least
  :data:`SAME_CLAIM_RATIO`, the two differ by at most :data:`MAX_EXTRA_TOKENS` distinct tokens
  (or a fifth of the longer one's, when that is more: a short fact is not the same claim as a
  sentence that adds to it), **and** both carry the same *anchors*: the tokens with
  a digit in them (``16``, ``02``, ``s3``) and each negation (``not``, ``never``, ``nicht``,
  ``不``...) with the word it negates. ``backup-02`` is not ``backup-03``, "never on Fridays"
  is not "on Fridays", and "tea, never coffee" is not "coffee, never tea".

The rule errs on the side of keeping: a missed duplicate costs a line, a false one loses a fact.
:class:`ClaimIndex` holds the claims seen so far and answers with the first one a new text
repeats. ``rapidfuzz`` is imported when the first comparison is made. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from dreamd.engine.text.tokens import is_cjk
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["MAX_EXTRA_TOKENS", "SAME_CLAIM_RATIO", "ClaimIndex", "claim_tokens", "same_claim"]

SAME_CLAIM_RATIO = 90.0
MAX_EXTRA_TOKENS = 2
_NEGATIONS = frozenset(
    "not no never none nothing nobody cannot can't don't doesn't didn't won't isn't aren't"
    " wasn't weren't shouldn't mustn't without nunca nada ningún ninguna jamás jamais pas"
    " aucun aucune sans nicht kein keine keinen nie niemals ohne 不 没 無 无 非 别 莫 않 안 못"
    " 없".split()
)


@lru_cache(maxsize=8192)
def claim_tokens(text: str) -> tuple[str, ...]:
    """The tokens a claim is compared by (see the module rules)."""
    normal = unicodedata.normalize("NFKC", text).casefold()
    normal = normal.replace("’", "'").replace("n't", " n't")
    tokens: list[str] = []
    for match in re.finditer(r"[^\W_]+(?:'[^\W_]+)?|n't", normal):
        word = match.group(0)
        if word == "n't":
            tokens.append("not")
            continue
        run: list[str] = []
        for char in word:
            if is_cjk(char):
                if run:
                    tokens.append("".join(run))
                    run = []
                tokens.append(char)
            else:
                run.append(char)
        if run:
            tokens.append("".join(run))
    return tuple(tokens)


def _anchors(tokens: Sequence[str]) -> frozenset[str]:
    found = {t for t in tokens if any(c.isdigit() for c in t)}
    for index, token in enumerate(tokens):
        if token in _NEGATIONS:
            found.add(f"{token} {tokens[index + 1]}" if index + 1 < len(tokens) else token)
    return frozenset(found)


class _Claim(Value):
    __match_args__ = ("ref", "tokens", "joined", "distinct", "anchors")
    __slots__ = __match_args__
    ref: Final[str]
    tokens: Final[tuple[str, ...]]
    joined: Final[str]
    distinct: Final[frozenset[str]]
    anchors: Final[frozenset[str]]

    def __init__(
        self,
        ref: str,
        tokens: tuple[str, ...],
        joined: str,
        distinct: frozenset[str],
        anchors: frozenset[str],
    ) -> None:
        self.ref, self.tokens, self.joined = ref, tokens, joined
        self.distinct, self.anchors = distinct, anchors


def _claim(ref: str, text: str) -> _Claim:
    tokens = claim_tokens(text)
    return _Claim(ref, tokens, " ".join(tokens), frozenset(tokens), _anchors(tokens))


def _same(left: _Claim, right: _Claim) -> bool:
    if not left.tokens or not right.tokens:
        return False
    if left.tokens == right.tokens:
        return True
    if left.anchors != right.anchors:
        return False
    longer = max(len(left.distinct), len(right.distinct))
    if len(left.distinct ^ right.distinct) > max(MAX_EXTRA_TOKENS, 0.2 * longer):
        return False
    from rapidfuzz import fuzz

    score = fuzz.token_set_ratio(left.joined, right.joined, score_cutoff=SAME_CLAIM_RATIO)
    return score >= SAME_CLAIM_RATIO


def same_claim(left: str, right: str) -> bool:
    """True when ``left`` and ``right`` state the same claim (see the module rules)."""
    return _same(_claim("", left), _claim("", right))


class ClaimIndex:
    """Claims seen so far, each under a reference; answers which one a text repeats."""

    __slots__ = ("claims",)

    def __init__(self) -> None:
        self.claims: list[_Claim] = []

    def add(self, ref: str, text: str) -> None:
        """Remember ``text`` under ``ref``."""
        claim = _claim(ref, text)
        if claim.tokens:
            self.claims.append(claim)

    def match(self, text: str, *, skip: str | None = None) -> str | None:
        """The reference of the first claim ``text`` repeats (``skip``: a ref to ignore)."""
        probe = _claim("", text)
        for claim in self.claims:
            if claim.ref != skip and _same(probe, claim):
                return claim.ref
        return None
