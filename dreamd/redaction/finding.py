"""What a detector reports: a :class:`Finding` (family, offsets), and how each family is masked.

Offsets are into the text the detector was given, ``start`` inclusive, ``end`` exclusive. Masks:
a token whose shape says what it is (a vendor token, a JWT, a webhook, a high-entropy string)
keeps at most its first 6 and last 4 characters when it is 18 characters or longer; a key block
or a credential object becomes ``…redacted…``; anything else becomes ``***``. Every newline
inside a finding is kept after its mask, so a redacted text has the same lines as the original.
"""

from __future__ import annotations

from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["BLOCK_MASK", "MASK", "Finding", "mask_of", "mask_token"]

MASK = "***"
BLOCK_MASK = "…redacted…"

TOKEN_KINDS = frozenset({"vendor-token", "jwt", "webhook", "high-entropy"})
BLOCK_KINDS = frozenset({"private-key", "service-account"})


class Finding(Value):
    """A secret or a personal datum of family ``kind`` at ``text[start:end]``."""

    __match_args__ = ("kind", "start", "end")
    __slots__ = __match_args__
    kind: Final[str]
    start: Final[int]
    end: Final[int]

    def __init__(self, kind: str, start: int, end: int) -> None:
        self.kind = kind
        self.start = start
        self.end = end

    def as_json(self) -> dict[str, str | int]:
        """``{"kind", "start", "end"}``, the shape ``dreamd redact --json`` prints."""
        return {"kind": self.kind, "start": self.start, "end": self.end}


def mask_token(token: str) -> str:
    """``abcdef…wxyz`` for long tokens, ``***`` for short ones."""
    return f"{token[:6]}…{token[-4:]}" if len(token) >= 18 else MASK


def mask_of(kind: str, value: str) -> str:
    """The mask that replaces ``value``, a finding of ``kind`` (its newlines kept)."""
    if kind in BLOCK_KINDS:
        mask = BLOCK_MASK
    elif kind in TOKEN_KINDS and "\n" not in value:
        mask = mask_token(value)
    else:
        mask = MASK
    return mask + "\n" * value.count("\n")
