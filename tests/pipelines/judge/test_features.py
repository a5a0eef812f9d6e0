"""z(x) from answers, and per-language standardisation that reads no label."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from housestyle.pipelines.judge.criteria import load_criteria
from housestyle.pipelines.judge.evaluate import (
    answers_json,
    concept_vectors,
    deterministic_answers,
    raw_deterministic,
)
from housestyle.pipelines.judge.features import (
    feature_columns,
    scale_dependent_columns,
    standardise,
)
from housestyle.pipelines.judge.samples import load_samples
from housestyle.pipelines.judge.scs import load_default_conventions


@pytest.fixture(scope="module")
def ende_vectors(toy_ende: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    samples = load_samples(toy_ende)
    raw = raw_deterministic(samples, load_default_conventions())
    answers = deterministic_answers(raw, load_criteria("deterministic"))
    keys = samples.frame.select("system", "seg_id", "not_acceptable")
    return concept_vectors(keys, answers, load_criteria("deterministic")), answers


def test_one_row_per_sample_and_concept_means(ende_vectors: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    vectors, answers = ende_vectors
    det = load_criteria("deterministic")
    assert vectors.height == 32 and feature_columns(vectors, det) == [f"z:{c.id}" for c in det.concepts]
    values = answers.drop_nulls("answer")["answer"]
    assert values.min() >= 0.0 and values.max() <= 1.0  # every answer in [0,1]
    one = answers.filter((pl.col("system") == "Ok") & (pl.col("seg_id") == 2) & (pl.col("concept") == "punctuation"))
    row = vectors.filter((pl.col("system") == "Ok") & (pl.col("seg_id") == 2)).row(0, named=True)
    assert row["z:punctuation"] == pytest.approx(float(one["answer"].mean()))  # mean of the concept's answers
    scs = answers.filter(pl.col("concept") == "conventions")
    assert set(scs["question"].str.split("/").list.first().to_list()) == {"scs"}  # glob expanded per dimension
    assert scs["answer"].null_count() > 0  # not-applicable dimensions stay null
    text = answers_json(answers).row(0, named=True)["answers"]
    assert text.startswith("{") and "reference_chrf/chrf" in text


def test_concept_default_when_nothing_answered() -> None:
    criteria = load_criteria("llm_seed")
    keys = pl.DataFrame({"system": ["a"], "seg_id": [1]})
    answers = pl.DataFrame({"system": ["a"], "seg_id": [1], "concept": ["accuracy"], "question": ["q1"],
                            "answer": [None]}, schema_overrides={"answer": pl.Float64, "seg_id": pl.Int64})
    vectors = concept_vectors(keys, answers, criteria)
    assert vectors["z:accuracy"][0] == 0.5 and vectors["unanswered"][0] == 1
    assert vectors["z:fluency"][0] == 0.5  # no row at all: the default too


def test_standardise_scale_dependent_only(ende_vectors: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    vectors, _ = ende_vectors
    det = load_criteria("deterministic")
    shuffled_labels = vectors.with_columns(pl.col("not_acceptable").shuffle(seed=1))
    out, stats = standardise(vectors, det, "en-de")
    out2, _ = standardise(shuffled_labels, det, "en-de")
    scaled = scale_dependent_columns(det)
    assert set(stats.columns) == set(scaled) and "z:numbers" not in scaled
    for column in scaled:
        assert float(out[column].mean()) == pytest.approx(0.0, abs=1e-9)
        assert np.allclose(out[column].to_numpy(), out2[column].to_numpy())  # labels play no part
    assert out["z:numbers"].equals(vectors["z:numbers"])


def test_real_ted_vectors_on_a_slice(shared_data: Path) -> None:
    """Both TED language pairs, 12 segments × every system: the same concept columns, values in range."""
    from dataclasses import replace

    det = load_criteria("deterministic")
    conventions = load_default_conventions()
    frames = {}
    for name in ("ende/mqm_ted_ende.tsv", "zhen/mqm_ted_zhen.tsv"):
        samples = load_samples(shared_data / "wmt-mqm/ted" / name)
        first = sorted(samples.frame["seg_id"].unique().to_list())[:12]
        samples = replace(samples, frame=samples.frame.filter(pl.col("seg_id").is_in(first)))
        raw = raw_deterministic(samples, conventions)
        answers = deterministic_answers(raw, det)
        frames[samples.lp] = concept_vectors(samples.frame.select("system", "seg_id", "not_acceptable"), answers, det)
        assert frames[samples.lp].height == 13 * 12
        assert raw["consensus"].null_count() == 0
    assert frames["en-de"].columns == frames["zh-en"].columns
    for frame in frames.values():
        for column in feature_columns(frame, det):
            assert 0.0 <= float(frame[column].min()) and float(frame[column].max()) <= 1.0, column
    # the output/source length ratio is the scale-dependent example of the issue: ~1.1 vs ~3 chars
    assert float(frames["zh-en"]["z:length_vs_source"].mean()) > float(frames["en-de"]["z:length_vs_source"].mean())
