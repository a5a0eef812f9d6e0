"""The openai backend through a REAL llama.cpp server (Gemma 3 270M): caching, resume after a killed
run, a timeout, and a server that goes away mid-run. Skips without the optional ``llm`` extra."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.openai_compat import OpenAICompatBackend
from housestyle.pipelines.generation.tasks import translate
from housestyle.pipelines.segments import load_segments
from tests.pipelines.generation.conftest import LlamaServer, start_llama_server

pytestmark = pytest.mark.llm

REPO = Path(__file__).resolve().parents[3]
SOURCES_FILE = REPO / "tests" / "fixtures" / "generation" / "sources.jsonl"
MAX_TOKENS = 16


def backend_for(server: LlamaServer, **options: float) -> OpenAICompatBackend:
    return OpenAICompatBackend(server.base_url, "gemma", api="completion", max_workers=1, **options)  # type: ignore[arg-type]


def test_second_run_is_served_from_the_cache(llama_server: LlamaServer, tmp_path: Path) -> None:
    sources = dict(list(load_segments(SOURCES_FILE).items())[:4])  # s1 and s4 are the same sentence
    cache = GenerationCache(tmp_path / "cache")
    first = translate(sources, backend_for(llama_server), src_lang="en", tgt_lang="fr", cache=cache,
                      max_tokens=MAX_TOKENS)
    assert first.counts == {"generated": 3, "cached": 1, "failed": 0} and first.calls == 3
    assert all(text.strip() for text in first.texts().values())
    second = translate(sources, backend_for(llama_server), src_lang="en", tgt_lang="fr", cache=cache,
                       max_tokens=MAX_TOKENS)
    assert second.calls == 0 and second.counts == {"generated": 0, "cached": 4, "failed": 0}
    assert second.texts() == first.texts()


def test_killed_run_resumes_with_only_the_missing_segments(llama_server: LlamaServer, tmp_path: Path) -> None:
    cache_dir, out = tmp_path / "cache", tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "housestyle.pipelines.cli.main", "generate", "--backend", "openai",
               "-o", f"base_url={llama_server.base_url}", "-o", "model=gemma", "-o", "api=completion",
               "-o", "max_workers=1", "--source", str(SOURCES_FILE), "--src", "en", "--tgt", "fr",
               "--max-tokens", str(MAX_TOKENS), "--cache", str(cache_dir), "--flush-every", "1", "--out", str(out)]
    with (tmp_path / "child.log").open("wb") as log:
        child = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None and not list(cache_dir.glob("part-*.parquet")):
        time.sleep(0.01)
    assert child.poll() is None, "the run finished before it could be killed"
    os.kill(child.pid, signal.SIGKILL)  # no chance to clean up: what a crash or OOM kill looks like
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL and not out.exists()
    cached_before = GenerationCache(cache_dir).frame().height
    unique_inputs = len(set(load_segments(SOURCES_FILE).values()))  # 7: s1 and s4 repeat
    assert 1 <= cached_before < unique_inputs

    rerun = translate(load_segments(SOURCES_FILE), backend_for(llama_server), src_lang="en", tgt_lang="fr",
                      cache=GenerationCache(cache_dir), max_tokens=MAX_TOKENS)
    assert rerun.calls == unique_inputs - cached_before  # only the missing ones were generated
    assert rerun.counts["failed"] == 0 and len(rerun.texts()) == 8
    assert GenerationCache(cache_dir).frame().height == unique_inputs


def test_tiny_timeout_is_recorded_per_segment(llama_server: LlamaServer) -> None:
    backend = backend_for(llama_server, timeout=0.001, retries=1, backoff=0.01)
    run = translate({"t1": "Please call me back tomorrow morning."}, backend, src_lang="en", tgt_lang="fr",
                    max_tokens=MAX_TOKENS)
    outcome = run.outcomes[0]
    assert outcome.status == "failed" and "timed out" in (outcome.error or "") and outcome.attempts == 2


def test_server_going_away_keeps_finished_outputs(gemma_model: Path, tmp_path: Path) -> None:
    server = start_llama_server(gemma_model, tmp_path / "server.log")  # its own server: this test kills it
    sources = {f"g{i}": text for i, text in enumerate(["Good morning.", "The train is late.", "I like green tea.",
                                                       "Where is the station?", "It is raining today.",
                                                       "Open the window, please."])}
    cache = GenerationCache(tmp_path / "cache")

    def kill_after_two(done: int, _total: int) -> None:
        if done == 2:
            server.stop(kill=True)

    try:
        started = time.monotonic()
        run = translate(sources, backend_for(server, retries=2, backoff=0.05), src_lang="en", tgt_lang="fr",
                        cache=cache, max_tokens=MAX_TOKENS, flush_every=1, progress=kill_after_two)
        elapsed = time.monotonic() - started
    finally:
        server.stop(kill=True)
    statuses = [o.status for o in run.outcomes]
    generated = statuses.count("generated")
    assert statuses[:2] == ["generated", "generated"] and generated in (2, 3)  # one may have been in flight
    assert statuses[generated:] == ["failed"] * (6 - generated)
    for outcome in run.outcomes[generated:]:
        assert outcome.error and outcome.error.startswith(("cannot reach", "connection to", "not attempted"))
    assert GenerationCache(tmp_path / "cache").frame().height == generated  # finished outputs kept
    assert elapsed < 60
