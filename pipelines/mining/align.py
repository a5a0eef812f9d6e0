"""Deterministic word alignment: IBM Model 1 with fast_align's diagonal prior, both directions,
symmetrised with grow-diag.

Hand-written (vectorised numpy EM) because the one installable fast aligner (eflomal) samples with
an unseeded random generator: the same TM would give different alignments, hence different
set_versions. EM here is deterministic: same input, same links. Memory is O(Σ |src|·|tgt|) over the
aligned units, which is why very large TMs align a bounded sample (``alignment.max_units``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from housestyle.pipelines.mining.corpus import log_memory

Links = list[tuple[int, int]]  # (source position, target position)


def _vocab(sentences: Sequence[Sequence[str]]) -> tuple[list[np.ndarray], int]:
    index: dict[str, int] = {}
    out = []
    for sent in sentences:
        out.append(np.fromiter((index.setdefault(w, len(index) + 1) for w in sent), dtype=np.int64, count=len(sent)))
    return out, len(index) + 1  # id 0 is NULL


_BLOCK = 1 << 20  # pairs per block of the element-wise steps: their temporaries stay ~8 MB


def _key_index(src: list[np.ndarray], tgt: list[np.ndarray], v_tgt: int, total: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (source id, target id) keys of all pairs, sorted, and each pair's index among
    them as int32 (numpy.unique's inverse), pairs in ``_pairs`` order. The keys are written into
    one array sized once; their distinct values come from a hash (polars, no sort of the pairs)
    and each pair's index from a binary search by blocks: 12 bytes a pair at the peak, against
    34 for a dense rank over the pairs."""
    key = np.empty(total, dtype=np.int64)
    at = 0
    for s, t in zip(src, tgt):
        if len(t):
            size = len(t) * (len(s) + 1)
            key[at:at + size] = np.tile(np.concatenate(([0], s)), len(t)) * v_tgt + np.repeat(t, len(s) + 1)
            at += size
    keys = np.sort(pl.Series(key).unique().to_numpy())
    inv = np.empty(total, dtype=np.int32 if len(keys) < 2**31 else np.int64)
    for b in range(0, total, _BLOCK):
        inv[b:b + _BLOCK] = np.searchsorted(keys, key[b:b + _BLOCK])
    return keys, inv


class _Prior:
    """fast_align's diagonal prior of every (target word, source position or NULL) row, looked up
    instead of held: a held prior was 8 of the 20 bytes a pair at the aligner's peak. The prior
    of a unit depends on its shape (source and target lengths) alone, so each distinct shape's is
    computed once, by the per-unit expression, into ``table``; a row's value is read from there
    through its position's ``shift`` (table offset less row number). Same values, same links."""

    def __init__(self, src: list[np.ndarray], tgt: list[np.ndarray], tension: float, p_null: float) -> None:
        positions = sum(len(t) for t in tgt)
        self.starts = np.empty(positions, dtype=np.int64)  # each target position's first row
        self.shift = np.empty(positions, dtype=np.int64)
        bases: dict[tuple[int, int], int] = {}
        parts: list[np.ndarray] = []
        size = at = offset = 0
        for s, t in zip(src, tgt):
            n, m = len(s), len(t)
            if m == 0:
                continue
            base = bases.get((n, m))
            if base is None:
                base = bases[n, m] = size
                parts.append(_shape_prior(n, m, tension, p_null))
                size += m * (n + 1)
            first = at + np.arange(m) * (n + 1)
            self.starts[offset:offset + m] = first
            self.shift[offset:offset + m] = base + np.arange(m) * (n + 1) - first
            at += m * (n + 1)
            offset += m
        self.table = np.concatenate(parts) if parts else np.zeros(0)

    def block(self, block: tuple[int, int, int, int], local: np.ndarray) -> np.ndarray:
        """The prior of the block's rows (``local``: each row's position less the block's first)."""
        r0, r1, p0, _ = block
        return self.table[np.arange(r0, r1) + self.shift[p0 + local]]


def _shape_prior(n: int, m: int, tension: float, p_null: float) -> np.ndarray:
    """The diagonal prior of a unit of ``n`` source and ``m`` target words, target-major, each
    target word's rows NULL first: NULL gets ``p_null``, the source positions the rest in
    proportion to exp(-tension * |(i+1)/n - (j+1)/m|). Without source words, every row is 1."""
    jj = np.repeat(np.arange(m), n + 1)
    ii = np.tile(np.arange(-1, n), m)
    if not n:
        return np.ones(len(ii))
    diag = np.exp(-tension * np.abs((ii + 1) / n - (jj + 1) / m))
    diag[ii < 0] = 0.0
    sums = diag.reshape(m, n + 1).sum(axis=1)
    diag = diag / np.repeat(sums, n + 1) * (1 - p_null)
    diag[ii < 0] = p_null
    return diag


def _blocks(starts: np.ndarray, total: int) -> list[tuple[int, int, int, int]]:
    """(first row, end row, first position, end position) of blocks of about ``_BLOCK`` rows that
    never split a target position: a position's sum over its rows is then one block's, added in
    the same order as over all rows at once."""
    cuts = np.unique(np.searchsorted(starts, np.arange(0, total, _BLOCK), side="right") - 1)
    out, p0 = [], 0
    for p1 in [*(int(c) for c in cuts if c > 0), len(starts)] if len(starts) else []:
        out.append((int(starts[p0]), int(starts[p1]) if p1 < len(starts) else total, p0, p1))
        p0 = p1
    return out


def _local(starts: np.ndarray, block: tuple[int, int, int, int]) -> np.ndarray:
    """Each row's target position less the block's first: rebuilt per use, not held (it would be
    8 bytes a pair)."""
    _, r1, p0, p1 = block
    return np.repeat(np.arange(p1 - p0), np.diff(np.append(starts[p0:p1], r1)))


def _weigh(t: np.ndarray, inv: np.ndarray, prior: _Prior, blocks: list[tuple[int, int, int, int]],
           out: np.ndarray) -> None:
    """out = t[inv] * prior, block by block (the same products, without a pair-sized temporary)."""
    for block in blocks:
        r0, r1, _, _ = block
        np.multiply(t[inv[r0:r1]], prior.block(block, _local(prior.starts, block)), out=out[r0:r1])


def _directional(src: list[np.ndarray], tgt: list[np.ndarray], v_tgt: int, iterations: int,
                 tension: float, p_null: float) -> list[np.ndarray]:
    """For each unit, the source position (or -1 = NULL) each target word is aligned to.

    Memory is what bounds the aligned sample, so the pair arrays are allocated once, as narrow as
    they can be (a pair's key index as int32, its weight as float64, its prior and positions
    rebuilt by blocks: ``_Prior``), and every element-wise step runs in place or by blocks: 12 bytes
    a pair.
    The arithmetic is the textbook vectorised EM, sum for sum in the same order (``np.add.at`` adds
    as ``np.bincount`` does, one pair after the other), so the links do not depend on the layout."""
    total = sum(len(t) * (len(s) + 1) for s, t in zip(src, tgt))
    if not total:
        return [np.full(len(t), -1, dtype=np.int64) for t in tgt]
    keys, inv = _key_index(src, tgt, v_tgt, total)
    prior = _Prior(src, tgt, tension, p_null)
    starts = prior.starts
    log_memory(f"aligner pairs ({total:,})")
    positions = len(starts)
    blocks = _blocks(starts, total)
    # Each key's source word, as its rank among the keys' source words (numpy.unique's inverse):
    # the keys are sorted, so their source ids are too, and the rank is a running count of changes.
    source = keys // v_tgt
    e_inv = np.zeros(len(keys), dtype=np.int32 if len(keys) < 2**31 else np.int64)
    np.cumsum(source[1:] != source[:-1], out=e_inv[1:])
    del keys, source
    t = np.ones(len(e_inv))
    w = np.empty(len(inv))
    for _ in range(iterations):
        for block in blocks:  # w becomes the posterior in place
            r0, r1, p0, p1 = block
            local = _local(starts, block)
            np.multiply(t[inv[r0:r1]], prior.block(block, local), out=w[r0:r1])
            z = np.bincount(local, weights=w[r0:r1], minlength=p1 - p0)
            z[~(z > 0)] = 1.0
            w[r0:r1] /= z[local]
        counts = t  # t is read again only once the counts are its new values: one key-sized array
        counts.fill(0.0)
        for b in range(0, len(w), _BLOCK):
            np.add.at(counts, inv[b:b + _BLOCK], w[b:b + _BLOCK])
        tot = np.bincount(e_inv, weights=counts)
        for b in range(0, len(counts), _BLOCK):
            denominator = tot[e_inv[b:b + _BLOCK]]
            denominator[~(denominator > 0)] = 1.0
            counts[b:b + _BLOCK] /= denominator
    _weigh(t, inv, prior, blocks, w)
    # Best source position per target position: the first maximum in pair order (NULL, 0, 1, ...).
    # Pairs are grouped by target position, so a segmented maximum finds it without a sort.
    best = np.maximum.reduceat(w, starts)
    best_i = np.full(positions, -1, dtype=np.int64)
    for block in blocks:
        r0, r1, p0, _ = block
        local = _local(starts, block)
        rows = np.flatnonzero(w[r0:r1] == best[p0 + local])
        hit_j = local[rows]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = hit_j[1:] != hit_j[:-1]
        at = p0 + hit_j[first]
        best_i[at] = r0 + rows[first] - starts[at] - 1
    out, pos = [], 0
    for t_sent in tgt:
        out.append(best_i[pos:pos + len(t_sent)] if len(t_sent) else np.zeros(0, dtype=np.int64))
        pos += len(t_sent)
    return out


def _grow_diag(fwd: set[tuple[int, int]], rev: set[tuple[int, int]]) -> Links:
    """Koehn et al.'s grow-diag: start from the intersection, add union links next to existing ones
    whose source or target word is still unaligned."""
    links = fwd & rev
    union = fwd | rev
    src_done = {i for i, _ in links}
    tgt_done = {j for _, j in links}
    neighbours = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
    added = True
    while added:
        added = False
        for i, j in sorted(links):
            for di, dj in neighbours:
                cand = (i + di, j + dj)
                if cand in union and cand not in links and (cand[0] not in src_done or cand[1] not in tgt_done):
                    links.add(cand)
                    src_done.add(cand[0])
                    tgt_done.add(cand[1])
                    added = True
    return sorted(links)


def align(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]], *, iterations: int = 5,
          tension: float = 4.0, p_null: float = 0.08) -> list[Links]:
    """Symmetrised word links for each (source tokens, target tokens) pair."""
    return [grown for grown, _ in align_with_sure(src, tgt, iterations=iterations, tension=tension, p_null=p_null)]


MAX_PAIRS_PER_UNIT = 250_000  # default of params.alignment.max_pairs_per_unit


def align_with_sure(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]], *, iterations: int = 5,
                    tension: float = 4.0, p_null: float = 0.08,
                    max_pairs: int = MAX_PAIRS_PER_UNIT) -> list[tuple[Links, Links]]:
    """Per unit, the grow-diag links and the sure links (both directions agree: the intersection).
    A unit of more than ``max_pairs`` word pairs (|source| x |target|) is not aligned (no links):
    the aligner's memory grows with the pairs, and one hostile unit of 20,000 words a side would
    hold 400M of them (~24 GB)."""
    too_long = [len(s) * len(t) > max_pairs for s, t in zip(src, tgt)]
    if any(too_long):
        src = [() if cut else s for s, cut in zip(src, too_long)]
        tgt = [() if cut else t for t, cut in zip(tgt, too_long)]
    s_ids, v_s = _vocab(src)
    t_ids, v_t = _vocab(tgt)
    log_memory("aligner start")
    f2e = _directional(s_ids, t_ids, v_t, iterations, tension, p_null)  # target word -> source position
    e2f = _directional(t_ids, s_ids, v_s, iterations, tension, p_null)  # source word -> target position
    log_memory("aligner done")
    out: list[tuple[Links, Links]] = []
    for a, b in zip(f2e, e2f):
        fwd = {(int(i), j) for j, i in enumerate(a) if i >= 0}
        rev = {(i, int(j)) for i, j in enumerate(b) if j >= 0}
        out.append((_grow_diag(fwd, rev), sorted(fwd & rev)))
    return out
