"""Which search hits may become recall traces: one test, for recording and for folding.

A hit is skipped, and never enters the recall store, reports, ``MEMORY.md`` or a model prompt,
when its path is not short-term memory (``non-short-term-memory-path``: ``MEMORY.md`` hits
among them), when its snippet is contaminated (``contaminated``), or when it holds a secret,
personal data or a mask where one was (``sensitive``). With ``redacted`` (the hit was cut from
an index redacted under the rules in force) only the mask check runs: the secret check would
find nothing new. Light on imports: a search records its hits in a fresh process on every turn.
"""

from __future__ import annotations

from datetime import datetime

from dreamd.engine.hits import Hit
from dreamd.engine.text.contamination import is_contaminated
from dreamd.engine.text.snippets import cap
from dreamd.layout import is_short_term_path, normalize_relpath
from dreamd.redaction import holds_mask, holds_secret
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["PendingSearch", "skip_reason"]


class PendingSearch(Value):
    """A search recorded ahead of the store (:mod:`dreamd.store.pending`), to be replayed."""

    __match_args__ = (
        "id",
        "now",
        "day",
        "query_digest",
        "origin",
        "session_kind",
        "redacted",
        "hits",
    )
    __slots__ = __match_args__
    id: Final[str]
    now: Final[datetime]
    day: Final[str]
    query_digest: Final[str]
    origin: Final[str]
    session_kind: Final[str]
    redacted: Final[bool]
    hits: Final[tuple[Hit, ...]]

    def __init__(
        self,
        id: str,
        now: datetime,
        day: str,
        query_digest: str,
        origin: str,
        session_kind: str,
        redacted: bool,
        hits: tuple[Hit, ...],
    ) -> None:
        self.id = id
        self.now = now
        self.day = day
        self.query_digest = query_digest
        self.origin = origin
        self.session_kind = session_kind
        self.redacted = redacted
        self.hits = hits


def skip_reason(path: str, snippet: str, *, redacted: bool) -> str | None:
    """Why a hit of ``path`` showing ``snippet`` is not recorded, or ``None`` when it is."""
    if not is_short_term_path(normalize_relpath(path)):
        return "non-short-term-memory-path"
    text = cap(snippet)
    if is_contaminated(text):
        return "contaminated"
    if holds_mask(text) or (not redacted and holds_secret(text)):
        return "sensitive"
    return None
