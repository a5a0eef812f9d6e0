"""The vectorised IBM-1 EM against a plain per-pair loop of the same model, and its edge cases."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from housestyle.pipelines.mining.align import _blocks, _directional, _local, _Rows, _vocab, align_with_sure
from housestyle.pipelines.mining.corpus import Corpus


def _reference(src: list[list[str]], tgt: list[list[str]], iterations: int = 5, tension: float = 4.0,
               p_null: float = 0.08) -> list[list[int]]:
    """IBM Model 1 with fast_align's diagonal prior, written as the textbook loops: t(f | e), E-step
    per target word, M-step per source word; the best source position per target word, NULL (-1)
    first and the lower position on a tie."""
    def prior(i: int, j: int, n: int, m: int) -> float:
        if i < 0:
            return p_null if n else 1.0
        weights = [np.exp(-tension * abs((k + 1) / n - (j + 1) / m)) for k in range(n)]
        return float(weights[i] / sum(weights) * (1 - p_null))

    t: dict[tuple[str, str], float] = defaultdict(lambda: 1.0)
    for _ in range(iterations + 1):
        counts: dict[tuple[str, str], float] = defaultdict(float)
        best: list[list[int]] = []
        for s, f in zip(src, tgt):
            n, m = len(s), len(f)
            row = []
            for j, word in enumerate(f):
                scores = [(t[(s[i] if i >= 0 else "", word)] * prior(i, j, n, m), i) for i in range(-1, n)]
                z = sum(score for score, _ in scores) or 1.0
                for score, i in scores:
                    counts[(s[i] if i >= 0 else "", word)] += score / z
                top = max(score for score, _ in scores)
                row.append(next(i for score, i in scores if score == top))
            best.append(row)
        totals: dict[str, float] = defaultdict(float)
        for (e, _), c in counts.items():
            totals[e] += c
        t = defaultdict(lambda: 1.0, {(e, f): c / totals[e] for (e, f), c in counts.items()})
    return best


def _vectorised(src: list[list[str]], tgt: list[list[str]]) -> list[list[int]]:
    s_ids, _ = _vocab(src)
    t_ids, v_t = _vocab(tgt)
    return [a.tolist() for a in _directional(s_ids, t_ids, v_t, 5, 4.0, 0.08)]


SMALL = (
    [["the", "house"], ["the", "book"], ["a", "book"], ["house"], [], ["the", "red", "house", "the"]],
    [["la", "maison"], ["le", "livre"], ["un", "livre"], ["maison"], ["seul"], ["la", "maison", "rouge"]],
)


def test_the_vectorised_em_picks_what_the_textbook_loops_pick() -> None:
    src, tgt = SMALL
    assert _vectorised(list(src), list(tgt)) == _reference(list(src), list(tgt))


def test_units_with_an_empty_side_align_to_null_or_to_nothing() -> None:
    links = _vectorised([["word"], [], ["word"]], [["mot"], ["seul"], []])
    assert links[1] == [-1]  # no source word: the target word can only be NULL
    assert links[2] == []
    assert _vectorised([[]], [[]]) == [[]]
    assert align_with_sure([[], ["a"]], [[], []]) == [([], []), ([], [])]


def test_the_same_links_on_real_units_as_the_textbook_loops(tico_dev: Corpus) -> None:
    src = [text.lower().split() for text in tico_dev.sources[:80]]
    tgt = [text.lower().split() for text in tico_dev.targets[:80]]
    assert _vectorised(src, tgt) == _reference(src, tgt)


def test_a_unit_of_too_many_word_pairs_gets_no_links_and_leaves_the_others_as_they_were() -> None:
    """Hostile input: the aligner holds |source| x |target| pairs a unit, so a giant unit is not aligned."""
    src = [["the", "file"], ["open", "the", "file"], [f"w{k}" for k in range(600)]]
    tgt = [["le", "fichier"], ["ouvrir", "le", "fichier"], [f"m{k}" for k in range(600)]]
    bounded = align_with_sure(src, tgt, max_pairs=250_000)
    assert bounded[2] == ([], [])
    assert bounded[:2] == align_with_sure(src[:2], tgt[:2])
    assert align_with_sure(src, tgt, max_pairs=10**6)[2][0]  # under the bound it is aligned


def test_the_prior_is_held_once_per_unit_shape_and_read_back_for_every_row() -> None:
    """The prior is not held per pair (8 bytes a pair at the aligner's peak): one copy per
    (source length, target length), read back through each position's shift."""
    shapes = [(2, 3), (5, 1), (2, 3), (0, 2)] * 500
    src = [np.arange(1, n + 1) for n, _ in shapes]
    tgt = [np.arange(1, m + 1) for _, m in shapes]
    prior = _Rows(src, tgt, 4.0, 0.08)
    assert len(prior.table) == 3 * 3 + 1 * 6 + 2 * 1  # three distinct shapes
    total = sum(m * (n + 1) for n, m in shapes)
    rows = np.concatenate([prior.prior(b, _local(prior.starts, b)) for b in _blocks(prior.starts, total)])
    assert len(rows) == total
    at = 0
    for n, m in shapes[:4]:
        unit = rows[at:at + m * (n + 1)].reshape(m, n + 1)
        if n:
            assert np.allclose(unit[:, 0], 0.08) and np.allclose(unit.sum(axis=1), 1.0)
        else:
            assert np.array_equal(unit, np.ones((m, 1)))
        at += m * (n + 1)


def _grow_diag_textbook(fwd: set[tuple[int, int]], rev: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """grow-diag as it is usually written: every pass visits every link, sorted, until none is added."""
    links, union = fwd & rev, fwd | rev
    src_done, tgt_done = {i for i, _ in links}, {j for _, j in links}
    added = True
    while added:
        added = False
        for i, j in sorted(links):
            for di, dj in ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)):
                cand = (i + di, j + dj)
                if cand in union and cand not in links and (cand[0] not in src_done or cand[1] not in tgt_done):
                    links.add(cand)
                    src_done.add(cand[0])
                    tgt_done.add(cand[1])
                    added = True
    return sorted(links)


def test_grow_diag_gives_the_textbook_loop_s_links() -> None:
    """2,000 seeded random link sets (dense and sparse, square and long units): the pass over only the
    last pass's additions gives what every pass over every link gives."""
    from housestyle.pipelines.mining.align import _grow_diag

    rng = np.random.default_rng(2026)
    grown_beyond = 0
    for _ in range(2000):
        n, m = int(rng.integers(1, 12)), int(rng.integers(1, 40))
        density = float(rng.uniform(0.05, 0.6))
        fwd = {(i, j) for i in range(n) for j in range(m) if rng.random() < density}
        rev = {(i, j) for i in range(n) for j in range(m) if rng.random() < density} | set(list(fwd)[:int(rng.integers(0, 4))])
        grown = _grow_diag(set(fwd), set(rev))
        assert grown == _grow_diag_textbook(set(fwd), set(rev)), (fwd, rev)
        grown_beyond += len(grown) > len(fwd & rev)
    assert grown_beyond > 1000  # most cases grow: the passes are exercised, not only the intersection


def test_a_short_source_and_a_very_long_target_grow_in_one_visit_per_link() -> None:
    """The hostile shape: 2 source words, 50,000 target words all linked to one of them in one
    direction, and one link in both. The textbook loop makes a pass per added link (10 minutes were not
    enough); here every target word is linked, each visited once."""
    from housestyle.pipelines.mining.align import _grow_diag

    m = 50_000
    fwd = {(0, j) for j in range(m)}
    rev = {(0, 0)}
    assert _grow_diag(fwd, rev) == sorted(fwd)
