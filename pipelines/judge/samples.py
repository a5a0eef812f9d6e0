"""Labelled samples from an MQM file: one row per (system, source segment) output.

Label rule (``not_acceptable`` = 1), stated once here and in the report:
- an output is NOT acceptable when any rater marked at least one error of severity ``Major`` (or
  Marot's ``Critical``) on it
  (case-insensitive), whatever the category, EXCEPT a category starting ``Source`` (TED's ``Source
  error``, Marot's ``Source issue``: a fault of the source text, not of the translation) and one the
  file's weighting scores 0 (Marot's ``Creative Reinterpretation``: intent kept); an error of
  category ``Non-translation`` counts as not acceptable whatever its severity (upstream weighs it 25, above a Major error);
- ``Minor``, ``Neutral`` and ``No-error`` rows never make an output unacceptable, so an output whose
  only rows are ``No-error`` or Minor errors is acceptable;
- human references are NOT samples: the systems named as references (default ``ref`` and, where
  present, ``refB``) supply the reference texts of the adequacy criteria, and a reference cannot be
  judged against itself. ``exclude_systems`` drops further systems.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.fingerprint import code_version
from housestyle.pipelines.metaeval.mqm import MqmData, load_mqm, sniff_layout

DEFAULT_REFERENCES: tuple[str, ...] = ("ref", "refB")
LABEL_RULE = ("not_acceptable = any Major error (categories 'Source …' and zero-weight ones such as 'Creative "
              "Reinterpretation' ignored) or any Non-translation error; "
              "Minor/Neutral/No-error never; human references are not samples")

SAMPLES_SCHEMA: dict[str | Any, Any] = {
    "lp": pl.Utf8(), "system": pl.Utf8(), "seg_id": pl.Int64(), "doc": pl.Utf8(), "source": pl.Utf8(),
    "target": pl.Utf8(), "references": pl.List(pl.Utf8), "not_acceptable": pl.Int8(), "n_major": pl.Int64(),
    "mqm": pl.Float64(),
}


@dataclass(frozen=True)
class Samples:
    """One language pair's samples. ``frame`` follows SAMPLES_SCHEMA; ``reference_systems`` are
    the systems used as references (present in the file)."""

    lp: str
    src_lang: str
    tgt_lang: str
    frame: pl.DataFrame
    reference_systems: tuple[str, ...]
    signature: str

    @property
    def labels(self) -> pl.Series:
        return self.frame["not_acceptable"]


def _unacceptable_rows(errors: pl.DataFrame) -> pl.DataFrame:
    severity = pl.col("severity").str.strip_chars().str.to_lowercase()
    category = pl.col("category").str.strip_chars().str.to_lowercase()
    is_major = severity.is_in(["major", "critical"]) & ~category.str.starts_with("source") & (pl.col("weight") > 0)
    non_translation = category.str.starts_with("non-translation")
    return (errors.with_columns((is_major | non_translation).alias("_bad"), is_major.alias("_major"))
            .group_by("system", "seg_id")
            .agg(pl.col("_bad").any().cast(pl.Int8).alias("not_acceptable"),
                 pl.col("_major").sum().cast(pl.Int64).alias("n_major")))


def samples_from_mqm(data: MqmData, reference_systems: Sequence[str] = DEFAULT_REFERENCES,
                     exclude_systems: Sequence[str] = ()) -> Samples:
    """Samples of every non-reference system; references = the named systems present in the file."""
    present = set(data.systems)
    refs = tuple(r for r in reference_systems if r in present)
    if not refs:
        raise InputError(f"none of the reference systems {list(reference_systems)} is in this MQM file "
                         f"(systems: {sorted(present)})", path=str(data.path))
    ref_texts: dict[int, list[str]] = {}
    for name in refs:
        for seg_id, text in sorted(data.outputs(name).items()):
            ref_texts.setdefault(seg_id, []).append(text)
    skip = set(refs) | set(exclude_systems)
    segs = data.segments.filter(~pl.col("system").is_in(sorted(skip)))
    if segs.is_empty():
        raise InputError("no system left to judge after removing references and exclusions", path=str(data.path))
    unrefd = sorted(set(segs["seg_id"].to_list()) - set(ref_texts))
    if unrefd:
        raise InputError(f"{len(unrefd)} segment(s) have no reference text, e.g. seg_id {unrefd[0]}",
                         path=str(data.path))
    labels = _unacceptable_rows(data.errors)
    frame = (segs.join(labels, on=["system", "seg_id"], how="left")
             .with_columns(pl.col("not_acceptable").fill_null(0), pl.col("n_major").fill_null(0),
                           pl.col("seg_id").replace_strict(ref_texts, return_dtype=pl.List(pl.Utf8)).alias("references"),
                           pl.lit(data.lp).alias("lp"))
             .select(list(SAMPLES_SCHEMA)).cast(dict(SAMPLES_SCHEMA)).sort("seg_id", "system"))
    src, _, tgt = data.lp.partition("-")
    signature = (f"{data.signature}|refs:{'+'.join(refs)}|label:major-or-nontranslation(no-source,no-zero-weight)"
                 f"|housestyle:{code_version()}")
    return Samples(data.lp, src, tgt, frame, refs, signature)


def load_samples(path: Path | str, reference_systems: Sequence[str] = DEFAULT_REFERENCES,
                 exclude_systems: Sequence[str] = (), *, lp: str | None = None) -> Samples:
    """Read one MQM file (housestyle.pipelines.metaeval.mqm, any layout) and label its outputs."""
    return samples_from_mqm(load_mqm(path, lp=lp), reference_systems, exclude_systems)


def load_pair(train: Path, test: Path, reference_systems: Sequence[str] = DEFAULT_REFERENCES,
              exclude_systems: Sequence[str] = (), lps: tuple[str | None, str | None] = (None, None)
              ) -> tuple[Samples, Samples]:
    """A judge's two files read, checked and labelled (seconds), before any criterion or model: both
    headers first, so a wrong test file is refused before the training file is read in full."""
    for path in (train, test):
        sniff_layout(path)
    return (load_samples(train, reference_systems, exclude_systems, lp=lps[0]),
            load_samples(test, reference_systems, exclude_systems, lp=lps[1]))


def stratified_sample(frame: pl.DataFrame, n: int, seed: int) -> pl.DataFrame:
    """``n`` samples, half of each label (fewer if a class is short), preferring distinct source
    segments so the by-segment bootstrap keeps as many clusters as possible. Selection by label does
    not bias balanced accuracy (it is a mean of per-class rates) and gives the minority class the
    same weight in a small LLM sample."""
    if n >= frame.height:
        return frame
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=seed).with_row_index("_order")
    shuffled = shuffled.with_columns(pl.col("_order").rank("ordinal").over("not_acceptable", "seg_id").alias("_dup"))
    ordered = shuffled.sort("_dup", "_order")
    per_class = {0: n // 2, 1: n - n // 2}
    counts = dict(zip(*[ordered.group_by("not_acceptable").len().sort("not_acceptable")[c].to_list()
                        for c in ("not_acceptable", "len")]))
    short = {k: max(0, per_class[k] - counts.get(k, 0)) for k in per_class}
    per_class = {0: per_class[0] - short[0] + short[1], 1: per_class[1] - short[1] + short[0]}
    picked = pl.concat([ordered.filter(pl.col("not_acceptable") == k).head(v) for k, v in per_class.items()])
    return picked.drop("_order", "_dup").sort("seg_id", "system")
