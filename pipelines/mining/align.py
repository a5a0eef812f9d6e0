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

Links = list[tuple[int, int]]  # (source position, target position)


def _vocab(sentences: Sequence[Sequence[str]]) -> tuple[list[np.ndarray], int]:
    index: dict[str, int] = {}
    out = []
    for sent in sentences:
        out.append(np.fromiter((index.setdefault(w, len(index) + 1) for w in sent), dtype=np.int64, count=len(sent)))
    return out, len(index) + 1  # id 0 is NULL


def _directional(src: list[np.ndarray], tgt: list[np.ndarray], v_tgt: int, iterations: int,
                 tension: float, p_null: float) -> list[np.ndarray]:
    """For each unit, the source position (or -1 = NULL) each target word is aligned to."""
    pe, pf, pj, pi, prior = [], [], [], [], []
    offset = 0
    for s, t in zip(src, tgt):
        n, m = len(s), len(t)
        if m == 0:
            continue
        jj = np.repeat(np.arange(m), n + 1)
        ii = np.tile(np.arange(-1, n), m)
        ee = np.tile(np.concatenate(([0], s)), m)
        ff = np.repeat(t, n + 1)
        if n:
            diag = np.exp(-tension * np.abs((ii + 1) / n - (jj + 1) / m))
            diag[ii < 0] = 0.0
            sums = diag.reshape(m, n + 1).sum(axis=1)
            diag = diag / np.repeat(sums, n + 1) * (1 - p_null)
            diag[ii < 0] = p_null
        else:
            diag = np.ones(len(ii))
        pe.append(ee); pf.append(ff); pj.append(jj + offset); pi.append(ii); prior.append(diag)
        offset += m
    if not pe:
        return [np.full(len(t), -1, dtype=np.int64) for t in tgt]
    # One row per (target word, source position) pair of every unit: the per-unit pieces are freed
    # as soon as they are joined, and positions/ids are int32, which halves the aligner's peak memory
    # share on a 20,000-unit sample without touching the float64 arithmetic.
    E, F = np.concatenate(pe).astype(np.int32), np.concatenate(pf).astype(np.int32)
    del pe, pf
    J, I = np.concatenate(pj).astype(np.int32), np.concatenate(pi).astype(np.int32)
    del pj, pi
    P = np.concatenate(prior)
    del prior
    keys, inv = np.unique(E.astype(np.int64) * v_tgt + F, return_inverse=True)
    del E, F
    key_e = keys // v_tgt
    _, e_inv = np.unique(key_e, return_inverse=True)
    t = np.ones(len(keys))
    for _ in range(iterations):
        w = t[inv] * P
        z = np.bincount(J, weights=w, minlength=offset)
        post = w / np.where(z[J] > 0, z[J], 1.0)
        counts = np.bincount(inv, weights=post, minlength=len(keys))
        tot = np.bincount(e_inv, weights=counts)
        t = counts / np.where(tot[e_inv] > 0, tot[e_inv], 1.0)
    w = t[inv] * P
    order = np.lexsort((-w, J))  # by target position, best first (stable: ties keep the lower source position)
    first = np.ones(len(order), dtype=bool)
    first[1:] = J[order][1:] != J[order][:-1]
    best_i = np.full(offset, -1, dtype=np.int64)
    best_i[J[order][first]] = I[order][first]
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
    f2e = _directional(s_ids, t_ids, v_t, iterations, tension, p_null)  # target word -> source position
    e2f = _directional(t_ids, s_ids, v_s, iterations, tension, p_null)  # source word -> target position
    out: list[tuple[Links, Links]] = []
    for a, b in zip(f2e, e2f):
        fwd = {(int(i), j) for j, i in enumerate(a) if i >= 0}
        rev = {(i, int(j)) for i, j in enumerate(b) if j >= 0}
        out.append((_grow_diag(fwd, rev), sorted(fwd & rev)))
    return out
