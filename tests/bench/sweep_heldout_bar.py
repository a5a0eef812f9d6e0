"""What the term tier's held-out bar buys, on demand: ``python -m tests.bench.sweep_heldout_bar KEEP``.

KEEP is a folder written by ``python -m tests.bench.bench_heldout --keep KEEP`` (one work folder per case,
with its ingested units, splits and mined set). Per case, every term rule of the mined set is scored once
on the held-out half's approved targets; then, for each bar (min held-out items, min rate), the rules
that the miner's own cross-fit evidence (``heldout_items`` / ``heldout_passed``, counted inside the mined
half) lets through are pooled: their pass rate on the other half and their items per held-out segment.
No re-mining: the bar only sets a status (``heldout.apply_heldout``), so the rows are what a miner with
that bar would score. Prints two tables (pass, items per segment) and writes KEEP/sweep.csv.

A third table is an upper bound no miner has: the ORACLE, which knows the held-out half, takes the
mined term rules (``suggested`` too) best pass rate first and reports the pass rate at 0.5 items per
segment and the most items per segment at a pass rate >= .97. It overstates what is reachable (a rule
seen once or twice on the held-out half passes by chance), so it bounds, never targets.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.mining.corpus import corpus_from_units
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.scoring.engine import score_systems

BARS = [(3, .9), (3, 1.0), (4, .9), (4, .95), (4, 1.0), (5, .9), (5, .95), (5, 1.0), (6, .95), (6, 1.0), (8, .95)]


def case_splits(work: Path) -> tuple[str, str]:
    """(scored split, target language) of a kept case folder, from the bench's case names (its slugs)."""
    name = work.name
    if name.startswith("tico"):
        return ("dev" if name.endswith("test_dev") else "test"), "fr"
    scored = "A" if name.endswith("B_A") else "B"
    language = "fr" if name.startswith("mozilla") else name.removesuffix("__B_A").rsplit("_", 1)[-1]
    return scored, language


def sweep_case(work: Path) -> list[dict[str, Any]]:
    scored_split, language = case_splits(work)
    units = pl.read_parquet(work / "tm_units.parquet")
    splits = {k: v["unit_id"] for k, v in json.loads((work / "splits.json").read_text(encoding="utf-8")).items()}
    latest = work / "rules" / "bench" / "LATEST"
    terms = [c for c in load_conventions(latest.parent / latest.read_text().strip(), regex_guard=False, validate=False)
             if c.rule == "term"]
    held = corpus_from_units(units.filter(pl.col("unit_id").is_in(splits[scored_split])), "en", language)
    ids = list(held.unit_ids)
    table = score_systems(terms, dict(zip(ids, held.sources)), {"approved": dict(zip(ids, held.targets))}).scores
    per_rule = {row["convention_id"]: (int(row["scored"]), int(row["passed"])) for row in table.iter_rows(named=True)}
    rows = [_oracle(work.name, [per_rule[c.convention_id] for c in terms if per_rule.get(c.convention_id, (0, 0))[0]],
                    len(ids))]
    for min_items, min_rate in BARS:
        chosen = [c for c in terms
                  if (c.heldout_items or 0) >= min_items and (c.heldout_passed or 0) >= min_rate * (c.heldout_items or 0)]
        items = sum(per_rule.get(c.convention_id, (0, 0))[0] for c in chosen)
        passed = sum(per_rule.get(c.convention_id, (0, 0))[1] for c in chosen)
        rows.append({"case": work.name, "bar": f"{min_items}@{min_rate}", "rules": len(chosen), "items": items,
                     "pass": round(passed / items, 3) if items else None,
                     "items_per_segment": round(items / len(ids), 2) if ids else None})
    return rows


def _oracle(case: str, per_rule: list[tuple[int, int]], segments: int) -> dict[str, Any]:
    """The oracle's row: rules by held-out pass rate (then items), pooled until 0.5 items a segment."""
    items = passed = 0
    at_half: float | None = None
    widest = 0.0
    for scored, ok in sorted(per_rule, key=lambda r: (-r[1] / r[0], -r[0])):
        items, passed = items + scored, passed + ok
        if at_half is None and items >= 0.5 * segments:
            at_half = passed / items
        if passed >= 0.97 * items:
            widest = items / segments
    return {"case": case, "bar": "oracle", "rules": len(per_rule), "items": items,
            "pass": None if at_half is None else round(at_half, 3), "items_per_segment": round(widest, 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("keep", type=Path, help="the --keep folder of a bench_heldout run")
    args = parser.parse_args(argv)
    cases = sorted(p for p in args.keep.iterdir() if (p / "rules" / "bench" / "LATEST").is_file())
    table = pl.DataFrame([row for work in cases for row in sweep_case(work)])
    with pl.Config(tbl_rows=500, tbl_cols=20, tbl_width_chars=250):
        bars = table.filter(pl.col("bar") != "oracle")
        print(bars.pivot(on="bar", index="case", values="pass"))
        print(bars.pivot(on="bar", index="case", values="items_per_segment"))
        print(table.filter(pl.col("bar") == "oracle").select(
            "case", pl.col("pass").alias("oracle pass at 0.5 items/seg"),
            pl.col("items_per_segment").alias("oracle items/seg at pass >= .97")))
    table.write_csv(args.keep / "sweep.csv")


if __name__ == "__main__":
    main()
