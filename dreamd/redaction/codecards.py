"""A bank's codes on paper: a list of transaction numbers, a key card, a security card.

Before apps, banks sent their customers a card or a sheet of numbered codes, and asked for one
of them by its number at each login or payment; many still do, and people copy the sheet into
a note for a parent. The codes are read under the card's name:

* **The card's name**: ``iTAN``, ``TAN-Liste``, ``TAN list``, ``Nøglekort``/``NemID``,
  ``kodekort``, ``kodkort``, ``tunnusluku``/``avainluku`` (Finnish key codes), ``보안카드``,
  ``乱数表``, ``口令卡``, ``code card``, ``security card``, ``grid card``, ``matrix card``,
  ``coordinate card``, ``tarjeta de coordenadas``, ``cartão de coordenadas``, ``karta
  kodów``…
* **Then its codes**, in the same paragraph (no blank line between): an index (``017``,
  ``3462``, ``07번``, ``A-3``) and its code of three to eight digits, parted by a colon, an
  arrow, ``=``, a bar or a gap of two spaces or a tab (``017  107893``, ``3462 → 802560``,
  ``A-3: 6728 / C-7: 2584``). The codes are masked, the indexes stay: an index is printed on
  every card.

A card's name with no codes after it (``TAN-Liste gibt es nicht mehr``) is talk. Pure;
standard library only.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import find_words

__all__ = ["find_code_cards"]

_NAMES = (
    "itan;itan-liste;itan liste;tan-liste;tan liste;tanliste;tan list;tan-list;indizierte tan"
    ";nøglekort;noeglekort;nemid;kodekort;kodkort;kodlista;tunnusluku;tunnusluvut;avainluku"
    ";avainluvut;avainlukulista;tunnuslukulista;tunnuslukukortti;보안카드;乱数表;口令卡;密码卡"
    ";code card;security card;grid card;matrix card;coordinate card;key card;tarjeta de"
    " coordenadas;tarjeta de claves;cartão de coordenadas;cartao de coordenadas;cartão matriz"
    ";karta kodów;karta kodow;kodų kortelė;paroolikaart"
).split(";")
# What every Latin name holds: a quick test before the names are looked for.
_ANCHORS = (
    "itan", "tan-l", "tan l", "tanl", "indizierte tan", "kort", "nemid", "kodlista", "tunnuslu",
    "avainlu", "code card", "security card", "grid card", "matrix card", "coordinate card",
    "key card", "coorden", "matriz", "karta kod", "kodų", "paroolikaart", "보안카드", "乱数表",
    "口令卡", "密码卡",
)  # fmt: skip
_PAIR = LazyPattern(
    r"(?<![\w-])(?:[A-Z]{1,2}[-‐ ]?\d{1,3}|\d{1,4})(?:번|番)?"
    r"(?:[ \t]*(?:[:=→|>]|->|=>|：)[ \t]*|[ \t]{2,}|\t)(?P<code>\d{3,8})(?![\d.,:/-]\d|\d)"
)
_PARAGRAPH_END = "\n\n"
MAX_REACH = 600


def find_code_cards(text: str, low: str) -> list[Finding]:
    """The codes listed under a bank's code card or list (``low``: ``text`` in lower case)."""
    found: list[Finding] = []
    if not any(anchor in low for anchor in _ANCHORS):
        return found
    done = -1
    for name in find_words(low, tuple(_NAMES)):
        start, end = name.span()
        if end <= done or (start and low[start - 1].isalpha() and name.group(0).isascii()):
            continue
        stop = text.find(_PARAGRAPH_END, end)
        stop = min(len(text) if stop < 0 else stop, end + MAX_REACH)
        for pair in _PAIR.finditer(text, end, stop):
            found.append(Finding("secret-assignment", *pair.span("code")))
            done = pair.end()
    return found
