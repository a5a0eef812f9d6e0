"""Units whose target does not translate their source (misaligned TM rows), told by the mined term
rules' own counter-evidence, so term rules can be mined again without them.

TMs exported from aligned documents can hold runs of rows that pair a target sentence with another
source sentence. In TICO-19 en→fr, most of one PubMed document is such a run. A misaligned unit
fails most of the term rules its source triggers, and that is the test. Were the unit an ordinary
one, each rule in scope for it would fail independently with the rule's rule-of-succession failure
rate, (counter + 1) / (units + 2): a rule seen in one unit may well fail, one seen in 200 seldom
does. The unit is suspect when the Poisson-binomial probability of failing at least as many of its
rules as it does is below ``suspects.alpha``. Suspects are reported (``suspect_units.parquet``),
never dropped silently, and only the term rules leave them out: pattern and rule families keep
measuring every unit, so a misaligned unit still shows as their counter-example.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Suspect:
    index: int  # into the corpus the rules were mined on
    in_scope: int  # term rules whose source term the unit's source holds
    failed: int  # ... whose rendering its target lacks
    p_value: float

    def row(self, unit_ids: Sequence[str]) -> dict[str, object]:
        return {"unit_id": unit_ids[self.index], "rules_in_scope": self.in_scope, "rules_failed": self.failed,
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


def find_suspects(evidence: Mapping[str, tuple[Sequence[int] | np.ndarray, Sequence[int] | np.ndarray]],
                  alpha: float) -> list[Suspect]:
    """Units failing improbably many of the rules in scope for them (``evidence``: rule id →
    (evidence unit indices, counter-example unit indices)), by unit index.

    Only units failing some rule can be suspect, so only their (unit, rule rate) pairs are
    gathered, rule by rule, as arrays: no per-unit list of every unit of the TM. Each unit's rates
    keep the order of the rules (the tail probability is computed in that order)."""
    rules = [(np.asarray(passing, dtype=np.int64), np.asarray(failing, dtype=np.int64))
             for passing, failing in evidence.values()]
    size = max((int(part.max()) + 1 for rule in rules for part in rule if part.size), default=0)
    failed = np.zeros(size, dtype=np.int64)
    for _, failing in rules:
        np.add.at(failed, failing, 1)
    candidate = failed > 0
    units: list[np.ndarray] = []
    rates: list[np.ndarray] = []
    for passing, failing in rules:
        rate = (len(failing) + 1) / (len(passing) + len(failing) + 2)
        for part in (passing, failing):
            inside = part[candidate[part]]
            units.append(inside)
            rates.append(np.full(inside.size, rate))
    if not units:
        return []
    unit_of, rate_of = np.concatenate(units), np.concatenate(rates)
    order = np.argsort(unit_of, kind="stable")
    unit_of, rate_of = unit_of[order], rate_of[order]
    starts = np.flatnonzero(np.r_[True, unit_of[1:] != unit_of[:-1]]) if unit_of.size else np.zeros(0, dtype=np.int64)
    ends = np.r_[starts[1:], unit_of.size]
    out = []
    for start, end in zip(starts.tolist(), ends.tolist()):
        i = int(unit_of[start])
        p_value = tail_probability(rate_of[start:end].tolist(), int(failed[i]))
        if p_value < alpha:
            out.append(Suspect(i, end - start, int(failed[i]), p_value))
    return out
