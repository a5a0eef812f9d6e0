"""`housestyle judge --train MQM_FILE --test MQM_FILE --criteria deterministic|llm|both --out DIR`.

Trains every transfer model on the first file's language pair (its labels only) and writes
DIR/judge_eval.parquet for the second: train_lp, test_lp, criteria, model, balanced_accuracy,
ci_low, ci_high, gain_vs_chrf, gain_ci_low, gain_ci_high (+ llm_mode, primary, n_*, criteria_version),
a readable DIR/judge_eval.md, the criteria vectors, LLM cost, analyses and the saved models.
LLM criteria (``llm``/``both``) go through the generator backends (default: in-process llama.cpp
with the Gemma 3 270M package) and the generation cache (default DIR/generation_cache).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from housestyle.pipelines.cli.generation_options import key_value
from housestyle.pipelines.cli.text_table import text_table
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.registry import make_backend
from housestyle.pipelines.judge.criteria import load_criteria
from housestyle.pipelines.judge.samples import DEFAULT_REFERENCES, load_pair
from housestyle.pipelines.metaeval.mqm import check_lp


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "judge", help="train an acceptance judge on one language pair's MQM labels, apply it to another",
        description="Criteria-decomposed acceptance judge with cross-lingual transfer (balanced accuracy with "
                    "by-segment bootstrap intervals, paired gain over a chrF threshold).")
    parser.add_argument("--train", required=True, type=Path, metavar="MQM_FILE", help="MQM TSV of the training language pair")
    parser.add_argument("--test", required=True, type=Path, metavar="MQM_FILE", help="MQM TSV of the target language pair")
    parser.add_argument("--criteria", required=True, choices=("deterministic", "llm", "both"))
    parser.add_argument("--out", required=True, type=Path, metavar="DIR")
    parser.add_argument("--sample", type=int, metavar="N", help="stratified sample of N outputs per language pair (default: all)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="sampling and bootstrap seed (default 0)")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="N", help="by-segment bootstrap resamples (default 1000)")
    parser.add_argument("--reference-system", action="extend", nargs="+", dest="reference_systems", metavar="NAME",
                        help="systems used as references, not judged (default: ref and refB where present)")
    parser.add_argument("--exclude-system", action="extend", nargs="+", default=[], dest="exclude_systems", metavar="NAME")
    parser.add_argument("--lp", nargs=2, metavar=("TRAIN_LP", "TEST_LP"),
                        help="language pairs of --train and --test, e.g. en-de zh-en (default: from the files: "
                             "Marot doc names ':en-de', else the file name)")
    parser.add_argument("--conventions", type=Path, metavar="PATH", help="convention set for the SCS criteria "
                        "(default: pipelines/judge/conventions/ted.jsonl)")
    parser.add_argument("--llm-criteria", type=Path, metavar="PATH", help="criteria set with the LLM concepts "
                        "(default: pipelines/judge/criteria/llm.json, else llm_seed.json)")
    parser.add_argument("--backend", default="llamacpp", help="generator backend for LLM criteria (default llamacpp)")
    parser.add_argument("-o", "--backend-option", type=key_value, action="append", default=[], metavar="KEY=VALUE",
                        dest="backend_options", help="backend option (model_path, base_url, model, api, ...)")
    parser.add_argument("--cache", type=Path, metavar="DIR", help="generation cache (default DIR/generation_cache)")
    parser.add_argument("--per-concept", type=int, default=100, metavar="N",
                        help="outputs per language that also get per-concept calls (default 100; 0 = none)")
    parser.add_argument("--no-zero-shot", action="store_true", help="skip the zero-shot 'acceptable?' baseline")
    parser.add_argument("--no-analyses", action="store_true", help="skip the sample-efficiency curve and importances")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.bootstrap < 0 or (args.sample is not None and args.sample < 2) or args.per_concept < 0:
        raise SystemExit("housestyle judge: error: --bootstrap/--per-concept must be >= 0 and --sample >= 2")
    lps = (check_lp(args.lp[0]), check_lp(args.lp[1])) if args.lp else (None, None)
    references = tuple(args.reference_systems or DEFAULT_REFERENCES)
    # both MQM files read and checked before scikit-learn, the criteria or any LLM backend is loaded
    samples = load_pair(args.train, args.test, references, tuple(args.exclude_systems), lps)

    # scikit-learn, the metrics and the criteria (seconds): only once both files are good
    from housestyle.pipelines.judge.job import JudgeJob, run_judge
    from housestyle.pipelines.judge.report import EVAL_HEADERS, eval_rows

    llm = _llm_settings(args) if args.criteria in ("llm", "both") else None
    job = JudgeJob(train=args.train, test=args.test, criteria=args.criteria, out=args.out, sample=args.sample,
                   seed=args.seed, n_bootstrap=args.bootstrap, reference_systems=references,
                   exclude_systems=tuple(args.exclude_systems), conventions=args.conventions, llm=llm,
                   analyses=not args.no_analyses, command=_command(args), lps=lps)
    try:
        outputs = run_judge(job, log=lambda m: print(m, file=sys.stderr, flush=True), samples=samples)
    finally:
        if llm is not None:
            llm.backend.close()
    print(text_table(eval_rows(outputs.table), EVAL_HEADERS))
    print(f"\nwrote {args.out / 'judge_eval.parquet'} and {args.out / 'judge_eval.md'} ({outputs.seconds:.0f}s)")
    return 0


def _command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run (rebuilt from the parsed options, defaults included)."""
    words = ["housestyle", "judge", "--train", str(args.train), "--test", str(args.test), "--criteria", args.criteria,
             "--out", str(args.out)]
    words += ["--sample", str(args.sample)] if args.sample is not None else []
    words += ["--seed", str(args.seed), "--bootstrap", str(args.bootstrap)]
    words += ["--lp", *args.lp] if args.lp else []
    for name in args.reference_systems or ():
        words += ["--reference-system", name]
    for name in args.exclude_systems:
        words += ["--exclude-system", name]
    words += ["--conventions", str(args.conventions)] if args.conventions else []
    if args.criteria != "deterministic":
        words += ["--llm-criteria", str(args.llm_criteria)] if args.llm_criteria else []
        words += ["--backend", args.backend, *[f"-o{k}={v}" for k, v in args.backend_options]]
        words += ["--cache", str(args.cache)] if args.cache else []
        words += ["--per-concept", str(args.per_concept)] + (["--no-zero-shot"] if args.no_zero_shot else [])
    words += ["--no-analyses"] if args.no_analyses else []
    return shlex.join(words)


def _llm_settings(args: argparse.Namespace) -> Any:
    from housestyle.pipelines.judge.job import default_llm_criteria  # scikit-learn (seconds): only when run
    from housestyle.pipelines.judge.prepare import LlmSettings

    criteria = load_criteria(args.llm_criteria) if args.llm_criteria else default_llm_criteria()
    backend = make_backend(args.backend, dict(args.backend_options))
    cache = GenerationCache(args.cache or args.out / "generation_cache")
    return LlmSettings(backend=backend, criteria=criteria, cache=cache, per_concept=args.per_concept,
                       zero_shot=not args.no_zero_shot)
