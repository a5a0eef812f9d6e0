"""The one number grammar: what counts as a number in a source, how a target may write it, and how
numbers are found liberally in any text. Used by the ``numeric`` rule, the numeric miner and the
judge's number features, so the three never disagree about what a number is.

A source NUMBER starts at an ASCII digit not glued to a preceding letter, digit, source separator
or colon (``MP3`` holds none, ``8:00`` holds only 8, ``Windows-10`` holds 10). Digit groups joined
by ``-`` or ``/`` (and dots beyond the source's own number format) form a CHAIN, read as follows:

- a QUANTITY: digits with source group separators every three digits and an optional decimal part
  (``12,000``, ``3.5``); an English scale word after it (``760 thousand``, ``2.5 million``) makes
  its value the mantissa times the scale, and the target may write either the mantissa
  (``2,5 millions``) or the digits of the value (``760 000``);
- two quantities joined by one ``-`` or ``/`` are a range or a ratio (``3.51-4.05``, ``0.31/100``):
  two quantities, each written in the target's format (``3,51-4,05``);
- anything else is an IDENTIFIER (``20-0097189``, ``1-800-555-0199``, version ``3.2.1``, dates
  ``2020-03-15``): copied verbatim, never regrouped as a quantity.

Hand-written because no installed library parses numbers this way: Babel parses one locale's
numbers, not "which runs of a sentence are quantities and which are codes".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

# Source scale words (short scale, as English writes them) and their powers of ten.
SCALE_WORDS: dict[str, int] = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}
IDENTIFIER_JOINERS = "-/."
# Separators a text may put inside one number, whatever its locale (the liberal reading).
LIBERAL_SEPARATORS = " \u00a0\u202f\u2009.,'’"
LIBERAL_RE = re.compile(r"(?<![0-9])[0-9]+(?:[" + re.escape(LIBERAL_SEPARATORS) + r"][0-9]+)*")
_SCALE_RE = re.compile(r"[ \u00a0\u202f]+(" + "|".join(SCALE_WORDS) + r")s?(?![^\W\d_])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SourceStyle:
    """How a text writes numbers: its decimal and (optional) group separator. ``LIBERAL`` reads any
    locale's separators as part of one number (for texts whose format is unknown)."""

    decimal: str = "."
    group: str = ","


LIBERAL = SourceStyle(decimal="", group="")


@dataclass(frozen=True, slots=True)
class SourceNumber:
    """One number. ``integer``/``fraction`` are digits without separators (a LIBERAL reading puts all
    digits in ``integer``); ``scale`` the power of ten of a following scale word (0: none);
    identifiers keep only ``text``."""

    text: str
    start: int
    end: int
    kind: str  # "quantity" | "identifier"
    integer: str = ""
    fraction: str = ""
    scale: int = 0
    grouped: bool = False  # written with the source group separator

    @property
    def digits(self) -> str:
        """The digits as written (the mantissa of a scaled quantity; an identifier's digits)."""
        return self.integer + self.fraction if self.kind == "quantity" else re.sub(r"[^0-9]", "", self.text)

    def value_digits(self) -> tuple[str, str] | None:
        """(integer, fraction) digits of mantissa × 10^scale, or None when there is no scale word."""
        if self.kind != "quantity" or not self.scale:
            return None
        value = Decimal(f"{self.integer}.{self.fraction or '0'}").scaleb(self.scale)
        integer, _, fraction = format(value.normalize(), "f").partition(".")
        return integer, fraction

    def keys(self) -> set[str]:
        """Digit strings (and, for an identifier, its text) that are this number in another text."""
        value = self.value_digits()
        extra = {self.text} if self.kind == "identifier" else {value[0] + value[1]} if value else set()
        return {self.digits} | extra


@lru_cache(maxsize=64)
def _patterns(style: SourceStyle) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(chain scanner, one-quantity matcher) for a style."""
    if style == LIBERAL:
        inner = re.escape(LIBERAL_SEPARATORS)
        return (re.compile(rf"(?<![\w:])[0-9]+(?:[{re.escape(IDENTIFIER_JOINERS)}{inner}][0-9]+)*"),
                re.compile(rf"([0-9]+(?:[{inner}][0-9]+)*)()"))
    seps = re.escape(style.decimal + style.group)
    joiners = re.escape("".join(dict.fromkeys(IDENTIFIER_JOINERS + style.decimal + style.group)))
    chain = re.compile(rf"(?<![\w{seps}:])[0-9]+(?:[{joiners}][0-9]+)*")
    grouped = rf"[0-9]{{1,3}}(?:{re.escape(style.group)}[0-9]{{3}})+|" if style.group else ""
    quantity = re.compile(rf"({grouped}[0-9]+)(?:{re.escape(style.decimal)}([0-9]+))?")
    return chain, quantity


def _quantity(text: str, start: int, style: SourceStyle, whole: bool) -> SourceNumber | None:
    """``text`` as one quantity (``whole``: all of it, else its longest leading quantity)."""
    quantity = _patterns(style)[1]
    match = quantity.fullmatch(text) if whole else quantity.match(text)
    if match is None:
        return None
    integer = re.sub(r"[^0-9]", "", match.group(1))
    if whole and re.match(r"0[0-9]", match.group(1)):
        return None  # 0097189 is a code's digits, not an amount
    return SourceNumber(match.group(0), start, start + match.end(), "quantity", integer, match.group(2) or "",
                        grouped=bool(style.group) and style.group in match.group(1))


def source_numbers(source: str, style: SourceStyle = SourceStyle()) -> list[SourceNumber]:
    """Every number of ``source`` in order (see module docstring)."""
    out: list[SourceNumber] = []
    # a LIBERAL reading has no decimal point to scale from: it keeps the digits as written
    scaled = (lambda n: n) if style == LIBERAL else (lambda n: _with_scale(n, source))
    for match in _patterns(style)[0].finditer(source):
        text, start = match.group(), match.start()
        whole = _quantity(text, start, style, whole=True)
        if whole is not None:
            out.append(scaled(whole))
            continue
        parts = re.split(r"([-/])", text)
        if len(parts) == 3:  # one joiner: a range or a ratio of two quantities?
            left = _quantity(parts[0], start, style, whole=True)
            right = _quantity(parts[2], start + len(parts[0]) + 1, style, whole=True)
            if left is not None and right is not None:
                out += [left, scaled(right)]
                continue
        if any(j in text for j in IDENTIFIER_JOINERS):
            out.append(SourceNumber(text, start, match.end(), "identifier"))
            continue
        leading = _quantity(text, start, style, whole=False)  # 1,2,3: the first is a number, as before
        if leading is not None:
            out.append(scaled(leading) if leading.end == match.end() else leading)
    return out


def _with_scale(number: SourceNumber, source: str) -> SourceNumber:
    """The number with the power of a scale word right after it."""
    scale = _SCALE_RE.match(source, number.end)
    if scale is None:
        return number
    return SourceNumber(number.text, number.start, number.end, number.kind, number.integer, number.fraction,
                        SCALE_WORDS[scale.group(1).lower()], number.grouped)


def grouped(digits: str, sep: str) -> str:
    """``1234567`` → ``1 234 567`` with ``sep`` every three digits from the right."""
    head = len(digits) % 3 or 3
    return sep.join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])


@dataclass(frozen=True, slots=True)
class TargetFormat:
    """How the target must write numbers (the ``numeric`` rule's params)."""

    decimal: str = "."
    groups: tuple[str, ...] = ()
    min_group_digits: int = 5


def quantity_forms(integer: str, fraction: str, fmt: TargetFormat) -> tuple[str, tuple[str, ...]]:
    """(canonical, accepted forms) of a quantity in the target format: integers of at least
    ``min_group_digits`` digits must be grouped (when a group separator is set); shorter ones may
    be written either way."""
    must_group = len(integer) >= fmt.min_group_digits and bool(fmt.groups)
    forms = [] if must_group else [integer]
    if len(integer) > 3:
        forms += [grouped(integer, g) for g in fmt.groups]
    suffix = f"{fmt.decimal}{fraction}" if fraction else ""
    forms = [f + suffix for f in dict.fromkeys(forms)]
    return (forms[-1] if must_group else forms[0]), tuple(forms)


def target_forms(number: SourceNumber, fmt: TargetFormat) -> tuple[str, tuple[str, ...]]:
    """(canonical, every accepted target form) of a source number: identifiers verbatim; a scaled
    quantity as its mantissa or as the digits of its value."""
    if number.kind == "identifier":
        return number.text, (number.text,)
    canonical, forms = quantity_forms(number.integer, number.fraction, fmt)
    value = number.value_digits()
    if value is not None:
        forms = tuple(dict.fromkeys(forms + quantity_forms(*value, fmt)[1]))
    return canonical, forms


@lru_cache(maxsize=4096)
def form_pattern(forms: tuple[str, ...], seps: str) -> re.Pattern[str]:
    """Any of ``forms`` as a whole number: not adjacent to another digit, nor a separator of ``seps``
    that continues the number (``3`` is not in ``3,5`` or ``13``; ``3,5`` is in ``3,5-4``)."""
    sep_class = re.escape("".join(sorted(set(seps))))
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![0-9])(?<![0-9][{sep_class}])(?:{alternatives})(?![0-9])(?![{sep_class}][0-9])")
