"""Where a convention's strings occur in folded text: plain strings at word boundaries, regexes as written.

Word boundaries (SPEC.md §2): an edge character of a plain string that is a letter or digit may
not touch another letter or digit (``air`` never matches inside ``chair``), nor a hyphen of the RAW
text (U+002D, U+2010, U+2011) that joins it to a further letter or digit: hyphen-joined words are
one word (``wi-fi`` is not in ``wi-fi-6``, ``mail`` not in ``e-mail``). Apostrophes and
other punctuation are boundaries. The rule applies only between characters of scripts that separate
words with spaces: when either of the two adjacent characters is Han, Hiragana, Katakana or Thai, a
term matches anywhere.

"Of the raw text": the ``typographic`` fold (and the miner's counting fold) writes every dash
(‒ – — −) as ``-``, so a folded ``-`` is looked up in the raw text it came from (``raw_hyphen``)
when the caller passes it; ``nfkc`` also folds ﹣ and － to ``-``.

"Letter or digit" is Unicode general category L* or N*; combining marks (M*) count as part of the
letter they sit on (a Devanagari vowel sign after a term's last consonant continues the word). Python's
``unicodedata`` has no Script property, so the four no-space scripts are recognised by their Unicode
blocks below (hand-written: no installed library exposes scripts for single characters cheaply).
"""

from __future__ import annotations

import os
import re
import unicodedata
from array import array
from bisect import bisect_left
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Sequence

from housestyle.pipelines.langtags import primary_subtag

if TYPE_CHECKING:
    from housestyle.pipelines.conventions.timed_regex import TimedPattern

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


# Raw-text hyphens that join two words into one (SPEC.md §2); every other dash is a boundary.
HYPHENS = "-\u2010\u2011"
# The raw characters each fold writes as one of HYPHENS (in the same order, one for one): used to find
# which raw character a folded hyphen came from without an offset map.
_FOLDS_TO_HYPHEN = {
    "exact": HYPHENS,
    "caseless": HYPHENS,
    "typographic": HYPHENS + "\u2012\u2013\u2014\u2212",
    "nfkc": HYPHENS + "\ufe63\uff0d",
    "count": HYPHENS + "\u2012\u2013\u2014\u2212",  # the miner's counting fold: typographic + space runs collapsed
}


def raw_hyphen(folded: str, pos: int, raw: str | None, mode: str) -> bool:
    """Whether ``folded[pos]`` is a hyphen of the raw text. Without ``raw`` (or when the fold cannot
    have turned another dash into a hyphen) the folded character decides. Otherwise the k-th hyphen of
    the folded text is the k-th character of ``raw`` that the fold writes as a hyphen (casefold and
    the fold tables never create or remove one elsewhere)."""
    if folded[pos] not in HYPHENS:
        return False
    sources = _FOLDS_TO_HYPHEN.get(mode, HYPHENS)
    if raw is None or sources == HYPHENS:
        return True
    if len(raw) == len(folded) and mode == "typographic":  # one-to-one: same offset
        return raw[pos] in HYPHENS
    positions, raw_is_hyphen = _hyphen_origins(folded, raw, sources)
    k = bisect_left(positions, pos)  # folded[pos] is a hyphen: the k-th of the folded text
    return bool(raw_is_hyphen[k]) if k < len(raw_is_hyphen) else True


@lru_cache(maxsize=8)
def _hyphen_origins(folded: str, raw: str, sources: str) -> tuple[array[int], bytes]:
    """Where the folded text's hyphens are, and whether the raw character each came from (the k-th
    of ``raw`` in ``sources``) is a hyphen: made once per text, so a text whose every word is
    hyphen-joined is read once, not once per hyphen (quadratic: 16,000 joined words, 12 s)."""
    positions = array("q", (i for i, char in enumerate(folded) if char in HYPHENS))
    origins = bytes(char in HYPHENS for char in raw if char in sources)
    return positions, origins[:len(positions)]


def bounded_at(text: str, term: str, start: int, raw: str | None = None, mode: str = "exact") -> bool:
    """Whether an occurrence of ``term`` at ``start`` of ``text`` respects the word-boundary rule
    (``raw``/``mode``: see ``raw_hyphen``)."""
    left, right = edge_checks(term)
    end = start + len(term)
    return not ((left and blocked_before(text, start, raw, mode)) or (right and blocked_after(text, end, raw, mode)))


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


# Neighbours that never block (ASCII non-alphanumerics but the hyphen, common spaces): the hot path
# tests these with one set lookup before falling back to the Unicode-category check.
_SEPARATORS = (frozenset(chr(c) for c in range(128) if not chr(c).isalnum()) - frozenset(HYPHENS)) | frozenset(
    "\u00a0\u202f\u2009’‘“”«»–—…")


# For a hot loop that tests a neighbour inline before calling ``blocked_before``/``blocked_after``:
# a neighbour in NEVER_BLOCKS never blocks, one in ALWAYS_BLOCKS (ASCII letters and digits) always
# does; any other asks the function (hyphens, non-ASCII).
NEVER_BLOCKS = _SEPARATORS
ALWAYS_BLOCKS = frozenset(chr(c) for c in range(128) if chr(c).isalnum())


@lru_cache(maxsize=8192)
def _blocks(neighbour: str) -> bool:
    return is_word_char(neighbour) and not is_no_space_script(neighbour)


def blocked_before(text: str, pos: int, raw: str | None, mode: str) -> bool:
    """A word-character left edge at ``pos`` is blocked by the character before it: a letter or digit,
    or a raw hyphen with a letter or digit before that."""
    if pos == 0:
        return False
    before = text[pos - 1]
    if before in _SEPARATORS:
        return False
    if before in HYPHENS:
        return pos >= 2 and _blocks(text[pos - 2]) and raw_hyphen(text, pos - 1, raw, mode)
    return _blocks(before)


def blocked_after(text: str, end: int, raw: str | None, mode: str) -> bool:
    """The mirror of ``blocked_before`` for a right edge ending at ``end``."""
    if end >= len(text):
        return False
    after = text[end]
    if after in _SEPARATORS:
        return False
    if after in HYPHENS:
        return end + 1 < len(text) and _blocks(text[end + 1]) and raw_hyphen(text, end, raw, mode)
    return _blocks(after)


def find_plain(text: str, term: str, *, first_only: bool = False, raw: str | None = None,
               mode: str = "exact") -> list[tuple[int, int]]:
    """Spans of ``term`` in ``text`` (both already folded with ``mode``; ``raw``: the unfolded text,
    see ``raw_hyphen``) that respect word boundaries; overlapping occurrences are all reported."""
    spans: list[tuple[int, int]] = []
    if not term:
        return spans
    left, right = edge_checks(term)
    size = len(term)
    pos = text.find(term)
    while pos != -1:
        end = pos + size
        if not ((left and blocked_before(text, pos, raw, mode)) or (right and blocked_after(text, end, raw, mode))):
            spans.append((pos, end))
            if first_only:
                break
        pos = text.find(term, pos + 1)
    return spans


def rows_containing(texts: Sequence[str], rows: Iterable[int], term: str, *,
                    raws: Sequence[str | None] | None = None, mode: str = "exact") -> list[int]:
    """The rows whose text contains ``term`` at word boundaries (``raws[r]``: the unfolded text of
    row r, see ``raw_hyphen``). The engine's hot loop: the rule of ``find_plain`` with the common
    neighbours (separators) tested inline, so most rows cost one ``find`` and two set lookups."""
    left, right = edge_checks(term)
    size = len(term)
    out: list[int] = []
    separators = _SEPARATORS
    for r in rows:
        text = texts[r]
        pos = text.find(term)
        while pos >= 0:
            end = pos + size
            if ((left and pos > 0 and text[pos - 1] not in separators
                 and blocked_before(text, pos, None if raws is None else raws[r], mode))
                    or (right and end < len(text) and text[end] not in separators
                        and blocked_after(text, end, None if raws is None else raws[r], mode))):
                pos = text.find(term, pos + 1)
                continue
            out.append(r)
            break
    return out


# The word-boundary rule as regex lookarounds (``plain_regex``). WORD_CLASS is ``_blocks``: a letter
# or digit (``[^\W_]``, minus the no-space scripts, whose \w characters are written as the ranges of
# _NO_SPACE_RANGES with gaps free of \w merged) or a mark of Combining Diacritical Marks (the only
# block of marks written out: ``re`` has no \p{M}, and a whole-Unicode class would dwarf every rule).
_NO_SPACE_CLASS = (r"\u0e00-\u0e7f\u2e80-\u3029\u3038-\u303b\u3040-\u30ff\u31f0-\u31ff\u3400-\u9fff"
                   r"\uf900-\ufaff\uff66-\uff9f\U0001b000-\U0001b16f\U00020000-\U0003134f")
WORD_CLASS = r"(?:[^\W_" + _NO_SPACE_CLASS + r"]|[\u0300-\u036f])"
# The same without the no-space-script exception: a Han/Kana/Thai neighbour then blocks like a letter.
# Why two: ``re`` compiles a class by visiting every BMP code point of its ranges in Python (~1 ms
# for _NO_SPACE_CLASS, four of them a rule), which made loading a mined set of ~4,600 regex rules
# cost ~45 s instead of ~5 s; so the exact class is written only where a no-space neighbour can
# occur in earnest: in targets written in those scripts, or for forms that contain them.
SPACED_WORD_CLASS = r"(?:[^\W_]|[\u0300-\u036f])"
_HYPHEN_CLASS = "[" + "".join(HYPHENS).replace("-", r"\-") + "]"


def _bounds(word: str) -> tuple[str, str]:
    return (f"(?<!{word})(?<!{word}{_HYPHEN_CLASS})", f"(?!{word})(?!{_HYPHEN_CLASS}{word})")


BOUND_BEFORE, BOUND_AFTER = _bounds(WORD_CLASS)
SPACED_BOUND_BEFORE, SPACED_BOUND_AFTER = _bounds(SPACED_WORD_CLASS)
# Languages written in the no-space scripts (primary subtags): their targets get the exact class.
NO_SPACE_LANGUAGES = frozenset({"zh", "ja", "th"})


def escape(text: str) -> str:
    """``re.escape`` without escaping spaces (readable; a space is not special in ``re``)."""
    return re.escape(text).replace("\\ ", " ")


def alternation(literals: Sequence[str]) -> str:
    """The literals as one escaped alternation, their common prefix written once
    (``serveu(?:rs|r)``), longest alternatives first."""
    if len(literals) == 1:
        return escape(literals[0])
    prefix = os.path.commonprefix(list(literals))
    suffixes = sorted({f[len(prefix):] for f in literals}, key=lambda s: (-len(s), s))
    optional = "" in suffixes
    rest = [escape(s) for s in suffixes if s]
    if len(rest) == 1 and optional:
        return escape(prefix) + (f"(?:{rest[0]})?" if len(suffixes[0]) > 1 else f"{rest[0]}?")
    return escape(prefix) + "(?:" + "|".join(rest) + ")" + ("?" if optional else "")


def plain_regex(literals: Iterable[str], match_mode: str, *, no_space_neighbours: bool | None = None) -> str:
    """A regex (on text folded with ``match_mode``) matching where one of the ``literals`` would match
    as a plain string: the same word boundary as ``find_plain``, hyphen-joined words included
    (``mail`` not in ``e-mail``), which Python's ``\b`` does not give (it treats a hyphen as a
    boundary). Each literal's edge is bounded only where ``edge_checks`` would check it.

    One thing a regex on folded text cannot see is the raw text: where a fold wrote another dash
    (– — −) as ``-`` between two words, ``find_plain`` given the raw text takes it for a boundary,
    this regex for a hyphen (it is then the stricter of the two).

    ``no_space_neighbours``: whether a Han/Kana/Thai neighbour must count as a boundary, as for
    ``find_plain`` (True for targets in NO_SPACE_LANGUAGES, see ``no_space_target``); None decides by
    the literals (True when one holds such a character). When False the regex is exact on every text
    without those scripts and stricter beside them (a form glued to a Han character does not match)."""
    from housestyle.pipelines.conventions.folding import fold_term

    folded = sorted({fold_term(x, match_mode) for x in literals if x})
    if not folded:
        raise ValueError("no literals")
    if no_space_neighbours is None:
        no_space_neighbours = any(is_no_space_script(c) for literal in folded for c in literal)
    before, after = (BOUND_BEFORE, BOUND_AFTER) if no_space_neighbours else (SPACED_BOUND_BEFORE, SPACED_BOUND_AFTER)
    groups: dict[tuple[bool, bool], list[str]] = {}
    for literal in folded:
        groups.setdefault(edge_checks(literal), []).append(literal)
    parts = [(before if left else "") + alternation(group) + (after if right else "")
             for (left, right), group in sorted(groups.items())]
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


def no_space_target(lang: str | None) -> bool | None:
    """``plain_regex``'s ``no_space_neighbours`` for a target language: True for NO_SPACE_LANGUAGES,
    None (decide by the literals) otherwise."""
    return True if primary_subtag(lang) in NO_SPACE_LANGUAGES else None


def find_regex(text: str, pattern: "re.Pattern[str] | TimedPattern", *, first_only: bool = False) -> list[tuple[int, int]]:
    """Spans of a regex applied as written to folded text (non-overlapping, as ``re.finditer``)."""
    if first_only:
        match = pattern.search(text)
        return [] if match is None else [match.span()]
    return [m.span() for m in pattern.finditer(text)]
