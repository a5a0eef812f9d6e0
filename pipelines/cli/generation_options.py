"""What `generate` and `references` share: the generator backend (``-o KEY=VALUE``; the API key also from
$HOUSESTYLE_GENERATOR_API_KEY, so it never has to appear on a command line), the segment files, the
Parquet cache, and the line reporting a generation run. ``key_value`` also reads `judge`'s ``-o``.

Backends and their options are those of ``housestyle.pipelines.generation.registry``: openai (base_url,
model, api_key, api, timeout, retries, max_workers, …), llamacpp (model_path, api, n_threads, …; default
model Gemma 3 270M) and precomputed (path, detokenize).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from housestyle.pipelines.generation.registry import make_backend

DEFAULT_CACHE = Path(".dagster") / "data" / "generation_cache"
ENV_API_KEY = "HOUSESTYLE_GENERATOR_API_KEY"


def key_value(text: str) -> tuple[str, Any]:
    """KEY=VALUE → (key, the value as an int, else a float, else text)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    for cast in (int, float):
        try:
            return key, cast(value)
        except ValueError:
            pass
    return key, value


def add_generation_options(parser: argparse.ArgumentParser) -> None:
    """Backend, sources, languages, cache and output: the same for `generate` and `references`."""
    parser.add_argument("--backend", required=True, choices=["openai", "llamacpp", "precomputed"])
    parser.add_argument("-o", "--option", type=key_value, action="append", default=[], metavar="KEY=VALUE",
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


def backend_of(args: argparse.Namespace) -> Any:
    """The backend --backend and -o name (an openai key from $HOUSESTYLE_GENERATOR_API_KEY when not given)."""
    options = dict(args.option)
    if args.backend == "openai" and "api_key" not in options and os.environ.get(ENV_API_KEY):
        options["api_key"] = os.environ[ENV_API_KEY]
    return make_backend(args.backend, options)


def report_run(run: Any) -> None:
    """Counts, calls, time and throughput of a generation run, on stderr."""
    rate = f", {run.tokens_per_second:.1f} tokens/s" if run.tokens_per_second else ""
    print(f"{run.counts.get('generated', 0)} generated, {run.counts.get('cached', 0)} cached, "
          f"{run.counts.get('failed', 0)} failed; {run.calls} calls in {run.wall_seconds:.1f}s{rate} "
          f"({run.backend} {run.model}, {run.template})", file=sys.stderr)
