"""Draw the term-rule precision sample (issue 5): 50 mined term rules that recover NO pair of either
gold list, at random with a FIXED, documented seed (``random.seed(20261129)``, ``random.sample``
over the rules sorted by convention_id), written with empty verdicts for hand judgement.

Evaluation code: gold is read through the registration code (ids of recovering rules only).
Usage: ``python -m tests.eval.term_precision_sample SET_DIR OUT.csv``.
"""

from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.registration.freeze import load_registration
from housestyle.pipelines.registration.gold import load_term_pairs
from housestyle.pipelines.registration.terms import recovered_pairs
from tests.conftest import REPO_ROOT

SEED = 20261129
SIZE = 50


def main(set_dir: Path, out: Path) -> None:
    conventions = load_conventions(set_dir, regex_guard=False)
    reg_dir = REPO_ROOT / "registrations" / "demo" / "v1"
    reg = load_registration(reg_dir)
    gold_ids: set[str] = set()
    for name in ("facebook", "google"):
        gold = reg.gold_by_name(name)
        pairs = load_term_pairs(reg_dir / gold.path, gold.kind, gold.src_lang, gold.tgt_lang)
        for ids in recovered_pairs(conventions, pairs, gold.src_lang, gold.tgt_lang).values():
            gold_ids.update(ids)
    terms = sorted((c for c in conventions if c.rule == "term"), key=lambda c: c.convention_id)
    pool = [c for c in terms if c.convention_id not in gold_ids]
    random.seed(SEED)
    sample = random.sample(pool, SIZE)
    with out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["n", "convention_id", "src", "expected_terms", "support", "consistency", "verdict", "comment",
                         "reviewer", "reviewer_role"])
        for n, conv in enumerate(sample, 1):
            writer.writerow([n, conv.convention_id, conv.src, " | ".join(conv.expected_terms), conv.support,
                             conv.consistency, "", "", "miner engineer (issue 5)", "engineer"])
    print(f"{len(terms)} term rules, {len(pool)} recover no gold pair; {SIZE} drawn with seed {SEED} -> {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
