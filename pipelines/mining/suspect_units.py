"""Units whose target does not translate their source (misaligned TM rows), told by the mined term
rules' own counter-evidence and by the numbers and names the target fails to keep (``anchors``),
so term rules can be mined again without them and the cross-fit does not judge rules on them.

TMs exported from aligned documents can hold runs of rows that pair a target sentence with another
source sentence. In TICO-19 en→fr, most of one PubMed document is such a run. A misaligned unit
fails most of the term rules its source triggers, and that is the test. Were the unit an ordinary
one, each rule in scope for it would fail independently with the rule's rule-of-succession failure
rate, (counter + 1) / (units + 2): a rule seen in one unit may well fail, one seen in 200 seldom
does. Each anchor of the source is one more trial (its rate: ``anchors.anchor_trials``). The unit
is suspect when the Poisson-binomial probability of failing at least as many of its trials as it
does is below ``suspects.alpha``. Suspects are reported (``suspect_units.parquet``),
never dropped silently, and only the term rules leave them out: pattern and rule families keep
measuring every unit, so a misaligned unit still shows as their counter-example.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from housestyle.pipelines.mining.anchors import Trials


@dataclass(frozen=True, slots=True)
class Suspect:
    index: int  # into the corpus the rules were mined on
    in_scope: int  # term rules whose source term the unit's source holds
    failed: int  # ... whose rendering its target lacks
    p_value: float
    anchors_in_scope: int = 0  # numbers and names of the source (anchors.py)
    anchors_failed: int = 0  # ... its target does not keep

    def row(self, unit_ids: Sequence[str]) -> dict[str, object]:
        return {"unit_id": unit_ids[self.index], "rules_in_scope": self.in_scope, "rules_failed": self.failed,
                "anchors_in_scope": self.anchors_in_scope, "anchors_failed": self.anchors_failed,
                "p_value": self.p_value}


def tail_probability(probabilities: Sequence[float], k: int) -> float:
    """P(X ≥ k) for X the number of successes of independent trials with these probabilities
    (the Poisson-binomial distribution, by its exact recurrence)."""
    if k <= 0:
        return 1.0
    dist = np.zeros(len(probabilities) + 1)
    dist[0] = 1.0
    for p in probabilities:
        dist[1:] = dist[1:] * (1.0 - p) + dist[:-1] * p
        dist[0] *= 1.0 - p
    return float(min(1.0, dist[k:].sum()))


TAIL_BLOCK_CELLS = 4_000_000  # float64 cells of one padded block of ``tail_probabilities`` (32 MB)


def tail_probabilities(rates: np.ndarray, starts: Sequence[int], ends: Sequence[int], ks: Sequence[int],
                       block_cells: int = TAIL_BLOCK_CELLS) -> list[float]:
    """``tail_probability(rates[start:end], k)`` of each (start, end, k), equal to it bit for bit.

    WHY: the recurrence costs a few numpy calls per trial, and a 200,000-unit TM tests ~320,000 units
    of ~15 trials each (13.5 of 575 profiled seconds). Units of similar length (lengths in one power
    of two) run it together, one step per trial position over a matrix padded with trials of
    probability 0 (x·1 + 0·0 = x: a padded trial changes no value), so the steps are per position,
    not per trial; each unit's tail is then summed over its own row as the one-unit function sums it."""
    lengths = np.asarray(ends, dtype=np.int64) - np.asarray(starts, dtype=np.int64)
    out = [1.0] * len(lengths)
    order = np.argsort(lengths, kind="stable").tolist()
    i = 0
    while i < len(order):
        width = max(1, int(lengths[order[i]]))
        cap = 1 << (width - 1).bit_length()  # this block: lengths up to the next power of two
        rows_max = max(1, block_cells // (cap + 1))
        block: list[int] = []
        while i < len(order) and int(lengths[order[i]]) <= cap and len(block) < rows_max:
            block.append(order[i])
            i += 1
        n = max(int(lengths[j]) for j in block)
        trials = np.zeros((len(block), n))
        for row, j in enumerate(block):
            trials[row, :lengths[j]] = rates[starts[j]:ends[j]]
        dist = np.zeros((len(block), n + 1))
        dist[:, 0] = 1.0
        for t in range(n):
            p = trials[:, t:t + 1]
            dist[:, 1:] = dist[:, 1:] * (1.0 - p) + dist[:, :-1] * p
            dist[:, 0] *= 1.0 - p[:, 0]
        for row, j in enumerate(block):
            k = int(ks[j])
            if k > 0:
                out[j] = float(min(1.0, dist[row, k:int(lengths[j]) + 1].sum()))
    return out


Evidence = Mapping[str, tuple[Sequence[int] | np.ndarray, Sequence[int] | np.ndarray]]
UNIT_BLOCK = 65_536  # units whose trials are gathered at once (unit_tests)


def rule_parts(evidence: Evidence) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Per rule, in rule order: (its passing units, its failing units, both sorted) and its
    rule-of-succession failure rate, (counter + 1) / (units + 2)."""
    parts = []
    for passing, failing in evidence.values():
        passing, failing = _ascending(passing), _ascending(failing)
        parts.append((passing, failing, (failing.size + 1) / (passing.size + failing.size + 2)))
    return parts


def _ascending(units: Sequence[int] | np.ndarray) -> np.ndarray:
    """The units as a sorted int64 array, the caller's own when it already is one (the miner's
    evidence arrays are: ~40M units on 1M TM units, not to be copied)."""
    array = np.asarray(units, dtype=np.int64)
    return array if array.size < 2 or bool((array[1:] >= array[:-1]).all()) else np.sort(array)


def _block_trials(parts: list[tuple[np.ndarray, np.ndarray, float]], lo: int, hi: int,
                  keep: np.ndarray) -> Trials:
    """The rule trials of the units in [lo, hi) that ``keep`` marks, in rule order (each rule's
    passing units, then its failing ones)."""
    units: list[np.ndarray] = []
    rates: list[np.ndarray] = []
    fails: list[np.ndarray] = []
    for passing, failing, rate in parts:
        for part, failed in ((passing, False), (failing, True)):
            a, b = np.searchsorted(part, (lo, hi))
            if a == b:
                continue
            inside = part[a:b]
            inside = inside[keep[inside]]
            units.append(inside)
            rates.append(np.full(inside.size, rate))
            fails.append(np.full(inside.size, failed))
    if not units:
        return Trials.empty()
    return Trials(np.concatenate(units), np.concatenate(rates), np.concatenate(fails))


def find_suspects(evidence: Evidence, alpha: float, anchors: Trials | None = None) -> list[Suspect]:
    """Units failing improbably many of their trials — the rules in scope for them (``evidence``:
    rule id → (evidence unit indices, counter-example unit indices)) and, when given, the anchors
    their source holds — by unit index."""
    return [s for s in unit_tests(evidence, anchors) if s.p_value < alpha]


def unit_tests(evidence: Evidence, anchors: Trials | None = None, block: int = UNIT_BLOCK) -> list[Suspect]:
    """The test of every unit failing at least one trial, whatever its p-value (a unit failing none
    has p = 1), by unit index: ``find_suspects`` keeps the improbable ones, ``misaligned_runs`` the
    weaker ones its misaligned TM neighbours vouch for.

    Only units failing some trial can be suspect, so only their trials are gathered, ``block``
    units at a time: on 1M units the rules' trials of every unit at once were ~40M rows and the
    miner's peak (3.6 GiB). Each unit's trials keep their order (rules in rule order, then anchors),
    the order the tail probability is computed in."""
    parts = rule_parts(evidence)
    extra = anchors if anchors is not None else Trials.empty()
    tops = [int(a[-1]) for p, f, _ in parts for a in (p, f) if a.size] + ([int(extra.unit.max())] if extra.unit.size else [])
    if not tops:
        return []
    failing_units = np.zeros(max(tops) + 1, dtype=bool)
    for _passing, failing, _rate in parts:
        failing_units[failing] = True
    failing_units[extra.unit[extra.failed]] = True
    out: list[Suspect] = []
    step = max(1, block)
    for lo in range(0, failing_units.size, step):
        hi = lo + step
        rules = _block_trials(parts, lo, hi, failing_units)
        mine = (extra.unit >= lo) & (extra.unit < hi)
        mine[mine] = failing_units[extra.unit[mine]]
        out += _tests(Trials(np.concatenate([rules.unit, extra.unit[mine]]), np.concatenate([rules.rate, extra.rate[mine]]),
                             np.concatenate([rules.failed, extra.failed[mine]])),
                      np.r_[np.zeros(rules.unit.size, dtype=bool), np.ones(int(mine.sum()), dtype=bool)])
    return out


def _tests(trials: Trials, is_anchor: np.ndarray) -> list[Suspect]:
    """Each unit's test from its trials (any order across units, each unit's own in order)."""
    if not trials.unit.size:
        return []
    order = np.argsort(trials.unit, kind="stable")
    unit_of, rate_of, failed_of, is_anchor = trials.unit[order], trials.rate[order], trials.failed[order], is_anchor[order]
    starts = np.flatnonzero(np.r_[True, unit_of[1:] != unit_of[:-1]])
    ends = np.r_[starts[1:], unit_of.size]
    counts = np.add.reduceat(failed_of.astype(np.int64), starts)
    p_values = tail_probabilities(rate_of, starts.tolist(), ends.tolist(), counts.tolist())
    out = []
    for start, end, p_value in zip(starts.tolist(), ends.tolist(), p_values):
        failed = failed_of[start:end]
        anchor = is_anchor[start:end]
        out.append(Suspect(int(unit_of[start]), int((~anchor).sum()), int((failed & ~anchor).sum()), p_value,
                           int(anchor.sum()), int((failed & anchor).sum())))
    return out
