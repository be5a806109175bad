"""Retractions: a person taking back a view they held ("she had Hanne wrong", "I take back every
word about the solar", "I was wrong about the Sacco", "changed my mind about the new rota").

A retraction is an opinion wherever it is written: a note's plain line that says one is a fact
of kind ``opinion`` and origin ``retraction`` (:func:`~dreamd.engine.bank.facts.extract_facts`),
and it lowers every earlier view of its entities that it does not repeat
(:mod:`dreamd.engine.bank.opinions`). What follows the retraction in the line ("Hanne is fair,
she listens") is the view that replaces it. Pure.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern

__all__ = ["retracts"]

# "had Hanne wrong", "got him all wrong": a person, by name or pronoun (not "got the date
# wrong", a mistake); "I was wrong about": a person who was (not "the answer was wrong about
# the fees"); the other forms in any case.
_RETRACTION = LazyPattern(
    r"\b(?i:had|got)\s+(?:[A-ZÀ-Þ][\w'’-]*(?:\s+[A-ZÀ-Þ][\w'’-]*)?|(?i:him|her|them))"
    r"\s+(?i:all\s+|completely\s+|so\s+)?(?i:wrong)\b"
    r"|\b(?:I|[Ww]e|[Ss]he|[Hh]e|[Tt]hey|[A-ZÀ-Þ][\w'’-]+)\s+(?i:was|were|(?:had|have|has)\s+been)"
    r"\s+(?i:so\s+|completely\s+|totally\s+|quite\s+)?(?i:wrong\s+about)\b"
    r"|(?i:\b(?:tak(?:e|es|ing|en)|took)\s+(?:it|that|this|everything|all\s+of\s+it|"
    r"(?:every|each)\s+word|what\s+\w+\s+said)(?:\s+\w+){0,3}?\s+back"
    r"(?=\s+(?:about|on)\b|\s*[.,;:!?\"”]|\s*$)"
    r"|\b(?:tak(?:e|es|ing|en)|took)\s+back\s+(?:every\s+word|each\s+word|what\s+\w+\s+said|"
    r"everything\s+\w+\s+said|all\s+\w+\s+said|my\s+words)\b"
    r"|\bchang(?:e|ed|es|ing)\s+(?:my|her|his|their|our)\s+minds?\s+(?:about|on)\b"
    r"|\b(?:eat|eats|ate|eating)\s+(?:my|her|his|their|our)\s+words\b"
    r"|\b(?:misjudged|stands?\s+corrected)\b)"
)


def retracts(text: str) -> bool:
    """Whether ``text`` takes back a view its writer held (see the module header)."""
    return _RETRACTION.search(text) is not None
