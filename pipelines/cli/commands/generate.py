"""`housestyle generate`: translate a segment file with a generator backend, through the Parquet cache
(backends and their options: pipelines/cli/generation_options.py)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.cli.generation_options import add_generation_options, backend_of, report_run
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.tasks import translate
from housestyle.pipelines.segments import load_segments


def register(subparsers: Any) -> None:
    gen = subparsers.add_parser("generate", help="translate a segment file with a generator backend (cached)",
                                description="Translate every source segment; JSONL {id, text} (text null when the "
                                            "segment failed; the error is in the 'error' field).")
    add_generation_options(gen)
    gen.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    sources = load_segments(args.source, side="source")
    backend = backend_of(args)
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
    report_run(run)
    print(args.out)
    return 0
