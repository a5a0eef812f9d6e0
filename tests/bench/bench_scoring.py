"""Benchmark: the bulk scoring engine on 1,000,000 segments × 1,000 conventions (term/forbidden/pattern).

Run on demand (never part of the test suite):  python -m tests.bench.bench_scoring [--segments N] [--conventions M]

Data are synthetic but shaped like a TM: a Zipf-distributed source vocabulary, outputs made by a
word-for-word "translation" with noise, 500 term conventions (the target term present in ~90% of
the triggered outputs, a wrong variant in ~5%), 300 forbidden conventions (half of them global) and
200 regex pattern conventions (most triggered, two global punctuation-spacing ones), in all four
match modes. Reports:
- end-to-end wall time of ``score_systems`` (applicability, every verdict, failure rows, tables);
- a straightforward per-convention Python loop (``check_item`` for each convention × segment) on a
  slice (default 10,000 segments), scaled linearly to the full size, and the ratio;
- peak resident memory (VmHWM) and the RSS after generating the data.
The machine's cores are shared with other jobs: treat the figures as indicative.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time
from pathlib import Path

import numpy as np

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import check_item
from housestyle.pipelines.scoring.engine import score_systems

SYLLABLES = ["ka", "lo", "mi", "ter", "san", "ve", "ro", "du", "pel", "ni", "gor", "ta", "shi", "ben", "al", "qu"]
FR_SYLLABLES = ["é", "ou", "ain", "ti", "re", "ma", "lé", "con", "su", "è", "ge", "pa", "ri", "ses", "d’", "ion"]


def _words(rng: random.Random, syllables: list[str], n: int) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            out.append(word)
    return out


def make_data(n_segments: int, seed: int = 7) -> tuple[dict[str, str], dict[str, str], list[str], list[str], list[str]]:
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    vocab = 8000
    src_words = _words(rng, SYLLABLES, vocab)
    tgt_words = _words(rng, FR_SYLLABLES, vocab * 2)
    tgt, wrong = tgt_words[:vocab], tgt_words[vocab:]
    lengths = nprng.integers(12, 28, size=n_segments)
    ranks = np.minimum(nprng.zipf(1.15, size=int(lengths.sum())), vocab) - 1
    noise = nprng.random(size=len(ranks))
    ends = np.cumsum(lengths)
    starts = ends - lengths
    punct = [".", " ?", "\u00a0?", " :", "\u00a0: x.", "."]
    sources: dict[str, str] = {}
    outputs: dict[str, str] = {}
    for i in range(n_segments):
        idx = ranks[starts[i]:ends[i]]
        z = noise[starts[i]:ends[i]]
        src = " ".join(src_words[k] for k in idx)
        out = " ".join(tgt[k] if r < 0.9 else wrong[k] if r < 0.95 else tgt[(k * 7 + 3) % vocab] for k, r in zip(idx, z))
        tail = punct[i % len(punct)]
        sources[f"u{i}"] = src[0].upper() + src[1:] + tail
        outputs[f"u{i}"] = out[0].upper() + out[1:] + tail
    return sources, outputs, src_words, tgt, wrong


def make_conventions(src_words: list[str], tgt: list[str], wrong: list[str], n: int, seed: int = 11) -> list[Convention]:
    rng = random.Random(seed)
    modes = ["caseless"] * 6 + ["exact"] * 2 + ["typographic"] + ["nfkc"]
    n_term, n_forbidden = n // 2, (n * 3) // 10
    n_pattern = n - n_term - n_forbidden
    ranks = rng.sample(range(30, 4000), n_term + n_forbidden + n_pattern)
    convs: list[Convention] = []
    for k in ranks[:n_term]:
        convs.append(Convention(dimension=f"term:{src_words[k]}", rule="term", src=src_words[k],
                                expected_terms=[tgt[k]], wrong_variants=[wrong[k]], match_mode=rng.choice(modes)))
    for j, k in enumerate(ranks[n_term:n_term + n_forbidden]):
        src = None if j % 2 else src_words[k]
        convs.append(Convention(dimension=f"forbidden:{k}", rule="forbidden", src=src,
                                wrong_variants=[wrong[k], f"{tgt[k]} {wrong[(k + 1) % len(wrong)]}"], match_mode=rng.choice(modes)))
    for j, k in enumerate(ranks[n_term + n_forbidden:]):
        if j < 2:
            convs.append(Convention(dimension=f"punct:space_{j}", rule="pattern", wrong_variants=[r"(?<![\u00a0])[?:]" if j == 0 else r" [?!:;]"],
                                    regex=True, match_mode="exact"))
            continue
        convs.append(Convention(dimension=f"pattern:{k}", rule="pattern", src=rf"\b{src_words[k]}s?\b", src_regex=True,
                                expected_terms=[rf"\b{tgt[k]}s?\b"], wrong_variants=[rf"\b{wrong[k]} \w+"],
                                regex=True, match_mode=rng.choice(["exact", "caseless"])))
    return convs


def peak_rss_mb() -> tuple[float, float]:
    """(current RSS, peak RSS) in MB from /proc/self/status."""
    values = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(("VmRSS", "VmHWM")):
            key, value = line.split(":")
            values[key] = int(value.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def _cpu_seconds() -> float:
    """User+system CPU of this process (all threads) and of its finished child processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def naive_loop(convs: list[Convention], sources: dict[str, str], outputs: dict[str, str]) -> int:
    """The straightforward reference: every convention × every segment through ``check_item``."""
    failures = 0
    for conv in convs:
        for seg_id, source in sources.items():
            output = outputs.get(seg_id)
            if output is None:
                continue
            verdict = check_item(conv, source, output)
            failures += verdict is not None and not verdict.full_pass
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument("--conventions", type=int, default=1000)
    parser.add_argument("--slice", type=int, default=10_000, help="segments for the naive loop")
    parser.add_argument("--workers", type=int, default=None, help="engine worker processes (default: auto)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    sources, outputs, src_words, tgt, wrong = make_data(args.segments)
    convs = make_conventions(src_words, tgt, wrong, args.conventions)
    rss_data, _ = peak_rss_mb()
    print(f"data: {args.segments:,} segments × {len(convs):,} conventions generated in {time.perf_counter() - t0:.1f} s; "
          f"RSS {rss_data:,.0f} MB; cores visible: {os.cpu_count()}")
    t1, cpu1 = time.perf_counter(), _cpu_seconds()
    result = score_systems(convs, sources, {"sys": outputs}, workers=args.workers)
    engine_s, engine_cpu = time.perf_counter() - t1, _cpu_seconds() - cpu1
    _, peak = peak_rss_mb()
    child_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"engine: {engine_s:.1f} s end to end (wall), {engine_cpu:.1f} s CPU (all processes and threads); "
          f"scored items {int(result.scores['scored'].sum()):,}; failures {result.failures.height:,}; "
          f"peak RSS parent {peak:,.0f} MB (+{peak - rss_data:,.0f} MB over the data), largest worker {child_peak:,.0f} MB; "
          f"load average at the end {os.getloadavg()[0]:.1f}")
    keys = list(sources)[: args.slice]
    t2, cpu2 = time.perf_counter(), _cpu_seconds()
    naive_failures = naive_loop(convs, {k: sources[k] for k in keys}, outputs)
    naive_s, naive_cpu = time.perf_counter() - t2, _cpu_seconds() - cpu2
    scaled = naive_s * args.segments / len(keys)
    scaled_cpu = naive_cpu * args.segments / len(keys)
    engine_slice = score_systems(convs, {k: sources[k] for k in keys}, {"sys": {k: outputs[k] for k in keys}})
    assert engine_slice.failures.height == naive_failures, "engine and naive loop disagree on the slice"
    print(f"naive per-convention loop: {naive_s:.1f} s wall / {naive_cpu:.1f} s CPU on {len(keys):,} segments → "
          f"{scaled:,.0f} s wall / {scaled_cpu:,.0f} s CPU scaled to {args.segments:,}; speed-up {scaled / engine_s:,.0f}× "
          f"wall, {scaled_cpu / engine_cpu:,.0f}× CPU (slice failures agree: {naive_failures:,})")


if __name__ == "__main__":
    main()
