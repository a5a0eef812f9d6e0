"""Which rows contain which literal strings, for many strings at once (the engine's hot loop).

One Aho–Corasick pass per text column finds every occurrence of every literal (overlapping, so
``air`` and ``air mass`` are both reported) — via polars' ``str.extract_many``, which runs the Rust
``aho-corasick`` crate over the whole column without a Python loop. Hits are *substring* hits:
word boundaries and regexes are confirmed afterwards, only on these rows.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import polars as pl

ROWS_DTYPE = np.int64
EMPTY = np.zeros(0, dtype=ROWS_DTYPE)
CHUNK = 200_000  # rows per extract_many call: bounds the size of the exploded hit lists


def literal_rows(texts: Sequence[str], rows: np.ndarray, patterns: Sequence[str]) -> dict[str, np.ndarray]:
    """For each pattern, the sorted unique ``rows`` whose text contains it (``texts[i]`` is the text of
    ``rows[i]``). Patterns that occur nowhere are absent from the result."""
    unique = sorted({p for p in patterns if p})
    if not unique or len(rows) == 0:
        return {}
    parts: list[pl.DataFrame] = []
    for lo in range(0, len(rows), CHUNK):
        frame = pl.DataFrame({"row": rows[lo:lo + CHUNK], "text": list(texts[lo:lo + CHUNK])})
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
