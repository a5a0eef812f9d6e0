"""Asset ``acceptance_judgements``: the criteria-decomposed acceptance judge, trained on one language
pair's MQM labels and applied to the other, in both directions (issue 8).

Unpartitioned (it is about the judge, not a client). Data: the WMT21 TED MQM files under
``data_dir`` (run config, or bind it to ``dagster.EnvVar("HOUSESTYLE_DATA")``), else $HOUSESTYLE_DATA
read at run time, else ``../shared/data`` beside the repository. When a file is absent the asset
says which one in its metadata and writes nothing, rather than failing the run. LLM criteria
(``criteria: llm|both``) need a generator: ``generator_backend`` (or $HOUSESTYLE_GENERATOR_BACKEND)
with ``generator_options``; without one the asset reports that and runs nothing.
"""

# No `from __future__ import annotations`: dagster must see the real JudgeConfig class.
import os
from pathlib import Path
from typing import Any

from dagster import (
    AssetExecutionContext,
    Config,
    MaterializeResult,
    MetadataValue,
    asset,
)

from housestyle.assets.freshness import code_version
from housestyle.assets.jobs import MODEL_SERVER_RETRY
from housestyle.assets.resources import REPO_ROOT_DEFAULT, HousestyleSettings
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.judge.job import JudgeJob, default_llm_criteria, run_judge
from housestyle.pipelines.judge.prepare import LlmSettings
from housestyle.pipelines.judge.report import eval_markdown
from housestyle.pipelines.judge.samples import load_pair
from housestyle.pipelines.metaeval.mqm import check_lp

ENV_DATA = "HOUSESTYLE_DATA"
ENV_BACKEND = "HOUSESTYLE_GENERATOR_BACKEND"
TED_FILES = ["wmt-mqm/ted/ende/mqm_ted_ende.tsv", "wmt-mqm/ted/zhen/mqm_ted_zhen.tsv"]


class JudgeConfig(Config):
    """Which two MQM files (relative to data_dir unless absolute), which criteria, how much."""

    data_dir: str | None = None
    mqm_files: list[str] = TED_FILES
    lps: list[str] = []  # noqa: RUF012  the two files' language pairs (like --lp); empty = from the files
    both_directions: bool = True
    criteria: str = "deterministic"
    sample: int | None = None
    seed: int = 0
    n_bootstrap: int = 1000
    per_concept: int = 100
    generator_backend: str | None = None  # llamacpp | openai (default: $HOUSESTYLE_GENERATOR_BACKEND)
    generator_options: dict[str, str] | None = None

    def resolved_data_dir(self) -> Path:
        if self.data_dir:
            return Path(self.data_dir)
        from_env = os.environ.get(ENV_DATA)
        return Path(from_env) if from_env else REPO_ROOT_DEFAULT.parent / "shared" / "data"

    def files(self) -> list[Path]:
        root = self.resolved_data_dir()
        return [Path(f) if Path(f).is_absolute() else root / f for f in self.mqm_files]

    def backend_name(self) -> str | None:
        return self.generator_backend or os.environ.get(ENV_BACKEND) or None


def _llm(config: JudgeConfig, storage: Path) -> LlmSettings | None:
    from housestyle.pipelines.generation.cache import GenerationCache
    from housestyle.pipelines.generation.registry import make_backend

    name = config.backend_name()
    if name is None:
        return None
    backend = make_backend(name, dict(config.generator_options or {}))
    return LlmSettings(backend=backend, criteria=default_llm_criteria(), cache=GenerationCache(storage / "generation_cache"),
                       per_concept=config.per_concept)


@asset(group_name="judge", kinds={"polars", "sklearn"}, retry_policy=MODEL_SERVER_RETRY, code_version=code_version(__name__),
       description="Acceptance judge with cross-lingual transfer: balanced accuracy of six transfer models and a "
                   "chrF-threshold baseline, by-segment bootstrap intervals, paired gain over chrF, both directions.")
def acceptance_judgements(context: AssetExecutionContext, config: JudgeConfig,
                          settings: HousestyleSettings) -> MaterializeResult:
    files = config.files()
    missing = [str(f) for f in files if not f.is_file()]
    if len(files) != 2 or missing:
        message = (f"MQM data not found: {', '.join(missing)} (set data_dir or ${ENV_DATA})" if missing
                   else f"mqm_files must name exactly two files, got {len(files)}")
        context.log.warning(message)
        return MaterializeResult(metadata={"status": "skipped: data absent" if missing else "skipped", "reason": message})
    if config.lps and len(config.lps) != 2:
        raise ConfigError(f"lps must name the two files' language pairs, got {len(config.lps)}")
    lps = (check_lp(config.lps[0]), check_lp(config.lps[1])) if config.lps else (None, None)
    first, second = load_pair(files[0], files[1], lps=lps)  # both files checked before any backend or criterion
    loaded = {files[0]: first, files[1]: second}
    out_root = settings.storage / "acceptance_judgements"
    llm = _llm(config, settings.storage) if config.criteria in ("llm", "both") else None
    if config.criteria in ("llm", "both") and llm is None:
        message = f"criteria {config.criteria!r} needs a generator: set generator_backend or ${ENV_BACKEND}"
        context.log.warning(message)
        return MaterializeResult(metadata={"status": "skipped: no generator", "reason": message})
    pairs = [(files[0], files[1])] + ([(files[1], files[0])] if config.both_directions else [])
    metadata: dict[str, Any] = {"status": "ok", "criteria": config.criteria}
    tables = []
    try:
        for train, test in pairs:
            out = out_root / f"{train.stem}__{test.stem}__{config.criteria}"
            outputs = run_judge(JudgeJob(train=train, test=test, criteria=config.criteria, out=out, sample=config.sample,
                                         seed=config.seed, n_bootstrap=config.n_bootstrap, llm=llm),
                                log=context.log.info, samples=(loaded[train], loaded[test]))
            tables.append(eval_markdown(outputs.table))
            for row in outputs.table.filter(outputs.table["primary"] & (outputs.table["llm_mode"] != "per_concept")
                                            ).iter_rows(named=True):
                key = f"{row['train_lp']}→{row['test_lp']} {row['criteria']} logistic_regression"
                metadata[f"{key} BA"] = float(row["balanced_accuracy"])
                metadata[f"{key} gain vs chrF"] = float(row["gain_vs_chrf"])
            metadata[f"path {train.stem}→{test.stem}"] = MetadataValue.path(str(out / "judge_eval.parquet"))
    finally:
        if llm is not None:
            llm.backend.close()
    metadata["table"] = MetadataValue.md("\n\n".join(t for t in tables if t))
    return MaterializeResult(metadata=metadata)
