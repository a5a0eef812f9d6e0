"""Misaligned units come in runs: a unit whose TM neighbours are misaligned needs less evidence of
its own to be told misaligned (``suspect_units`` tells units one by one).

Why: a TM exported from aligned documents goes wrong by an offset, so the rows after a misaligned
row are misaligned too (TICO-19 en→fr: most of one PubMed document). The per-unit test misses the
units of such a run that trigger only a rule or two: of 33 unflagged units sitting between two
flagged ones in TM order, 12 of 12 read were misaligned.

How, in Bayes' terms with no new threshold:
- **Neighbours** are the previous and next unit of the same TM file by position (tm_units'
  ``source_file`` / ``unit_ordinal``, ``Corpus.tm_order``), among the units being mined. Never the
  corpus order (sorted by id) or the id's text: a TM whose file order was shuffled has no runs.
- **Prior.** How much a flagged neighbour raises a unit's odds of being flagged is measured on the
  TM itself, as a two-state Markov chain over each file's order: the chance that the unit after a
  flagged one is flagged, and after an unflagged one (each shrunk towards the overall flagged rate
  with ``PRIOR_UNITS`` pseudo-pairs, so a few flags prove nothing). A unit's prior odds given its
  previous and next unit, over the overall odds, is the factor its neighbours bring. Where flags
  are scattered (a shuffled TM, the swapped-targets test, a product catalogue's odd units) the
  factor is about 1. The units being judged count as unflagged in the chain, which only lowers the
  factor. And the order is used at all only when the flags sit side by side more often than chance
  would place them (``clustering_p_value`` < alpha, the per-unit test's own level): in a small TM
  two flags may meet by chance, and a chain learnt from them would invent a run.
- **Own evidence.** A p-value is turned into the largest Bayes factor against "aligned" it can
  stand for, 1 / (−e·p·ln p) (Sellke, Bayarri & Berger 2001), which is 1 — no evidence at all —
  for p ≥ 1/e. The per-unit test flags at p < alpha, i.e. at a Bayes factor of B(alpha) (7.99 at
  alpha .01) under the base prior. A unit with flagged neighbours is flagged when odds ratio ×
  B(p) ≥ B(alpha): the same posterior bar as the per-unit test, reached with the neighbours' prior.
- **Own evidence required.** A unit must fail at least one of its own trials: units with no trial
  or failing none (p = 1) are never flagged, however long their run — their target contradicts
  nothing, and a flag would rest on the prior alone. A unit whose target keeps a rare anchor of
  its source is aligned whatever its neighbours (``anchors.kept_rare_anchor``).
- **Overwhelming runs.** A unit that fails some trial but whose p-value is no evidence (p ≥ 1/e,
  B = 1) joins only from inside a run: both neighbours flagged, and the neighbours' prior alone
  reaching the bar (odds ratio ≥ B(alpha)). At a run's edge (one flagged neighbour) it needs
  p < 1/e: where a run ends, the next unit is as likely the first aligned one.
- A unit joined counts as flagged for its own neighbours (and in the chain, which is learnt
  again), so a run is followed across units of weak evidence, one step per round; it stops at a
  unit failing nothing, at a kept rare anchor, or at an edge unit with p ≥ 1/e. On TICO-19's test
  split (read by hand): the first round added 69 units (15 of a random 15 misaligned), the later
  rounds 15 (all misaligned), the units inside the run with p ≥ 1/e 11 (all misaligned).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import numpy as np

from housestyle.pipelines.mining.anchors import PRIOR_UNITS  # the rule of succession's two pseudo-units
from housestyle.pipelines.mining.suspect_units import Suspect, tail_probability

EXACT_TRIALS = 5_000  # the exact Poisson-binomial tail costs trials²: beyond this, its normal approximation
NO_EVIDENCE = 1 / math.e  # a p-value at or above this is no evidence against "aligned" (B = 1)


def max_bayes_factor(p_value: float) -> float:
    """The largest Bayes factor against the null a p-value can stand for, 1 / (−e·p·ln p)
    for p < 1/e, else 1 (Sellke, Bayarri & Berger 2001)."""
    if p_value <= 0.0:
        return math.inf
    if p_value >= NO_EVIDENCE:
        return 1.0
    return 1.0 / (-math.e * p_value * math.log(p_value))


def tm_neighbours(tm_order: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """(n, 2) unit indices of each unit's previous and next unit in its TM file's order, -1 at a
    file's edge. Units of the same file and position (a duplicate row) are ordered by index."""
    files, ordinals = tm_order
    n = len(files)
    out = np.full((n, 2), -1, dtype=np.int64)
    if n < 2:
        return out
    order = np.lexsort((np.arange(n), ordinals, files))
    same_file = files[order[1:]] == files[order[:-1]]
    out[order[1:][same_file], 0] = order[:-1][same_file]
    out[order[:-1][same_file], 1] = order[1:][same_file]
    return out


def flagged_neighbours(flagged: np.ndarray, neighbours: np.ndarray) -> np.ndarray:
    """How many of each unit's two neighbours (0, 1 or 2) are flagged."""
    padded = np.r_[flagged, False]  # index -1 (no neighbour) reads the padding
    return padded[neighbours].sum(axis=1)


def transitions(flagged: np.ndarray, neighbours: np.ndarray) -> np.ndarray:
    """2×2 chance that the next unit of a file is flagged (column 1) or not (column 0), given this
    unit is (row 1) or not (row 0), counted over the TM's consecutive pairs; each row shrunk
    towards the overall flagged rate with ``PRIOR_UNITS`` pseudo-pairs."""
    base = float(flagged.mean()) if flagged.size else 0.0
    has_next = neighbours[:, 1] >= 0
    here, there = flagged[has_next], flagged[neighbours[has_next, 1]]
    out = np.empty((2, 2))
    for state in (0, 1):
        rows = here == bool(state)
        rate = (float(there[rows].sum()) + PRIOR_UNITS * base) / (float(rows.sum()) + PRIOR_UNITS)
        out[state] = (1.0 - rate, rate)
    return out


def prior_odds_ratios(flagged: np.ndarray, neighbours: np.ndarray) -> np.ndarray:
    """Per unit: its odds of being flagged given its two neighbours' flags, as a Markov chain over
    the file's order (``transitions``: P(unit | previous) · P(next | unit)), over the overall odds
    (the prior the per-unit test's bar was set under). About 1 where flags are scattered."""
    n = flagged.size
    base = float(flagged.mean()) if n else 0.0
    if not 0.0 < base < 1.0:
        return np.ones(n)
    step = transitions(flagged, neighbours)
    prev, nxt = neighbours[:, 0], neighbours[:, 1]
    padded = np.r_[flagged, False].astype(np.int64)
    odds = np.full(n, base / (1.0 - base))  # no previous unit: the overall rate
    odds = np.where(prev >= 0, step[padded[prev], 1] / step[padded[prev], 0], odds)
    odds = odds * np.where(nxt >= 0, step[1, padded[nxt]] / step[0, padded[nxt]], 1.0)
    return odds / (base / (1.0 - base))


def clustering_p_value(flagged: np.ndarray, neighbours: np.ndarray, files: np.ndarray) -> float:
    """P(at least as many flagged units followed by a flagged unit as seen) were the flags placed at
    random within each file: one trial per flagged unit with a next unit, of probability (flags of
    its file − 1) / (units of its file − 1) (the Poisson-binomial tail, ``tail_probability``)."""
    has_next = flagged & (neighbours[:, 1] >= 0)
    if not has_next.any():
        return 1.0
    _, file_of, units = np.unique(files, return_inverse=True, return_counts=True)
    flags = np.bincount(file_of, weights=flagged.astype(float), minlength=units.size)
    chance = (flags[file_of[has_next]] - 1.0) / np.maximum(units[file_of[has_next]] - 1.0, 1.0)
    pairs = int(flagged[neighbours[has_next, 1]].sum())
    if chance.size <= EXACT_TRIALS:
        return tail_probability(chance.tolist(), pairs)
    # many trials: the normal approximation of the same tail (with continuity correction)
    mean, sd = float(chance.sum()), math.sqrt(float((chance * (1.0 - chance)).sum()))
    return 0.5 * math.erfc((pairs - 0.5 - mean) / (sd * math.sqrt(2.0))) if sd > 0 else float(pairs <= mean)


def run_members(tests: Sequence[Suspect], told: Collection[int], tm_order: tuple[np.ndarray, np.ndarray] | None,
                alpha: float, aligned: Collection[int] = frozenset()) -> list[Suspect]:
    """The units of ``tests`` (``suspect_units.unit_tests``) not already ``told`` misaligned whose
    own evidence, weighted by their flagged TM neighbours' prior (told, or joined in an earlier
    round), clears the per-unit test's bar (module docstring), by unit index. ``aligned`` units are
    never flagged. Without a TM order, or when the told units do not cluster in it: none."""
    if tm_order is None or not told or alpha <= 0.0:
        return []
    neighbours = tm_neighbours(tm_order)
    flagged = np.zeros(len(tm_order[0]), dtype=bool)
    flagged[list(told)] = True
    if clustering_p_value(flagged, neighbours, tm_order[0]) >= alpha:
        return []  # flags side by side no more often than chance: the order shows no run
    bar = max_bayes_factor(alpha)
    candidates = [t for t in tests if t.index not in told and t.index not in aligned and t.failed + t.anchors_failed]
    joined: list[Suspect] = []
    while candidates:  # a unit joined is a flagged neighbour of the next: the run is followed unit by unit
        ratios = prior_odds_ratios(flagged, neighbours)
        k = flagged_neighbours(flagged, neighbours)
        # p >= 1/e is no evidence (B = 1): such a unit joins only inside a run, on its prior alone
        now = [t for t in candidates if k[t.index] >= (1 if t.p_value < NO_EVIDENCE else 2)
               and ratios[t.index] * max_bayes_factor(t.p_value) >= bar]
        if not now:
            break
        joined += now
        flagged[[t.index for t in now]] = True
        candidates = [t for t in candidates if not flagged[t.index]]
    return sorted(joined, key=lambda t: t.index)
