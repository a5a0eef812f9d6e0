"""Unit-level occurrence of many strings at once, and association scores over units.

Every count is over UNITS (a term said twice in one unit counts once) on ``fold_count`` text, with
the SPEC word-boundary rule, so mined support/consistency mean what the checker will see.
Aho–Corasick (ahocorasick_rs) finds all patterns in one pass per text: linear in the TM size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import ahocorasick_rs

from pipelines.conventions.matching import bounded_at


def unit_hits(patterns: Sequence[str], texts: Sequence[str]) -> list[list[int]]:
    """For each pattern, the sorted indices of the texts holding it word-bounded (both folded)."""
    hits: list[list[int]] = [[] for _ in patterns]
    if not patterns:
        return hits
    unique = sorted(set(patterns))
    position = {p: i for i, p in enumerate(unique)}
    matcher = ahocorasick_rs.AhoCorasick(unique, matchkind=ahocorasick_rs.MatchKind.Standard)
    found: list[list[int]] = [[] for _ in unique]
    for index, text in enumerate(texts):
        seen: set[int] = set()
        for pat, start, _end in matcher.find_matches_as_indexes(text, overlapping=True):
            if pat not in seen and bounded_at(text, unique[pat], start):
                seen.add(pat)
                found[pat].append(index)
    for i, pattern in enumerate(patterns):
        hits[i] = found[position[pattern]]
    return hits


def dice(joint: int, a: int, b: int) -> float:
    """2·|A∩B| / (|A|+|B|)."""
    return 2.0 * joint / (a + b) if a + b else 0.0


def log_likelihood(joint: int, a: int, b: int, n: int) -> float:
    """Dunning's G² for the 2×2 unit contingency table (0 when the association is negative)."""
    cells = ((joint, a, b), (a - joint, a, n - b), (b - joint, n - a, b), (n - a - b + joint, n - a, n - b))
    g2 = 0.0
    for observed, row, col in cells:
        expected = row * col / n if n else 0.0
        if observed > 0 and expected > 0:
            g2 += observed * math.log(observed / expected)
    return 2.0 * g2 if joint * n >= a * b else 0.0
