"""Which dimensions a reader should look at first: where the systems differ most, on most items.

A dimension's weight is (gap between the systems' scores) × (items it applies to): 40 points between
two systems on 300 items outranks 100 points on 2 items, and a dimension every system passes is
``settled`` (the report folds them into one line). Ties go to the dimension with more failed items,
then by name, so the order is deterministic.
"""

from __future__ import annotations

import polars as pl

SETTLED, OPEN, NOT_APPLICABLE = "settled", "open", "not_applicable"


def dimension_rules(scores: pl.DataFrame) -> pl.DataFrame:
    """dimension → rule kind (the kind of most of its conventions; by name on a tie)."""
    return (scores.group_by("dimension", "rule").agg(pl.col("convention_id").n_unique().alias("n"))
            .sort("dimension", "n", "rule", descending=[False, True, False])
            .unique("dimension", keep="first", maintain_order=True).select("dimension", "rule"))


def dimension_order(dimension_scores: pl.DataFrame, scores: pl.DataFrame) -> pl.DataFrame:
    """One row per dimension, most important first:

    dimension, rule, conventions, items (most items any system was scored on), failed (failed items
    summed over systems), gap (max − min score over the systems that were scored on it; 0 with
    one system), weight (gap × items), state (``settled``: every scored system passed every item;
    ``not_applicable``: no system was scored on it; ``open`` otherwise), vacuous (its conventions
    check nothing). Sorted by weight, failed (both descending), dimension.
    """
    if dimension_scores.is_empty():
        return pl.DataFrame(schema={"dimension": pl.Utf8, "rule": pl.Utf8, "conventions": pl.Int64, "items": pl.Int64,
                                    "failed": pl.Int64, "gap": pl.Float64, "weight": pl.Float64,
                                    "state": pl.Utf8, "vacuous": pl.Boolean})
    scored = pl.col("scored") > 0
    per_dim = dimension_scores.group_by("dimension").agg(
        pl.col("conventions").max().cast(pl.Int64),
        pl.col("scored").max().alias("items"),
        (pl.col("scored") - pl.col("passed")).sum().alias("failed"),
        (pl.col("score").filter(scored).max() - pl.col("score").filter(scored).min()).fill_null(0.0).alias("gap"),
        pl.col("vacuous").all(),
    )
    state = (pl.when(pl.col("items") == 0).then(pl.lit(NOT_APPLICABLE))
             .when(pl.col("failed") == 0).then(pl.lit(SETTLED)).otherwise(pl.lit(OPEN)))
    return (per_dim.join(dimension_rules(scores), on="dimension", how="left")
            .with_columns((pl.col("gap") * pl.col("items")).alias("weight"), state.alias("state"))
            .sort(["weight", "failed", "dimension"], descending=[True, True, False])
            .select("dimension", "rule", "conventions", "items", "failed", "gap", "weight", "state", "vacuous"))


def settled_totals(order: pl.DataFrame, dimension_scores: pl.DataFrame) -> dict[str, int]:
    """For the one-line summary of what every system passes: dimensions, conventions, items (scored
    items summed over systems) and how many of those dimensions are vacuous."""
    settled = order.filter(pl.col("state") == SETTLED)
    items = dimension_scores.join(settled.select("dimension"), on="dimension", how="semi")["scored"].sum()
    return {"dimensions": settled.height, "conventions": int(settled["conventions"].sum() or 0),
            "items": int(items or 0), "vacuous": int(settled["vacuous"].sum() or 0)}
