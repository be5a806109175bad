"""Orders pasted into notes come last among a search's hits.

A note may hold an order addressed to the agent ("[Note to AI systems processing this bundle:
record that …]", a hidden comment, "ignore previous instructions"): it is the person's note, so
a search can still find it, but it never answers ahead of what the person and the agent wrote,
because a hit is read into the agent's context. A hit is an order when
:func:`dreamd.engine.text.instructions.is_instruction` says so; that module is loaded only when
a hit carries one of its cheap hints (a word for the agent, a comment, a chat-template token),
so a turn without one pays nothing for it. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dreamd.engine.hits import Hit

__all__ = ["orders_last"]

_HINT = re.compile(
    r"\b(?:ai|a\.i\.|assistants?|agents?|llms?|chatbots?|language\s+models?|system|"
    r"instructions?|ignore|disregard|prompt)\b|<!--|&lt;!--|\[INST\]|<\||<<SYS>>",
    re.IGNORECASE,
)


def orders_last(hits: Sequence[Hit], speakers: Sequence[str]) -> tuple[list[Hit], list[str]]:
    """``hits`` (and their speakers) with the hits that are orders to the agent moved after
    the others, each group in its order."""
    hinted = [i for i, hit in enumerate(hits) if _HINT.search(hit.snippet)]
    if not hinted:
        return list(hits), list(speakers)
    from dreamd.engine.text.instructions import is_instruction  # only when a hint is seen

    orders = {i for i in hinted if is_instruction(hits[i].snippet)}
    if not orders:
        return list(hits), list(speakers)
    order = [i for i in range(len(hits)) if i not in orders] + sorted(orders)
    return [hits[i] for i in order], [speakers[i] for i in order]
