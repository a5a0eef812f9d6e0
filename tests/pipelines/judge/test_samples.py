"""Labelled samples: the label rule on the toy files and on the real TED files."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.judge.samples import load_samples, stratified_sample


def _label(frame: pl.DataFrame, system: str, seg: int) -> int:
    return int(frame.filter((pl.col("system") == system) & (pl.col("seg_id") == seg))["not_acceptable"][0])


def test_label_rule_on_toy(toy_ende: Path) -> None:
    s = load_samples(toy_ende)
    f = s.frame
    assert s.lp == "en-de" and s.reference_systems == ("ref",)
    assert "ref" not in f["system"].to_list()  # references are not samples
    assert f.height == 32 and int(f["not_acceptable"].sum()) == 12
    assert _label(f, "Ok", 3) == 1  # Major
    assert _label(f, "Ok", 7) == 0 and _label(f, "Good", 2) == 0  # Minor only
    assert _label(f, "Bad", 4) == 1  # Non-translation, even Minor
    assert _label(f, "Mixed", 3) == 0  # a Major Source error is not the translation's fault
    assert f.filter(pl.col("seg_id") == 1)["references"][0].to_list() == ["Die Katze saß auf der Matte."]


def test_two_references_and_exclusion(toy_zhen: Path) -> None:
    s = load_samples(toy_zhen)
    assert s.reference_systems == ("ref", "refB")
    assert set(s.frame["system"].to_list()) == {"Good", "Ok", "Bad", "Mixed"}
    assert len(s.frame["references"][0]) == 2
    only = load_samples(toy_zhen, reference_systems=["ref"], exclude_systems=["refB", "Ok"])
    assert set(only.frame["system"].to_list()) == {"Good", "Bad", "Mixed"}


def test_missing_reference_system_is_an_error(toy_ende: Path) -> None:
    with pytest.raises(InputError, match="none of the reference systems"):
        load_samples(toy_ende, reference_systems=["refX"])


def test_stratified_sample_balances_and_prefers_distinct_segments(toy_ende: Path) -> None:
    frame = load_samples(toy_ende).frame
    picked = stratified_sample(frame, 10, seed=3)
    assert picked.height == 10 and int(picked["not_acceptable"].sum()) == 5
    assert picked.filter(pl.col("not_acceptable") == 0)["seg_id"].n_unique() == 5
    assert stratified_sample(frame, 10, seed=3).equals(picked)  # seeded
    short = stratified_sample(frame, 30, seed=0)  # only 12 bad: the rest are acceptable ones
    assert short.height == 30 and int(short["not_acceptable"].sum()) == 12


def test_real_ted_labels(shared_data: Path) -> None:
    ende = load_samples(shared_data / "wmt-mqm/ted/ende/mqm_ted_ende.tsv")
    zhen = load_samples(shared_data / "wmt-mqm/ted/zhen/mqm_ted_zhen.tsv")
    assert ende.frame.height == 13 * 529 and zhen.frame.height == 13 * 529  # MT systems only
    assert int(ende.labels.sum()) == 1488 and int(zhen.labels.sum()) == 1964
    assert zhen.reference_systems == ("ref", "refB") and "label:major" in zhen.signature
