"""Why an attested gold pair is not recalled by the SCORED rules (issue 25; not a test, ~1-3 min a case).

``python -m tests.eval.gold_recall_misses [--only NAME] [--out FILE.jsonl]``: for each bench case with a
gold file (``tests.bench.bench_heldout.cases``), mine the case's mined half as ``housestyle mine`` does
(``mine_corpus``), then redo its cross-fit fold by fold (``heldout.fold_scores``, the same folds and the
same excluded misaligned units), keeping each fold's term trace. For every attested gold pair the
scored rules miss it prints: the full run's rule (rendering, status, support, held-out items/passed)
or its trace decision, and per fold: the term's units on the mining side and on the judging side,
whether the fold's complement re-found the rule (and with which rendering), its items/passed on the
judging side with the failed targets, or the complement's trace decision when it was not re-found.
One JSON line per missed pair goes to ``--out``; the readable lines to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.conventions.matching import find_plain
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.statuses import SCORED_STATUSES
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import Corpus, corpus_from_units, read_units_for_mining
from housestyle.pipelines.mining.heldout import FOLDS, apply_heldout, fold_of, fold_scores, rule_key
from housestyle.pipelines.mining.merge import MiningResult
from housestyle.pipelines.mining.mine import mine_corpus
from housestyle.pipelines.mining.params import DEFAULT_PARAMS
from housestyle.pipelines.scoring.engine import score_systems
from tests.bench.bench_heldout import Case, cases, seeded_halves
from tests.conftest import find_shared_data
from tests.eval.term_gold_recall import attested_recall, csv_pairs, tbx_pairs


def _units_with(texts: list[str], term: str) -> list[int]:
    folded = fold_text(term, "typographic")
    return [i for i, t in enumerate(texts) if find_plain(fold_text(t, "typographic"), folded, first_only=True)]


def _trace_row(result: MiningResult, src: str) -> dict[str, Any] | None:
    trace = result.term_trace if result.term_trace is not None else pl.DataFrame()
    if not trace.height:
        return None
    rows = trace.filter(pl.col("src") == fold_text(src, "typographic").lower())
    if not rows.height:
        rows = trace.filter(pl.col("src") == src.lower())
    if not rows.height:
        return None
    row = rows.row(0, named=True)
    return {"decision": row["decision"], "filter": row["filter"], "figures": row["figures"], "units": row["units"],
            "renderings": [(r["lemma_key"], r["support"], r["coverage"]) for r in row["renderings"] or []]}


def _failures(rule: Convention, held: Corpus) -> list[str]:
    ids = list(held.unit_ids)
    result = score_systems([rule], dict(zip(ids, held.sources)), {"approved": dict(zip(ids, held.targets))})
    fails = result.failures.filter(pl.col("error").is_null())
    return [f"{r['segment_id']}: {r['output'][:160]}" for r in fails.iter_rows(named=True)]


def case_corpus(case: Case, work: Path) -> Corpus:
    ingest_files(case.files, client="bench", out_dir=work)
    units = read_units_for_mining(work / "tm_units.parquet")
    splits = case.splits or seeded_halves(sorted(units["unit_id"].unique().to_list()))
    return corpus_from_units(units.filter(pl.col("unit_id").is_in(splits[case.mine_split])), "en", case.tgt)


def diagnose(case: Case, work: Path) -> list[dict[str, Any]]:
    corpus = case_corpus(case, work)
    params = DEFAULT_PARAMS
    full = mine_corpus(corpus, params, heldout=False)
    terms = [c for c in full.conventions if c.rule == "term"]
    misaligned = {str(r["unit_id"]) for r in full.suspects}
    fold_results: dict[int, MiningResult] = {}

    def mine(part: Corpus) -> list[Convention]:
        result = mine_corpus(part, params, heldout=False)
        fold_results[len(fold_results)] = result
        return result.conventions

    folds = list(fold_scores(corpus, full.conventions, mine, FOLDS, misaligned))
    totals: dict[tuple[str, str, str], tuple[int, int]] = {}
    for score in folds:
        for key, (items, passed) in score.counts.items():
            before = totals.get(key, (0, 0))
            totals[key] = (before[0] + items, before[1] + passed)
    apply_heldout(full.conventions, {c.convention_id: totals.get(rule_key(c), (0, 0)) for c in full.conventions}, params)
    assert case.gold is not None
    pairs = csv_pairs(case.gold) if case.gold.suffix == ".csv" else tbx_pairs(case.gold)
    frame = pl.DataFrame([{"src": c.src or "", "expected_terms": c.expected_terms, "regex": c.regex} for c in terms
                          if c.status in SCORED_STATUSES and c.expected_terms],
                         schema={"src": pl.Utf8, "expected_terms": pl.List(pl.Utf8), "regex": pl.Boolean})
    sources, targets = list(corpus.sources), [t or "" for t in corpus.targets]
    attested, recalled, missed = attested_recall(pairs, sources, targets, frame)
    print(f"{case.name}: attested {attested}, recalled by scored rules {recalled}", flush=True)
    out = []
    for pair in missed:
        src, gold = pair.split("->", 1)
        rules = [c for c in terms if fold_text(c.src or "", "typographic") == fold_text(src, "typographic")]
        row: dict[str, Any] = {"case": case.name, "pair": pair, "units": len(_units_with(sources, src)),
                               "rules": [{"rendering": c.expected_terms[:4], "status": c.status, "support": c.support,
                                          "consistency": c.consistency, "heldout": (c.heldout_items, c.heldout_passed)}
                                         for c in rules],
                               "trace": None if rules else _trace_row(full, src), "folds": []}
        keys = {rule_key(c) for c in rules}
        all_units = set(_units_with(sources, src))
        for score in folds:
            held = set(score.held.tolist())
            fold_rule = [c for c in fold_results[score.fold].conventions if rule_key(c) in keys]
            f: dict[str, Any] = {"fold": score.fold, "train_units": len(all_units - _fold_units(corpus, score.fold)),
                                 "judging_units": len(all_units & held), "refound": bool(keys & score.refound)}
            if fold_rule:
                f["rendering"] = fold_rule[0].expected_terms[:4]
                f["items_passed"] = next((v for k, v in score.counts.items() if k in keys), (0, 0))
                f["failed"] = _failures(fold_rule[0], corpus.subset(sorted(held)))
            else:
                f["trace"] = _trace_row(fold_results[score.fold], src)
            row["folds"].append(f)
        out.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    return out


def _fold_units(corpus: Corpus, fold: int) -> set[int]:
    return {i for i, u in enumerate(corpus.unit_ids) if fold_of(u) == fold}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    data = find_shared_data()
    if data is None:
        raise SystemExit("../shared/data not found")
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    rows = []
    for case in cases(data, False):
        if case.gold is None or (wanted and not any(w in case.name for w in wanted)):
            continue
        with tempfile.TemporaryDirectory(prefix="gold-misses-") as work:
            rows += diagnose(case, Path(work))
    if args.out:
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"{len(rows)} missed pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
