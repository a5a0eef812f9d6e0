"""Held-out check (issue 25; not a test): ingest a TM, split it into seeded halves A/B (or two splits of
a splits.json: SPLITS=file SA=name SB=name), mine A with ``housestyle mine --split A``, score half B's
approved targets with ``housestyle score``; prints rules by kind, mining wall/CPU time and peak RSS,
pass rate per kind and term items per segment.

    python -m tests.eval.term_heldout NAME SRC TGT OUT_DIR FILES_OR_DIRS...
"""
from __future__ import annotations

import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
import polars as pl
from housestyle.pipelines.ingest import ingest_files



def main() -> None:  # noqa: C901 - a linear script
    name, src, tgt, out = sys.argv[1], sys.argv[2], sys.argv[3], Path(sys.argv[4])
    files = sorted(f for p in sys.argv[5:] for f in ([Path(p)] if Path(p).is_file() else Path(p).rglob("*")) if f.suffix in (".xliff", ".xlf", ".po", ".tmx"))
    out.mkdir(parents=True, exist_ok=True)
    units_p = out / "tm" / "tm_units.parquet"
    if not units_p.exists():
        ingest_files(files, client=name, out_dir=out / "tm", workers=1)
    u = pl.read_parquet(units_p).filter(pl.col("target").is_not_null() & (pl.col("target") != "")).unique("unit_id", keep="first", maintain_order=True)
    half = [int(hashlib.sha256(f"seed25:{i}".encode()).hexdigest(), 16) % 2 for i in u["unit_id"]]
    u = u.with_columns(pl.Series("half", half))
    if os.environ.get("SPLITS"):
        sp = json.load(open(os.environ["SPLITS"]))
        A = u.filter(pl.col("unit_id").is_in(sp[os.environ["SA"]]["unit_id"])); B = u.filter(pl.col("unit_id").is_in(sp[os.environ["SB"]]["unit_id"]))
    else:
        A, B = u.filter(pl.col("half") == 0), u.filter(pl.col("half") == 1)
    (out / "splits.json").write_text(json.dumps({"A": {"unit_id": A["unit_id"].to_list()}, "B": {"unit_id": B["unit_id"].to_list()}}))
    with open(out / "src.jsonl", "w") as s, open(out / "tgt.jsonl", "w") as t:
        for r in B.iter_rows(named=True):
            s.write(json.dumps({"id": r["unit_id"], "text": r["source"]}) + "\n")
            t.write(json.dumps({"id": r["unit_id"], "text": r["target"]}) + "\n")
    t0 = time.time(); c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["housestyle", "mine", str(units_p), "--src", src, "--tgt", tgt, "--splits", str(out / "splits.json"),
                    "--split", "A", "--client", name, "--out", str(out / "rules")], check=True, capture_output=True)
    mt = time.time() - t0; c1 = resource.getrusage(resource.RUSAGE_CHILDREN); cpu = c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime; rss = c1.ru_maxrss
    sets = sorted((out / "rules" / name).glob("*/conventions.parquet"), key=lambda p: p.stat().st_mtime)
    cs = sets[-1].parent
    r = subprocess.run(["housestyle", "score", "--conventions", str(cs), "--source", str(out / "src.jsonl"), "--system",
                    "approved=" + str(out / "tgt.jsonl"), "--out", str(out / "score")], capture_output=True, text=True)
    if r.returncode: print(r.stderr); sys.exit(1)
    conv = pl.read_parquet(cs / "conventions.parquet")
    f = pl.read_parquet(out / "score" / "dimension_scores.parquet") if (out/"score"/"dimension_scores.parquet").exists() else None
    print(name, "mine_s", round(mt, 1), "mine_cpu_s", round(cpu, 1), "maxrss_MB", rss // 1024, "rules", conv.group_by("rule").len().sort("rule").rows())
    k = f.with_columns(pl.col("dimension").str.split(":").list.first().alias("kind")).group_by("kind").agg(
        pl.col("scored").sum(), pl.col("passed").sum()).with_columns((pl.col("passed") / pl.col("scored")).round(4).alias("rate")).sort("kind")
    print(name, "B segments", B.height, k.rows())
    tr = k.filter(pl.col("kind") == "term")
    if tr.height: print(name, "TERM pass", tr["rate"][0], "items/seg", round(tr["scored"][0] / B.height, 2))


if __name__ == "__main__":
    main()
