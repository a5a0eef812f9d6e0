"""The per-system summary and the dimension order, on hand-built tables whose figures follow from
SPEC.md §2 (score = 100 × passed / scored items, pooled) — not from a recorded run."""

from __future__ import annotations

import polars as pl
import pytest

from housestyle.pipelines.scoring.differ import NOT_APPLICABLE, OPEN, SETTLED, dimension_order, settled_totals
from housestyle.pipelines.scoring.engine import SCORES_SCHEMA, dimension_table
from housestyle.pipelines.scoring.summary import adequacy_references, system_summary


def scores_of(rows: list[tuple[str, str, str, str, int, int]]) -> pl.DataFrame:
    """(system, dimension, convention_id, rule, scored, passed) → a scores table as the engine writes it."""
    return pl.DataFrame(
        [{"system": s, "dimension": d, "convention_id": c, "rule": r, "scored": n, "passed": p, "missing": 0,
          "score": 100.0 * p / n if n else None, "match_mode": "exact", "vacuous": False, "errors": 0}
         for s, d, c, r, n, p in rows], schema=SCORES_SCHEMA)


SCORES = scores_of([
    ("A", "term:x", "c1", "term", 4, 3), ("A", "term:y", "c2", "term", 6, 6), ("A", "forbidden:z", "c3", "forbidden", 10, 5),
    ("B", "term:x", "c1", "term", 4, 4), ("B", "term:y", "c2", "term", 6, 6), ("B", "forbidden:z", "c3", "forbidden", 10, 10),
    ("C", "term:x", "c1", "term", 0, 0), ("C", "term:y", "c2", "term", 0, 0), ("C", "forbidden:z", "c3", "forbidden", 0, 0),
])
COVERAGE = pl.DataFrame({"system": ["A", "B", "C"], "segments": [10, 10, 10], "produced": [9, 10, 0],
                         "missing": [1, 0, 10], "extra_ids": [0, 0, 0]})
ADEQUACY = pl.DataFrame({
    "system": ["A", "A", "A", "B", "B", "B"], "metric": ["BLEU", "BLEU", "chrF", "BLEU", "BLEU", "chrF"],
    "references": ["r1", "r1+r2", "r1+r2", "r1", "r1+r2", "r1+r2"], "n_refs": [1, 2, 2, 1, 2, 2],
    "score": [30.0, 35.0, 60.0, 40.0, 45.0, 70.0], "segments": [10] * 6, "missing": [1, 1, 1, 0, 0, 0],
    "signature": ["s"] * 6})


def test_summary_pools_items_overall_and_per_rule_kind() -> None:
    summary = system_summary(SCORES, COVERAGE, ADEQUACY, ["A", "B", "C"])
    assert summary["system"].to_list() == ["A", "B", "C"]  # the order asked for
    a, b, c = summary.to_dicts()
    # A: (3 + 6 + 5) / 20 items — pooled over items, not the mean of convention scores (75 + 100 + 50) / 3
    assert a["scs"] == pytest.approx(70.0) and (a["passed"], a["scored"]) == (14, 20)
    assert a["scs:term"] == pytest.approx(90.0) and a["scs:forbidden"] == pytest.approx(50.0)
    assert b["scs"] == pytest.approx(100.0) and b["best"] and not a["best"] and not c["best"]
    assert c["scs"] is None and c["scs:term"] is None and c["scored"] == 0  # nothing scored: no score, never 0
    assert a["coverage"] == pytest.approx(90.0) and a["missing"] == 1 and c["coverage"] == 0.0
    # adequacy beside, in its own columns: the multi-reference row; none for a system without one
    assert (a["BLEU"], a["chrF"], b["BLEU"]) == (35.0, 60.0, 45.0) and c["BLEU"] is None and c["chrF"] is None
    assert [k for k in summary.columns if k.startswith("scs:")] == ["scs:term", "scs:forbidden"]  # SPEC order
    assert adequacy_references(ADEQUACY) == "r1+r2"


def test_summary_ties_are_all_best_and_no_reference_gives_empty_adequacy() -> None:
    tied = scores_of([("A", "term:x", "c1", "term", 2, 1), ("B", "term:x", "c1", "term", 4, 2)])
    cov = COVERAGE.filter(pl.col("system") != "C")
    no_refs = ADEQUACY.clear()
    summary = system_summary(tied, cov, no_refs)
    assert summary["best"].to_list() == [True, True] and summary["BLEU"].null_count() == 2
    assert adequacy_references(no_refs) == ""


def test_dimensions_are_ordered_by_spread_times_items() -> None:
    scores = scores_of([
        ("A", "term:a", "1", "term", 2, 1), ("B", "term:a", "1", "term", 2, 2),            # 50 points × 2 items = 100
        ("A", "pattern:b", "2", "pattern", 100, 90), ("B", "pattern:b", "2", "pattern", 100, 100),  # 10 × 100 = 1000
        ("A", "term:c", "3", "term", 3, 3), ("B", "term:c", "3", "term", 3, 3),            # every system passes
        ("A", "term:d", "4", "term", 0, 0), ("B", "term:d", "4", "term", 0, 0),            # applies nowhere
        ("A", "term:e", "5", "term", 5, 0), ("B", "term:e", "5", "term", 5, 0),            # both fail alike: gap 0
        ("A", "term:f", "6", "term", 0, 0), ("B", "term:f", "6", "term", 2, 1),            # one scored system: gap 0
    ])
    order = dimension_order(dimension_table(scores), scores)
    assert order["dimension"].to_list() == ["pattern:b", "term:a", "term:e", "term:f", "term:c", "term:d"]
    row = {r["dimension"]: r for r in order.iter_rows(named=True)}
    assert row["pattern:b"]["gap"] == pytest.approx(10.0) and row["pattern:b"]["weight"] == pytest.approx(1000.0)
    assert row["term:a"]["weight"] == pytest.approx(100.0) and row["term:e"]["failed"] == 10
    assert row["term:f"]["gap"] == 0.0 and row["term:f"]["items"] == 2  # the unscored system is no 0
    assert (row["term:c"]["state"], row["term:d"]["state"], row["term:e"]["state"]) == (SETTLED, NOT_APPLICABLE, OPEN)
    assert row["pattern:b"]["rule"] == "pattern"
    totals = settled_totals(order, dimension_table(scores))
    assert totals == {"dimensions": 1, "conventions": 1, "items": 6, "vacuous": 0}  # 3 items × 2 systems


def test_single_system_order_falls_back_to_failed_items() -> None:
    scores = scores_of([("A", "term:few", "1", "term", 10, 9), ("A", "term:many", "2", "term", 10, 2)])
    order = dimension_order(dimension_table(scores), scores)
    assert order["dimension"].to_list() == ["term:many", "term:few"] and order["weight"].to_list() == [0.0, 0.0]
