"""The mining assets' on-disk store of candidates (``<storage>/<asset>/<client>/<src>-<tgt>/``):
candidates.jsonl (with the miner's extra fields), evidence.parquet, meta.json and, for terms, the
term trace. Plain files, no Dagster: the assets write and read mining results through this one module
(issue 28: the store lives with the miner, not in the Dagster layer)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.mining.build_set import pair_key
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.merge import Mined, MiningResult, evidence_frame, from_rows
from housestyle.pipelines.mining.term_trace import TRACE_FILE
from housestyle.pipelines.rules.io import load_conventions


def store_candidates(out_dir: Path, items: list[Mined], corpus: Corpus, extra: dict[str, Any]) -> None:
    """One folder per language pair: candidates.jsonl (with the miner's extra fields) + evidence.parquet."""
    pair_dir = out_dir / pair_key(corpus.src_lang, corpus.tgt_lang)
    pair_dir.mkdir(parents=True, exist_ok=True)
    records = []
    for item in items:
        record = {k: v for k, v in item.conv.to_dict().items() if k != "extra"}
        records.append(json.dumps({**record, **item.conv.extra}, ensure_ascii=False, sort_keys=True))
    atomic.write_text(pair_dir / "candidates.jsonl", "".join(r + "\n" for r in records))
    atomic.write_with(pair_dir / "evidence.parquet", evidence_frame(items, corpus.unit_ids).write_parquet)
    atomic.write_text(pair_dir / "meta.json", json.dumps(extra, ensure_ascii=False, sort_keys=True, indent=1))


def load_candidates(out_dir: Path, corpus: Corpus) -> tuple[list[Mined], dict[str, Any]]:
    pair_dir = out_dir / pair_key(corpus.src_lang, corpus.tgt_lang)
    if not (pair_dir / "candidates.jsonl").stat().st_size:
        return [], json.loads((pair_dir / "meta.json").read_text(encoding="utf-8"))
    convs = load_conventions(pair_dir / "candidates.jsonl", regex_guard=False)
    evidence = pl.read_parquet(pair_dir / "evidence.parquet")
    return from_rows(convs, evidence, corpus.unit_ids), json.loads((pair_dir / "meta.json").read_text(encoding="utf-8"))


def stored_results(cand_dir: Path) -> dict[str, MiningResult]:
    """convention_candidates as stored: one merged result per language pair folder."""
    pairs: dict[str, MiningResult] = {}
    for pair_dir in sorted(p for p in cand_dir.iterdir() if p.is_dir()) if cand_dir.is_dir() else []:
        conventions = (load_conventions(pair_dir / "candidates.jsonl", regex_guard=False)
                       if (pair_dir / "candidates.jsonl").stat().st_size else [])
        meta = json.loads((pair_dir / "meta.json").read_text(encoding="utf-8"))
        trace = pl.read_parquet(pair_dir / TRACE_FILE) if (pair_dir / TRACE_FILE).is_file() else None
        pairs[pair_dir.name] = MiningResult(conventions, pl.read_parquet(pair_dir / "evidence.parquet"),
                                            meta.get("conflicts", []), meta.get("stats", {}), meta.get("suspects", []), trace)
    return pairs
