"""`housestyle meta-eval --mqm FILE… --reference-system NAME… --out DIR`: metric meta-evaluation.

Writes DIR/meta_eval.parquet (SPEC.md §3 columns) and DIR/meta_eval.md, and prints the table. Human
translations the files name (ref, refA, refB, ref-A, …) are not ranked unless --include-human. Errors
are one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.cli.text_table import text_table
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.metaeval.mqm import check_lp, load_mqm, sniff_layout


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "meta-eval", help="meta-evaluate BLEU/chrF against expert MQM scores",
        description="System- and segment-level agreement of BLEU and chrF with MQM human scores, with 95% "
                    "paired-bootstrap intervals, per language pair and pooled.")
    parser.add_argument("--mqm", action="extend", nargs="+", required=True, type=Path, metavar="FILE",
                        help="WMT MQM TSV, one per language pair (repeatable)")
    parser.add_argument("--lp", action="extend", nargs="+", default=[], metavar="LP", dest="lps",
                        help="language pair of each --mqm file, in the same order, e.g. en-de (default: from the "
                             "file: Marot doc names ':en-de', else the file name)")
    parser.add_argument("--reference-system", action="extend", nargs="+", required=True, metavar="NAME",
                        dest="reference_systems",
                        help="system used as reference; several = multi-reference; never ranked (repeatable)")
    parser.add_argument("--exclude-system", action="extend", nargs="+", default=[], metavar="NAME",
                        dest="exclude_systems",
                        help="system neither ranked nor used as reference, e.g. a second human translation "
                             "(ignored where absent; repeatable)")
    parser.add_argument("--include-human", action="store_true",
                        help="also rank the human translations the files name (ref, refA, refB, ref-A, …) that are "
                             "not references; by default they are left out, as in mt-metrics-eval")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="output folder")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="N", help="bootstrap resamples (default 1000; 0 = none)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="bootstrap seed (default 0)")
    parser.set_defaults(func=run)


def _cell(row: dict[str, Any], figure: str) -> str:
    point, low, high = row[figure], row[f"{figure}_low"], row[f"{figure}_high"]
    if point is None:
        return ""
    return f"{point:.3f}" + (f" [{low:.3f}, {high:.3f}]" if low is not None and high is not None else "")


def run(args: argparse.Namespace) -> int:
    if args.bootstrap < 0:
        raise ConfigError("--bootstrap must be >= 0")
    if args.lps and len(args.lps) != len(args.mqm):
        raise ConfigError(f"--lp gives {len(args.lps)} language pair(s) for {len(args.mqm)} --mqm file(s); give one per file")
    lps: list[str | None] = [check_lp(lp) for lp in args.lps] or [None] * len(args.mqm)
    for path in args.mqm:
        sniff_layout(path)  # every header checked before any file is read in full
    datas = [load_mqm(path, lp=lp) for path, lp in zip(args.mqm, lps)]  # every file checked before any metric
    for data in datas:
        dropped = ", ".join(f"{n} {reason.replace('_', '-')} rows dropped" for reason, n in sorted(data.dropped.items()))
        print(f"{data.path}: {data.layout} layout, {data.lp}, {data.segments.height} rated outputs"
              + (f"; {dropped}" if dropped else ""), file=sys.stderr)
    from housestyle.pipelines.metaeval.meta_eval import meta_evaluate  # metrics libraries: only once the inputs are good
    from housestyle.pipelines.metaeval.report import mqm_markdown, results_markdown, signatures_markdown

    results = meta_evaluate(datas, list(args.reference_systems), n_bootstrap=args.bootstrap,
                            seed=args.seed, exclude_systems=list(args.exclude_systems),
                            include_human=args.include_human)
    args.out.mkdir(parents=True, exist_ok=True)
    parquet, markdown = args.out / "meta_eval.parquet", args.out / "meta_eval.md"
    atomic.write_with(parquet, results.write_parquet)
    command = "housestyle meta-eval " + " ".join(
        [*(f"--mqm {p}" for p in args.mqm), *(f"--lp {lp}" for lp in args.lps),
         *(f"--reference-system {r}" for r in args.reference_systems),
         *(f"--exclude-system {e}" for e in args.exclude_systems), *(["--include-human"] if args.include_human else []),
         f"--out {args.out}", f"--bootstrap {args.bootstrap}", f"--seed {args.seed}"])
    interval = f"95% paired-bootstrap intervals over segments, {args.bootstrap} resamples, seed {args.seed}"
    atomic.write_text(
        markdown,
        "# Metric meta-evaluation against MQM\n\n"
        f"Command: `{command}`\n\n{interval}. Human score = -MQM; segment level = flattened "
        "(no grouping) tau-b; pooled accuracy over the union of system pairs, pooled correlations = "
        "mean over language pairs.\n\n"
        f"{results_markdown(results)}\n\n## Human MQM per system\n\n{mqm_markdown(datas)}\n\n"
        f"## Signatures\n\n{signatures_markdown(results)}\n")
    rows = [{"lp": r["lp"], "metric": r["metric"], "references": r["references"], "level": r["level"],
             "pairwise accuracy": _cell(r, "pairwise_accuracy"), "Pearson": _cell(r, "pearson"),
             "Kendall": _cell(r, "kendall"), "systems": r["n_systems"]}
            for r in results.iter_rows(named=True)]
    print(text_table(rows, list(rows[0]) if rows else ["lp"]))
    print(f"\n{interval}")
    print(f"wrote {parquet} and {markdown}")
    return 0
