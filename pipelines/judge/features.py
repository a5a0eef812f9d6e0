"""Model inputs from z(x): per-language standardisation of the scale-dependent concepts.

A concept whose scale differs by language pair (chrF against a German vs an English reference, an
output/source length ratio of ~1.1 for en→de and ~3 for zh→en) is z-scored within each language
pair, with the mean and standard deviation of THAT language's features over its samples, labels
unseen: the statistics are computed from the feature matrix alone, so a target language needs no
labels. Concepts that are already comparable across languages (agreement shares, SCS verdicts,
LLM yes-rates) are left in [0,1]. The per-language statistics are returned for the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from numpy.typing import NDArray

from housestyle.pipelines.judge.criteria import CriteriaSet

FloatMatrix = NDArray[np.float64]


@dataclass(frozen=True)
class Standardisation:
    """How one language pair's scale-dependent columns were shifted and scaled."""

    lp: str
    columns: tuple[str, ...]
    means: tuple[float, ...]
    stds: tuple[float, ...]
    n: int


def feature_columns(frame: pl.DataFrame, criteria: CriteriaSet) -> list[str]:
    """The ``z:<concept>`` columns of ``criteria`` present in ``frame``, in criteria order."""
    return [f"z:{c.id}" for c in criteria.concepts if f"z:{c.id}" in frame.columns]


def scale_dependent_columns(criteria: CriteriaSet) -> list[str]:
    return [f"z:{c.id}" for c in criteria.concepts if c.scale_dependent]


def standardise(frame: pl.DataFrame, criteria: CriteriaSet, lp: str) -> tuple[pl.DataFrame, Standardisation]:
    """Z-score the scale-dependent concept columns of one language pair's frame (no label read).
    A constant column becomes 0 (std 1 is used), never NaN."""
    columns = [c for c in scale_dependent_columns(criteria) if c in frame.columns]
    means, stds = [], []
    exprs = []
    for column in columns:
        values = frame[column].cast(pl.Float64).to_numpy()
        mean = float(np.nanmean(values)) if values.size else 0.0
        std = float(np.nanstd(values)) if values.size else 1.0
        std = std if std > 1e-12 else 1.0
        means.append(mean)
        stds.append(std)
        exprs.append(((pl.col(column) - mean) / std).alias(column))
    out = frame.with_columns(exprs) if exprs else frame
    return out, Standardisation(lp, tuple(columns), tuple(means), tuple(stds), frame.height)


def matrix(frame: pl.DataFrame, columns: Sequence[str]) -> FloatMatrix:
    """The model input matrix (rows = samples, columns in the given order)."""
    return frame.select(list(columns)).cast(pl.Float64).to_numpy().astype(np.float64)
