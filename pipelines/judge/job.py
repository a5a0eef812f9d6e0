"""A whole judge run, shared by `housestyle judge` and the ``acceptance_judgements`` asset: prepare both
language pairs, train on the first, evaluate on the second, write every table.

Both MQM files are read and checked before any criterion is computed, so a bad test file is refused
in seconds, not after the training file's preparation.

Files written to ``out`` (``<key>`` = ``<role>_<lp>_<sha8>``: train/test, language pair, first 8 hex
of the MQM file's SHA-256 — a train and a test file of the same pair never overwrite each other):
judge_eval.parquet (+ .md), criteria_vectors_<key>.parquet (z(x), one row per sample;
``criteria_vectors_<key>_per_concept.parquet`` for the per-concept subset), zero_shot_<key>.parquet,
llm_cost_<key>.parquet, sample_efficiency.parquet, importance.parquet, models/<view>/<model>.joblib
+ .json (training language and criteria version), criteria/<name>.json (the sets used).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.judge.criteria import CriteriaSet, load_criteria, merge, save_criteria
from housestyle.pipelines.judge.prepare import LanguageData, LlmSettings, Log, prepare_language
from housestyle.pipelines.judge.report import (
    aggregator_markdown,
    cost_markdown,
    curve_markdown,
    eval_markdown,
    importance_markdown,
    label_rule,
)
from housestyle.pipelines.judge.run import (
    JUDGE_EVAL_SCHEMA,
    Evaluation,
    judge_transfer,
    models_folder,
)
from housestyle.pipelines.judge.samples import DEFAULT_REFERENCES, Samples, load_pair

ROLES = ("train", "test")


@dataclass
class JudgeJob:
    train: Path
    test: Path
    criteria: str
    out: Path
    sample: int | None = None
    seed: int = 0
    n_bootstrap: int = 1000
    reference_systems: Sequence[str] = DEFAULT_REFERENCES
    exclude_systems: Sequence[str] = ()
    conventions: Path | None = None
    llm: LlmSettings | None = None
    analyses: bool = True
    command: str = ""
    lps: tuple[str | None, str | None] = (None, None)  # --lp for (train, test); None = from the file


@dataclass
class JudgeOutputs:
    table: pl.DataFrame
    markdown: str
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0


def run_judge(job: JudgeJob, log: Log = lambda _m: None, samples: tuple[Samples, Samples] | None = None) -> JudgeOutputs:
    """The whole run; ``samples``: the two files' samples (``samples.load_pair``) when the caller
    checked them first, else they are loaded here — before anything else."""
    started = time.perf_counter()
    loaded = samples or load_pair(job.train, job.test, job.reference_systems, job.exclude_systems, job.lps)
    det = load_criteria("deterministic")
    langs = [prepare_language(lang, criteria=job.criteria, sample=job.sample, seed=job.seed,
                              conventions_path=job.conventions, deterministic_criteria=det, llm=job.llm, log=log)
             for lang in loaded]
    train, test = langs
    sets: dict[str, CriteriaSet] = {"deterministic": det}
    if job.llm is not None:
        sets["llm"] = job.llm.criteria
        sets["both"] = merge("both", det, job.llm.criteria)
    results = judge_transfer(train, test, job.criteria, sets, n_bootstrap=job.n_bootstrap, seed=job.seed,
                             analyses=job.analyses)
    job.out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    table = pl.concat([e.table for _, _, e in results]).cast(JUDGE_EVAL_SCHEMA) if results else \
        pl.DataFrame(schema=JUDGE_EVAL_SCHEMA)
    files.append(_write(table, job.out / "judge_eval.parquet"))
    for label, mode, evaluation in results:
        for judge in evaluation.judges.values():
            judge.meta.update({"criteria_mode": label, "llm_mode": mode, "test_lp": test.lp,
                               "standardisation": evaluation.standardisation})
            files.append(judge.save(models_folder(job.out, label, mode)))
    curves = [e.curve.with_columns(pl.lit(f"{l}/{m}").alias("view")) for l, m, e in results if e.curve is not None]
    imps = [e.importance.with_columns(pl.lit(f"{l}/{m}").alias("view")) for l, m, e in results if e.importance is not None]
    if curves:
        files.append(_write(pl.concat(curves), job.out / "sample_efficiency.parquet"))
    if imps:
        files.append(_write(pl.concat(imps), job.out / "importance.parquet"))
    aggregators = [e.aggregator for _, _, e in results if e.aggregator is not None]
    if aggregators:
        files.append(_write(pl.concat(aggregators), job.out / "llm_aggregator.parquet"))
    wall: dict[str, float] = {}
    # the cost table's language column: the pair, told apart by role when train and test share it
    names = [d.lp if langs[0].lp != langs[1].lp else f"{d.lp} ({role})" for role, d in zip(ROLES, langs)]
    for role, name, data in zip(ROLES, names, langs):
        files += _language_files(data, job.out, language_key(role, data))
        wall.update({f"{name}:{k}": v for k, v in data.wall_seconds.items()})
    for name, criteria in sets.items():
        files.append(save_criteria(criteria, job.out / "criteria" / f"{name}.json"))
    costs = [d.cost.with_columns(pl.lit(name).alias("lp")) for name, d in zip(names, langs) if d.cost.height]
    text = _markdown(job, train, test, table, results, pl.concat(costs) if costs else None, wall)
    md = job.out / "judge_eval.md"
    files.append(atomic.write_text(md, text))
    return JudgeOutputs(table, text, files, time.perf_counter() - started)


def _write(frame: pl.DataFrame, path: Path) -> Path:
    return atomic.write_with(path, frame.write_parquet)


def language_key(role: str, data: LanguageData) -> str:
    """``train_en-de_1a2b3c4d``: role, pair and the MQM file's content hash (from its signature)."""
    sha = data.samples.signature.split("sha256:", 1)[1][:8] if "sha256:" in data.samples.signature else "nohash"
    return f"{role}_{re.sub(r'[^A-Za-z0-9_-]', '_', data.lp)}_{sha}"


def _language_files(data: LanguageData, out: Path, lp: str) -> list[Path]:
    files = [_write(data.vectors.with_columns(pl.lit(data.lp).alias("lp")), out / f"criteria_vectors_{lp}.parquet")]
    if data.per_concept is not None:
        files.append(_write(data.per_concept.with_columns(pl.lit(data.lp).alias("lp")),
                            out / f"criteria_vectors_{lp}_per_concept.parquet"))
    if data.zero_shot is not None:
        files.append(_write(data.zero_shot, out / f"zero_shot_{lp}.parquet"))
    if data.cost.height:
        files.append(_write(data.cost, out / f"llm_cost_{lp}.parquet"))
    return files


def _markdown(job: JudgeJob, train: LanguageData, test: LanguageData, table: pl.DataFrame,
              results: Sequence[tuple[str, str, Evaluation]], cost: pl.DataFrame | None, wall: dict[str, float]) -> str:
    parts = [f"# Acceptance judge: train {train.lp} → test {test.lp} ({job.criteria})", ""]
    if job.command:
        parts += [f"Command: `{job.command}`", ""]
    samples_line = (f"Samples: {train.lp} {train.vectors.height}, {test.lp} {test.vectors.height} (seed {job.seed}); "
                    f"by-segment bootstrap, {job.n_bootstrap} resamples; gains paired on the same resamples. "
                    "Primary model: logistic_regression (named in advance).")
    parts += [label_rule(), samples_line, "", eval_markdown(table), ""]
    for label, mode, evaluation in results:
        curve = evaluation.curve
        if curve is not None:
            parts += [f"## Sample efficiency ({label}/{mode}; 30% of {train.lp} segments held out)", "",
                      curve_markdown(curve), ""]
        aggregator = evaluation.aggregator
        if aggregator is not None:
            title = (f"## LLM as aggregator vs trained aggregator ({label}/{mode}; paired gain over the zero-shot "
                     "LLM verdict on the same resamples)")
            parts += [title, "", aggregator_markdown(aggregator), ""]
        importance = evaluation.importance
        if importance is not None:
            parts += [f"## Random-forest Gini importance per language ({label}/{mode})", "",
                      importance_markdown(importance), ""]
    if cost is not None:
        parts += ["## LLM cost", "", cost_markdown(cost, wall), ""]
    parts += ["## Signatures", "", f"- {train.lp}: {train.samples.signature}", f"- {test.lp}: {test.samples.signature}",
              f"- SCS criteria {train.lp}: {train.scs_signature}", f"- SCS criteria {test.lp}: {test.scs_signature}"]
    parts += [f"- {v}" for v in sorted(set(table["criteria_version"].to_list()))]
    if job.llm is not None:
        from housestyle.pipelines.judge.llm import backend_signature

        parts.append(f"- {backend_signature(job.llm.backend)}")
    return "\n".join(parts) + "\n"


def default_llm_criteria() -> CriteriaSet:
    """The generated LLM set when it exists (criteria/llm.json), else the authored seed."""
    from housestyle.pipelines.judge.criteria import CRITERIA_DIR

    return load_criteria(CRITERIA_DIR / "llm.json") if (CRITERIA_DIR / "llm.json").is_file() else load_criteria("llm_seed")
