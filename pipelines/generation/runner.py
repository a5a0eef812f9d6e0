"""Run a backend over many requests: cache first, a bounded thread pool, per-segment failures recorded.

Outputs are flushed to the cache every ``flush_every`` completions (and whatever is left when the run
ends or is interrupted), so a killed run loses at most one small batch and the next run only
generates what is missing. Requests with the same input (same source, same variables) are generated
once. When the backend reports ``max_unreachable`` consecutive "cannot reach the server" failures,
the requests not yet started are recorded as failed without calling it: a dead server costs seconds,
not (retries × backoff × segments).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import polars as pl

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.generation.base import (
    Backend,
    CacheKey,
    Outcome,
    Request,
    SegmentFailure,
)
from housestyle.pipelines.generation.cache import GenerationCache

OUTCOME_SCHEMA: dict[str, pl.DataType] = {
    "segment_id": pl.Utf8(), "input_hash": pl.Utf8(), "status": pl.Utf8(), "text": pl.Utf8(), "error": pl.Utf8(),
    "prompt_tokens": pl.Int64(), "completion_tokens": pl.Int64(), "seconds": pl.Float64(), "attempts": pl.Int64(),
}
NOT_ATTEMPTED = "not attempted: the backend was unreachable for {n} consecutive segments"


@dataclass
class RunSummary:
    """All outcomes (request order) and the run's counts; ``calls`` = segments sent to the backend."""

    outcomes: list[Outcome]
    backend: str
    model: str
    template: str
    wall_seconds: float
    calls: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def completion_tokens(self) -> int:
        return sum(o.completion_tokens or 0 for o in self.outcomes if o.status == "generated")

    @property
    def tokens_per_second(self) -> float | None:
        """Generated tokens per wall-clock second of this run (None when nothing was generated)."""
        tokens = self.completion_tokens
        return tokens / self.wall_seconds if tokens and self.wall_seconds > 0 else None

    def frame(self) -> pl.DataFrame:
        rows = [{"segment_id": o.segment_id, "input_hash": o.input_hash, "status": o.status, "text": o.text,
                 "error": o.error, "prompt_tokens": o.prompt_tokens, "completion_tokens": o.completion_tokens,
                 "seconds": o.seconds, "attempts": o.attempts} for o in self.outcomes]
        return pl.DataFrame(rows, schema=OUTCOME_SCHEMA)

    def texts(self) -> dict[str, str]:
        """segment_id -> output, for the segments that have one."""
        return {o.segment_id: o.text for o in self.outcomes if o.text is not None and o.status != "failed"}


def _call(backend: Backend, request: Request, stop: threading.Event, limit: int) -> Outcome:
    """One request in a worker thread; every failure becomes a failed Outcome, never an exception."""
    if stop.is_set():
        return Outcome(request.segment_id, request.input_hash, "failed", error=NOT_ATTEMPTED.format(n=limit))
    start = time.perf_counter()
    try:
        done = backend.complete(request)
    except SegmentFailure as failure:
        outcome = Outcome(request.segment_id, request.input_hash, "failed", error=failure.reason,
                          seconds=time.perf_counter() - start, attempts=failure.attempts)
        outcome.extra["unreachable"] = failure.unreachable
        return outcome
    return Outcome(request.segment_id, request.input_hash, "generated", text=done.text,
                   prompt_tokens=done.prompt_tokens, completion_tokens=done.completion_tokens,
                   seconds=time.perf_counter() - start, attempts=done.attempts, finish_reason=done.finish_reason)


def _cache_key(backend: Backend, requests: Sequence[Request]) -> CacheKey | None:
    keys = {CacheKey.of(backend, r.prompt) for r in requests}
    if len(keys) > 1:
        raise ConfigError("one generation run uses one prompt template version; split the requests")
    return next(iter(keys)) if keys else None


def run_generation(
    requests: Sequence[Request],
    backend: Backend,
    *,
    cache: GenerationCache | None = None,
    flush_every: int = 8,
    max_unreachable: int = 3,
    progress: Callable[[int, int], None] | None = None,
) -> RunSummary:
    """Generate for every request (cached ones are not sent). Returns outcomes in request order."""
    started = time.perf_counter()
    key = _cache_key(backend, requests)
    use_cache = cache is not None and backend.cacheable and key is not None
    dedupe = backend.cacheable  # a file-reading backend answers per id, not per input
    unique: dict[str, Request] = {}
    for request in requests:
        unique.setdefault(request.input_hash if dedupe else request.segment_id, request)
    results: dict[str, Outcome] = {}
    if use_cache and cache is not None and key is not None:
        for input_hash, row in cache.lookup(key, [r.input_hash for r in unique.values()]).items():
            results[input_hash] = Outcome(str(row["segment_id"]), input_hash, "cached", text=str(row["text"]),
                                          prompt_tokens=row["prompt_tokens"],  # type: ignore[arg-type]
                                          completion_tokens=row["completion_tokens"],  # type: ignore[arg-type]
                                          finish_reason=row.get("finish_reason"))  # type: ignore[arg-type]
    pending = [(k, r) for k, r in unique.items() if k not in results]
    stop, calls = threading.Event(), 0
    buffer: list[Outcome] = []
    consecutive = 0

    def flush() -> None:
        if use_cache and cache is not None and key is not None and buffer:
            cache.put(key, buffer)
        buffer.clear()

    with ThreadPoolExecutor(max_workers=max(1, backend.max_workers), thread_name_prefix="generate") as pool:
        futures: dict[Future[Outcome], str] = {pool.submit(_call, backend, r, stop, max_unreachable): k
                                               for k, r in pending}
        try:
            remaining = set(futures)
            while remaining:
                finished, remaining = wait(remaining, return_when=FIRST_COMPLETED)
                for future in finished:
                    outcome = future.result()
                    results[futures[future]] = outcome
                    if not outcome.error or not outcome.error.startswith("not attempted"):
                        calls += 1
                    consecutive = consecutive + 1 if outcome.extra.get("unreachable") else 0
                    if consecutive >= max_unreachable:
                        stop.set()
                    if outcome.status == "generated":
                        buffer.append(outcome)
                        if len(buffer) >= flush_every:
                            flush()
                    if progress is not None:
                        progress(len(results), len(unique))
        finally:
            stop.set()  # on interruption: workers not yet started return at once
            flush()
    outcomes = []
    for request in requests:
        group = request.input_hash if dedupe else request.segment_id
        found = results[group]
        status = found.status
        if status == "generated" and unique[group] is not request:
            status = "cached"  # same input as an earlier request of this run: answered without a call
        outcomes.append(Outcome(request.segment_id, request.input_hash, status, found.text, found.error,
                                found.prompt_tokens, found.completion_tokens, found.seconds, found.attempts,
                                found.finish_reason))
    counts = {s: sum(o.status == s for o in outcomes) for s in ("generated", "cached", "failed")}
    return RunSummary(outcomes, backend.name, backend.model, key.template if key else "", time.perf_counter() - started,
                      calls, counts)
