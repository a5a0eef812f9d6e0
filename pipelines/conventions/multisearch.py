"""Many plain strings at once over many texts, at the word boundaries of SPEC.md §2: the one search
that the scoring engine, the miner's counts and the contrast miner share.

Two steps, so a caller can run the first in a coarser fold than the second (the engine does):

1. ``substring_rows``: one Aho–Corasick pass over a whole text column finds every occurrence of
   every string (overlapping, so ``air`` and ``air mass`` are both reported) — polars'
   ``str.extract_many``, which runs the Rust ``aho-corasick`` crate over the column without a Python
   loop. These are SUBSTRING hits.
2. ``matching.rows_containing``: the word-boundary rule confirmed on those rows only.

``word_hits`` is both steps in one fold: for each string, the texts that hold it word-bounded.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from pipelines.conventions.matching import needs_boundary_check, rows_containing

ROWS_DTYPE = np.int64
EMPTY = np.zeros(0, dtype=ROWS_DTYPE)
CHUNK = 200_000  # rows per extract_many call: bounds the size of the exploded hit lists


def substring_rows(texts: Sequence[str], rows: np.ndarray, patterns: Sequence[str]) -> dict[str, np.ndarray]:
    """For each pattern, the sorted unique ``rows`` whose text contains it as a substring (``texts[i]``
    is the text of ``rows[i]``). Patterns that occur nowhere are absent from the result."""
    unique = sorted({p for p in patterns if p})
    if not unique or len(rows) == 0:
        return {}
    parts: list[pl.DataFrame] = []
    for lo in range(0, len(rows), CHUNK):
        frame = pl.DataFrame({"row": rows[lo:lo + CHUNK], "text": list(texts[lo:lo + CHUNK])},
                             schema={"row": pl.Int64, "text": pl.Utf8})
        hits = (
            frame.lazy()
            .select("row", pl.col("text").str.extract_many(unique, overlapping=True).alias("hit"))
            .explode("hit")
            .drop_nulls("hit")
            .unique()
            .collect()
        )
        parts.append(hits)
    hits = pl.concat(parts).sort("hit", "row")
    out: dict[str, np.ndarray] = {}
    for (pattern,), group in hits.group_by("hit", maintain_order=True):
        out[str(pattern)] = group["row"].to_numpy().astype(ROWS_DTYPE)
    return out


def word_hits(patterns: Sequence[str], texts: Sequence[str], *, raws: Sequence[str | None] | None = None,
              mode: str = "exact") -> list[list[int]]:
    """For each pattern (in order; repeats allowed), the sorted indices of the texts that hold it at
    word boundaries. Patterns and texts are already folded with ``mode``; ``raws`` are the unfolded
    texts (they tell a hyphen from a dash the fold wrote as one, see ``matching.raw_hyphen``)."""
    if not patterns:
        return []
    candidates = substring_rows(texts, np.arange(len(texts), dtype=ROWS_DTYPE), patterns)
    found: dict[str, list[int]] = {}
    for pattern, rows in candidates.items():
        listed = rows.tolist()
        found[pattern] = rows_containing(texts, listed, pattern, raws=raws, mode=mode) if needs_boundary_check(pattern) else listed
    return [found.get(p, []) for p in patterns]
