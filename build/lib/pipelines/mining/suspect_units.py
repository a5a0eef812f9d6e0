"""Units whose target does not translate their source (misaligned TM rows), told by the mined term
rules' own counter-evidence, so term rules can be mined again without them.

TMs exported from aligned documents can hold runs of rows that pair a target sentence with another
source sentence. In TICO-19 en→fr, most of one PubMed document is such a run. A misaligned unit
fails most of the term rules its source triggers, and that is the test. Were the unit an ordinary
one, each rule in scope for it would fail independently with the rule's rule-of-succession failure
rate, (counter + 1) / (units + 2): a rule seen in one unit may well fail, one seen in 200 seldom
does. The unit is suspect when the Poisson-binomial probability of failing at least as many of its
rules as it does is below ``suspect_alpha``. Suspects are reported (``suspect_units.parquet``),
never dropped silently, and only the term rules leave them out: pattern and rule families keep
measuring every unit, so a misaligned unit still shows as their counter-example.
"""

from __future__ import annotations

from collections import defaultdict
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


def find_suspects(evidence: Mapping[str, tuple[Sequence[int], Sequence[int]]], alpha: float) -> list[Suspect]:
    """Units failing improbably many of the rules in scope for them (``evidence``: rule id →
    (evidence unit indices, counter-example unit indices)), by unit index."""
    rates: dict[int, list[float]] = defaultdict(list)
    failed: dict[int, int] = defaultdict(int)
    for passing, failing in evidence.values():
        rate = (len(failing) + 1) / (len(passing) + len(failing) + 2)
        for i in passing:
            rates[i].append(rate)
        for i in failing:
            rates[i].append(rate)
            failed[i] += 1
    out = []
    for i in sorted(failed):
        p_value = tail_probability(rates[i], failed[i])
        if p_value < alpha:
            out.append(Suspect(i, len(rates[i]), failed[i], p_value))
    return out
