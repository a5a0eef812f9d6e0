"""``python -m pipelines.generation``: translate a segment file with any backend, through the cache.

Example (a llama.cpp server on port 8080):
  python -m pipelines.generation --backend openai -o base_url=http://127.0.0.1:8080/v1 -o model=gemma \
      -o api=completion --source src.jsonl --src-lang en --tgt-lang fr --cache .gen_cache --out out.jsonl
Writes JSONL ``{"id", "text", "status", "error"}`` (text null when the segment failed) and a summary
line on stderr; exit code 0 even when segments failed (they are in the file), 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pipelines.errors import HousestyleError
from pipelines.generation.cache import GenerationCache
from pipelines.generation.registry import BACKENDS, make_backend
from pipelines.generation.tasks import translate
from pipelines.segments import load_segments


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    for cast in (int, float):
        try:
            return key, cast(value)
        except ValueError:
            pass
    return key, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipelines.generation", description=__doc__.splitlines()[0])
    parser.add_argument("--backend", required=True, choices=sorted(BACKENDS))
    parser.add_argument("-o", "--option", type=_option, action="append", default=[], metavar="KEY=VALUE",
                        help="backend option (base_url, model, api, timeout, retries, model_path, path, ...)")
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--src-lang", required=True)
    parser.add_argument("--tgt-lang", required=True)
    parser.add_argument("--template", default="translate")
    parser.add_argument("--max-tokens", type=int)
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--flush-every", type=int, default=8)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        sources = load_segments(args.source, side="source")
        backend = make_backend(args.backend, dict(args.option))
        cache = GenerationCache(args.cache) if args.cache else None
        summary = translate(sources, backend, src_lang=args.src_lang, tgt_lang=args.tgt_lang, cache=cache,
                            template=args.template, max_tokens=args.max_tokens, flush_every=args.flush_every)
    except HousestyleError as error:
        print(f"generation: error: {error}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as handle:
        for o in summary.outcomes:
            handle.write(json.dumps({"id": o.segment_id, "text": o.text if o.status != "failed" else None,
                                     "status": o.status, "error": o.error}, ensure_ascii=False) + "\n")
    print(f"generation: {summary.counts} calls={summary.calls} wall={summary.wall_seconds:.1f}s "
          f"backend={summary.backend} model={summary.model}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
