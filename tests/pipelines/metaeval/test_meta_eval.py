"""End-to-end meta-evaluation on toy MQM files (hand-checkable) and on the real WMT21 TED data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
import scipy.stats

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.metaeval.meta_eval import (
    COLUMN_ORDER,
    evaluate_metric_table,
    human_systems,
    meta_evaluate,
)
from housestyle.pipelines.metaeval.metrics import ReferenceSet, corpus_score, segment_scores
from housestyle.pipelines.metaeval.mqm import load_mqm

SPEC_COLUMNS = ["lp", "metric", "references", "level", "pairwise_accuracy", "pearson", "kendall", "n_systems",
                *[f"{f}_{e}" for f in ("pairwise_accuracy", "pearson", "kendall") for e in ("low", "high")]]


def _row(df: pl.DataFrame, **where: str) -> dict[str, Any]:
    rows = df.filter(pl.all_horizontal([pl.col(k) == v for k, v in where.items()])).to_dicts()
    assert len(rows) == 1, (where, rows)
    return rows[0]


def test_columns_rows_and_hand_checked_figures(toy_ende: Path, toy_zhen: Path) -> None:
    df = meta_evaluate([toy_ende, toy_zhen], ["ref"], n_bootstrap=30, exclude_systems=["refB"])
    assert set(SPEC_COLUMNS) <= set(df.columns) and df.columns == COLUMN_ORDER
    assert df.height == 12  # (2 lps + pooled) × 2 metrics × 2 levels
    assert set(df["lp"]) == {"en-de", "zh-en", "pooled"}
    data = load_mqm(toy_ende)
    systems, segs, ref = ["sysA", "sysB", "sysC"], data.seg_ids, data.outputs("ref")
    human = -np.array([data.segments.filter(pl.col("system") == s)["mqm"].mean() for s in systems])
    bleu = [corpus_score("BLEU", [data.outputs(s)[g] for g in segs], [[ref[g]] for g in segs])[0] for s in systems]
    row = _row(df, lp="en-de", metric="BLEU", level="system")
    assert row["n_systems"] == 3 and row["references"] == "ref" and row["n_segments"] == 4
    assert row["pairwise_accuracy"] == 1.0  # BLEU orders sysA > sysC > sysB like MQM
    assert row["pearson"] == pytest.approx(scipy.stats.pearsonr(human, bleu)[0])
    assert row["kendall"] == pytest.approx(1.0)
    # segment level: flattened tau-b of -MQM vs sentence BLEU over systems × segments
    seg_h = np.concatenate([[-data.segments.filter((pl.col("system") == s) & (pl.col("seg_id") == g))["mqm"][0]
                             for g in segs] for s in systems])
    seg_m = np.concatenate([segment_scores("BLEU", [data.outputs(s)[g] for g in segs], [[ref[g]] for g in segs])
                            for s in systems])
    seg_row = _row(df, lp="en-de", metric="BLEU", level="segment")
    assert seg_row["kendall"] == pytest.approx(scipy.stats.kendalltau(seg_h, seg_m, variant="b")[0])
    assert seg_row["pairwise_accuracy"] is None
    for r in df.filter(pl.col("level") == "system").to_dicts():
        assert 0.0 <= r["pairwise_accuracy_low"] <= r["pairwise_accuracy_high"] <= 1.0


def test_pooled_accuracy_is_over_the_union_of_pairs(toy_ende: Path, toy_zhen: Path) -> None:
    df = meta_evaluate([toy_ende, toy_zhen], ["ref"], n_bootstrap=0, metrics=["chrF"], include_human=True)
    de, zh = _row(df, lp="en-de", level="system"), _row(df, lp="zh-en", level="system")
    pooled = _row(df, lp="pooled", level="system")
    pairs_de, pairs_zh = 3, 6  # zh-en ranks refB too (include_human): 4 systems
    assert zh["n_systems"] == 4 and pooled["n_systems"] == 7
    expected = (de["pairwise_accuracy"] * pairs_de + zh["pairwise_accuracy"] * pairs_zh) / (pairs_de + pairs_zh)
    assert pooled["pairwise_accuracy"] == pytest.approx(expected)
    assert pooled["pearson"] == pytest.approx((de["pearson"] + zh["pearson"]) / 2)
    assert pooled["pairwise_accuracy_low"] is None  # no bootstrap, no interval


@pytest.mark.parametrize("name", ["ref", "refA", "refB", "ref-A", "ref_B", "ref1", "REF-b"])
def test_reference_like_names_are_human(name: str) -> None:
    assert human_systems([name, "sysA"]) == [name]


@pytest.mark.parametrize("name", ["refine", "Reformer", "sysref", "ref-AB", "metricsystem1", "Online-W"])
def test_other_names_are_systems(name: str) -> None:
    assert human_systems([name]) == []


def test_no_human_translation_is_ranked_by_default(toy_zhen: Path) -> None:
    """SPEC §3: with refB as the reference, the file's other human translation (ref) is not a 4th
    system unless include_human."""
    default = meta_evaluate([toy_zhen], ["refB"], n_bootstrap=0, metrics=["chrF"])
    assert set(default["n_systems"]) == {3}
    ranked = meta_evaluate([toy_zhen], ["refB"], n_bootstrap=0, metrics=["chrF"], include_human=True)
    assert set(ranked["n_systems"]) == {4}
    # the named references are never ranked, include_human or not
    both = meta_evaluate([toy_zhen], ["ref", "refB"], n_bootstrap=0, metrics=["chrF"], include_human=True)
    assert set(both["n_systems"]) == {3}


def test_bootstrap_is_seeded(toy_ende: Path) -> None:
    a = meta_evaluate([toy_ende], ["ref"], n_bootstrap=40, seed=3)
    b = meta_evaluate([toy_ende], ["ref"], n_bootstrap=40, seed=3)
    c = meta_evaluate([toy_ende], ["ref"], n_bootstrap=40, seed=4)
    assert a.equals(b)
    assert not a.equals(c)
    assert a.drop([k for k in a.columns if k.endswith(("_low", "_high"))]).equals(
        c.drop([k for k in c.columns if k.endswith(("_low", "_high"))]))


def test_absent_reference_system_names_the_file(toy_ende: Path, toy_zhen: Path) -> None:
    with pytest.raises(InputError, match="refB") as info:
        meta_evaluate([toy_zhen, toy_ende], ["ref", "refB"], n_bootstrap=0)
    assert info.value.path == str(toy_ende)


def test_repeated_reference_systems_are_one_multi_reference(toy_zhen: Path) -> None:
    df = meta_evaluate([toy_zhen], ["ref", "refB", "ref"], n_bootstrap=0)
    row = _row(df, lp="zh-en", metric="BLEU", level="system")
    assert row["references"] == "ref+refB" and row["n_systems"] == 3  # X, Y, Z; neither reference ranked
    assert "nrefs:2|origin:approved=6" in str(row["signature"])


def test_extra_metric_table_generic_path(toy_ende: Path, toy_zhen: Path) -> None:
    frames = []
    for path in (toy_ende, toy_zhen):
        data = load_mqm(path)
        frames.append(data.segments.select("system", "seg_id", (-pl.col("mqm")).alias("score"),
                                           pl.lit(2.0).alias("weight"), pl.lit(data.lp).alias("lp")))
    oracle = pl.concat(frames)
    df = meta_evaluate([toy_ende, toy_zhen], ["ref"], n_bootstrap=20, exclude_systems=["refB"],
                       extra_metrics={"oracle": oracle}, metrics=[])
    for lp in ("en-de", "zh-en", "pooled"):
        row = _row(df, lp=lp, metric="oracle", level="system")
        assert row["pairwise_accuracy"] == 1.0 and row["kendall"] == pytest.approx(1.0)
        assert row["pearson"] == pytest.approx(1.0) and row["references"] == "-"
        assert _row(df, lp=lp, metric="oracle", level="segment")["kendall"] == pytest.approx(1.0)
    # the same table through the one-metric entry point: identical rows (same seeded draws)
    alone = evaluate_metric_table(oracle, [load_mqm(toy_ende), load_mqm(toy_zhen)], metric="oracle",
                                  reference_systems=["ref"], exclude_systems=["refB"], n_bootstrap=20)
    assert alone.equals(df)
    with pytest.raises(ValueError, match="'lp' column"):
        meta_evaluate([toy_ende, toy_zhen], ["ref"], n_bootstrap=0, extra_metrics={"x": oracle.drop("lp")})
    with pytest.raises(InputError, match="sysC"):
        evaluate_metric_table(oracle.filter(pl.col("system") != "sysC"), load_mqm(toy_ende), metric="x",
                              reference_systems=["ref"], n_bootstrap=0)


def test_generated_reference_sets_plug_in(toy_zhen: Path) -> None:
    data = load_mqm(toy_zhen)
    generated = ReferenceSet.from_texts("gen", {10: ["See you tomorrow!"], 11: ["The weather is good."]},
                                        origin="generated")
    both = ReferenceSet.merge("ref+gen", ReferenceSet.from_texts("ref", data.outputs("ref")), generated)
    df = meta_evaluate([toy_zhen], ["ref"], exclude_systems=["refB"], n_bootstrap=10,
                       extra_reference_sets={"zh-en": [both]}, segments={"zh-en": [10, 11]})
    assert set(df["references"]) == {"ref", "ref+gen"}
    row = _row(df, lp="zh-en", metric="chrF", references="ref+gen", level="system")
    assert row["n_segments"] == 2 and "nrefs:2|origin:approved=2,generated=2" in str(row["signature"])
    with pytest.raises(InputError, match="no reference for segments"):
        meta_evaluate([toy_zhen], ["ref"], n_bootstrap=0, extra_reference_sets={"zh-en": [generated]})


@pytest.mark.shared_data
def test_ted_ende_matches_issue_figures(ted: dict[str, Path]) -> None:
    """Issue 7: en→de with `ref` over the 13 MT systems: accuracy BLEU .692 / chrF .679, Pearson .62 / .56."""
    df = meta_evaluate([ted["en-de"]], ["ref"], n_bootstrap=0)
    bleu, chrf = (_row(df, lp="en-de", metric=m, level="system") for m in ("BLEU", "chrF"))
    assert bleu["n_systems"] == chrf["n_systems"] == 13
    assert round(bleu["pairwise_accuracy"], 3) == 0.692 and round(chrf["pairwise_accuracy"], 3) == 0.679
    assert round(bleu["pearson"], 2) == 0.62 and round(chrf["pearson"], 2) == 0.56
    assert "tok:13a" in str(bleu["signature"])
