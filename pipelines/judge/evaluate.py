"""Criteria evaluation: answers per question → concept means z(x), one row per sample (Parquet).

``answers`` frames are long: system, seg_id, concept, question, answer (in [0,1] or null).
``concept_vectors`` pivots them to one ``z:<concept>`` column per concept of the criteria set (mean of
the non-null answers; the concept's ``default`` when there are none) and keeps, per sample, how many
answers were null (``unanswered``), so nothing is imputed silently.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.judge.adequacy import adequacy_features
from housestyle.pipelines.judge.criteria import TRANSFORMS, CriteriaSet, expand_features
from housestyle.pipelines.judge.samples import Samples
from housestyle.pipelines.judge.scs import scs_verdicts

ANSWER_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "seg_id": pl.Int64(), "concept": pl.Utf8(), "question": pl.Utf8(), "answer": pl.Float64(),
}
KEYS = ("system", "seg_id")


def raw_deterministic(samples: Samples, conventions: Sequence[Convention]) -> pl.DataFrame:
    """Every raw deterministic figure of every sample: adequacy.py columns + ``scs:<dimension>``."""
    adequacy = adequacy_features(samples.frame, samples.tgt_lang)
    scs = scs_verdicts(samples.frame, conventions, samples.src_lang, samples.tgt_lang)
    return adequacy.join(scs, on=list(KEYS), how="left")


def deterministic_answers(raw: pl.DataFrame, criteria: CriteriaSet) -> pl.DataFrame:
    """Long answers of the deterministic questions (a glob question gives one answer per column,
    named ``question/column``); NaN figures become null answers."""
    columns = [c for c in raw.columns if c not in KEYS]
    parts = []
    for concept in criteria.of_kind("deterministic"):
        for question in concept.questions:
            assert question.transform is not None
            fn = TRANSFORMS[question.transform]
            for column in expand_features(question, columns):
                name = question.id if column == question.feature else f"{question.id}/{column}"
                values = [None if v is None or (isinstance(v, float) and math.isnan(v)) else fn(float(v))
                          for v in raw[column].to_list()]
                values = [None if v is None or math.isnan(v) else v for v in values]
                parts.append(raw.select(*KEYS).with_columns(
                    pl.lit(concept.id).alias("concept"), pl.lit(name).alias("question"),
                    pl.Series("answer", values, dtype=pl.Float64)))
    return pl.concat(parts).select(list(ANSWER_SCHEMA)) if parts else pl.DataFrame(schema=ANSWER_SCHEMA)


def concept_vectors(keys: pl.DataFrame, answers: pl.DataFrame, criteria: CriteriaSet,
                    kinds: Sequence[str] = ("deterministic", "llm")) -> pl.DataFrame:
    """keys (system, seg_id, …) + ``z:<concept>`` for the concepts of ``kinds`` + ``unanswered``."""
    concepts = [c for c in criteria.concepts if c.kind in kinds]
    means = (answers.group_by(*KEYS, "concept")
             .agg(pl.col("answer").mean().alias("z"), pl.col("answer").null_count().alias("nulls")))
    out = keys
    for concept in concepts:
        col = means.filter(pl.col("concept") == concept.id).select(*KEYS, pl.col("z").alias(f"z:{concept.id}"))
        out = out.join(col, on=list(KEYS), how="left").with_columns(pl.col(f"z:{concept.id}").fill_null(concept.default))
    nulls = means.filter(pl.col("concept").is_in([c.id for c in concepts])).group_by(*KEYS).agg(
        pl.col("nulls").sum().cast(pl.Int64).alias("unanswered"))
    return out.join(nulls, on=list(KEYS), how="left").with_columns(pl.col("unanswered").fill_null(0))


def answers_json(answers: pl.DataFrame) -> pl.DataFrame:
    """system, seg_id, answers (a JSON object text ``{"concept/question": value}``) for the Parquet row."""
    return (answers.with_columns(pl.concat_str("concept", pl.lit("/"), "question").alias("_k"))
            .group_by(*KEYS, maintain_order=True)
            .agg(pl.struct("_k", "answer").alias("_kv"))
            .with_columns(pl.col("_kv").map_elements(_kv_json, return_dtype=pl.Utf8).alias("answers"))
            .drop("_kv"))


def _kv_json(items: Any) -> str:
    from housestyle.pipelines.conventions.model import canonical_json

    return canonical_json({item["_k"]: item["answer"] for item in items})
