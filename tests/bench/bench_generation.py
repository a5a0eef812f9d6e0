"""Generation benchmarks with the local backend (Gemma 3 270M, in-process llama.cpp). Run on demand:

  python -m tests.bench.bench_generation contrast [--sources 100] [--terms FILE]
      Gemma translates N TICO-19 en→fr sources holding mined terms (an even spread), then contrast
      mining runs on its outputs: wall time, tokens/s, and what it yields → tests/eval/contrast_gemma.md
  python -m tests.bench.bench_generation references [--sources 30] [--n 10]
      Gemma writes N candidate references for zh→en TED sources (ground truth = `ref`): time per
      call, per 1,000 candidates and per 1,000 kept references (extrapolated) → stdout + JSON line.

Outputs are cached in tests/bench/_data/generation_cache (a re-run only times what is missing: delete
the folder, or pass --fresh, for a cold measurement). The machine's load average is printed with
every figure, since other jobs share its 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path

import polars as pl

from housestyle.pipelines.contrast.mine import mine_contrast
from housestyle.pipelines.contrast.sampling import sample_units, units_from_frame
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.llamacpp import LlamaCppBackend
from housestyle.pipelines.generation.runner import RunSummary
from housestyle.pipelines.generation.tasks import translate
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.metaeval.mqm import load_mqm
from housestyle.pipelines.references.generate import generate_references

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
CACHE = REPO / "tests" / "bench" / "_data" / "generation_cache"


def load() -> str:
    return "load avg " + "/".join(f"{x:.1f}" for x in os.getloadavg())


def timing(run: RunSummary) -> dict[str, object]:
    gen = [o for o in run.outcomes if o.status == "generated"]
    seconds = sum(o.seconds or 0 for o in gen)
    tokens = sum(o.completion_tokens or 0 for o in gen)
    return {"generated": len(gen), "cached": run.counts.get("cached", 0), "failed": run.counts.get("failed", 0),
            "wall_s": round(run.wall_seconds, 1), "gen_s": round(seconds, 1), "completion_tokens": tokens,
            "prompt_tokens": sum(o.prompt_tokens or 0 for o in gen),
            "tokens_per_s": round(tokens / seconds, 1) if seconds else None, "model": run.model}


def tico_units(work: Path) -> pl.DataFrame:
    out = work / "tico_en_fr"
    if not (out / "tm_units.parquet").is_file():
        ingest_files([DATA / "tico19" / "TM" / "all.en-fr.tmx"], client="bench", out_dir=out, domain_of=lambda _p: None)
    return pl.read_parquet(out / "tm_units.parquet")


def mined_terms(units: pl.DataFrame, path: Path | None) -> list[Convention]:
    if path is not None:
        return [c for c in load_conventions(path, regex_guard=False) if c.rule == "term"]
    from housestyle.pipelines.mining.mine import (
        mine_units,  # the miner's own code: terms it finds, not gold
    )

    return [c for c in mine_units(units, "en", "fr").conventions if c.rule == "term"]


def bench_contrast(args: argparse.Namespace) -> None:
    frame = tico_units(CACHE.parent)
    rules = mined_terms(frame, args.terms)
    units, src, tgt = units_from_frame(frame, "en", "fr")
    sample = sample_units(units, rules, mode="terms", max_sources=args.sources)
    backend = LlamaCppBackend(n_threads=args.threads)
    print(f"{len(rules)} term rules; translating {len(sample)} sources with {backend.model} ({load()})", flush=True)
    run = translate({u.unit_id: u.source for u in sample}, backend, src_lang=src, tgt_lang=tgt,
                    cache=GenerationCache(CACHE), max_tokens=args.max_tokens, flush_every=4)
    backend.close()
    stats = timing(run)
    print(json.dumps({"task": "translate", **stats, "load": load()}), flush=True)
    result = mine_contrast(rules, sample, run.texts(), tgt_lang=tgt, tm=units, system="gemma-3-270m")
    cands = result.candidates.sort(["status", "support"], descending=[True, True])
    lines = [
        "# Contrast mining with the local Gemma 3 270M as the generic system (TICO-19 en→fr)", "",
        f"Command: `python -m tests.bench.bench_generation contrast --sources {args.sources}"
        + (f" --terms {args.terms}`" if args.terms else "`"), "",
        (f"- term rules: {len(rules)} (the miner's, on all 3,071 units); sources: {len(sample)} (units holding a "
        "mined term, an even spread)"),
        f"- generation: {stats} ({load()} at the end)",
        f"- contrast: {result.stats}", f"- signature: `{result.signature}`", "",
        "| rule | reference term | variant | support | status | reasons |", "|---|---|---|---|---|---|",
    ]
    lines += [f"| {r['dimension']} | {r['reference_term']} | {r['variant']} | {r['support']} | {r['status']} | "
              f"{', '.join(r['reasons'])} |" for r in cands.iter_rows(named=True)]
    examples = sorted(run.texts().items())[:10]
    lines += ["", "Ten outputs (unit id: source → Gemma):", ""]
    lines += [f"- {k}: {next(u.source for u in sample if u.unit_id == k)} → {v}" for k, v in examples]
    (REPO / "tests" / "eval" / "contrast_gemma.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[:8]))


def bench_references(args: argparse.Namespace) -> None:
    data = load_mqm(DATA / "wmt-mqm" / "ted" / "zhen" / "mqm_ted_zhen.tsv")
    ids = data.seg_ids[args.offset:args.offset + args.sources]
    sources, truth = data.sources(), data.outputs("ref")
    backend = LlamaCppBackend(n_threads=args.threads)
    print(f"{len(ids)} zh→en sources, n={args.n}, {backend.model} ({load()})", flush=True)
    records, run = generate_references({str(i): sources[i] for i in ids}, backend, src_lang="zh", tgt_lang="en",
                                       n=args.n, ground_truth={str(i): truth[i] for i in ids},
                                       cache=GenerationCache(CACHE), max_tokens=args.max_tokens)
    backend.close()
    stats = timing(run)
    gen_ids = {o.segment_id for o in run.outcomes if o.status == "generated"}
    cands = sum(len(r.candidates) for r in records if r.id in gen_ids)
    kept = sum(len(r.references) for r in records if r.id in gen_ids)
    per_call = stats["gen_s"] / len(gen_ids) if gen_ids else None  # type: ignore[operator]
    out = {"task": "references", **stats, "candidates": cands, "kept": kept,
           "s_per_call": round(per_call, 2) if per_call else None,
           "h_per_1000_calls": round(per_call * 1000 / 3600, 2) if per_call else None,
           "h_per_1000_candidates": round(stats["gen_s"] / cands * 1000 / 3600, 2) if cands else None,  # type: ignore[operator]
           "h_per_1000_kept": round(stats["gen_s"] / kept * 1000 / 3600, 2) if kept else None,  # type: ignore[operator]
           "load": load()}
    print(json.dumps(out), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", choices=["contrast", "references"])
    parser.add_argument("--sources", type=int, default=None)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--terms", type=Path, help="term rules (JSONL); default: run the miner now")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--max-tokens", type=int, default=None)
    parser.add_argument("--fresh", action="store_true", help="empty the cache first (cold timing)")
    args = parser.parse_args()
    if args.fresh and CACHE.exists():
        shutil.rmtree(CACHE)
    started = time.perf_counter()
    if args.task == "contrast":
        args.sources = args.sources or 100
        bench_contrast(args)
    else:
        args.sources = args.sources or 30
        bench_references(args)
    print(f"total wall {time.perf_counter() - started:.1f}s ({load()})")


if __name__ == "__main__":
    main()
