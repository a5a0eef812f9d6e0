"""Where a convention's strings occur in folded text: plain strings at word boundaries, regexes as written.

Word boundaries (SPEC.md §2): an edge character of a plain string that is a letter or digit may
not touch another letter or digit (``air`` never matches inside ``chair``). The rule applies only
between characters of scripts that separate words with spaces: when either of the two touching
characters is Han, Hiragana, Katakana or Thai, a term matches anywhere.

"Letter or digit" is Unicode general category L* or N*; combining marks (M*) count as part of the
letter they sit on (a Devanagari vowel sign after a term's last consonant continues the word). Python's
``unicodedata`` has no Script property, so the four no-space scripts are recognised by their Unicode
blocks below (hand-written: no installed library exposes scripts for single characters cheaply).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Iterable, Sequence

# Blocks of the scripts that write words without spaces (SPEC.md names Han, Hiragana, Katakana, Thai).
_NO_SPACE_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0E7F),  # Thai
    (0x2E80, 0x2FDF),  # CJK radicals, Kangxi radicals (Han)
    (0x3005, 0x3007),  # 々 〆 〇 (Han)
    (0x3021, 0x3029),  # Hangzhou numerals (Han)
    (0x3038, 0x303B),  # Han
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana (incl. ー)
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x1B000, 0x1B16F),  # Kana supplement / extended
    (0x20000, 0x3134F),  # CJK extensions B–H, compatibility supplement
)


@lru_cache(maxsize=8192)
def is_word_char(char: str) -> bool:
    """Letter, digit, or combining mark (see module docstring)."""
    if char.isascii():
        return char.isalnum()
    return unicodedata.category(char)[0] in "LNM"


@lru_cache(maxsize=8192)
def is_no_space_script(char: str) -> bool:
    """Han, Hiragana, Katakana or Thai: scripts in which a term matches anywhere."""
    code = ord(char)
    if code < 0x0E00:
        return False
    return any(lo <= code <= hi for lo, hi in _NO_SPACE_RANGES)


def touches(edge: str, neighbour: str) -> bool:
    """True when a term's edge character may not sit next to ``neighbour`` (both word characters,
    neither of them in a no-space script)."""
    return (
        is_word_char(edge)
        and is_word_char(neighbour)
        and not is_no_space_script(edge)
        and not is_no_space_script(neighbour)
    )


def bounded_at(text: str, term: str, start: int) -> bool:
    """Whether an occurrence of ``term`` at ``start`` of ``text`` respects the word-boundary rule."""
    end = start + len(term)
    if start > 0 and touches(term[0], text[start - 1]):
        return False
    if end < len(text) and touches(term[-1], text[end]):
        return False
    return True


@lru_cache(maxsize=65536)
def edge_checks(term: str) -> tuple[bool, bool]:
    """(check the left neighbour, check the right neighbour): only a word-character edge outside the
    no-space scripts can be blocked by its neighbour."""
    if not term:
        return False, False
    return (
        is_word_char(term[0]) and not is_no_space_script(term[0]),
        is_word_char(term[-1]) and not is_no_space_script(term[-1]),
    )


def needs_boundary_check(term: str) -> bool:
    """False when neither edge of the term can ever touch (then any substring hit is a match)."""
    left, right = edge_checks(term)
    return left or right


# Neighbours that never block (ASCII non-alphanumerics, common spaces): the hot path tests these
# with one set lookup before falling back to the Unicode-category check.
_SEPARATORS = frozenset(chr(c) for c in range(128) if not chr(c).isalnum()) | frozenset("\u00a0\u202f\u2009’‘“”«»–—…")


@lru_cache(maxsize=8192)
def _blocks(neighbour: str) -> bool:
    return is_word_char(neighbour) and not is_no_space_script(neighbour)


def find_plain(text: str, term: str, *, first_only: bool = False) -> list[tuple[int, int]]:
    """Spans of ``term`` in ``text`` (both already folded) that respect word boundaries; overlapping
    occurrences are all reported."""
    spans: list[tuple[int, int]] = []
    if not term:
        return spans
    left, right = edge_checks(term)
    size, length = len(term), len(text)
    pos = text.find(term)
    while pos != -1:
        end = pos + size
        ok = True
        if left and pos > 0:
            before = text[pos - 1]
            ok = before in _SEPARATORS or not _blocks(before)
        if ok and right and end < length:
            after = text[end]
            ok = after in _SEPARATORS or not _blocks(after)
        if ok:
            spans.append((pos, end))
            if first_only:
                break
        pos = text.find(term, pos + 1)
    return spans


def rows_containing(texts: Sequence[str], rows: Iterable[int], term: str) -> list[int]:
    """The rows whose text contains ``term`` at word boundaries (the engine's hot loop, the same
    rule as ``find_plain`` inlined: most rows cost one ``find`` and two set lookups)."""
    left, right = edge_checks(term)
    size = len(term)
    out: list[int] = []
    blocks = _blocks
    for r in rows:
        text = texts[r]
        pos = text.find(term)
        while pos >= 0:
            if left and pos > 0:
                before = text[pos - 1]
                if before not in _SEPARATORS and blocks(before):
                    pos = text.find(term, pos + 1)
                    continue
            end = pos + size
            if right and end < len(text):
                after = text[end]
                if after not in _SEPARATORS and blocks(after):
                    pos = text.find(term, pos + 1)
                    continue
            out.append(r)
            break
    return out


def find_regex(text: str, pattern: re.Pattern[str], *, first_only: bool = False) -> list[tuple[int, int]]:
    """Spans of a regex applied as written to folded text (non-overlapping, as ``re.finditer``)."""
    if first_only:
        match = pattern.search(text)
        return [] if match is None else [match.span()]
    return [m.span() for m in pattern.finditer(text)]
