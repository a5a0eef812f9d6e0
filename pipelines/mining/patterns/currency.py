"""Currency families: where the symbol stands (``$5`` / ``5 $``) and the space beside it.

Buyers check these as they check number formats: French writes ``50 milliards $`` or ``5 €`` with a
no-break space, English ``$5``, Brazilian Portuguese ``R$ 10,00``. Each is a closed list of variants
(see ``base``); the TM picks one. The symbol is any Unicode currency sign (category ``Sc``) or a
dollar with its country prefix (``US$``, ``R$``, ``HK$``); between the amount and a following
symbol one word may stand (a magnitude: ``milliards``, ``Mio.``, ``млн``).

Not a currency, so software strings do not vote: a symbol right after a word character, ``%`` or
``{`` (``%1$s``, ``{ $name }``), digits right after a dollar or ``%`` (``$1$``), an amount ending
in another dollar, a dollar followed by a word character (``1$s``). A bare ``$1`` placeholder
still reads as an amount: no default placeholder family covers it, and a TM full of them would vote
``before``; the rule's evidence (``evidence.parquet``) shows such units.
"""

from __future__ import annotations

import re
import sys
import unicodedata

from housestyle.pipelines.mining.patterns.base import Family, variant

MQM_CURRENCY = "Locale conventions/Currency format"


def _currency_signs() -> str:
    """Every Unicode currency sign (category Sc), as a regex character class body."""
    signs = "".join(chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Sc")
    return re.escape(signs)


_ANY_SIGN = f"[{_currency_signs()}]"  # every variant's match holds one (``Family.requires``)
_SIGN = f"(?:[A-Z]{{1,3}}\\$|{_ANY_SIGN})"
_AMOUNT = r"(?<![\w$%])\d(?:[\d.,\u00a0\u202f ]*\d)?"  # a whole number, not a placeholder's digits
_MAGNITUDE = r"(?:[ \u00a0\u202f][^\W\d_]+\.?)?"  # one word between amount and a following symbol
_SPACES = {"none": "", "space": " ", "nbsp": "\u00a0", "nnbsp": "\u202f"}
_NOT_PLACEHOLDER_AFTER = r"(?![\w$])"
_NOT_PLACEHOLDER_BEFORE = r"(?<![\w$%{])"
_NO_SECOND_DOLLAR = r"(?![\d.,]*\$)"

SYMBOL_POSITION = Family(
    "currency:symbol_position",
    (variant("before", f"{_NOT_PLACEHOLDER_BEFORE}{_SIGN}[ \u00a0\u202f]?\\d{_NO_SECOND_DOLLAR}"),
     variant("after", f"{_AMOUNT}{_MAGNITUDE}[ \u00a0\u202f]?{_SIGN}{_NOT_PLACEHOLDER_AFTER}")),
    MQM_CURRENCY, "the currency symbol before or after the amount", requires=_ANY_SIGN,
)


def _space_variant(space: str) -> str:
    """The separator ``space`` between the amount (or its magnitude word) and the symbol, on
    either side: symbol first (``$ 5``) or amount first (``5 $``)."""
    before = f"{_NOT_PLACEHOLDER_BEFORE}{_SIGN}{re.escape(space)}\\d{_NO_SECOND_DOLLAR}"
    after = f"{_AMOUNT}{_MAGNITUDE}{re.escape(space)}{_SIGN}{_NOT_PLACEHOLDER_AFTER}"
    return f"{before}|{after}"


SYMBOL_SPACE = Family(
    "currency:symbol_space",
    tuple(variant(name, _space_variant(space)) for name, space in _SPACES.items()),
    MQM_CURRENCY, "the space between the amount and the currency symbol", requires=_ANY_SIGN,
)

FAMILIES: tuple[Family, ...] = (SYMBOL_POSITION, SYMBOL_SPACE)
