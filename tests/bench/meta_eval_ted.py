"""Issue 7 measurement: BLEU/chrF vs expert MQM on WMT21 TED (en→de, zh→en), written to
tests/eval/meta_eval_ted.md.

Run on demand (about a minute on 2 cores): ``python -m tests.bench.meta_eval_ted [--bootstrap N] [--seed S]``.
It is the same computation as these three CLI runs, concatenated:
  housestyle meta-eval --mqm ENDE --mqm ZHEN --reference-system ref --exclude-system refB --out DIR
  housestyle meta-eval --mqm ZHEN --reference-system refB --exclude-system ref --out DIR
  housestyle meta-eval --mqm ZHEN --reference-system ref --reference-system refB --out DIR
so every row ranks the same 13 MT systems of its language pair; plus pooled rows with each language
pair's best-rated human reference (en→de `ref`, zh→en `refB`), through the same library calls.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polars as pl

from housestyle.pipelines.metaeval.meta_eval import (
    LanguagePair,
    evaluate_views,
    meta_evaluate,
    reference_views,
)
from housestyle.pipelines.metaeval.metrics import ReferenceSet
from housestyle.pipelines.metaeval.mqm import load_mqm
from housestyle.pipelines.metaeval.report import results_markdown, signatures_markdown
from tests.conftest import REPO_ROOT, find_shared_data
from tests.pipelines.metaeval.test_mqm import README_TED

OUT = REPO_ROOT / "tests" / "eval" / "meta_eval_ted.md"


def _mqm_section(files: dict[str, Path]) -> str:
    lines = ["| lp | system | MQM (ours) | README | match |", "|---|---|---|---|---|"]
    for lp, path in files.items():
        for row in load_mqm(path).system_scores().iter_rows(named=True):
            printed = README_TED[lp][row["system"]]
            ours = f"{row['mqm']:.{len(printed.split('.')[1])}f}"
            lines.append(f"| {lp} | {row['system']} | {row['mqm']:.4f} | {printed} | {'yes' if ours == printed else 'NO'} |")
    return "\n".join(lines)


BEST = "best human ref (en-de ref, zh-en refB)"


def _pooled_best_reference(files: dict[str, Path], *, n_bootstrap: int, seed: int) -> pl.DataFrame:
    """Pooled rows with each lp's best-rated human translation as reference (zh→en `ref` is rated worse
    than every MT system, MQM 5.52). Per-lp rows duplicate the runs above, so only pooled rows are kept."""
    lps = [LanguagePair.build(load_mqm(files["en-de"]), ["ref"]),
           LanguagePair.build(load_mqm(files["zh-en"]), ["refB"], ["ref"])]
    views = {lp.data.lp: reference_views(lp, ReferenceSet.from_texts(BEST, lp.data.outputs(ref)))
             for lp, ref in zip(lps, ["ref", "refB"])}
    return evaluate_views(lps, views, n_bootstrap=n_bootstrap, seed=seed).filter(pl.col("lp") == "pooled")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    data = find_shared_data()
    if data is None:
        print("shared data not found (../shared/data or $HOUSESTYLE_DATA)", file=sys.stderr)
        return 1
    ted = data / "wmt-mqm" / "ted"
    files = {"en-de": ted / "ende" / "mqm_ted_ende.tsv", "zh-en": ted / "zhen" / "mqm_ted_zhen.tsv"}
    kw = {"n_bootstrap": args.bootstrap, "seed": args.seed}
    start = time.perf_counter()
    runs = [
        meta_evaluate([files["en-de"], files["zh-en"]], ["ref"], exclude_systems=["refB"], **kw),
        meta_evaluate([files["zh-en"]], ["refB"], exclude_systems=["ref"], **kw).filter(pl.col("lp") != "pooled"),
        meta_evaluate([files["zh-en"]], ["ref", "refB"], **kw).filter(pl.col("lp") != "pooled"),
        _pooled_best_reference(files, **kw),
    ]
    seconds = time.perf_counter() - start
    results = pl.concat(runs)
    order = {"en-de": 0, "zh-en": 1, "pooled": 2}
    refs_order = {"ref": 0, "refB": 1, "ref+refB": 2, BEST: 3}
    results = results.sort(pl.col("lp").replace_strict(order), pl.col("references").replace_strict(refs_order),
                           pl.col("level").replace_strict({"system": 0, "segment": 1}), "metric")
    rel = {k: f"../shared/data/wmt-mqm/ted/{v.parent.name}/{v.name}" for k, v in files.items()}
    text = f"""# Metric meta-evaluation on WMT21 TED MQM (issue 7)

Command (whole file): `python -m tests.bench.meta_eval_ted --bootstrap {args.bootstrap} --seed {args.seed}` ({seconds:.0f} s on this machine).
Equivalent CLI runs (same numbers, same seeds):

```
housestyle meta-eval --mqm {rel['en-de']} --mqm {rel['zh-en']} --reference-system ref --exclude-system refB --out OUT1 --bootstrap {args.bootstrap} --seed {args.seed}
housestyle meta-eval --mqm {rel['zh-en']} --reference-system refB --exclude-system ref --out OUT2 --bootstrap {args.bootstrap} --seed {args.seed}
housestyle meta-eval --mqm {rel['zh-en']} --reference-system ref --reference-system refB --out OUT3 --bootstrap {args.bootstrap} --seed {args.seed}
```

Every row ranks the 13 MT systems of its language pair (human references are never ranked). Human score =
-MQM (Major 5, Minor 1, Minor Fluency/Punctuation 0.1, Non-translation 25; per segment the mean over raters of
each rater's sum; per system the mean over the 529 segments). BLEU/chrF: sacrebleu {_sacrebleu_version()},
corpus level for systems (multi-reference = sacrebleu's multi-reference statistics), sentence level
(BLEU with effective order; max over references) for segments; tokenizer 13a (targets are German and English).
System level: pairwise accuracy (pairs tied in both count as agreement), Pearson r, Kendall tau-b. Segment
level: Kendall tau-b (and Pearson) over the flattened 13 × 529 matrix (mt-metrics-eval "no grouping").
Pooled: pairwise accuracy over the union of both language pairs' 2 × 78 system pairs; pooled Pearson/Kendall =
mean of the two language pairs. Brackets: 95% paired-bootstrap intervals ({args.bootstrap} resamples of the
529 segment ids per language pair, seed {args.seed}; every figure recomputed from the drawn segments,
BLEU/chrF as corpus scores of the drawn segments).

## Results

{results_markdown(results)}

## Human MQM per system vs the upstream README table

26 of the 28 printed values are reproduced to the printed precision, and the README's ranking is reproduced
exactly. Two cells are not: en→de eTranslation (1.9688 → 1.97, README 1.96) and zh→en Borderline (2.4053 →
2.41, README 2.40). Our per-segment scores equal upstream's own `*.avg_seg_scores.tsv` files for all
7,406 + 7,935 (system, segment) pairs, and those files give the same two means; no documented weighting
produces the two printed cells while keeping the other 26, so the README table is presumably from an earlier
version of the TSVs (upstream replaced them; see `ted/*/.history` in the upstream repository).

{_mqm_section(files)}

## Signatures

{signatures_markdown(results)}
"""
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(results_markdown(results))
    print(f"\nwrote {OUT} ({seconds:.0f} s)")
    return 0


def _sacrebleu_version() -> str:
    import sacrebleu

    return str(sacrebleu.__version__)


if __name__ == "__main__":
    sys.exit(main())
