"""Check digits of the fake numbers the redaction corpora plant, computed by python-stdnum.

Cards and Canadian SINs carry a Luhn digit, Aadhaar numbers a Verhoeff digit, IBANs the two
ISO 7064 mod 97-10 digits after the country code: the corpora's values pass the checks a real
number would, so the rules cannot tell them from real ones by a failed check.
"""

from __future__ import annotations

from stdnum import luhn, verhoeff
from stdnum.iso7064 import mod_97_10

__all__ = ["iban", "with_luhn", "with_verhoeff"]


def with_luhn(partial: str) -> str:
    """``partial`` and its Luhn check digit."""
    return partial + luhn.calc_check_digit(partial)


def with_verhoeff(partial: str) -> str:
    """``partial`` and its Verhoeff check digit."""
    return partial + verhoeff.calc_check_digit(partial)


def iban(country: str, bban: str) -> str:
    """The IBAN of ``bban`` in ``country``, with its check digits."""
    return country + mod_97_10.calc_check_digits(bban + country) + bban
