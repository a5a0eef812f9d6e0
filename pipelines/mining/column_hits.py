"""Unit hits over a whole corpus column: which units hold each of many strings (the miner's counts),
batch by batch or, for a few strings, in the texts polars finds them in; and the set operations on
those unit arrays the term decision repeats (``concat_hits``, ``joint_count``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from housestyle.pipelines.mining.association import unit_hits
from housestyle.pipelines.mining.corpus import BATCH, Texts, log_memory


def batched_unit_hits(patterns: Sequence[str], texts: Texts, raws: Texts | None = None,
                      size: int = BATCH, compound: bool = False) -> list[np.ndarray]:
    """``association.unit_hits`` over a whole column, one batch of texts at a time, as int32 unit
    arrays: the same hits, without a Python int per hit for the whole TM (a 1M-unit TM has tens
    of millions of hits). ``raws``, the unfolded column, tells a hyphen from a dash the fold wrote
    as one (SPEC §2: hyphen-joined words are one word); ``compound``: see ``unit_hits``."""
    dtype = np.int32 if len(texts) < 2**31 else np.int64
    rows = _rows_holding(patterns, texts)
    if rows is not None:  # few texts can hold a pattern: search those alone, hits named in the column
        hits = unit_hits(patterns, texts.gather(rows), None if raws is None else raws.gather(rows), compound)
        return [rows[np.asarray(h, dtype=np.int64)].astype(dtype) for h in hits]
    found: list[np.ndarray] = []  # per batch: its hits, pattern by pattern
    counts: list[np.ndarray] = []  # per batch: hits of each pattern
    raw_batches = raws.batches(size) if raws is not None else None
    for offset, batch in texts.batches(size):
        raw_batch = next(raw_batches)[1] if raw_batches is not None else None
        hits = unit_hits(patterns, batch, raw_batch, compound)
        counts.append(np.fromiter((len(h) for h in hits), dtype=np.int64, count=len(hits)))
        found.append(np.fromiter((i + offset for h in hits for i in h), dtype=dtype, count=int(counts[-1].sum())))
    if not found:
        return [np.zeros(0, dtype=dtype) for _ in patterns]
    # Each batch's hits go straight to their pattern's slice of one array (batch order kept: each
    # pattern's units stay ascending), a batch freed once placed: 8 bytes a hit at the peak, not
    # the 20 of a concatenation sorted by pattern.
    per_pattern = np.sum(counts, axis=0)
    bounds = np.cumsum(per_pattern)
    filled = bounds - per_pattern  # where each pattern's next hits go
    units = np.empty(int(bounds[-1]) if len(bounds) else 0, dtype=dtype)
    while found:
        batch_hits, batch_counts = found.pop(0), counts.pop(0)
        first_in_batch = np.cumsum(batch_counts) - batch_counts
        units[np.repeat(filled - first_in_batch, batch_counts) + np.arange(len(batch_hits))] = batch_hits
        filled += batch_counts
        del batch_hits
    log_memory(f"hits of {len(patterns):,} patterns")
    return np.split(units, bounds[:-1]) if len(patterns) else []


# Above this share of the column holding a pattern as a substring, the whole column is searched.
PREFILTER_MAX_SHARE = 0.25


def _rows_holding(patterns: Sequence[str], texts: Texts) -> np.ndarray | None:
    """The rows whose text holds one of ``patterns`` as a substring (polars' Aho–Corasick, in Rust:
    ~13 ms over 1M texts), when they are at most ``PREFILTER_MAX_SHARE`` of the column; else None.
    Why: a word-bounded hit is a substring, so the per-text search (a Python loop over every text)
    can skip the others; the term decision measures a few renderings at a time over the whole
    TM (``expression.measured``: ~310 calls on 200,000 units, a seventh of the run)."""
    wanted = sorted({p for p in patterns if p})
    if not wanted or not len(texts):
        return None
    rows = np.flatnonzero(texts.series.str.contains_any(wanted).fill_null(False).to_numpy())
    return rows if rows.size <= PREFILTER_MAX_SHARE * len(texts) else None


def concat_hits(arrays: Iterable[np.ndarray]) -> np.ndarray:
    """The sorted union of unit arrays (each already sorted, as ``batched_unit_hits`` gives them)."""
    parts = list(arrays)
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int32)


def joint_count(a: np.ndarray, b: np.ndarray) -> int:
    """|a ∩ b| of two ascending arrays of distinct unit indices: the smaller looked up in the larger
    (``np.intersect1d`` sorted their concatenation: ~700,000 times, a twentieth of the run on 200,000 units)."""
    small, large = (a, b) if a.size <= b.size else (b, a)
    if not small.size:
        return 0
    at = np.minimum(np.searchsorted(large, small), large.size - 1)
    return int(np.count_nonzero(large[at] == small))
