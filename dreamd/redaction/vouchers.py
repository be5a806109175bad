"""Gift cards and vouchers: a code that is money to whoever types it first.

* **After a gift card's or a voucher's name** (``gift card``, ``claim code``, ``redeem code``,
  ``Google Play code``, ``iTunes code``, ``Steam wallet code``, ``paysafecard``,
  ``Gutscheincode``, ``Geschenkkarte``, ``carte cadeau``, ``tarjeta regalo``, ``cartão
  presente``, ``buono regalo``, ``cadeaukaart``, ``presentkort``, ``lahjakortti``,
  ``ギフトカード``, ``礼品卡``, ``상품권``…), then at most eight words of the same sentence
  (whose, from where, ``(scratched):``), a code: ten to twenty-five capitals and digits, two
  of each at least, perhaps in groups parted by hyphens or spaces (``H99A-V4OJNN-OCI0Z``), or
  sixteen digits or more (a paysafecard PIN in groups of four).
* **A store card's code**: on a line that names a card, a gift card or a voucher, the digits
  after ``security code``, ``PIN`` or ``scratch code`` (four to ten: a store card's are longer
  than a payment card's three or four).

A promotion's or a discount's code (``promo code``, ``coupon``) is printed for everyone, and
is no voucher's. Pure; standard library only.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import find_words

__all__ = ["find_voucher_codes"]

_NAMES = (
    "gift card;giftcard;gift code;gift voucher;claim code;redeem code;redemption code"
    ";voucher code;e-voucher;google play code;google play gift code;play store code;itunes code"
    ";app store code;apple gift card;steam wallet code;steam code;xbox code;psn code"
    ";playstation code;eshop code;paysafecard;paysafecard pin;gutschein;gutscheincode"
    ";geschenkkarte;geschenkgutschein;carte cadeau;carte-cadeau;code cadeau;tarjeta regalo"
    ";tarjeta de regalo;código de regalo;cartão presente;cartão-presente;vale-presente"
    ";buono regalo;carta regalo;cadeaukaart;cadeaubon;presentkort;lahjakortti;ギフトカード"
    ";ギフトコード;礼品卡;礼品码;기프트카드;기프트 카드;상품권"
).split(";")
# What every Latin name holds: a quick test before the names are looked for.
_ANCHORS = (
    "gift", "claim", "redeem", "redemption", "voucher", "play", "itunes", "app store", "steam",
    "xbox", "psn", "playstation", "eshop", "paysafe", "gutschein", "geschenk", "cadeau",
    "regalo", "presente", "presentkort", "lahja", "cadeaubon", "ギフト", "礼品", "기프트", "상품권",
)  # fmt: skip
_WORD = LazyPattern(r"\S+")
_CODE = LazyPattern(r"[A-Z0-9]{3,}(?:[- ][A-Z0-9]{3,}){0,5}")
_END = frozenset(".!?;\n")
MAX_WORDS = 8
# A store card's own code, on a line that names a card or a voucher.
_CARD_LINE = LazyPattern(r"(?i:\bcard\b|gift|voucher|gutschein|cadeau|regalo|presente)")
_CARD_CODE = LazyPattern(
    r"(?i:security[ \t]+code|scratch[ \t]+code|card[ \t]+pin|\bpin)[ \t]*[:#]?[ \t]*"
    r"(?P<code>\d{4,10})(?![\d.,/])"
)


def _is_code(value: str) -> bool:
    """Ten to twenty-five capitals and digits, two of each, or sixteen digits or more."""
    compact = value.replace("-", "").replace(" ", "")
    digits = sum(c.isdigit() for c in compact)
    if compact.isdigit():
        return 16 <= len(compact) <= 25
    return 10 <= len(compact) <= 25 and digits >= 2 and len(compact) - digits >= 2


def _code_after(text: str, pos: int) -> tuple[int, int] | None:
    for count, word in enumerate(_WORD.finditer(text, pos, min(len(text), pos + 160))):
        if count > MAX_WORDS or any(c in _END for c in text[pos : word.start()]):
            return None
        raw = word.group(0)
        if any(c.isdigit() for c in raw):
            at = word.start() + len(raw) - len(raw.lstrip("([\"'«"))
            code = _CODE.match(text, at)
            if code is None:
                return None
            value = code.group(0).rstrip(" -")
            return (at, at + len(value)) if _is_code(value) else None
        pos = word.end()
    return None


def find_voucher_codes(text: str, low: str) -> list[Finding]:
    """Gift card and voucher codes after their names, and store cards' codes (``low``:
    ``text`` in lower case)."""
    found: list[Finding] = []
    named = any(anchor in low for anchor in _ANCHORS)
    for name in find_words(low, tuple(_NAMES), r"(?![\w-])") if named else ():
        if name.start() and low[name.start() - 1].isalnum() and name.group(0).isascii():
            continue
        span = _code_after(text, name.end())
        if span is not None:
            found.append(Finding("secret-assignment", *span))
    coded = "code" in low or "pin" in low
    if coded and ("card" in low or "gift" in low or "voucher" in low or not low.isascii()):
        for code in _CARD_CODE.finditer(text):
            line = text.rfind("\n", 0, code.start()) + 1
            if _CARD_LINE.search(text, line, code.start()):
                found.append(Finding("secret-assignment", *code.span("code")))
    return found
