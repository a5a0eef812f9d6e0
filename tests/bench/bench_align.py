"""Aligner benchmark: wall time and peak RSS of ``align_with_sure`` on the miner's own sample size.

The term miner aligns at most ``alignment.max_units`` units (20,000 by default), so this is the
aligner's share of any large mining run. Real text: the TICO-19 en→fr units tokenised as the miner
does (lemma keys on the French side), cycled to N units. Each run is a fresh subprocess so its peak
RSS is its own. On demand only, never a timed assertion:
``python -m tests.bench.bench_align [N]``.
"""

from __future__ import annotations

import pickle
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.align import align_with_sure
from housestyle.pipelines.mining.corpus import corpus_from_units
from housestyle.pipelines.mining.params import DEFAULT_PARAMS
from housestyle.pipelines.mining.tokens import TokenCache, settle_closed_tags
from tests.conftest import REPO_ROOT, find_shared_data


def _tokens(n_units: int, out: Path) -> None:
    data = find_shared_data()
    if data is None:
        raise SystemExit("real data not found: put ../shared/data beside the checkout or set HOUSESTYLE_DATA")
    with tempfile.TemporaryDirectory(prefix="bench-align-") as tmp:
        ingest_files([data / "tico19" / "TM" / "all.en-fr.tmx"], client="bench", out_dir=Path(tmp))
        corpus = corpus_from_units(pl.read_parquet(Path(tmp) / "tm_units.parquet"), "en", "fr")
    cache = TokenCache()
    src_toks = cache.tokenize(list(corpus.sources), "en")
    tgt_toks = cache.tokenize(list(corpus.targets), "fr", analyse=True)
    settle_closed_tags(tgt_toks)
    src = [[t.norm for t in s] for s in src_toks]
    tgt = [[t.key for t in s] for s in tgt_toks]
    reps = -(-n_units // len(src))
    out.write_bytes(pickle.dumps(((src * reps)[:n_units], (tgt * reps)[:n_units])))


def _child(tokens: Path) -> None:
    src, tgt = pickle.loads(tokens.read_bytes())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    align_with_sure(src, tgt, iterations=DEFAULT_PARAMS.alignment.iterations, tension=DEFAULT_PARAMS.alignment.diagonal,
                    p_null=DEFAULT_PARAMS.alignment.null)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    pairs = sum(len(t) * (len(s) + 1) for s, t in zip(src, tgt))
    print({"units": len(src), "pairs": pairs, "wall_seconds": round(seconds, 1),
           "peak_rss_mib": round(peak / 1024), "rss_before_mib": round(before / 1024),
           "bytes_per_pair": round((peak - before) * 1024 / max(1, pairs), 1)}, flush=True)


def main(n_units: int = DEFAULT_PARAMS.alignment.max_units) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-align-") as tmp:
        tokens = Path(tmp) / "tokens.pkl"
        _tokens(n_units, tokens)
        subprocess.run([sys.executable, "-m", "tests.bench.bench_align", "--child", str(tokens)], cwd=REPO_ROOT,
                       check=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(Path(sys.argv[2]))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_PARAMS.alignment.max_units)
