"""The generator resource and the model-contrast assets: contrast_outputs → negative_candidates.

``GeneratorResource`` picks one backend of ``housestyle.pipelines.generation`` (openai-compatible HTTP,
in-process llama.cpp, precomputed files). With ``backend="auto"`` (default) a client's
``inbox/<client>/generic/*`` files are its generic systems (precomputed: no model needed, which is
how the demo runs), unless $HOUSESTYLE_GENERATOR_BACKEND names a backend; with neither the contrast
assets log that no generator is configured and skip. Secrets: bind ``api_key`` to
``dagster.EnvVar("…")`` in a deployment, or set $HOUSESTYLE_GENERATOR_API_KEY (read at run time).

The resource is attached to ``contrast_outputs`` itself (asset-level ``resource_defs``), so this
module joins the graph with one registry line; its fields are set per run through run config
(``resources: generator: config: …``).
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

import json
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
from dagster import (
    AssetExecutionContext,
    BetaWarning,
    ConfigurableResource,
    MaterializeResult,
    MetadataValue,
    asset,
)

from housestyle.assets.freshness import code_version
from housestyle.pipelines.inbox_files import input_files
from housestyle.assets.jobs import MODEL_SERVER_RETRY
from housestyle.assets.metadata import md_counts, md_table
from housestyle.assets.partitions import CLIENTS
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines import atomic
from housestyle.pipelines.contrast.cases import Unit
from housestyle.pipelines.contrast.mine import mine_contrast
from housestyle.pipelines.contrast.sampling import sample_units, units_from_frame
from housestyle.pipelines.rules.io import load_authored, load_conventions, write_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.generation.base import Backend
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.registry import make_backend
from housestyle.pipelines.generation.tasks import translate
from housestyle.pipelines.paths import client_path

ENV_PREFIX = "HOUSESTYLE_GENERATOR_"
MINED_TERMS = "term_candidates"  # the miner's asset: <storage>/term_candidates/<client>/<src>__<tgt>/candidates.jsonl


class GeneratorResource(ConfigurableResource):
    """How generic-system outputs are obtained (model contrast, generated references)."""

    backend: str = "auto"  # auto | none | openai | llamacpp | precomputed
    base_url: str | None = None  # openai: API root with /v1
    model: str | None = None  # openai: model name
    api_key: str | None = None  # openai: bind to EnvVar in deployments
    api: str | None = None  # "chat" or "completion" (base models)
    temperature: float = 0.0
    seed: int = 0
    timeout: float = 60.0
    retries: int = 3
    max_workers: int = 4
    max_tokens: int | None = None
    model_path: str | None = None  # llamacpp: GGUF file (default: the Gemma 3 270M package)
    precomputed_path: str | None = None  # precomputed: one output file
    detokenize: str | None = None  # precomputed: "moses" for Moses-tokenised files
    cache_dir: str | None = None  # default: <storage>/generation_cache
    sampling: str = "terms"  # which units to translate: "terms" (units holding mined terms) or "all"
    max_sources: int | None = None

    def _env(self, name: str, value: Any) -> Any:
        return value if value is not None else os.environ.get(ENV_PREFIX + name.upper())

    def resolved_backend(self) -> str:
        if self.backend != "auto":
            return self.backend
        return os.environ.get(ENV_PREFIX + "BACKEND", "auto")

    def systems(self, generic_dir: Path, tgt_lang: str) -> list[tuple[str, Backend]]:
        """(system name, backend) pairs; empty when no generator is configured."""
        kind = self.resolved_backend()
        if kind == "none":
            return []
        if kind == "auto" or (kind == "precomputed" and not self.precomputed_path):
            return [(path.name.split(".")[0], make_backend("precomputed", {"path": str(path), "tgt_lang": tgt_lang,
                                                                            "detokenize": self.detokenize}))
                    for path in input_files(generic_dir)]
        if kind == "precomputed":
            path = Path(str(self.precomputed_path))
            return [(path.name.split(".")[0], make_backend("precomputed", {
                "path": str(path), "tgt_lang": tgt_lang, "detokenize": self.detokenize}))]
        common = {"temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens,
                  "api": self._env("api", self.api)}
        if kind == "openai":
            backend = make_backend("openai", {**common, "base_url": self._env("base_url", self.base_url),
                                              "model": self._env("model", self.model),
                                              "api_key": self._env("api_key", self.api_key), "timeout": self.timeout,
                                              "retries": self.retries, "max_workers": self.max_workers})
        else:
            backend = make_backend(kind, {**common, "model_path": self._env("model_path", self.model_path)})
        return [(f"{kind}:{backend.model}", backend)]

    def cache(self, storage: Path) -> GenerationCache:
        return GenerationCache(Path(self.cache_dir) if self.cache_dir else storage / "generation_cache")


def term_rules_for(settings: HousestyleSettings, client: str) -> tuple[list[Convention], str]:
    """The client's required-term rules: the miner's term_candidates when materialised
    (<storage>/term_candidates/<client>/<src>__<tgt>/candidates.jsonl), else the authored ones."""
    mined = [p for p in sorted((settings.storage / MINED_TERMS).joinpath(client).glob("*/candidates.jsonl"))
             if p.stat().st_size]
    if mined:
        return [c for path in mined for c in load_conventions(path, regex_guard=False) if c.rule == "term"], "mined"
    files = input_files(settings.client_dir(client) / "conventions")
    return [c for path in files for c in load_authored(path) if c.rule == "term"], "authored"


def _pair(rules: list[Convention]) -> tuple[str | None, str | None]:
    src = {r.src_lang for r in rules if r.src_lang}
    tgt = {r.tgt_lang for r in rules if r.tgt_lang}
    return (min(src) if len(src) == 1 else None), (min(tgt) if len(tgt) == 1 else None)


# asset-level resource_defs is a Dagster beta parameter: its warning would reach every CLI user's stderr
with warnings.catch_warnings():
    warnings.simplefilter("ignore", BetaWarning)

    @asset(partitions_def=CLIENTS, group_name="contrast", output_required=False,
           deps=["tm_units", "term_candidates", "inbox_generic", "inbox_conventions"],
           resource_defs={"generator": GeneratorResource()}, kinds={"polars", "parquet"},
           retry_policy=MODEL_SERVER_RETRY, code_version=code_version(__name__))
    def contrast_outputs(context: AssetExecutionContext, settings: HousestyleSettings,
                         generator: GeneratorResource) -> Iterator[MaterializeResult]:
        """A generic system's outputs for the client's TM sources (cached; only what is missing is generated)."""
        client = context.partition_key
        units_path = settings.tm_units_path(client)
        out_dir = settings.asset_dir("contrast_outputs", client)
        # No units is an answer, not an error: a failure here would be retried (MODEL_SERVER_RETRY) for nothing.
        if not units_path.is_file() or pl.scan_parquet(units_path).select(pl.len()).collect().item() == 0:
            context.log.warning(f"no tm_units for {client}: nothing to contrast")
            (out_dir / "outputs.parquet").unlink(missing_ok=True)
            yield MaterializeResult(metadata={"generic_systems": 0, "why": "no tm_units"})
            return
        rules, origin = term_rules_for(settings, client)
        units, src, tgt = units_from_frame(pl.read_parquet(units_path), *_pair(rules))
        systems = generator.systems(settings.client_dir(client) / "generic", tgt)
        if not systems:
            context.log.warning(f"no generator for {client}: add inbox/{client}/generic/<system>.jsonl "
                                "or configure the generator resource")
            # Materialise an explicit "none" (and drop stale outputs) so the merge downstream still runs.
            (out_dir / "outputs.parquet").unlink(missing_ok=True)
            yield MaterializeResult(metadata={"generic_systems": 0, "why": "no generic outputs and no generator"})
            return
        sample = sample_units(units, rules, mode=generator.sampling, max_sources=generator.max_sources)
        context.log.info(f"{len(sample):,} of {len(units):,} {src}→{tgt} units ({generator.sampling}; "
                         f"{len(rules)} {origin} term rules) × {len(systems)} generic system(s)")
        cache, frames, per_system = generator.cache(settings.storage), [], []
        for name, backend in systems:
            run = translate({u.unit_id: u.source for u in sample}, backend, src_lang=src, tgt_lang=tgt, cache=cache)
            backend.close()
            frames.append(run.frame().with_columns(pl.lit(name).alias("system"), pl.lit(run.backend).alias("backend"),
                                                   pl.lit(run.model).alias("model"), pl.lit(run.template).alias("template")))
            per_system.append({"system": name, "backend": run.backend, **run.counts, "calls": run.calls,
                               "wall_s": round(run.wall_seconds, 2), "tokens_per_s": run.tokens_per_second})
        refs = pl.DataFrame({"segment_id": [u.unit_id for u in sample], "source": [u.source for u in sample],
                             "reference": [u.reference for u in sample]})
        table = pl.concat(frames).join(refs, on="segment_id", how="left").rename({"segment_id": "unit_id"})
        atomic.write_with(out_dir / "outputs.parquet", table.write_parquet)
        atomic.write_text(out_dir / "summary.json", json.dumps({"client": client, "pair": f"{src}→{tgt}", "rules": origin,
                                                                "systems": per_system}, indent=1) + "\n")
        yield MaterializeResult(metadata={
            "path": MetadataValue.path(str(out_dir / "outputs.parquet")), "units": len(sample), "term_rules": origin,
            "per_system": MetadataValue.md(md_table(per_system, ["system", "backend", "generated", "cached", "failed",
                                                                 "calls", "wall_s", "tokens_per_s"]))})


@asset(partitions_def=CLIENTS, group_name="contrast", deps=["contrast_outputs", "term_candidates", "inbox_conventions"],
       output_required=False, kinds={"polars", "parquet"}, code_version=code_version(__name__))
def negative_candidates(context: AssetExecutionContext, settings: HousestyleSettings) -> Iterator[MaterializeResult]:
    """Recurring divergences of the generic system(s) around mandated terms → candidate banned variants."""
    client = context.partition_key
    outputs_path = client_path(settings.storage / "contrast_outputs", client, "outputs.parquet")
    if not outputs_path.is_file():
        context.log.warning(f"no contrast outputs for {client}: no candidate banned variants")
        (settings.asset_dir("negative_candidates", client) / "conventions.jsonl").unlink(missing_ok=True)
        yield MaterializeResult(metadata={"candidate_conventions": 0, "why": "no contrast outputs"})
        return
    rules, origin = term_rules_for(settings, client)
    outputs = pl.read_parquet(outputs_path).filter(pl.col("status") != "failed")
    tm, _src, tgt = units_from_frame(pl.read_parquet(settings.tm_units_path(client)), *_pair(rules))
    candidates, occurrences, conventions, stats = [], [], [], {}
    for system in sorted(outputs["system"].unique().to_list()):
        rows = outputs.filter(pl.col("system") == system)
        units = [Unit(u, s, r) for u, s, r in rows.select("unit_id", "source", "reference").iter_rows()]
        result = mine_contrast(rules, units, dict(zip(rows["unit_id"], rows["text"])), tgt_lang=tgt, tm=tm,
                               system=system)
        candidates.append(result.candidates.with_columns(pl.lit(system).alias("system")))
        occurrences.append(result.occurrences.with_columns(pl.lit(system).alias("system")))
        conventions.extend(result.conventions)
        stats[system] = {**result.stats, "signature": result.signature}
    out_dir = settings.asset_dir("negative_candidates", client)
    table = pl.concat(candidates)
    atomic.write_with(out_dir / "candidates.parquet", table.write_parquet)
    atomic.write_with(out_dir / "occurrences.parquet", pl.concat(occurrences).write_parquet)
    write_conventions(conventions, out_dir / "conventions.jsonl")
    evidence = [{"convention_id": c.convention_id, "unit_id": u, "role": "contrast"}
                for c in conventions for ids in c.extra["contrast_evidence"].values() for u in ids]
    atomic.write_with(out_dir / "evidence.parquet", pl.DataFrame(
        evidence, schema={"convention_id": pl.Utf8, "unit_id": pl.Utf8, "role": pl.Utf8}).write_parquet)
    atomic.write_text(out_dir / "summary.json", json.dumps({"client": client, "term_rules": origin, "systems": stats},
                                                           indent=1) + "\n")
    kept = table.filter(pl.col("status") == "kept").sort("support", descending=True)
    reasons = table.filter(pl.col("status") == "demoted")["reason"].value_counts()
    context.log.info(f"{kept.height} candidate banned variant(s) kept, {table.height - kept.height} demoted "
                     f"→ {len(conventions)} candidate convention(s) in {out_dir / 'conventions.jsonl'}")
    yield MaterializeResult(metadata={
        "conventions": MetadataValue.path(str(out_dir / "conventions.jsonl")),
        "kept": kept.height, "demoted": table.height - kept.height, "candidate_conventions": len(conventions),
        "demoted_by_reason": md_counts(dict(zip(reasons["reason"].to_list(), reasons["count"].to_list())), "reason"),
        "kept_variants": MetadataValue.md(md_table(kept.head(30).to_dicts(),
                                                   ["system", "dimension", "reference_term", "variant", "support"])),
    })
