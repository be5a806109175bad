"""Retain facts as recall sees them: the parser lives in :mod:`dreamd.engine.bank.retain`.

Recall labels a chunk under a ``## Retain`` heading with its fact's kind and confidence
(:mod:`dreamd.recall.labels`) and reads ``@Name`` mentions out of queries
(:mod:`dreamd.recall.query`); both use the engine's one parser, re-exported here.
"""

from __future__ import annotations

from dreamd.engine.bank.retain import (
    KINDS,
    MAX_ENTITIES,
    RetainFact,
    is_retain_heading,
    mentions,
    parse_fact,
    parse_retain,
)

__all__ = [
    "KINDS",
    "MAX_ENTITIES",
    "RetainFact",
    "is_retain_heading",
    "mentions",
    "parse_fact",
    "parse_retain",
]
