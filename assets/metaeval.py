"""Asset ``adequacy_meta_evaluation``: how well BLEU/chrF agree with expert MQM (issue 7).

Unpartitioned (it is about metrics, not a client). By default it reads the WMT21 TED MQM files from
the shared data folder; ``data_dir`` may be set in run config (or bound to
``dagster.EnvVar("HOUSESTYLE_DATA")``), else $HOUSESTYLE_DATA is read at run time, else
``../shared/data`` beside the repository. When the files are absent the asset says so in its
metadata and writes nothing, rather than failing the run.
"""

# No `from __future__ import annotations` here: dagster must see the real MetaEvalConfig class in the
# asset signature (a string annotation fails its config-type inference).
import os
from pathlib import Path

from dagster import (
    AssetExecutionContext,
    Config,
    MaterializeResult,
    MetadataValue,
    asset,
)

from housestyle.assets.freshness import code_version
from housestyle.assets.resources import REPO_ROOT_DEFAULT, HousestyleSettings
from housestyle.pipelines import atomic
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.metaeval.meta_eval import meta_evaluate
from housestyle.pipelines.metaeval.mqm import check_lp, load_mqm
from housestyle.pipelines.metaeval.report import results_markdown, signatures_markdown

ENV_DATA = "HOUSESTYLE_DATA"
TED_FILES = ["wmt-mqm/ted/ende/mqm_ted_ende.tsv", "wmt-mqm/ted/zhen/mqm_ted_zhen.tsv"]


class MetaEvalConfig(Config):
    """Which MQM files (relative to data_dir unless absolute) and how to evaluate them."""

    data_dir: str | None = None
    # pydantic copies field defaults per instance, so these list defaults are not shared state
    mqm_files: list[str] = TED_FILES
    reference_systems: list[str] = ["ref"]  # noqa: RUF012
    exclude_systems: list[str] = ["refB"]  # noqa: RUF012  (zh→en's second human translation)
    include_human: bool = False  # rank the files' other human translations (ref, refA, ref-B…) too
    lps: list[str] = []  # noqa: RUF012  one language pair per MQM file (like --lp); empty = from the files
    n_bootstrap: int = 1000
    seed: int = 0

    def resolved_data_dir(self) -> Path:
        if self.data_dir:
            return Path(self.data_dir)
        from_env = os.environ.get(ENV_DATA)
        return Path(from_env) if from_env else REPO_ROOT_DEFAULT.parent / "shared" / "data"

    def files(self) -> list[Path]:
        root = self.resolved_data_dir()
        return [Path(f) if Path(f).is_absolute() else root / f for f in self.mqm_files]


@asset(group_name="adequacy", kinds={"polars"}, code_version=code_version(__name__),
       description="BLEU/chrF vs expert MQM: pairwise accuracy, Pearson, Kendall (system), Kendall tau-b "
                   "(segment), 95% paired-bootstrap intervals, per language pair and pooled.")
def adequacy_meta_evaluation(context: AssetExecutionContext, config: MetaEvalConfig,
                             settings: HousestyleSettings) -> MaterializeResult:
    files = config.files()
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        message = f"MQM data not found: {', '.join(missing)} (set data_dir or ${ENV_DATA})"
        context.log.warning(message)
        return MaterializeResult(metadata={"status": "skipped: data absent", "missing": message})
    if config.lps and len(config.lps) != len(files):
        raise ConfigError(f"lps gives {len(config.lps)} language pair(s) for {len(files)} MQM file(s)")
    lps: list[str | None] = [check_lp(lp) for lp in config.lps] or [None] * len(files)
    datas = [load_mqm(path, lp=lp) for path, lp in zip(files, lps)]  # all files checked before any metric
    for data in datas:
        context.log.info(f"{data.path}: {data.layout} layout, {data.lp}, dropped {dict(data.dropped) or 'nothing'}")
    results = meta_evaluate(datas, config.reference_systems, exclude_systems=config.exclude_systems,
                            n_bootstrap=config.n_bootstrap, seed=config.seed, include_human=config.include_human)
    out_dir = settings.storage / "adequacy_meta_evaluation"
    out_dir.mkdir(parents=True, exist_ok=True)
    parquet = out_dir / "meta_eval.parquet"
    atomic.write_with(parquet, results.write_parquet)
    table = results_markdown(results)
    atomic.write_text(out_dir / "meta_eval.md", f"{table}\n\n{signatures_markdown(results)}\n")
    pooled = results.filter((results["lp"] == "pooled") & (results["level"] == "system"))
    headline = {f"pooled {r['metric']} ({r['references']}) pairwise accuracy": float(r["pairwise_accuracy"])
                for r in pooled.iter_rows(named=True) if r["pairwise_accuracy"] is not None}
    return MaterializeResult(metadata={
        "status": "ok", "path": MetadataValue.path(str(parquet)), "rows": results.height,
        "table": MetadataValue.md(table), "n_bootstrap": config.n_bootstrap, "seed": config.seed, **headline})
