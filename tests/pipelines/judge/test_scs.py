"""SCS verdicts per dimension as criteria, with the authored TED convention set."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.judge.samples import load_samples
from housestyle.pipelines.judge.scs import (
    conventions_for,
    dimensions_of,
    load_default_conventions,
    scs_verdicts,
)
from housestyle.pipelines.scoring.check import check_item


def test_default_set_and_language_filter() -> None:
    conventions = load_default_conventions()
    assert all(c.origin == "authored" for c in conventions)
    de = {c.dimension for c in conventions_for(conventions, "en", "de")}
    en = {c.dimension for c in conventions_for(conventions, "zh", "en")}
    assert "punct:german_quotes" in de and "punct:german_quotes" not in en
    assert "number:integrity" in en and "width:fullwidth_punctuation" in de & en


def test_verdicts_agree_with_the_reference_checker(toy_ende: Path) -> None:
    samples = load_samples(toy_ende)
    conventions = load_default_conventions()
    verdicts = scs_verdicts(samples.frame, conventions, "en", "de")
    dims = dimensions_of(conventions)
    assert verdicts.columns == ["system", "seg_id", *[f"scs:{d}" for d in dims]]
    active = conventions_for(conventions, "en", "de")
    for row, (source, target) in zip(verdicts.iter_rows(named=True),
                                     samples.frame.select("source", "target").iter_rows()):
        for dim in dims:
            items = [check_item(c, source, target) for c in active if c.dimension == dim]
            applied = [v for v in items if v is not None]
            expected = None if not applied else float(all(v.full_pass for v in applied))
            assert row[f"scs:{dim}"] == expected, (row["system"], row["seg_id"], dim)
    quotes = verdicts.filter((pl.col("system") == "Ok") & (pl.col("seg_id") == 2))["scs:punct:german_quotes"][0]
    assert quotes == 0.0  # straight quotes in German
    assert verdicts["scs:number:integrity"].null_count() == verdicts.height  # zh→en only


def test_no_applicable_convention_gives_nulls(toy_zhen: Path) -> None:
    samples = load_samples(toy_zhen)
    only_de = [Convention(dimension="punct:x", rule="pattern", wrong_variants=['"'], tgt_lang="de")]
    frame = scs_verdicts(samples.frame, only_de, "zh", "en")
    assert frame["scs:punct:x"].null_count() == frame.height
