"""Many plain strings at once over many texts, at the word boundaries of SPEC.md §2: the one search
that the scoring engine, the miner's counts and the contrast miner share.

One Aho–Corasick automaton (``ahocorasick_rs``, Rust) over all strings, one pass per text, every
occurrence reported (overlapping, so ``air`` and ``air mass`` are both found): linear in the total
text size however many strings there are. Each hit is then checked for word boundaries at its own
position (``matching.bounded_at``), so a text is never searched twice for one string.

- ``word_hits``: for each string, the texts that hold it word-bounded (miner, contrast);
- ``substring_rows``: the same pass without the boundary check, for a caller that confirms the
  boundaries itself in another fold (the engine runs one pass in the typographic fold for the
  literals of every mode, then confirms each in its own mode, see ``scoring.rowsets``).

Measured against polars' ``str.extract_many`` (the engine's former pass) in one sitting on a busy
2-core machine: 200,000 synthetic outputs × 1,600 literals 1.2–2.5 s vs 1.3–2.8 s (a tie); the
miner's 6,580 term strings × 122,840 TICO texts 5.3–7.2 s vs 8.1–11.5 s (positions spare the
re-find).
"""

from __future__ import annotations

from collections.abc import Sequence

import ahocorasick_rs
import numpy as np

from housestyle.pipelines.conventions.compound_parts import part_bounded
from housestyle.pipelines.conventions.matching import (ALWAYS_BLOCKS, NEVER_BLOCKS, blocked_after, blocked_before,
                                                       edge_checks)

ROWS_DTYPE = np.int64
EMPTY = np.zeros(0, dtype=ROWS_DTYPE)


def _scan(patterns: Sequence[str], texts: Sequence[str], rows: Sequence[int], *, bounded: bool,
          raws: Sequence[str | None] | None, mode: str, compound: bool = False) -> dict[str, list[int]]:
    """pattern -> the rows (``rows[i]`` names ``texts[i]``, in order) holding it; absent when none.
    ``compound``: a bounded hit may be a compound part (``compound_parts.part_bounded``).

    The word-boundary rule (``matching.bounded_at``) is tested inline for the neighbours that decide
    it at once (a separator, an ASCII letter or digit), the functions asked only for the others: a
    1M-unit TM's term counts check tens of millions of hits, most of them inside a longer word."""
    unique = sorted({p for p in patterns if p})
    if not unique or not len(texts):
        return {}
    matcher = ahocorasick_rs.AhoCorasick(unique, matchkind=ahocorasick_rs.MatchKind.Standard)
    edges = [edge_checks(p) if bounded else (False, False) for p in unique]
    check_left = [left for left, _ in edges]
    check_right = [right for _, right in edges]
    sizes = [len(p) for p in unique]
    never, always = NEVER_BLOCKS, ALWAYS_BLOCKS
    found: list[list[int]] = [[] for _ in unique]
    for i, text in enumerate(texts):
        row, length, raw = rows[i], len(text), None if raws is None else raws[i]
        seen: set[int] = set()
        for pat, start, _end in matcher.find_matches_as_indexes(text, overlapping=True):
            if pat in seen:
                continue
            if compound and (check_left[pat] or check_right[pat]):
                if not part_bounded(text, unique[pat], start):
                    continue
            else:
                if check_left[pat] and start and (before := text[start - 1]) not in never and (
                        before in always or blocked_before(text, start, raw, mode)):
                    continue
                end = start + sizes[pat]
                if check_right[pat] and end < length and (after := text[end]) not in never and (
                        after in always or blocked_after(text, end, raw, mode)):
                    continue
            seen.add(pat)
            found[pat].append(row)
    return {unique[k]: f for k, f in enumerate(found) if f}


def word_hits(patterns: Sequence[str], texts: Sequence[str], *, raws: Sequence[str | None] | None = None,
              mode: str = "exact", compound: bool = False) -> list[list[int]]:
    """For each pattern (in order; repeats allowed), the sorted indices of the texts that hold it at
    word boundaries, or as a compound part (``compound``: a target in a compounding language).
    Patterns and texts are already folded with ``mode``; ``raws`` are the unfolded texts (they tell
    a hyphen from a dash the fold wrote as one, see ``matching.raw_hyphen``)."""
    found = _scan(patterns, texts, range(len(texts)), bounded=True, raws=raws, mode=mode, compound=compound)
    return [found.get(p, []) for p in patterns]


def substring_rows(texts: Sequence[str], rows: np.ndarray, patterns: Sequence[str]) -> dict[str, np.ndarray]:
    """For each pattern, the sorted unique ``rows`` whose text contains it as a SUBSTRING
    (``texts[i]`` is the text of ``rows[i]``; ``rows`` sorted). Patterns found nowhere are absent."""
    found = _scan(patterns, texts, rows.tolist(), bounded=False, raws=None, mode="exact")
    return {p: np.asarray(r, dtype=ROWS_DTYPE) for p, r in found.items()}
