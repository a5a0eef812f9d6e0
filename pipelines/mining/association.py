"""Unit-level occurrence of many strings at once, and association scores over units.

Every count is over UNITS (a term said twice in one unit counts once) on ``fold_count`` text, with
the checker's word-boundary rule and its search (``housestyle.pipelines.conventions.multisearch``: one
Aho–Corasick pass over all texts, then the boundaries), so mined support/consistency mean what the
checker will see — hyphen-joined words included (``mail`` is not counted in ``e-mail``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from housestyle.pipelines.conventions.multisearch import word_hits


def unit_hits(patterns: Sequence[str], texts: Sequence[str], raws: Sequence[str] | None = None,
              compound: bool = False) -> list[list[int]]:
    """For each pattern, the sorted indices of the texts holding it word-bounded (both in the counting
    fold), or as a compound part (``compound``). ``raws``, the unfolded texts, tell a hyphen from a
    dash the fold wrote as one; without them every folded ``-`` counts as a hyphen."""
    return word_hits(patterns, texts, raws=raws, mode="count", compound=compound)


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
