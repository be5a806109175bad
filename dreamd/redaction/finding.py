"""What a detector reports: a :class:`Finding` (family, offsets), and how each family is masked.

Offsets are into the text the detector was given, ``start`` inclusive, ``end`` exclusive. Masks
reveal nothing of a secret: a vendor token keeps only its vendor's fixed prefix (``ghp_***``,
``sk-proj-***``, ``AKIA***``), a chat webhook only its scheme and host
(``https://hooks.slack.com/***``), a key block or a credential object becomes ``…redacted…``,
anything else ``***``. Every newline inside a finding is kept after its mask, so a redacted text
has the same lines as the original.
"""

from __future__ import annotations

from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["BLOCK_MASK", "MASK", "VENDOR_PREFIXES", "Finding", "mask_of", "mask_token"]

MASK = "***"
BLOCK_MASK = "…redacted…"

BLOCK_KINDS = frozenset({"private-key", "service-account"})
# The fixed starts of vendor token formats: what a mask may keep (they say which vendor's
# token was there and nothing of the token). Longest first, so ``sk-proj-`` wins over ``sk-``.
VENDOR_PREFIXES: tuple[str, ...] = tuple(
    sorted(
        """sk-ant-api03- sk-ant-admin01- sk-ant- sk-or-v1- sk-proj- sk-svcacct- sk-admin- sk-
        sk_live_ sk_test_ rk_live_ rk_test_ pk_live_ pk_test_ gsk_ xai- pplx- r8_ hf_ fw_
        tvly-dev- tvly- lsv2_pt_ lsv2_sk_ pcsk_ github_pat_ ghp_ gho_ ghu_ ghs_ ghr_ glpat-
        glptt- glsoat- glcbt- gldt- glrt- glimt- glagent- gloas- glft- glffct- glrtr- glwt-
        glsa_ glc_ ATBB npm_ pypi- rubygems_ dckr_pat_ CCIPAT_ CCIPRJ_ bkua_ sqp_ sqa_ squ_
        AKCp xoxa- xoxb- xoxe- xoxo- xoxp- xoxr- xoxs- xapp- SG. key- re_ AKIA ASIA AGPA
        AIDA AROA ANPA ANVA AIPA APKA ABIA ACCA AIza ya29. GOCSPX- dop_v1_ doo_v1_ dor_v1_
        AccountKey= LTAI AKID dapi dt0c01. whsec_ shpat_ shpss_ shpca_ shppa_ sq0atp- sq0csp-
        sq0idp- IGQV shippo_live_ shippo_test_ lin_api_ figd_ ntn_ secret_ PMAK- ATATT dp.pt.
        dp.st. dp.sa. dp.ct. sntrys_ sntryu_ nfp_ vercel_ tfp_ pul- cfat_ pscale_tkn_
        pscale_pw_ pscale_oauth_ phc_ rnd_ HRKU- fm1_ fm2_ hvs. hvb. hvr. ops_ NRAK- NRII-
        sbp_ sb_secret_ tskey-auth- tskey-client- tskey- AGE-SECRET-KEY-1 sk.eyJ CFPAT- pnu_
        napi_ bb_live_ oauth2: rzp_live_ rzp_test_ FLWSECK- FLWSECK_TEST- SCW pat-na1- pat-eu1-
        CLOJARS_""".split(),
        key=len,
        reverse=True,
    )
)


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
    """``ghp_***`` for a token that starts with a vendor's prefix, ``***`` for any other."""
    prefix = next((p for p in VENDOR_PREFIXES if token.startswith(p)), "")
    return prefix + MASK if len(token) > len(prefix) + 8 else MASK


def _webhook_mask(value: str) -> str:
    scheme = value.find("://")
    slash = value.find("/", scheme + 3) if scheme > 0 else -1
    return value[: slash + 1] + MASK if slash > 0 else MASK


def mask_of(kind: str, value: str) -> str:
    """The mask that replaces ``value``, a finding of ``kind`` (its newlines kept)."""
    if kind in BLOCK_KINDS:
        mask = BLOCK_MASK
    elif "\n" in value:
        mask = MASK
    elif kind == "vendor-token":
        mask = mask_token(value)
    elif kind == "webhook":
        mask = _webhook_mask(value)
    else:
        mask = MASK
    return mask + "\n" * value.count("\n")
