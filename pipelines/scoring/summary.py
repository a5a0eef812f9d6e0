"""The per-system summary of a scoring run: the first thing a reader of a run sees.

One pure function, used by the HTML report and by the ``scoring_run`` asset's metadata, so the page
and the Dagster UI can never disagree. SCS is pooled over items (SPEC.md §2: 100 × passed / scored
items), overall and per rule kind; coverage, BLEU and chrF sit beside it in their own columns and
are never merged into it.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from housestyle.pipelines.conventions.model import RULE_TYPES

KIND_PREFIX = "scs:"  # column of the SCS over one rule kind's items, e.g. ``scs:term``
ADEQUACY_METRICS = ("BLEU", "chrF")


def _pooled(frame: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    return (frame.group_by(*by).agg(pl.col("scored").sum(), pl.col("passed").sum())
            .with_columns(pl.when(pl.col("scored") > 0).then(100.0 * pl.col("passed") / pl.col("scored"))
                          .otherwise(None).alias("scs")))


def rule_kinds(scores: pl.DataFrame) -> list[str]:
    """The rule kinds of a scores table, in SPEC order (unknown ones after, sorted)."""
    present = set(scores["rule"].unique().to_list()) if not scores.is_empty() else set()
    return [k for k in RULE_TYPES if k in present] + sorted(present - set(RULE_TYPES))


def adequacy_choice(adequacy: pl.DataFrame) -> pl.DataFrame:
    """Per system × metric, the row with the most references (the multi-reference one when there is
    one; the first given otherwise): the figure the summary shows."""
    if adequacy.is_empty():
        return adequacy
    return (adequacy.with_row_index("_order").sort("n_refs", "_order", descending=[True, False])
            .unique(["system", "metric"], keep="first", maintain_order=True).drop("_order"))


def system_summary(scores: pl.DataFrame, coverage: pl.DataFrame, adequacy: pl.DataFrame,
                   systems: Sequence[str] | None = None) -> pl.DataFrame:
    """One row per system (``systems`` order, else the order of ``coverage``):

    system, scs (over every scored item, null when nothing was scored), scored, passed,
    ``scs:<kind>`` per rule kind present (null where the system had no item of that kind),
    coverage (% of source segments produced), missing (segments not produced), BLEU, chrF (the
    adequacy row with the most references; null without references), best (the highest scs; ties
    all best).
    """
    names = list(systems) if systems is not None else coverage["system"].to_list()
    frame = pl.DataFrame({"system": names, "_order": range(len(names))},
                         schema={"system": pl.Utf8, "_order": pl.Int64})
    overall = _pooled(scores, ["system"]) if not scores.is_empty() else pl.DataFrame(
        schema={"system": pl.Utf8, "scored": pl.Int64, "passed": pl.Int64, "scs": pl.Float64})
    frame = frame.join(overall.select("system", "scs", "scored", "passed"), on="system", how="left")
    frame = frame.with_columns(pl.col("scored").fill_null(0), pl.col("passed").fill_null(0))
    kinds = rule_kinds(scores)
    if kinds:
        per_kind = _pooled(scores, ["system", "rule"]).pivot(on="rule", index="system", values="scs")
        per_kind = per_kind.rename({k: KIND_PREFIX + k for k in kinds})
        frame = frame.join(per_kind, on="system", how="left").select(
            "system", "_order", "scs", "scored", "passed", *(KIND_PREFIX + k for k in kinds))
    cov = coverage.select("system", (100.0 * pl.col("produced") / pl.col("segments")).alias("coverage"), "missing")
    frame = frame.join(cov, on="system", how="left")
    chosen = adequacy_choice(adequacy)
    for metric in ADEQUACY_METRICS:
        values = (chosen.filter(pl.col("metric") == metric).select("system", pl.col("score").alias(metric))
                  if not chosen.is_empty() else pl.DataFrame(schema={"system": pl.Utf8, metric: pl.Float64}))
        frame = frame.join(values, on="system", how="left")
    best = frame["scs"].max()
    is_best = pl.lit(False) if best is None else (pl.col("scs") == best).fill_null(False)
    return frame.with_columns(is_best.alias("best")).sort("_order").drop("_order")


def adequacy_references(adequacy: pl.DataFrame) -> str:
    """Which references the summary's BLEU/chrF use (e.g. ``tm_target`` or ``a+b``), '' without any."""
    chosen = adequacy_choice(adequacy)
    return ", ".join(chosen["references"].unique(maintain_order=True).to_list()) if not chosen.is_empty() else ""
