"""One language pair, ready for the judge: labelled samples → criteria answers → z(x), with LLM cost.

Deterministic criteria are computed on EVERY output of the file (consensus and the relative figures
need all systems of a segment) and then restricted to the chosen samples. LLM criteria are asked for
the chosen samples only: the joint call for all of them, per-concept calls for a stratified subset
(``per_concept``), and the zero-shot acceptability question for all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from housestyle.pipelines.generation.base import Backend
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.judge.criteria import CriteriaSet, load_criteria, merge
from housestyle.pipelines.judge.evaluate import (
    KEYS,
    answers_json,
    concept_vectors,
    deterministic_answers,
    raw_deterministic,
)
from housestyle.pipelines.judge.llm import ask_acceptable, ask_criteria
from housestyle.pipelines.judge.samples import (
    DEFAULT_REFERENCES,
    Samples,
    load_samples,
    stratified_sample,
)
from housestyle.pipelines.judge.scs import conventions_for, load_default_conventions
from housestyle.pipelines.scoring.signature import score_signature

CRITERIA_MODES = ("deterministic", "llm", "both")
Log = Callable[[str], None]


@dataclass
class LlmSettings:
    """The generator and how much to ask it. ``criteria``: a set holding the LLM concepts."""

    backend: Backend
    criteria: CriteriaSet
    cache: GenerationCache | None = None
    per_concept: int = 100
    zero_shot: bool = True


@dataclass
class LanguageData:
    """``vectors``: one row per chosen sample: keys, not_acceptable, chrf (raw, for the baseline),
    z:<concept> columns (deterministic and/or LLM joint), unanswered, answers (JSON text).
    ``per_concept``: the same for the per-concept subset (LLM concepts only). ``zero_shot``: the
    acceptability answers. ``cost``: one row per sample × call mode."""

    samples: Samples
    vectors: pl.DataFrame
    per_concept: pl.DataFrame | None = None
    zero_shot: pl.DataFrame | None = None
    cost: pl.DataFrame = field(default_factory=pl.DataFrame)
    wall_seconds: dict[str, float] = field(default_factory=dict)
    scs_signature: str = ""

    @property
    def lp(self) -> str:
        return self.samples.lp


def choose_samples(samples: Samples, n: int | None, seed: int) -> pl.DataFrame:
    return samples.frame if n is None else stratified_sample(samples.frame, n, seed)


def prepare_language(source: Path | str | Samples, *, criteria: str, sample: int | None = None, seed: int = 0,
                     reference_systems: Sequence[str] = DEFAULT_REFERENCES, exclude_systems: Sequence[str] = (),
                     conventions_path: Path | None = None, deterministic_criteria: CriteriaSet | None = None,
                     llm: LlmSettings | None = None, log: Log = lambda _m: None) -> LanguageData:
    """Everything the judge needs from one MQM file, or its samples already loaded (labels are carried
    along, used only to score)."""
    if criteria not in CRITERIA_MODES:
        raise ValueError(f"criteria must be one of {CRITERIA_MODES}, not {criteria!r}")
    samples = source if isinstance(source, Samples) else load_samples(source, reference_systems, exclude_systems)
    chosen = choose_samples(samples, sample, seed)
    log(f"{samples.lp}: {samples.frame.height} outputs, {chosen.height} chosen "
        f"({int(chosen['not_acceptable'].sum())} not acceptable)")
    det = deterministic_criteria or load_criteria("deterministic")
    conventions = load_default_conventions(conventions_path)
    raw = raw_deterministic(samples, conventions)
    keys = chosen.select(*KEYS, "not_acceptable").join(raw.select(*KEYS, "chrf"), on=list(KEYS), how="left")
    det_answers = deterministic_answers(raw.join(chosen.select(*KEYS), on=list(KEYS), how="semi"), det)
    parts = [det_answers] if criteria in ("deterministic", "both") else []
    data = LanguageData(samples, keys, scs_signature=score_signature(
        conventions_for(conventions, samples.src_lang, samples.tgt_lang), samples.frame["seg_id"].n_unique()))
    if criteria in ("llm", "both"):
        if llm is None:
            raise ValueError(f"--criteria {criteria} needs a generator (LLM settings)")
        joint = _ask(data, chosen, llm, "joint", log)
        parts.append(joint)
        if llm.per_concept > 0:
            subset = stratified_sample(chosen, llm.per_concept, seed)
            per = _ask(data, subset, llm, "per_concept", log)
            data.per_concept = _vectors(subset.select(*KEYS, "not_acceptable").join(
                raw.select(*KEYS, "chrf"), on=list(KEYS), how="left"), per, llm.criteria, ("llm",))
        if llm.zero_shot:
            zero, summary = ask_acceptable(chosen, llm.backend, src_lang=samples.src_lang, tgt_lang=samples.tgt_lang,
                                           cache=llm.cache)
            data.zero_shot = zero
            data.wall_seconds["zero_shot"] = summary.wall_seconds
            cost = zero.select(*KEYS, pl.lit("zero_shot").alias("mode"), pl.lit(1).cast(pl.Int64).alias("calls"),
                               (pl.col("status") == "failed").cast(pl.Int64).alias("failed_calls"),
                               (pl.col("status") == "cached").cast(pl.Int64).alias("cached_calls"),
                               "prompt_tokens", "completion_tokens",
                               pl.col("acceptable").is_null().cast(pl.Int64).alias("unparsed"),
                               pl.lit(1).cast(pl.Int64).alias("answers"))
            data.cost = pl.concat([data.cost, cost]) if data.cost.height else cost
            log(f"{samples.lp}: zero-shot {summary.counts} in {summary.wall_seconds:.0f}s")
    if criteria == "deterministic" or llm is None:
        all_criteria = det
    else:
        all_criteria = llm.criteria if criteria == "llm" else merge("both", det, llm.criteria)
    answers = pl.concat(parts)
    data.vectors = _vectors(keys, answers, all_criteria, ("deterministic", "llm"))
    return data


def _vectors(keys: pl.DataFrame, answers: pl.DataFrame, criteria: CriteriaSet, kinds: Sequence[str]) -> pl.DataFrame:
    vectors = concept_vectors(keys, answers, criteria, kinds)
    return vectors.join(answers_json(answers), on=list(KEYS), how="left")


def _ask(data: LanguageData, rows: pl.DataFrame, llm: LlmSettings, mode: str, log: Log) -> pl.DataFrame:
    answers, cost, summary = ask_criteria(rows, llm.criteria, llm.backend, mode=mode, src_lang=data.samples.src_lang,
                                          tgt_lang=data.samples.tgt_lang, cache=llm.cache)
    data.cost = pl.concat([data.cost, cost]) if data.cost.height else cost
    data.wall_seconds[mode] = summary.wall_seconds
    log(f"{data.lp}: {mode} calls {summary.counts} in {summary.wall_seconds:.0f}s; "
        f"unparsed answers {int(answers['answer'].null_count())}/{answers.height}")
    return answers.select("system", "seg_id", "concept", "question", "answer")
