"""`housestyle generate` (translate a segment file with a generator backend) and `housestyle references`
(N candidate references per source in one call, Self-BLEU selection), both through the Parquet cache.

Backends and their options are those of ``housestyle.pipelines.generation.registry`` (``-o KEY=VALUE``):
openai (base_url, model, api_key, api, timeout, retries, max_workers, …), llamacpp (model_path, api,
n_threads, …; default model Gemma 3 270M) and precomputed (path, detokenize). The API key may also
come from $HOUSESTYLE_GENERATOR_API_KEY, so it never has to appear on a command line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

DEFAULT_CACHE = Path(".dagster") / "data" / "generation_cache"


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    for cast in (int, float):
        try:
            return key, cast(value)
        except ValueError:
            pass
    return key, value


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", required=True, choices=["openai", "llamacpp", "precomputed"])
    parser.add_argument("-o", "--option", type=_option, action="append", default=[], metavar="KEY=VALUE",
                        help="backend option, e.g. -o base_url=http://127.0.0.1:8080/v1 -o model=gemma -o api=completion")
    parser.add_argument("--source", required=True, type=Path, metavar="FILE",
                        help="sources: TMX/XLIFF/PO (source side), TSV id<TAB>text or JSONL {id, text}")
    parser.add_argument("--src", required=True, help="source language (e.g. en)")
    parser.add_argument("--tgt", required=True, help="target language (e.g. fr)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, metavar="DIR",
                        help=f"Parquet cache folder (default {DEFAULT_CACHE}); a re-run generates only what is missing")
    parser.add_argument("--max-tokens", type=int, metavar="N", help="override the template's max_tokens")
    parser.add_argument("--flush-every", type=int, default=8, metavar="N",
                        help="write finished outputs to the cache every N segments (default 8): what a killed run loses")
    parser.add_argument("--out", required=True, type=Path, metavar="FILE", help="output JSONL")


def register(subparsers: Any) -> None:
    gen = subparsers.add_parser("generate", help="translate a segment file with a generator backend (cached)",
                                description="Translate every source segment; JSONL {id, text} (text null when the "
                                            "segment failed; the error is in the 'error' field).")
    _common(gen)
    gen.set_defaults(func=run_generate)
    refs = subparsers.add_parser("references", help="generate N candidate references per source, select by Self-BLEU",
                                 description="One call per source asks for N candidates (rules + input + optional "
                                             "ground truth), parses them, keeps those with Self-BLEU below the "
                                             "threshold; JSONL records (load with "
                                             "housestyle.pipelines.references.generate.load_reference_set).")
    _common(refs)
    refs.add_argument("--ground-truth", type=Path, metavar="FILE", help="approved references keyed like --source")
    refs.add_argument("--n", type=int, default=10, help="candidates asked for per source (default 10)")
    refs.add_argument("--threshold", type=float, default=35.0, help="Self-BLEU threshold (default 35)")
    refs.set_defaults(func=run_references)


def _backend(args: argparse.Namespace) -> Any:
    from housestyle.pipelines.generation.registry import make_backend

    options = dict(args.option)
    if args.backend == "openai" and "api_key" not in options and os.environ.get("HOUSESTYLE_GENERATOR_API_KEY"):
        options["api_key"] = os.environ["HOUSESTYLE_GENERATOR_API_KEY"]
    return make_backend(args.backend, options)


def _report(run: Any) -> None:
    rate = f", {run.tokens_per_second:.1f} tokens/s" if run.tokens_per_second else ""
    print(f"{run.counts.get('generated', 0)} generated, {run.counts.get('cached', 0)} cached, "
          f"{run.counts.get('failed', 0)} failed; {run.calls} calls in {run.wall_seconds:.1f}s{rate} "
          f"({run.backend} {run.model}, {run.template})", file=sys.stderr)


def run_generate(args: argparse.Namespace) -> int:
    from housestyle.pipelines import atomic
    from housestyle.pipelines.generation.cache import GenerationCache
    from housestyle.pipelines.generation.tasks import translate
    from housestyle.pipelines.segments import load_segments

    sources = load_segments(args.source, side="source")
    backend = _backend(args)
    try:
        run = translate(sources, backend, src_lang=args.src, tgt_lang=args.tgt, cache=GenerationCache(args.cache),
                        max_tokens=args.max_tokens, flush_every=args.flush_every)
    finally:
        backend.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with atomic.atomic_path(args.out) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for o in run.outcomes:
            handle.write(json.dumps({"id": o.segment_id, "text": None if o.status == "failed" else o.text,
                                     "error": o.error}, ensure_ascii=False) + "\n")
    _report(run)
    print(args.out)
    return 0


def run_references(args: argparse.Namespace) -> int:
    from housestyle.pipelines.generation.cache import GenerationCache
    from housestyle.pipelines.references.generate import generate_references, write_references
    from housestyle.pipelines.segments import load_segments

    sources = load_segments(args.source, side="source")
    truth = load_segments(args.ground_truth, side="target") if args.ground_truth else None
    backend = _backend(args)
    try:
        records, run = generate_references(sources, backend, src_lang=args.src, tgt_lang=args.tgt, n=args.n,
                                           ground_truth=truth, cache=GenerationCache(args.cache),
                                           threshold=args.threshold, max_tokens=args.max_tokens,
                                           flush_every=args.flush_every)
    finally:
        backend.close()
    write_references(records, args.out, meta={"backend": run.backend, "model": run.model, "template": run.template,
                                               "n": args.n, "threshold": args.threshold})
    _report(run)
    kept = sum(len(r.references) for r in records)
    print(f"{kept} references kept for {sum(bool(r.references) for r in records)} of {len(records)} sources",
          file=sys.stderr)
    print(args.out)
    return 0
