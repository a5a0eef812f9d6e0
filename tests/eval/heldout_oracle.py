"""Could any choice of the mined term rules meet issue 25's targets, and can the mined half tell which?
(issue 25; not a test): ``python -m tests.eval.heldout_oracle DIR`` on ``heldout_bar_rules`` tables.

Two questions the bench cannot answer by itself:
- **Hindsight** (``frontier``): the most other-half items per held-out segment a selection of the mined
  term rules (candidate and suggested alike) reaches at a pooled pass rate >= ``TARGET``, the rules
  taken best other-half rate first. It uses the other half to choose, so it is a bound, not a method:
  when even it stays under 0.5 items per segment, no bar on these rules meets both targets.
- **Foresight** (``learned``): selectors fitted on the other corpora only (leave one corpus out; the
  TICO cases never train: their rates are another regime, and the two TICO directions share text),
  from what the mined half knows of a rule (its support, consistency, cross-fit counts, words,
  general-language frequency, capitals, copy), as scikit-learn models of the chance that the other
  half keeps an item. The cut is fixed on the training corpora (the lowest predicted rate whose
  selection pools >= ``TARGET`` there), never on the corpus judged.
The fomo PO probe has no table (``heldout_bar_rules`` skips it): nothing is fitted or judged on it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from wordfreq import zipf_frequency

TARGET = 0.97  # issue 25: term rules on held-out approved output, every product corpus
CUTS = np.round(np.arange(0.80, 0.996, 0.005), 3)


def frontier(table: pl.DataFrame, target: float = TARGET) -> tuple[int, int]:
    """(items, passed) of the hindsight selection: rules by other-half pass rate (then items), each
    added while the pool stays >= ``target``."""
    judged = table.filter(pl.col("b_items") > 0).with_columns((pl.col("b_passed") / pl.col("b_items")).alias("rate"))
    items = passed = 0
    for n, k in judged.sort(["rate", "b_items"], descending=True).select("b_items", "b_passed").iter_rows():
        if passed + k >= target * (items + n):
            items, passed = items + n, passed + k
    return items, passed


def features(table: pl.DataFrame) -> np.ndarray:
    """What the mined half knows of each rule, one row per rule."""
    words = [(s or "").split() or [""] for s in table["src"].to_list()]
    zipfs = [[zipf_frequency(w.lower(), "en") for w in ws] for ws in words]
    n = table["heldout_items"].to_numpy().astype(float)
    k = table["heldout_passed"].to_numpy().astype(float)
    src, rendering = table["src"].to_list(), table["rendering"].to_list()
    return np.column_stack([
        np.log1p(table["support"].to_numpy()), table["consistency"].to_numpy(), np.log1p(n), (k + 1) / (n + 2), n - k,
        table["words"].to_numpy(), [max(z) for z in zipfs], [min(z) for z in zipfs],
        [float((s or "")[:1].isupper()) for s in src], [float((s or "").isupper()) for s in src],
        [float((s or "").casefold() == (r or "").casefold()) for s, r in zip(src, rendering)],
    ])


def _items(table: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rules as weighted outcomes: a kept row weighted by its passes, a lost one by its failures."""
    judged = table.filter(pl.col("b_items") > 0)
    x = features(judged)
    n, k = judged["b_items"].to_numpy(), judged["b_passed"].to_numpy()
    return np.vstack([x, x]), np.r_[np.ones(len(k)), np.zeros(len(k))], np.r_[k, n - k].astype(float)


def _pooled(selected: list[pl.DataFrame]) -> tuple[int, int]:
    return sum(int(t["b_items"].sum()) for t in selected), sum(int(t["b_passed"].sum()) for t in selected)


MODELS: dict[str, Callable[[], Any]] = {
    "logistic regression": lambda: LogisticRegression(max_iter=5000),
    "gradient boosting": lambda: HistGradientBoostingClassifier(max_depth=3, max_iter=150, learning_rate=0.05,
                                                                early_stopping=False, random_state=0),
}


def learned(tables: dict[str, pl.DataFrame], held: str, make: Callable[[], Any]) -> tuple[float, int, int]:
    """(cut, items, passed) of a selector fitted without ``held`` (nor any TICO case) and cut on its
    training corpora."""
    train = [name for name in tables if name != held and not name.startswith("tico")]
    parts = [_items(tables[name]) for name in train]
    x, y, w = (np.concatenate([p[i] for p in parts]) for i in range(3))
    model = make().fit(x[w > 0], y[w > 0], sample_weight=w[w > 0])
    scored = [(model.predict_proba(features(tables[name]))[:, 1], tables[name]) for name in train]
    cut = float(CUTS[-1])
    for c in CUTS:
        items, passed = _pooled([t.filter(pl.Series(p >= c)) for p, t in scored])
        if items and passed >= TARGET * items:
            cut = float(c)
            break
    table = tables[held]
    chosen = table.filter(pl.Series(model.predict_proba(features(table))[:, 1] >= cut))
    items, passed = _pooled([chosen])
    return cut, items, passed


def _cell(items: int, passed: int, segments: int) -> str:
    return f"{passed / items:.3f} / {items / segments:.2f}" if items else "— / 0.00"


def main() -> None:
    tables = {p.stem: pl.read_parquet(p) for p in sorted(Path(sys.argv[1]).glob("*.parquet"))}
    print(f"| case | held-out segs | scored now (bar) | every mined rule | hindsight at >= {TARGET} | "
          + " | ".join(f"{m} (cut)" for m in MODELS) + " |")
    print("|---|---|---|---|---|" + "---|" * len(MODELS))
    for name, table in tables.items():
        segments = int(table["held_segments"][0])
        now = _pooled([table.filter(pl.col("status") == "candidate")])
        cells = [_cell(*now, segments), _cell(*_pooled([table]), segments), _cell(*frontier(table), segments)]
        for make in MODELS.values():
            cut, items, passed = learned(tables, name, make)
            cells.append(f"{_cell(items, passed, segments)} ({cut:.3f})")
        print(f"| {name} | {segments} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
