"""Generated references for zh→en TED (WMT21 MQM) with the local Gemma 3 270M, and whether adding
them changes BLEU/chrF agreement with the expert MQM scores on that sample.

Run: python -m tests.eval.generated_refs_ted [--every 5] [--n 10] [--threshold 35] [--bootstrap 1000]

Sample: every k-th MQM segment (k=5: 106 of 529). Per source, ONE call asks Gemma for n candidates
(rules + input + the approved `ref` as ground truth), the answer is parsed (dropped lines recorded)
and filtered by Self-BLEU < threshold. Saved: tests/eval/generated_refs_ted_zhen.jsonl (load with
``housestyle.pipelines.references.generate.load_reference_set(path, id_type=int)``). Then, with
``housestyle.pipelines.metaeval`` (13 MT systems ranked; `ref`/`refB` not ranked): BLEU and chrF with `ref`,
`ref`+generated (selected), `ref`+generated (all parsed candidates), generated (selected) alone, on the
segments that have generated references, 95% paired-bootstrap intervals, and the paired bootstrap
interval of the CHANGE (`ref`+generated minus `ref`) → tests/eval/generated_refs_ted.md.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.llamacpp import LlamaCppBackend
from housestyle.pipelines.metaeval import stats
from housestyle.pipelines.metaeval.meta_eval import (
    LanguagePair,
    evaluate_views,
    reference_views,
    references_from_systems,
)
from housestyle.pipelines.metaeval.metrics import ReferenceSet
from housestyle.pipelines.metaeval.mqm import load_mqm
from housestyle.pipelines.metaeval.report import results_markdown
from housestyle.pipelines.references.generate import (
    generate_references,
    load_reference_set,
    write_references,
)

REPO = Path(__file__).resolve().parents[2]
MQM = REPO.parent / "shared" / "data" / "wmt-mqm" / "ted" / "zhen" / "mqm_ted_zhen.tsv"
OUT = REPO / "tests" / "eval"
CACHE = REPO / "tests" / "bench" / "_data" / "generation_cache"


def paired_deltas(lp: LanguagePair, base: ReferenceSet, other: ReferenceSet, n_bootstrap: int, seed: int) -> list[str]:
    """Point change and 95% paired-bootstrap interval of (other − base), same resamples for both."""
    rng = np.random.default_rng(seed)
    n = len(lp.seg_ids)
    counts = np.vstack([np.ones((1, n), dtype=np.int64), stats.bootstrap_counts(n, n_bootstrap, rng)])
    human = lp.human_system_scores(counts)
    lines = []
    for view_a, view_b in zip(reference_views(lp, base), reference_views(lp, other)):
        sys_a, sys_b = view_a.system_scores(counts), view_b.system_scores(counts)
        figures: dict[str, list[float]] = {"pairwise accuracy": [], "Pearson": [], "Kendall (system)": [],
                                           "Kendall tau-b (segment)": []}
        for b in range(counts.shape[0]):
            figures["pairwise accuracy"].append(stats.pairwise_accuracy(human[b], sys_b[b])
                                                - stats.pairwise_accuracy(human[b], sys_a[b]))
            figures["Pearson"].append(stats.pearson(human[b], sys_b[b]) - stats.pearson(human[b], sys_a[b]))
            figures["Kendall (system)"].append(stats.kendall_tau_b(human[b], sys_b[b])
                                               - stats.kendall_tau_b(human[b], sys_a[b]))
            figures["Kendall tau-b (segment)"].append(
                stats.segment_kendall(-lp.mqm, view_b.segments, counts=counts[b])
                - stats.segment_kendall(-lp.mqm, view_a.segments, counts=counts[b]))
        for name, values in figures.items():
            arr = np.asarray(values)
            low, high = stats.percentile_interval(arr[1:])
            lines.append(f"| {view_a.metric} | {name} | {arr[0]:+.3f} | [{low:+.3f}, {high:+.3f}] |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--threshold", type=float, default=35.0)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    data = load_mqm(MQM)
    sample = data.seg_ids[::args.every]
    sources, truth = data.sources(), data.outputs("ref")
    backend = LlamaCppBackend(n_threads=args.threads)
    started = time.perf_counter()
    records, run = generate_references({str(i): sources[i] for i in sample}, backend, src_lang="zh", tgt_lang="en",
                                       n=args.n, ground_truth={str(i): truth[i] for i in sample},
                                       cache=GenerationCache(CACHE), threshold=args.threshold,
                                       progress=lambda d, t: print(f"  {d}/{t}", flush=True) if d % 10 == 0 else None)
    wall = time.perf_counter() - started
    backend.close()
    path = write_references(records, OUT / "generated_refs_ted_zhen.jsonl", meta={
        "mqm": "wmt-mqm/ted/zhen/mqm_ted_zhen.tsv", "ground_truth": "ref", "n": args.n, "threshold": args.threshold,
        "backend": run.backend, "model": run.model, "template": run.template, "every": args.every})
    selected = load_reference_set(path, name="gen", origin="selected", id_type=int)
    generated = load_reference_set(path, name="gen-all", origin="generated", id_type=int)
    covered = sorted(int(s) for s in selected.covered())
    approved = references_from_systems(data, ["ref"])
    sets = [ReferenceSet.merge("ref+gen", approved, selected), ReferenceSet.merge("ref+gen-all", approved, generated),
            selected]
    lp = LanguagePair.build(data, ["ref"], ["refB"], covered)
    views = {lp.data.lp: [v for refs in [approved, *sets] for v in reference_views(lp, refs)]}
    results = evaluate_views([lp], views, n_bootstrap=args.bootstrap, seed=0)
    results.write_parquet(OUT / "generated_refs_ted.parquet")
    n_cands = [len(r.candidates) for r in records]
    n_kept = [len(r.references) for r in records]
    dropped: dict[str, int] = {}
    for r in records:
        for _text, reason in r.dropped:
            key = reason if not reason.startswith("beyond") else "beyond n"
            dropped[key] = dropped.get(key, 0) + 1
    gen_s = sum(o.seconds or 0 for o in run.outcomes if o.status == "generated")
    summary = {"sources": len(sample), "with_references": len(covered), "calls": run.calls, "counts": run.counts,
               "candidates_mean": round(float(np.mean(n_cands)), 2), "kept_mean": round(float(np.mean(n_kept)), 2),
               "kept_total": sum(n_kept), "dropped": dropped, "wall_s": round(wall, 1), "gen_s": round(gen_s, 1),
               "completion_tokens": run.completion_tokens}
    lines = ["# Generated references for zh→en TED (Gemma 3 270M) and metric agreement with MQM", "",
             (f"Command: `python -m tests.eval.generated_refs_ted --every {args.every} --n {args.n} "
             f"--threshold {args.threshold:g} --bootstrap {args.bootstrap}`"), "",
             f"Generation: `{json.dumps(summary, ensure_ascii=False)}`", "",
             (f"Sample: {len(covered)} segments (of {len(sample)} sampled) × {len(lp.systems)} MT systems; "
             "`ref` is the approved reference, generated = Gemma's Self-BLEU-selected candidates."), "",
             results_markdown(results), "",
             "## Change when the generated references are added to `ref` (paired bootstrap, same resamples)", "",
             "| metric | figure | ref+gen − ref | 95% interval |", "|---|---|---|---|",
             *paired_deltas(lp, approved, sets[0], args.bootstrap, seed=1)]
    (OUT / "generated_refs_ted.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
