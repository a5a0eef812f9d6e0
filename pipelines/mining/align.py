"""Deterministic word alignment: IBM Model 1 with fast_align's diagonal prior, both directions,
symmetrised with grow-diag.

Hand-written (vectorised numpy EM) because the one installable fast aligner (eflomal) samples with
an unseeded random generator: the same TM would give different alignments, hence different
set_versions. EM here is deterministic: same input, same links. Memory is O(Σ |src|·|tgt|) over the
aligned units, which is why very large TMs align a bounded sample (``term_max_units_align``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from pipelines.mining.corpus import log_memory

Links = list[tuple[int, int]]  # (source position, target position)


def _vocab(sentences: Sequence[Sequence[str]]) -> tuple[list[np.ndarray], int]:
    index: dict[str, int] = {}
    out = []
    for sent in sentences:
        out.append(np.fromiter((index.setdefault(w, len(index) + 1) for w in sent), dtype=np.int64, count=len(sent)))
    return out, len(index) + 1  # id 0 is NULL


_BLOCK = 1 << 20  # pairs per block of the element-wise steps: their temporaries stay ~8 MB


def _key_index(src: list[np.ndarray], tgt: list[np.ndarray], v_tgt: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (source id, target id) keys of all pairs, sorted, and each pair's index among
    them (numpy.unique's inverse), pairs in ``_pairs`` order. Polars' dense rank sorts with 32-bit
    indices (34 bytes an element at its peak against numpy.unique's 43, measured on 26M keys) and
    runs before the other pair arrays exist."""
    key = np.concatenate([np.tile(np.concatenate(([0], s)), len(t)) * v_tgt + np.repeat(t, len(s) + 1)
                          for s, t in zip(src, tgt) if len(t)] or [np.zeros(0, dtype=np.int64)])
    column = pl.Series(key)
    del key
    keys = np.sort(column.unique().to_numpy())
    inv = column.rank("dense").to_numpy().astype(np.int64)
    inv -= 1
    return keys, inv


def _pairs(src: list[np.ndarray], tgt: list[np.ndarray], tension: float,
           p_null: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One row per (target word, source position or NULL) of every unit, target-major: global
    target position, source position (-1 = NULL) and diagonal prior; and the first row of each
    target position. Written into arrays sized once, so no list of per-unit pieces lives beside
    them."""
    total = sum(len(t) * (len(s) + 1) for s, t in zip(src, tgt))
    starts = np.empty(sum(len(t) for t in tgt), dtype=np.int64)
    pos_j = np.empty(total, dtype=np.int64)
    pos_i = np.empty(total, dtype=np.int32)
    prior = np.empty(total, dtype=np.float64)
    at = offset = 0
    for s, t in zip(src, tgt):
        n, m = len(s), len(t)
        if m == 0:
            continue
        jj = np.repeat(np.arange(m), n + 1)
        ii = np.tile(np.arange(-1, n), m)
        if n:
            diag = np.exp(-tension * np.abs((ii + 1) / n - (jj + 1) / m))
            diag[ii < 0] = 0.0
            sums = diag.reshape(m, n + 1).sum(axis=1)
            diag = diag / np.repeat(sums, n + 1) * (1 - p_null)
            diag[ii < 0] = p_null
        else:
            diag = np.ones(len(ii))
        rows = slice(at, at + len(ii))
        starts[offset:offset + m] = at + np.arange(m) * (n + 1)
        pos_j[rows] = jj + offset
        pos_i[rows] = ii
        prior[rows] = diag
        at += len(ii)
        offset += m
    return pos_j, pos_i, prior, starts


def _weigh(t: np.ndarray, inv: np.ndarray, prior: np.ndarray, out: np.ndarray) -> None:
    """out = t[inv] * prior, block by block (the same products, without a pair-sized temporary)."""
    for b in range(0, len(out), _BLOCK):
        np.multiply(t[inv[b:b + _BLOCK]], prior[b:b + _BLOCK], out=out[b:b + _BLOCK])


def _directional(src: list[np.ndarray], tgt: list[np.ndarray], v_tgt: int, iterations: int,
                 tension: float, p_null: float) -> list[np.ndarray]:
    """For each unit, the source position (or -1 = NULL) each target word is aligned to.

    Memory is what bounds the aligned sample, so the pair arrays are allocated once and every
    element-wise step runs in place or by blocks: 36 bytes a pair at the peak. The arithmetic is
    the textbook vectorised EM, operation for operation, so the links do not depend on the layout."""
    keys, inv = _key_index(src, tgt, v_tgt)
    if not len(inv):
        return [np.full(len(t), -1, dtype=np.int64) for t in tgt]
    pos_j, pos_i, prior, starts = _pairs(src, tgt, tension, p_null)
    log_memory(f"aligner pairs ({len(inv):,})")
    positions = len(starts)
    _, e_inv = np.unique(keys // v_tgt, return_inverse=True)
    t = np.ones(len(keys))
    w = np.empty(len(inv))
    for _ in range(iterations):
        _weigh(t, inv, prior, w)
        z = np.bincount(pos_j, weights=w, minlength=positions)
        z = np.where(z > 0, z, 1.0)
        for b in range(0, len(w), _BLOCK):  # w becomes the posterior in place
            w[b:b + _BLOCK] /= z[pos_j[b:b + _BLOCK]]
        counts = np.bincount(inv, weights=w, minlength=len(keys))
        tot = np.bincount(e_inv, weights=counts)
        t = counts / np.where(tot[e_inv] > 0, tot[e_inv], 1.0)
    _weigh(t, inv, prior, w)
    # Best source position per target position: the first maximum in pair order (NULL, 0, 1, ...).
    # Pairs are grouped by target position, so a segmented maximum finds it without a sort.
    best = np.maximum.reduceat(w, starts)
    hits = np.concatenate([b + np.flatnonzero(w[b:b + _BLOCK] == best[pos_j[b:b + _BLOCK]])
                           for b in range(0, len(w), _BLOCK)])
    hit_j = pos_j[hits]
    first = np.ones(len(hits), dtype=bool)
    first[1:] = hit_j[1:] != hit_j[:-1]
    best_i = np.full(positions, -1, dtype=np.int64)
    best_i[hit_j[first]] = pos_i[hits[first]]
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


def align_with_sure(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]], *, iterations: int = 5,
                    tension: float = 4.0, p_null: float = 0.08) -> list[tuple[Links, Links]]:
    """Per unit, the grow-diag links and the sure links (both directions agree: the intersection)."""
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
