"""`housestyle explain --conventions SET TERM [--tgt-lang L]`: what the miner decided for a source term and why.

Thin: the reading and the wording are ``housestyle.pipelines.mining.term_explain`` (over the set's
``term_trace.parquet``). Exit 0 whatever was decided, the term unknown included; exit 2 (one
line) on an incomplete set, a loose convention file or a set mined before the trace was kept.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("explain", help="why the miner wrote, or did not write, a rule for a source term",
                                   description="Say what the miner decided for a source term of a convention set, "
                                               "and why: the rule written, or the filter that rejected it.")
    parser.add_argument("--conventions", required=True, type=Path, metavar="SET", help="a mined convention set folder")
    parser.add_argument("term", metavar="TERM", help="the source term (folded as the miner folds: case, apostrophes)")
    parser.add_argument("--tgt-lang", default=None, metavar="L", help="only this target language (default: every pair)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from housestyle.pipelines.mining.term_explain import explain  # loads the miner's spaCy (seconds): only when run

    print(explain(args.conventions, args.term, args.tgt_lang), end="")
    return 0
