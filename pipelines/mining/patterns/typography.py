"""Typographic families: apostrophe form, the space before ``: ; ? !`` and ``%``, ellipsis,
full/half-width brackets and digits, the space between a word and a number.

Each is a closed list of variants (see ``base``); counting and wrong-variant regexes are the same
expressions, applied to RAW text (match_mode ``exact``: the content is the code point).
"""

from __future__ import annotations

import re

from housestyle.pipelines.mining.patterns.base import Family, variant

_BEFORE = r"(?<=[\w»”)\]’])"  # a mark that follows a word, a closing quote or bracket
_SPACES = {"nbsp": "\u00a0", "nnbsp": "\u202f", "space": " "}
MQM_PUNCT = "Linguistic conventions/Punctuation"
MQM_LOCALE = "Locale conventions/Number format"


APOSTROPHE = Family(
    "punct:apostrophe",
    (variant("typographic", "(?<=[^\\W\\d_])\u2019(?=[^\\W\\d_])"),
     variant("ascii", "(?<=[^\\W\\d_])'(?=[^\\W\\d_])"),
     variant("modifier", "(?<=[^\\W\\d_])\u02bc(?=[^\\W\\d_])")),
    MQM_PUNCT, "apostrophe between letters (elision)",
)


def space_before(mark: str, name: str) -> Family:
    """The space before a high punctuation mark (French: U+00A0 or U+202F; English: none)."""
    esc = re.escape(mark)
    after = "(?![/\\d])" if mark == ":" else ""  # not URLs (https://) nor times (10:30)
    variants = [variant(k, f"{_BEFORE}{re.escape(c)}{esc}{after}") for k, c in _SPACES.items()]
    variants.append(variant("none", f"{_BEFORE}(?<![\\d]){esc}{after}" if mark == ":" else f"{_BEFORE}{esc}{after}"))
    return Family(f"punct:space_before_{name}", tuple(variants), MQM_PUNCT, f"the space before {mark!r}")


def space_before_high() -> Family:
    """The four high marks together (French typography treats : ; ? ! alike): decides where one
    mark alone is too rare in the TM (``;``) to be mined by itself."""
    marks = "[:;?!]"
    after = "(?![/\\d])"
    variants = [variant(k, f"{_BEFORE}{re.escape(c)}{marks}{after}") for k, c in _SPACES.items()]
    variants.append(variant("none", f"{_BEFORE}(?<![\\d]){marks}{after}"))
    return Family("punct:space_before_high", tuple(variants), MQM_PUNCT, "the space before : ; ? !")


def space_before_percent() -> Family:
    variants = [variant(k, f"(?<=\\d){re.escape(c)}%") for k, c in _SPACES.items()]
    variants.append(variant("none", "(?<=\\d)%"))
    return Family("punct:space_before_percent", tuple(variants), MQM_LOCALE, "the space between a number and %")


ELLIPSIS = Family(
    "punct:ellipsis",
    (variant("character", "\u2026"), variant("three_dots", "(?<!\\.)\\.\\.\\.(?!\\.)")),
    MQM_PUNCT, "ellipsis as one character or three dots",
)
BRACKETS = Family(
    "width:brackets",
    (variant("fullwidth", "[\uff08\uff09]"), variant("halfwidth", "[()]")),
    MQM_LOCALE, "full-width vs half-width round brackets",
)
DIGITS = Family(
    "width:digits",
    (variant("fullwidth", "[\uff10-\uff19]"), variant("halfwidth", "[0-9]")),
    MQM_LOCALE, "full-width vs half-width digits",
)
WORD_NUMBER = Family(
    "space:word_number",
    tuple(variant(k, f"(?<=[^\\W\\d_]){re.escape(c)}(?=\\d)") for k, c in _SPACES.items()),
    MQM_PUNCT, "the space between a word and a number (port 53)",
)

FAMILIES: tuple[Family, ...] = (
    APOSTROPHE,
    space_before(":", "colon"),
    space_before(";", "semicolon"),
    space_before("?", "question"),
    space_before("!", "exclamation"),
    space_before_high(),
    space_before_percent(),
    ELLIPSIS,
    BRACKETS,
    DIGITS,
    WORD_NUMBER,
)
