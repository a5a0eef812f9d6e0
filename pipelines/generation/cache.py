"""Generation outputs cached in Parquet, keyed by (backend, model, template@version, settings, input).

A re-run generates only what is missing, and an interrupted run resumes: the runner flushes small
batches, each batch becomes one new part file written atomically (temporary file, fsync, rename),
so a killed process loses at most the batch in flight and never leaves a half-written part behind
(a stray ``.tmp`` is ignored; ``housestyle.pipelines.atomic``). Parts are merged once there are many (``compact``); a row that
appears twice (two processes, or a compaction interrupted after writing) is the same output, and
the newest copy wins. Only successful outputs are cached: failures are retried on the next run.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.generation.base import CacheKey, Outcome

CACHE_SCHEMA: dict[str, pl.DataType] = {
    "backend": pl.Utf8(), "model": pl.Utf8(), "template": pl.Utf8(), "template_version": pl.Int64(),
    "settings": pl.Utf8(), "input_hash": pl.Utf8(), "segment_id": pl.Utf8(), "text": pl.Utf8(),
    "prompt_tokens": pl.Int64(), "completion_tokens": pl.Int64(), "seconds": pl.Float64(),
    "finish_reason": pl.Utf8(),
    "created_at": pl.Float64(),
}
KEY_COLUMNS = ("backend", "model", "template", "template_version", "settings")
PART_GLOB = "part-*.parquet"


class GenerationCache:
    """A folder of Parquet parts. Safe to share between runs and processes (append-only parts)."""

    def __init__(self, root: Path | str, *, compact_over: int = 64) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.compact_over = compact_over

    def parts(self) -> list[Path]:
        return sorted(self.root.glob(PART_GLOB))

    def _scan(self) -> pl.LazyFrame | None:
        parts = self.parts()
        if not parts:
            return None
        # parts written before a column was added read with it null (the cache format only grows)
        return pl.scan_parquet(parts, schema=CACHE_SCHEMA, missing_columns="insert", extra_columns="ignore")

    def frame(self) -> pl.DataFrame:
        """Every cached row, one per key and input (newest wins)."""
        for _attempt in range(3):  # a concurrent compaction may delete a part between glob and read
            scan = self._scan()
            if scan is None:
                return pl.DataFrame(schema=CACHE_SCHEMA)
            try:
                return (scan.sort("created_at").unique([*KEY_COLUMNS, "input_hash"], keep="last", maintain_order=True)
                        .collect())
            except FileNotFoundError:
                time.sleep(0.05)
        raise FileNotFoundError(f"cache parts under {self.root} kept changing while reading")

    def lookup(self, key: CacheKey, input_hashes: Iterable[str]) -> dict[str, dict[str, object]]:
        """input_hash -> cached row, for the inputs of ``key`` that are cached."""
        wanted = sorted(set(input_hashes))
        if not wanted:
            return {}
        rows = self.frame().filter(
            (pl.col("backend") == key.backend) & (pl.col("model") == key.model) & (pl.col("template") == key.template)
            & (pl.col("template_version") == key.template_version) & (pl.col("settings") == key.settings)
            & pl.col("input_hash").is_in(wanted))
        return {str(row["input_hash"]): row for row in rows.iter_rows(named=True)}

    def put(self, key: CacheKey, outcomes: Sequence[Outcome]) -> Path | None:
        """Append the successful outcomes as one new part (atomic); returns the part, or None if nothing to write."""
        ok = [o for o in outcomes if o.status == "generated" and o.text is not None]
        if not ok:
            return None
        now = time.time()
        frame = pl.DataFrame(
            {"backend": [key.backend] * len(ok), "model": [key.model] * len(ok), "template": [key.template] * len(ok),
             "template_version": [key.template_version] * len(ok), "settings": [key.settings] * len(ok),
             "input_hash": [o.input_hash for o in ok], "segment_id": [o.segment_id for o in ok],
             "text": [o.text for o in ok], "prompt_tokens": [o.prompt_tokens for o in ok],
             "completion_tokens": [o.completion_tokens for o in ok], "seconds": [o.seconds for o in ok],
             "finish_reason": [o.finish_reason for o in ok], "created_at": [now] * len(ok)},
            schema=CACHE_SCHEMA)
        path = self.root / f"part-{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:8]}.parquet"
        atomic.write_with(path, frame.write_parquet)
        if len(self.parts()) > self.compact_over:
            self.compact()
        return path

    def compact(self) -> int:
        """Merge every part into one (written first, then the merged parts removed); returns rows kept."""
        parts = self.parts()
        if len(parts) <= 1:
            return len(self.frame())
        merged = pl.scan_parquet(parts, schema=CACHE_SCHEMA, missing_columns="insert", extra_columns="ignore").sort("created_at").unique(
            [*KEY_COLUMNS, "input_hash"], keep="last", maintain_order=True).collect()
        atomic.write_with(self.root / f"part-{time.time_ns():020d}-{os.getpid()}-compact.parquet", merged.write_parquet)
        for part in parts:
            part.unlink(missing_ok=True)
        return merged.height
