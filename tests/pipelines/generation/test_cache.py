"""The Parquet cache: keyed lookups, atomic parts, newest wins, compaction, failures never cached."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from housestyle.pipelines.generation.base import CacheKey, Outcome
from housestyle.pipelines.generation.cache import GenerationCache

KEY = CacheKey("openai", "gemma", "translate", 1, "s1")


def ok(seg: str, h: str, text: str) -> Outcome:
    return Outcome(seg, h, "generated", text=text, completion_tokens=3)


def test_put_then_lookup_by_key_and_input(tmp_path: Path) -> None:
    cache = GenerationCache(tmp_path)
    cache.put(KEY, [ok("a", "h1", "un"), ok("b", "h2", "deux"), Outcome("c", "h3", "failed", error="boom")])
    found = cache.lookup(KEY, ["h1", "h2", "h3"])
    assert {h: r["text"] for h, r in found.items()} == {"h1": "un", "h2": "deux"}  # the failure is not cached
    for other in (CacheKey("openai", "gemma", "translate", 2, "s1"), CacheKey("openai", "other", "translate", 1, "s1"),
                  CacheKey("llamacpp", "gemma", "translate", 1, "s1"), CacheKey("openai", "gemma", "translate", 1, "s2")):
        assert cache.lookup(other, ["h1"]) == {}  # every key part matters (template version, settings...)


def test_parts_are_atomic_and_tmp_files_ignored(tmp_path: Path) -> None:
    cache = GenerationCache(tmp_path)
    assert cache.put(KEY, []) is None and cache.parts() == []
    (tmp_path / ".part-x.parquet.123.tmp").write_bytes(b"half a file")  # what a kill mid-write leaves
    cache.put(KEY, [ok("a", "h1", "un")])
    assert len(cache.parts()) == 1 and cache.frame().height == 1


def test_newest_wins_and_compaction_keeps_one_row_per_input(tmp_path: Path) -> None:
    cache = GenerationCache(tmp_path, compact_over=3)
    cache.put(KEY, [ok("a", "h1", "old")])
    cache.put(KEY, [ok("a", "h1", "new")])
    assert cache.lookup(KEY, ["h1"])["h1"]["text"] == "new"
    cache.put(KEY, [ok("b", "h2", "deux")])
    cache.put(KEY, [ok("c", "h3", "trois")])  # 4 parts > 3: compacted into one
    assert len(cache.parts()) == 1
    assert sorted(cache.frame()["text"].to_list()) == ["deux", "new", "trois"]


def test_parts_from_an_older_format_read_with_new_columns_null(tmp_path: Path) -> None:
    cache = GenerationCache(tmp_path)
    cache.put(KEY, [ok("a", "h1", "un")])
    old = pl.read_parquet(cache.parts()[0]).drop("finish_reason")
    old.write_parquet(cache.parts()[0])
    row = cache.lookup(KEY, ["h1"])["h1"]
    assert row["text"] == "un" and row["finish_reason"] is None
