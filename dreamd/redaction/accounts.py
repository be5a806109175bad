"""Bank account numbers after the words that name them, in the forms countries write them.

* **After its word.** ``account no.``, ``acc``, ``A/c no.``, ``DDA``, ``Kontonummer``,
  ``Postkonto``, ``numéro de compte``, ``compte postal``, ``número de cuenta``, ``cuenta
  corriente``, ``conta corrente``, ``CLABE``, ``NUBAN``, ``numer konta``, ``nomor
  rekening``, ``hesap numarası``, ``số tài khoản``, ``číslo účtu``, ``účet``,
  ``számlaszám``, ``tilinumero``, ``р/с``, ``расчётный счёт``, ``номер рахунку``, ``رقم
  الحساب``, ``מספר חשבון``, ``खाता संख्या``, ``口座番号``, ``계좌``, ``akaunti``, ``no. akaun``,
  ``হিসাব নম্বর``, ``เลขที่บัญชี`` (a bank's name written on to it), ``ሂሳብ ቁጥር``,
  ``គណនី``, ``ખાતા નંબર``…; whose or at which bank (``akaunti ya Equity``, ``Kontonummeret
  mitt er``); perhaps a label (``numer konta do przelewu:``, ending in a colon of any script:
  ``፦``, ``៖``) that is not a balance's, a date's or a holder's, a bank's name (``계좌:
  국민은행 …``), a purpose (``номер счёта для перевода``, ``numer konta do przelewu``), a
  bank's initials (``no rek BCA``) or ``N°``; then six digits or more, in groups joined by
  spaces, dashes or dots (``1503.66.40933``, ``00-141-87255-10``, and three groups of three
  as Cambodian banks print them: ``001 234 567``), perhaps with a bank's code after a slash
  (``2008917189/2010``). Not a date, not a thousands-grouped amount (``1 250 000``), not a
  cloud provider's account (``AWS account 1234…``: its id is in every resource name).
* **A PIX key.** After ``chave PIX`` or ``chave aleatória``, the random key (a UUID: random
  ids are public elsewhere, not here); the key a Pix "copia e cola" payload holds after
  ``br.gov.bcb.pix01`` and its length.
* **A UPI id** after ``UPI``, ``VPA`` or a payment app's name: ``name@bank``, a handle with
  no dot (an e-mail address has one).
* **A cheque's MICR line**: the account between the routing number's ``⑆…⑆`` and ``⑈``.

Pure; standard library only.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import windows

__all__ = ["find_account_numbers"]

_WORDS = (
    r"account(?:\s+(?:number|no\.?|nr\.?|#))?|acc(?:t|ount)?\.?(?:\s*(?:no\.?|#))?"
    r"|a/c(?:\s*(?:no\.?|#))?|dda|kontonummer|konto(?:-?nr\.?)?|kontonr\.?|postkonto|pc-konto"
    r"|numéro de compte|compte postal|número de cuenta|cuenta corriente|cuenta de ahorros?"
    r"|cuenta vista|conto(?: corrente| postale)?|conta(?: corrente| poupança)?|nº da conta|clabe"
    r"|clabe interbancaria|nuban|rekeningnummer|(?:nomor |no\. ?)?rekening|no\.? ?rek\.?"
    r"|numer konta|nr konta"
    r"|numer rachunku|nr rachunku|hesap (?:numarası|numarasi|numaram|no\.?)|số tài khoản"
    r"|so tai khoan|číslo účtu|cislo uctu|účet|ucet|bankszámlaszám|számlaszám|szamlaszam"
    r"|tilinumero|номер сч[её]та|номер рахунку|рахунок|сч[её]т|р/сч?|расч[её]тный сч[её]т"
    r"|лицевой сч[её]т|л/с|رقم الحساب|מספר חשבון|खाता संख्या|खाता नंबर|口座番号|口座|계좌번호|계좌"
    r"|kontonummeret|akaunti|(?:no\.? |nombor )?akaun|হিসাব নম্বর|অ্যাকাউন্ট নম্বর"
    r"|เลขที่บัญชี[\u0e00-\u0e7f]{0,16}|เลขบัญชี[\u0e00-\u0e7f]{0,16}"
    r"|cci|código de cuenta interbancari[oa]|netbank client number|netbank client no\.?"
    # Amharic, Khmer, Gujarati, Odia, Telugu, Tamil, Sinhala, Lao, Myanmar
    r"|(?:የ)?ሂሳብ ቁጥር|គណនី|ખાતા નંબર|ખાતા ક્રમાંક|ଖାତା ନମ୍ବର|ఖాతా సంఖ్య|ఖాతా నంబర్"
    r"|கணக்கு எண்|ගිණුම් අංකය|ເລກບັນຊີ|ဘဏ်အကောင့်"
)
_ANCHORS = (
    "cci",
    "interbancari",
    "netbank",
    "acc", "a/c", "dda", "konto", "konta", "compte", "cuenta", "conto", "conta", "clabe",
    "nuban", "rekening", "no rek", "no. rek", "rachunku", "hesap", "tài khoản", "tai khoan",
    "účtu", "účet", "uctu", "ucet", "számla", "szamla", "tilinumero", "сч", "рахун", "р/с",
    "л/с", "الحساب", "חשבון", "खाता", "口座", "계좌", "akaun", "হিসাব", "অ্যাকাউন্ট", "บัญชี",
    "ሂሳብ", "គណនី", "ખાતા", "ଖାତା", "ఖాతా", "கணக்கு", "ගිණුම්", "ບັນຊີ", "အကောင့်",
)  # fmt: skip
_ACCOUNT = re.compile(
    rf"(?i:(?<![^\W\d_])(?:{_WORDS})(?![^\W\d_]))"
    r"(?:(?P<label>[^\n:\d]{0,40}?[:：፦៖])(?P<bank>(?:[ \t]+[^\W\d_][^\s\d:,]*){1,3}?)??)?"
    r"(?:[ \t]+(?i:for|для|do|pour|para|per|für|voor|untuk|için)(?:[ \t]+[^\W\d_]+){1,2})?"
    # whose or at which bank (``akaunti ya Equity``, ``Kontonummeret mitt er``)
    r"(?:[ \t]+(?i:ya|wa|of|at|del|sa|ng|mitt|min|mi|meu|minha)(?:[ \t]+[^\W\d_][\w&-]*)?)?"
    r"(?:[ \t]+[A-Z]{2,5}(?=[ \t]+\d))?"
    r"[ \t]*[:#፦៖]?[ \t]*(?:(?i:n[°º.o]|no\.|nr\.)[ \t]*)?"
    r"(?P<value>\d[\d .-]{4,34}\d(?:/\d{4})?)(?![\w/])"
)
# Words of a label before a number that is not the account's (``Account balance: …``).
_NOT_ACCOUNT_LABEL = re.compile(
    r"(?i:balance|saldo|limit|total|created|opened|closed|expires|since|manager|owner|holder"
    r"|name|type|status|fee|interest|kwota|stan|bakiye|założon|otwart|số dư)"
)
# A cloud provider's account, whose id is in every resource name (``AWS account 1234…``).
_CLOUD = re.compile(r"(?i:\b(?:aws|amazon|gcp|azure|google\s+cloud|cloudflare)[ \t]+)$")
# A mobile-money payment to a biller names the payer's reference with it (a meter, a
# policy, a school fee's pupil), no bank account: "sent to KPLC PREPAID for account …".
_BILLER = re.compile(
    r"(?i:\b(?:sent|paid|payment)\s+to\b[^\n]{1,40}\bfor\s+account\s*(?:no\.?|number)?\s*)$"
)
_SIX_DIGITS = re.compile(r"\d(?:[ .-]?\d){5}")
_DIGITS = re.compile(r"\d[\d .-]{4,34}\d")
_THOUSANDS = re.compile(r"\d{1,3}(?:[ .]\d{3})+")
_GROUPS_OF_THREE = re.compile(r"\d{3}(?: \d{3}){2,}")
# A date or an IP address, which dots and dashes group as accounts are.
_DATE = re.compile(
    r"(?<!\d)(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}"
    r"|\d{1,3}(?:\.\d{1,3}){3})(?!\d)"
)
_PIX = re.compile(
    r"(?i:chave(?:\s+pix)?(?:\s+aleat[óo]ria)?|pix\s+key)[\s:]+"
    r"(?P<value>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
)

# A UPI id (a virtual payment address): a name, ``@`` and a bank's or an app's handle, no dot.
_UPI = re.compile(
    r"(?i:\bupi\b|\bvpa\b|gpay|google pay|phonepe|paytm|bhim)[^\n@]{0,30}?(?<![\w.-])"
    r"(?P<value>[\w.-]{2,64}@[A-Za-z]{2,20})(?![\w.@-])"
)
# A Pix "copia e cola" payload (an EMV QR code's text): the key after ``br.gov.bcb.pix01``
# and its two-digit length.
_PIX_PAYLOAD = re.compile(r"(?i:br\.gov\.bcb\.pix)01(?P<length>\d\d)")
# A cheque's MICR line: ⑆routing⑆ account⑈ cheque number.
_MICR = re.compile(r"⑆\d{9}⑆[ \t]*(?P<value>\d[\d \t-]{3,20}\d)[ \t]*⑈")


def _account_like(value: str) -> bool:
    """Six digits or more, no date, no amount grouped in thousands (three groups of three
    digits, ``001 234 567``, are how Cambodian and other banks print an account; an amount of
    hundreds of millions after an account's word is no one's note)."""
    return (
        sum(c.isdigit() for c in value) >= 6
        and (not _THOUSANDS.fullmatch(value) or _GROUPS_OF_THREE.fullmatch(value) is not None)
        and _DATE.search(value) is None
    )


@cache
def _anchors() -> tuple[str, ...]:
    return tuple(sorted(_ANCHORS))


def find_account_numbers(text: str, low: str) -> list[Finding]:
    """Account numbers after their words, and PIX keys (``low``: ``text`` in lower case)."""
    found: list[Finding] = []
    if "chave" in low or "pix" in low:
        found += [Finding("bank-account", *m.span("value")) for m in _PIX.finditer(text)]
    if "@" in text and ("upi" in low or "vpa" in low or "pay" in low or "bhim" in low):
        found += [Finding("bank-account", *m.span("value")) for m in _UPI.finditer(text)]
    if "br.gov.bcb.pix" in low:
        for match in _PIX_PAYLOAD.finditer(text):
            end = match.end() + int(match.group("length"))
            found.append(Finding("bank-account", match.end(), min(end, len(text))))
    if "⑆" in text:
        found += [Finding("bank-account", *m.span("value")) for m in _MICR.finditer(text)]
    if not any(_account_like(m.group(0)) for m in _DIGITS.finditer(text)):
        return found  # no run of digits an account could be: a date, an amount, a time
    for start, end in windows(low, _anchors(), before=8, after=110):
        if _SIX_DIGITS.search(text, start, end) is None:
            continue
        for match in _ACCOUNT.finditer(text, start, end):
            if not _account_like(match.group("value")):
                continue
            label = (match.group("label") or "") + (match.group("bank") or "")
            if _NOT_ACCOUNT_LABEL.search(label) or _CLOUD.search(text, 0, match.start()):
                continue
            if _BILLER.search(text, max(0, match.start() - 80), match.start("value")):
                continue  # "sent to KPLC PREPAID for account …": a bill's reference
            found.append(Finding("bank-account", *match.span("value")))
    return found
