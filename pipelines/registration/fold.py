"""The gold README's folding and word-bounded search, used by every gold comparison.

Deliberately separate from the checker's match modes: gold counting is frozen with the registration
and must not move when the checker's equivalences evolve.
"""

from __future__ import annotations

import re

from housestyle.pipelines.registration.model import FOLD_MAP

_TABLE = str.maketrans(FOLD_MAP)
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """casefold; ’ ‘ ʼ -> '; U+00A0 / U+202F -> space; whitespace runs collapsed; stripped."""
    return _SPACES.sub(" ", text.casefold().translate(_TABLE)).strip()


def bounded_at(haystack: str, start: int, end: int) -> bool:
    """True when the characters just before and after haystack[start:end], if any, are not letters or digits.

    Exactly the frozen rule (counting_rules.term_attestation), stricter than the checker's edge rule
    only for terms whose own edge is punctuation, which the gold termbases do not have.
    """
    return (start == 0 or not haystack[start - 1].isalnum()) and (end == len(haystack) or not haystack[end].isalnum())


def contains_bounded(haystack: str, needle: str) -> bool:
    """Word-bounded occurrence of ``needle`` (both already folded) anywhere in ``haystack``."""
    if not needle:
        return False
    start = haystack.find(needle)
    while start != -1:
        if bounded_at(haystack, start, start + len(needle)):
            return True
        start = haystack.find(needle, start + 1)
    return False
