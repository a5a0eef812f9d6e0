"""`housestyle references`: N candidate references per source in one call, selected by Self-BLEU, through the
Parquet cache (backends and their options: pipelines/cli/generation_options.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from housestyle.pipelines.cli.generation_options import add_generation_options, backend_of, report_run
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.segments import load_segments


def register(subparsers: Any) -> None:
    refs = subparsers.add_parser("references", help="generate N candidate references per source, select by Self-BLEU",
                                 description="One call per source asks for N candidates (rules + input + optional "
                                             "ground truth), parses them, keeps those with Self-BLEU below the "
                                             "threshold; JSONL records (load with "
                                             "housestyle.pipelines.references.generate.load_reference_set).")
    add_generation_options(refs)
    refs.add_argument("--ground-truth", type=Path, metavar="FILE", help="approved references keyed like --source")
    refs.add_argument("--n", type=int, default=10, help="candidates asked for per source (default 10)")
    refs.add_argument("--threshold", type=float, default=35.0, help="Self-BLEU threshold (default 35)")
    refs.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Self-BLEU loads sacrebleu (most of a second at every command line start otherwise): only when run
    from housestyle.pipelines.references.generate import generate_references, write_references

    sources = load_segments(args.source, side="source")
    truth = load_segments(args.ground_truth, side="target") if args.ground_truth else None
    backend = backend_of(args)
    try:
        records, run = generate_references(sources, backend, src_lang=args.src, tgt_lang=args.tgt, n=args.n,
                                           ground_truth=truth, cache=GenerationCache(args.cache),
                                           threshold=args.threshold, max_tokens=args.max_tokens,
                                           flush_every=args.flush_every)
    finally:
        backend.close()
    write_references(records, args.out, meta={"backend": run.backend, "model": run.model, "template": run.template,
                                               "n": args.n, "threshold": args.threshold})
    report_run(run)
    kept = sum(len(r.references) for r in records)
    print(f"{kept} references kept for {sum(bool(r.references) for r in records)} of {len(records)} sources",
          file=sys.stderr)
    print(args.out)
    return 0
