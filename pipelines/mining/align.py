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


class _Rows:
    """The layout of the pair rows, one per (target word, source position or NULL) of every unit,
    target-major, and what a block of rows needs, computed from it instead of held per pair:

    - ``prior(block)``: fast_align's diagonal prior. It depends on a unit's shape (source and
      target lengths) alone, so each distinct shape's is computed once, by the per-unit expression
      (``_shape_prior``), into ``table``, and a row's value is read there through its position's
      ``shift`` (table offset less row number). A held prior was 8 of the 20 bytes a pair at the
      aligner's peak.
    - ``keys(block)``: each row's (source id, target id) key, from the units' source ids laid end to
      end with a NULL (0) before each unit's (``sources``, a unit's first at ``base``) and each
      position's target id. A held key array was 8 bytes a pair beside the key indices.
    """

    def __init__(self, src: list[np.ndarray], tgt: list[np.ndarray], tension: float, p_null: float) -> None:
        positions = sum(len(t) for t in tgt)
        self.starts = np.empty(positions, dtype=np.int64)  # each target position's first row
        self.shift = np.empty(positions, dtype=np.int64)
        self.base = np.empty(positions, dtype=np.int64)
        self.target = np.concatenate(tgt) if tgt else np.zeros(0, dtype=np.int64)
        self.sources = np.concatenate([np.concatenate(([0], s)) for s in src]) if src else np.zeros(0, dtype=np.int64)
        bases: dict[tuple[int, int], int] = {}
        parts: list[np.ndarray] = []
        size = at = offset = source_at = 0
        for s, t in zip(src, tgt):
            n, m = len(s), len(t)
            if m:
                base = bases.get((n, m))
                if base is None:
                    base = bases[n, m] = size
                    parts.append(_shape_prior(n, m, tension, p_null))
                    size += m * (n + 1)
                first = at + np.arange(m) * (n + 1)
                self.starts[offset:offset + m] = first
                self.shift[offset:offset + m] = base + np.arange(m) * (n + 1) - first
                self.base[offset:offset + m] = source_at
                at += m * (n + 1)
                offset += m
            source_at += n + 1
        self.total = at
        self.table = np.concatenate(parts) if parts else np.zeros(0)

    def prior(self, block: tuple[int, int, int, int], local: np.ndarray) -> np.ndarray:
        """The prior of the block's rows (``local``: each row's position less the block's first)."""
        r0, r1, p0, _ = block
        return self.table[np.arange(r0, r1) + self.shift[p0 + local]]

    def keys(self, block: tuple[int, int, int, int], local: np.ndarray, v_tgt: int) -> np.ndarray:
        """The (source id, target id) key of the block's rows, as source id * ``v_tgt`` + target id."""
        r0, r1, p0, _ = block
        at = p0 + local
        keys: np.ndarray = self.sources[self.base[at] + np.arange(r0, r1) - self.starts[at]] * v_tgt + self.target[at]
        return keys


def _key_index(rows: _Rows, blocks: list[tuple[int, int, int, int]], v_tgt: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (source id, target id) keys of all rows, sorted, and each row's index among
    them as int32 (numpy.unique's inverse). The keys are made a block at a time, twice: for their
    distinct values (a hash per block, polars), then for each row's index (a binary search), so
    no pair-sized key array is held: 4 bytes a pair, the indices, against 12 (and a polars copy)."""
    distinct = [pl.Series(rows.keys(b, _local(rows.starts, b), v_tgt)).unique().to_numpy() for b in blocks]
    keys = np.sort(pl.Series(np.concatenate(distinct) if distinct else np.zeros(0, dtype=np.int64)).unique().to_numpy())
    del distinct
    inv = np.empty(rows.total, dtype=np.int32 if len(keys) < 2**31 else np.int64)
    for block in blocks:
        r0, r1, _, _ = block
        inv[r0:r1] = np.searchsorted(keys, rows.keys(block, _local(rows.starts, block), v_tgt))
    return keys, inv


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


def _weigh(t: np.ndarray, inv: np.ndarray, rows: _Rows, blocks: list[tuple[int, int, int, int]],
           out: np.ndarray) -> None:
    """out = t[inv] * prior, block by block (the same products, without a pair-sized temporary)."""
    for block in blocks:
        r0, r1, _, _ = block
        np.multiply(t[inv[r0:r1]], rows.prior(block, _local(rows.starts, block)), out=out[r0:r1])


def _directional(src: list[np.ndarray], tgt: list[np.ndarray], v_tgt: int, iterations: int,
                 tension: float, p_null: float) -> list[np.ndarray]:
    """For each unit, the source position (or -1 = NULL) each target word is aligned to.

    Memory is what bounds the aligned sample, so the pair arrays are allocated once, as narrow as
    they can be (a pair's key index as int32, its weight as float64, its key, prior and positions
    rebuilt by blocks: ``_Rows``), and every element-wise step runs in place or by blocks: 12 bytes
    a pair.
    The arithmetic is the textbook vectorised EM, sum for sum in the same order (``np.add.at`` adds
    as ``np.bincount`` does, one pair after the other), so the links do not depend on the layout."""
    total = sum(len(t) * (len(s) + 1) for s, t in zip(src, tgt))
    if not total:
        return [np.full(len(t), -1, dtype=np.int64) for t in tgt]
    layout = _Rows(src, tgt, tension, p_null)
    starts = layout.starts
    positions = len(starts)
    blocks = _blocks(starts, total)
    keys, inv = _key_index(layout, blocks, v_tgt)
    log_memory(f"aligner pairs ({total:,})")
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
            np.multiply(t[inv[r0:r1]], layout.prior(block, local), out=w[r0:r1])
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
    _weigh(t, inv, layout, blocks, w)
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
    whose source or target word is still unaligned; repeat until nothing is added.

    Each pass visits only the links the previous pass added, in sorted order. That is the textbook
    loop's result (every pass over all links, sorted): a link, once visited, has added every neighbour
    it could, and can never add one later, since links and aligned words only grow. The textbook loop
    was quadratic in a unit's links (a pass per added link of a chain): a hostile unit of 2 source
    words and 50,000 target words had not finished after 10 minutes."""
    links = fwd & rev
    union = fwd | rev
    src_done = {i for i, _ in links}
    tgt_done = {j for _, j in links}
    neighbours = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
    frontier = sorted(links)
    while frontier:
        added: list[tuple[int, int]] = []
        for i, j in frontier:
            for di, dj in neighbours:
                cand = (i + di, j + dj)
                if cand in union and cand not in links and (cand[0] not in src_done or cand[1] not in tgt_done):
                    links.add(cand)
                    src_done.add(cand[0])
                    tgt_done.add(cand[1])
                    added.append(cand)
        frontier = sorted(added)
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
