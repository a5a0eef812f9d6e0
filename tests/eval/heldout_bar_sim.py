"""Which held-out bar? Replays candidate bars on ``heldout_bar_rules`` tables (issue 25; not a test):
``python -m tests.eval.heldout_bar_sim DIR [DIR…]``.

Each table row is a term rule with its cross-fit counts (``heldout_items``/``heldout_passed``, from
the mined half only) and its items on the other half (``b_items``/``b_passed``). A bar is a function
of the cross-fit counts; the bench's figures follow from it without mining again: the scored rules'
pass rate on the other half (what ``bench_heldout`` reports as "approved pass" for terms) and
attested-gold recall over the scored rules. The bars replayed:
- ``current``: ``params.heldout.term`` as this code sets it;
- ``EB mean``: Beta-binomial posterior mean >= .9, the prior fitted (maximum marginal likelihood)
  to the judged rules of the same run — "a prior from the kind's held-out pass rate";
- ``EB lb q``: the posterior's q-quantile >= .9 (a lower bound instead of the mean);
- ``EB by support``: the prior fitted per support (1, 2, 3, 4, >= 5), posterior mean >= .9;
- ``N@R``: the current bar's shape with other numbers (>= N cross-fit items, >= R of them pass).
Each row also gives the scored rules' term items per segment of the other half (the coverage target).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl
from scipy.special import betaln
from scipy.stats import beta

from housestyle.pipelines.mining.params import DEFAULT_PARAMS

Bar = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def fit_prior(k: np.ndarray, n: np.ndarray) -> tuple[float, float]:
    """Beta(a, b) maximising the Beta-binomial likelihood of the rules with items (grid search)."""
    k, n = k[n > 0], n[n > 0]
    best = (-np.inf, 1.0, 1.0)
    for mu in np.linspace(0.5, 0.995, 100):
        for s in np.exp(np.linspace(np.log(0.5), np.log(500), 80)):
            a, b = mu * s, (1 - mu) * s
            ll = float(np.sum(betaln(k + a, n - k + b) - betaln(a, b)))
            if ll > best[0]:
                best = (ll, a, b)
    return best[1], best[2]


def eb_mean(k: np.ndarray, n: np.ndarray, support: np.ndarray) -> np.ndarray:
    a, b = fit_prior(k, n)
    return (k + a) / (n + a + b) >= 0.9


def eb_lower(q: float) -> Bar:
    def bar(k: np.ndarray, n: np.ndarray, support: np.ndarray) -> np.ndarray:
        a, b = fit_prior(k, n)
        return np.asarray(beta.ppf(q, k + a, n - k + b) >= 0.9)
    return bar


def eb_by_support(k: np.ndarray, n: np.ndarray, support: np.ndarray) -> np.ndarray:
    band = np.minimum(support, 5)
    mean = np.zeros(len(k))
    a0, b0 = fit_prior(k, n)
    for s in np.unique(band):
        m = band == s
        a, b = fit_prior(k[m], n[m]) if (n[m] > 0).sum() > 5 else (a0, b0)
        mean[m] = (k[m] + a) / (n[m] + a + b)
    return mean >= 0.9


def grid(min_items: int, min_rate: float) -> Bar:
    def bar(k: np.ndarray, n: np.ndarray, support: np.ndarray) -> np.ndarray:
        return np.asarray((n >= min_items) & (k >= min_rate * n))
    return bar


current = grid(DEFAULT_PARAMS.heldout.term.min_items, DEFAULT_PARAMS.heldout.term.min_rate)


BARS: dict[str, Bar] = {"current": current, "EB mean": eb_mean, "EB lb .2": eb_lower(0.2), "EB lb .1": eb_lower(0.1),
                        "EB by support": eb_by_support,
                        **{f"{n}@{r}": grid(n, r) for n, r in ((3, 1.0), (4, 0.9), (4, 0.95), (4, 1.0), (5, 0.95), (6, 1.0))}}


def replay(table: Path) -> list[str]:
    d = pl.read_parquet(table)
    attested_file = table.with_suffix(".attested.json")
    attested = json.loads(attested_file.read_text()) if attested_file.is_file() else []
    k, n = d["heldout_passed"].to_numpy().astype(float), d["heldout_items"].to_numpy().astype(float)
    support = d["support"].to_numpy()
    lines = []
    for name, bar in BARS.items():
        keep = bar(k, n, support)
        kept = d.filter(pl.Series(keep))
        bi, bp = int(kept["b_items"].sum()), int(kept["b_passed"].sum())
        recalled = {p for ps in kept["recalls"].to_list() for p in ps}
        gold = f"{len(recalled)}/{len(attested)} = {len(recalled) / len(attested):.3f}" if attested else "—"
        per_segment = bi / d["held_segments"][0] if d.height else 0.0
        lines.append(f"| {table.stem} | {name} | {int(keep.sum())} | {bp}/{bi} = {bp / max(bi, 1):.4f} | {per_segment:.2f} | {gold} |")
    return lines


def main() -> None:
    print("| case | bar | scored term rules | other half: passed/items | items / segment | attested gold recalled (scored) |")
    print("|---|---|---|---|---|---|")
    for folder in sys.argv[1:]:
        for table in sorted(Path(folder).glob("*.parquet")):
            print("\n".join(replay(table)))


if __name__ == "__main__":
    main()
