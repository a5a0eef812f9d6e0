"""Contrast mining on TICO-19 en→fr with the WMT21 Fairseq outputs as the generic system, scored
against hand verdicts.

Run: python -m tests.eval.contrast_fairseq [--terms FILE]

Terms: the miner's own term rules (``housestyle.pipelines.mining.mine.mine_units`` over all 3,071 units, rule
``term`` only) unless ``--terms`` gives a JSONL file of term rules. Generic system: Fairseq
(en-fr.hyp.txt.truecased.xml, Moses-detokenised, keyed by TMX ids: inbox/demo/generic/fairseq.jsonl,
built by tests/eval/build_demo_bundle.py). Writes:
- tests/eval/contrast_fairseq_candidates.csv — every recurring (support ≥ 2) candidate, kept or demoted;
- tests/eval/contrast_fairseq_verdicts.csv — the same rows with the ENGINEER's hand verdict
  (``real`` = a genuine lexical/format alternative of the mandated rendering, ``inflection`` = the same
  term inflected, ``noise`` = alignment noise or not an alternative). Verdicts already in the file are
  kept (matched on dimension + variant); new rows get an empty verdict to fill in;
- tests/eval/contrast_fairseq.md — the figures: real alternatives found, precision of the kept
  candidates, whether every inflection-only case is demoted.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import polars as pl

from housestyle.pipelines.contrast.mine import mine_contrast
from housestyle.pipelines.contrast.sampling import units_from_frame
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.segments import load_segments

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
OUT = REPO / "tests" / "eval"
WORK = REPO / "tests" / "bench" / "_data" / "contrast_fairseq"
FIELDS = ["dimension", "reference_term", "variant", "forms", "support", "status", "reasons", "tm_units",
          "example_unit", "verdict", "note"]
VERDICTS = ("real", "inflection", "noise")


def read_verdicts(path: Path) -> dict[tuple[str, str], tuple[str, str]]:
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8", newline="") as handle:
        return {(r["dimension"], r["variant"]): (r["verdict"], r.get("note", "")) for r in csv.DictReader(handle)}


def figures(rows: list[dict[str, str]]) -> dict[str, object]:
    judged = [r for r in rows if r["verdict"] in VERDICTS]
    kept = [r for r in judged if r["status"] == "kept"]
    real_kept = [r for r in kept if r["verdict"] == "real"]
    inflections = [r for r in judged if r["verdict"] == "inflection"]
    return {
        "candidates": len(rows), "judged": len(judged), "kept": sum(r["status"] == "kept" for r in rows),
        "real_all": sum(r["verdict"] == "real" for r in judged), "real_kept": len(real_kept),
        "terms_with_real_kept": len({r["dimension"] for r in real_kept}),
        "precision_kept": round(len(real_kept) / len(kept), 3) if kept else None,
        "inflections": len(inflections), "inflections_demoted": sum(r["status"] == "demoted" for r in inflections),
        "real_demoted": sum(r["verdict"] == "real" and r["status"] == "demoted" for r in judged),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terms", type=Path, help="term rules JSONL (default: run the miner now)")
    args = parser.parse_args()
    if not (WORK / "tm_units.parquet").is_file():
        ingest_files([DATA / "tico19" / "TM" / "all.en-fr.tmx"], client="demo", out_dir=WORK, domain_of=lambda _p: None)
    frame = pl.read_parquet(WORK / "tm_units.parquet")
    if args.terms:
        rules = [c for c in load_conventions(args.terms, regex_guard=False) if c.rule == "term"]
        origin = str(args.terms)
    else:
        from housestyle.pipelines.mining.mine import mine_units

        rules = [c for c in mine_units(frame, "en", "fr").conventions if c.rule == "term"]
        origin = "housestyle.pipelines.mining.mine.mine_units (all 3,071 units)"
    units, _src, tgt = units_from_frame(frame, "en", "fr")
    outputs = load_segments(REPO / "inbox" / "demo" / "generic" / "fairseq.jsonl")
    result = mine_contrast(rules, units, outputs, tgt_lang=tgt, system="fairseq")
    cands = result.candidates.sort(["dimension", "support", "variant"], descending=[False, True, False])
    rows = [{"dimension": r["dimension"], "reference_term": r["reference_term"], "variant": r["variant"],
             "forms": " | ".join(r["forms"]), "support": str(r["support"]), "status": r["status"],
             "reasons": " ".join(r["reasons"]), "tm_units": str(r["tm_units"]), "example_unit": r["example_unit"]}
            for r in cands.iter_rows(named=True)]
    with (OUT / "contrast_fairseq_candidates.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS[:-2])
        writer.writeheader()
        writer.writerows(rows)
    old = read_verdicts(OUT / "contrast_fairseq_verdicts.csv")
    for row in rows:
        row["verdict"], row["note"] = old.get((row["dimension"], row["variant"]), ("", ""))
    with (OUT / "contrast_fairseq_verdicts.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    fig = figures(rows)
    lines = ["# Contrast mining on TICO-19 en→fr, Fairseq as the generic system", "",
             "Command: `python -m tests.eval.contrast_fairseq" + (f" --terms {args.terms}`" if args.terms else "`"), "",
             f"- term rules: {len(rules)} from {origin}",
             f"- contrast statistics: `{result.stats}`", f"- signature: `{result.signature}`",
             ("- verdicts: tests/eval/contrast_fairseq_verdicts.csv — ENGINEER judgements (one person reading the "
             "reference term, the variant and the example unit), not linguist review"), "",
             "| figure | value |", "|---|---|", *[f"| {k} | {v} |" for k, v in fig.items()]]
    (OUT / "contrast_fairseq.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
