"""The four match modes of SPEC.md §2 as text folds that remember where each folded character came from.

A convention is matched on *folded* text, but failures are reported as offsets in the *raw* output
(an analyst highlights the characters a system actually produced). Folding can change length
(casefold: ``ß`` → ``ss``, ``ﬁ`` → ``fi``; NFKC composes and decomposes), so every fold here can
return a map from folded positions back to raw positions.

Modes (per convention, never global):

- ``exact``: raw code points.
- ``caseless``: ``str.casefold`` (full Unicode case folding, context free).
- ``typographic``: casefold, then the TYPOGRAPHIC_TABLE below (apostrophes, quotes, dashes, spaces);
  width and guillemets are kept.
- ``nfkc``: NFKC, then casefold.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# SPEC.md §2, typographic mode. Every entry maps one code point to one code point, so this step never
# changes offsets; only casefold (and NFKC) can.
_APOSTROPHES = "\u2019\u2018\u02bc\u2032\u201b"  # ’ ‘ ʼ ′ ‛
_QUOTES = "\u201c\u201d\u201e\u201f\u2033"  # “ ” „ ‟ ″
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212"  # ‐ ‑ ‒ – — −
_SPACES = "\u00a0\u202f" + "".join(chr(c) for c in range(0x2000, 0x200B))  # NBSP, NNBSP, U+2000–U+200A
TYPOGRAPHIC_TABLE: dict[int, str] = {
    **{ord(c): "'" for c in _APOSTROPHES},
    **{ord(c): '"' for c in _QUOTES},
    **{ord(c): "-" for c in _DASHES},
    **{ord(c): " " for c in _SPACES},
}


def fold_text(text: str, mode: str) -> str:
    """The folded text for ``mode`` (no offset map): the fast path used by the engine."""
    if mode == "exact":
        return text
    if mode == "caseless":
        return text.casefold()
    if mode == "typographic":
        return text.casefold().translate(TYPOGRAPHIC_TABLE)
    if mode == "nfkc":
        return unicodedata.normalize("NFKC", text).casefold()
    raise ValueError(f"unknown match mode {mode!r}")


@dataclass(frozen=True, slots=True)
class Folded:
    """Folded text plus, for each folded character, the raw [start, end) of the character(s) it came from.

    ``starts``/``ends`` are None when folding kept a one-to-one alignment (the common case), so
    the identity map costs nothing.
    """

    raw: str
    text: str
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        """Raw offsets of the folded span [start, end); a span inside an expanded character covers all of it."""
        if self.starts is None or self.ends is None:
            return start, end
        if start >= len(self.text):
            return len(self.raw), len(self.raw)
        raw_start = self.starts[start]
        if end <= start:
            return raw_start, raw_start
        return raw_start, self.ends[end - 1]


def _per_char_map(raw: str, pieces: list[str]) -> Folded:
    """Build a Folded from the fold of each raw character (valid when the fold is context free)."""
    starts: list[int] = []
    ends: list[int] = []
    for i, piece in enumerate(pieces):
        starts.extend([i] * len(piece))
        ends.extend([i + 1] * len(piece))
    return Folded(raw, "".join(pieces), tuple(starts), tuple(ends))


def _clusters(text: str) -> list[tuple[int, int]]:
    """Split into runs of a starter plus its combining marks: NFKC never composes across such runs,
    except for Hangul jamo and rare starter–starter compositions, which ``_nfkc_map`` handles by merging."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or unicodedata.combining(text[i]) == 0:
            bounds.append((start, i))
            start = i
    return [b for b in bounds if b[1] > b[0]]


def _nfkc_map(raw: str) -> Folded:
    """NFKC+casefold with an offset map: normalise cluster by cluster and merge clusters whenever
    their separate normalisations do not line up with the whole-string normalisation."""
    target = fold_text(raw, "nfkc")
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    clusters = _clusters(raw)
    i = 0
    while i < len(clusters):
        j = i
        while True:
            lo, hi = clusters[i][0], clusters[j][1]
            piece = fold_text(raw[lo:hi], "nfkc")
            if target.startswith(piece, pos) or j == len(clusters) - 1:
                break
            j += 1
        if not target.startswith(piece, pos):  # no alignment found: map the rest to one span
            rest = len(target) - pos
            starts.extend([clusters[i][0]] * rest)
            ends.extend([len(raw)] * rest)
            pos = len(target)
            break
        starts.extend([lo] * len(piece))
        ends.extend([hi] * len(piece))
        pos += len(piece)
        i = j + 1
    if pos < len(target):  # trailing text produced by nothing we could align: attribute to the end
        starts.extend([len(raw)] * (len(target) - pos))
        ends.extend([len(raw)] * (len(target) - pos))
    return Folded(raw, target, tuple(starts), tuple(ends))


def fold_with_map(text: str, mode: str) -> Folded:
    """The folded text and its map back to raw offsets; ``.text`` always equals ``fold_text(text, mode)``."""
    if mode == "exact":
        return Folded(text, text)
    if mode in ("caseless", "typographic"):
        folded = fold_text(text, mode)
        if len(folded) == len(text):  # casefold never deletes, so equal length means one-to-one
            return Folded(text, folded)
        pieces = [c.casefold() for c in text]
        if mode == "typographic":
            pieces = [p.translate(TYPOGRAPHIC_TABLE) for p in pieces]
        return _per_char_map(text, pieces)
    if mode == "nfkc":
        folded = fold_text(text, mode)
        if folded == text.casefold() and len(folded) == len(text):
            return Folded(text, folded)
        return _nfkc_map(text)
    raise ValueError(f"unknown match mode {mode!r}")


@lru_cache(maxsize=65536)
def fold_term(term: str, mode: str) -> str:
    """Fold a convention's own string (cached: the same terms are folded for every segment)."""
    return fold_text(term, mode)


def nfkc_changes(text: str) -> bool:
    """True when NFKC changes ``text`` beyond canonical (NFC) composition: its content is a code point
    that ``nfkc`` mode would destroy (full-width （）, ligatures, superscripts, NBSP)."""
    return unicodedata.normalize("NFKC", text) != unicodedata.normalize("NFC", text)
