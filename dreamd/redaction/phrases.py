"""Passphrases: a password made of words, joined (``amber-lantern-ridge-falcon``) or quoted
with spaces (``"purple monkey dishwasher"``), and the brackets and quotes a value is put in.

A run of words is a passphrase when each word is three letters or more (one may be a number)
and none is a word sentences are built of (``and``, ``you``, ``the``, ``und``, ``et``,
``och``, ``a``…), so ``long-and-easy-to-type`` and ``"whatever you set during setup"`` stay
prose. The caller says how many words it takes: more for words joined by hyphens in running
text, fewer for words a password word announced in quotes. Pure; standard library only.
"""

from __future__ import annotations

__all__ = ["CLOSERS", "enclosed", "is_passphrase"]

# Function words of the languages notes are written in: a phrase holding one is a sentence.
_FUNCTION_WORDS = frozenset(
    "and but nor not the you your yours our ours they them their for with from into onto that"
    " this these those what whatever which who set get was are can will its and any all one"
    " und oder der die das ein eine einer nicht mit für von auf les des une que qui pour avec"
    " dans par pas est los las una por para con del que och eller som att men inte och den det"
    " jest nie lub oraz czy się ale ani jako ten tak ono aby nebo ale jak pro při".split()
)
# Openers and the closers each takes (quotes of many languages, brackets, a Markdown code span).
CLOSERS = {
    '"': '"',
    "'": "'",
    "`": "`",
    "«": "»",
    "»": "«",
    "“": "”",
    "„": "“”",
    "‚": "‘’",
    "‘": "’",
    "‹": "›",
    "(": ")",
    "[": "]",
    "「": "」",
    "『": "』",
    "【": "】",
}


def is_passphrase(value: str, *, minimum: int) -> bool:
    """``value`` is ``minimum`` to eight words of three letters or more, joined by one kind of
    separator (a space, ``-``, ``_`` or ``.``), none of them a function word; one of them may
    be a number of two digits or more (``lantern copper meadow 42``)."""
    separators = {c for c in value if not c.isalnum()}
    if len(separators) != 1 or not separators <= set(" -_."):
        return False
    words = value.split(separators.pop())
    numbers = [word for word in words if word.isdigit() and len(word) >= 2]
    return (
        minimum <= len(words) <= 8
        and len(numbers) <= 1
        and len(words) - len(numbers) >= 2
        and all(
            word in numbers
            or (word.isalpha() and len(word) >= 3 and word.lower() not in _FUNCTION_WORDS)
            for word in words
        )
    )


def enclosed(text: str, pos: int, *, limit: int = 66) -> tuple[int, int] | None:
    """The inside of the quotes or brackets opening at ``pos`` (two levels: ``(«…»)``), when
    they close on the same line within ``limit`` characters; None when nothing opens there."""
    start, end = pos, -1
    stop = min(len(text), pos + limit)
    for _ in range(2):
        closers = CLOSERS.get(text[start : start + 1])
        if closers is None:
            break
        found = [i for c in closers if (i := text.find(c, start + 1, stop)) >= 0]
        close = min(found, default=-1)
        if close < 0 or "\n" in text[start:close]:
            break
        start, stop, end = start + 1, close, close
        while start < end and text[start] == " ":
            start += 1  # « … », French spacing
        while end > start and text[end - 1] == " ":
            end -= 1
    return (start, end) if end > start else None
