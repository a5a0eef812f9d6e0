"""Per-rule table for choosing the held-out bar (issue 25; not a test): ``python -m tests.eval.heldout_bar_rules
--out DIR [--only NAME] [--both-folds]``.

For each bench case (``tests.bench.bench_heldout.cases``; the fomo probe is skipped: nothing is tuned on
it) mine the case's mined half with ``housestyle mine`` (its cross-fit inside that half gives each rule
``heldout_items``/``heldout_passed``), then score EVERY term rule, whatever its status, on the other
half's approved targets. ``DIR/<case>.parquet``: one row per term rule with support, consistency, its
words, the cross-fit counts, its status, ``b_items``/``b_passed`` (the other half) and the attested
gold pairs it recalls (``term_gold_recall``), and ``held_segments`` (the other half's segments, for
items per segment). A bar is then a function of the first columns, judged on the b_ ones.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import polars as pl

from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import corpus_from_units
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.scoring.engine import score_systems
from tests.bench.bench_heldout import Case, _slug, cases, mine, seeded_halves
from tests.conftest import find_shared_data
from tests.eval.term_gold_recall import attested_pairs, csv_pairs, recalls, tbx_pairs


def rule_table(case: Case, work: Path) -> tuple[pl.DataFrame, list[str]]:
    ingest_files(case.files, client="bench", out_dir=work)
    units = pl.read_parquet(work / "tm_units.parquet")
    splits = case.splits or seeded_halves(sorted(units["unit_id"].to_list()))
    splits_file = work / "splits.json"
    splits_file.write_text(json.dumps({k: {"unit_id": v} for k, v in splits.items()}))
    mine(work / "tm_units.parquet", splits_file, case.mine_split, case.tgt, work / "rules")
    set_dir = work / "rules" / "bench" / (work / "rules" / "bench" / "LATEST").read_text().strip()
    terms = [c for c in load_conventions(set_dir, regex_guard=False, validate=False) if c.rule == "term"]
    for conv in terms:
        conv.status = "candidate"  # scored whatever the bar said
    held = corpus_from_units(units.filter(pl.col("unit_id").is_in(splits[case.score_split])), "en", case.tgt)
    ids = list(held.unit_ids)
    scores = score_systems(terms, dict(zip(ids, held.sources)), {"approved": dict(zip(ids, held.targets))}).scores
    b = {r["convention_id"]: (int(r["scored"]), int(r["passed"])) for r in scores.iter_rows(named=True)}
    mined = units.filter(pl.col("unit_id").is_in(splits[case.mine_split]) & pl.col("target").is_not_null()).unique("unit_id")
    attested = _attested(case, mined["source"].to_list(), mined["target"].to_list())
    rows = []
    statuses = {c.convention_id: c.status for c in load_conventions(set_dir, regex_guard=False, validate=False)}
    for conv in terms:
        items, passed = b.get(conv.convention_id, (0, 0))
        src = fold_text(conv.src or "", "typographic")
        rows.append({"case": case.name, "convention_id": conv.convention_id, "src": conv.src, "words": len(src.split()),
                     "rendering": conv.expected_terms[0] if conv.expected_terms else "", "support": conv.support,
                     "consistency": conv.consistency, "heldout_items": conv.heldout_items,
                     "heldout_passed": conv.heldout_passed, "status": statuses[conv.convention_id],
                     "held_segments": len(ids),
                     "b_items": items, "b_passed": passed,
                     "recalls": [f"{a}->{g}" for a, g in attested if conv.expected_terms
                                 and recalls((a, g), conv.src or "", conv.expected_terms[0], conv.regex)]})
    return pl.DataFrame(rows, schema_overrides={"recalls": pl.List(pl.Utf8)}), [f"{a}->{g}" for a, g in attested]


def _attested(case: Case, sources: list[str], targets: list[str]) -> list[tuple[str, str]]:
    if case.gold is None:
        return []
    pairs = csv_pairs(case.gold) if case.gold.suffix == ".csv" else tbx_pairs(case.gold)
    return attested_pairs(pairs, sources, targets)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--both-folds", action="store_true", help="also mine B and judge on A (the seeded corpora)")
    args = parser.parse_args(argv)
    data = find_shared_data()
    if data is None:
        raise SystemExit("../shared/data not found")
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    args.out.mkdir(parents=True, exist_ok=True)
    for case in cases(data, args.both_folds):
        if "probe" in case.name or (wanted and not any(w in case.name for w in wanted)):
            continue
        with tempfile.TemporaryDirectory(prefix="bar-rules-") as work:
            table, attested = rule_table(case, Path(work))
        table.write_parquet(args.out / f"{_slug(case.name)}.parquet")
        (args.out / f"{_slug(case.name)}.attested.json").write_text(json.dumps(attested, ensure_ascii=False))
        print(case.name, table.height, flush=True)


if __name__ == "__main__":
    main()
