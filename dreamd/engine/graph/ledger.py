"""The graph's machine state, ``memory/.dreams/graph.json``: fragments kept between sweeps.

Rules: for every note the graph read, the ledger keeps its fragment and the digest it was
built from, so a sweep rebuilds only the notes that changed; and for every page dreamd wrote
(patterns, topic files) the digest of what it wrote, so a page whose bytes differ was edited by
a person and is never written again. An unreadable or foreign ledger is an empty one (the
graph is derived: the next sweep rebuilds it). Encoded with msgspec, keys sorted. Pure.
"""

from __future__ import annotations

import msgspec

from dreamd.engine.graph.fragments import Fragment

__all__ = ["LEDGER_VERSION", "GraphLedger", "decode_ledger", "encode_ledger"]

LEDGER_VERSION = 4  # 2: one entity rule; 3: labels; 4: sentence openers. Older ones rebuilt


class GraphLedger(msgspec.Struct, frozen=True):
    """Fragments by path and the digests of the pages dreamd wrote."""

    version: int = LEDGER_VERSION
    fragments: dict[str, Fragment] = msgspec.field(default_factory=dict)
    written: dict[str, str] = msgspec.field(default_factory=dict)


_DECODER = msgspec.json.Decoder(GraphLedger)
_ENCODER = msgspec.json.Encoder(order="sorted")


def decode_ledger(text: str) -> GraphLedger:
    """The ledger in ``text``; an empty one when it is missing, unreadable or another version."""
    if not text.strip():
        return GraphLedger()
    try:
        ledger = _DECODER.decode(text.encode("utf-8"))
    except (msgspec.DecodeError, msgspec.ValidationError):
        return GraphLedger()
    return ledger if ledger.version == LEDGER_VERSION else GraphLedger()


def encode_ledger(ledger: GraphLedger) -> str:
    """``ledger`` as the JSON text of ``graph.json`` (one line, keys sorted)."""
    return _ENCODER.encode(ledger).decode("utf-8") + "\n"
