"""The four kinds of fact, and the kind of an untyped statement (cheap: recall uses it too).

``world`` (objective facts), ``experience`` (what the agent did, first person), ``opinion``
(preferences and judgments, with a confidence) and ``observation`` (summaries). A statement no
Retain bullet typed is an ``opinion`` when a preference cue matched it, an ``experience`` when
told in the first person (``I``, ``we``, ``my``, ``our``...), else ``world``. Pure.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern

__all__ = ["FACT_KINDS", "infer_kind"]

FACT_KINDS = ("world", "experience", "opinion", "observation")
_FIRST_PERSON = LazyPattern(r"(?:^|[^\w'])(?:I|I'm|I've|I'd|We|we|we've|my|My|our|Our)(?![\w'])")


def infer_kind(text: str, categories: tuple[str, ...] = ()) -> str:
    """``opinion``, ``experience`` or ``world`` for an untyped statement."""
    if "preference" in categories:
        return "opinion"
    return "experience" if _FIRST_PERSON.search(text) else "world"
