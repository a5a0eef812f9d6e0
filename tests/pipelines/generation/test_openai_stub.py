"""The openai backend against a stub HTTP endpoint: payloads, retries with backoff, errors per segment."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.openai_compat import OpenAICompatBackend
from housestyle.pipelines.generation.tasks import translate
from tests.pipelines.generation.stub_server import stub_server

SOURCES = {"a": "Wash your hands.", "b": "Stay home.", "c": "Wash your hands."}


def test_chat_payload_seed_temperature_key_and_dedupe() -> None:
    with stub_server() as (url, state):
        backend = OpenAICompatBackend(url, "m", api_key="sk-test", seed=7)
        run = translate(SOURCES, backend, src_lang="en", tgt_lang="fr")
    assert run.texts() == {"a": "echo:Wash your hands.", "b": "echo:Stay home.", "c": "echo:Wash your hands."}
    assert len(state.calls) == 2  # a and c share one input: one call
    body = state.calls[0]["body"]
    assert state.calls[0]["path"] == "/v1/chat/completions" and state.calls[0]["auth"] == "Bearer sk-test"
    assert body["temperature"] == 0 and body["seed"] == 7 and body["model"] == "m" and body["max_tokens"] == 256
    assert run.completion_tokens == 6 and run.counts == {"generated": 2, "cached": 1, "failed": 0}


def test_completion_api_and_cache_second_run_makes_no_call(tmp_path: Path) -> None:
    cache = GenerationCache(tmp_path / "cache")
    with stub_server() as (url, state):
        backend = OpenAICompatBackend(url, "m", api="completion")
        first = translate(SOURCES, backend, src_lang="en", tgt_lang="fr", cache=cache)
        calls = len(state.calls)
        second = translate(SOURCES, backend, src_lang="en", tgt_lang="fr", cache=cache)
    assert state.calls[0]["path"] == "/v1/completions" and state.calls[0]["body"]["stop"] == ["\n"]
    assert first.counts["generated"] == 2 and second.counts == {"generated": 0, "cached": 3, "failed": 0}
    assert len(state.calls) == calls == 2 and second.calls == 0
    assert second.texts() == first.texts() == {k: "echo:English: " + v for k, v in SOURCES.items()}


def test_transient_errors_are_retried_with_retry_after() -> None:
    with stub_server() as (url, state):
        state.script = [("status", 503, None), ("status", 429, 0)]
        backend = OpenAICompatBackend(url, "m", retries=2, backoff=0.01, max_workers=1)
        run = translate({"a": "Hi"}, backend, src_lang="en", tgt_lang="fr")
    assert run.counts["generated"] == 1 and run.outcomes[0].attempts == 3 and len(state.calls) == 3


def test_errors_are_recorded_per_segment_not_raised() -> None:
    with stub_server() as (url, state):
        state.script = [("status", 400, None), ("garbage",), ("status", 500, None), ("status", 500, None)]
        backend = OpenAICompatBackend(url, "m", retries=1, backoff=0.01, max_workers=1)
        run = translate({"a": "one", "b": "two", "c": "three", "d": "four"}, backend, src_lang="en", tgt_lang="fr")
    status = {o.segment_id: (o.status, o.error or "") for o in run.outcomes}
    assert status["a"][0] == "failed" and status["a"][1].startswith("HTTP 400")  # not retried
    assert status["b"][0] == "failed" and "malformed response" in status["b"][1]
    assert status["c"][0] == "failed" and "HTTP 500" in status["c"][1] and "after 2 attempts" in status["c"][1]
    assert status["d"] == ("generated", "")
    assert len(state.calls) == 5


def test_timeout_is_a_segment_failure() -> None:
    with stub_server() as (url, state):
        state.script = [("sleep", 1.0)]
        backend = OpenAICompatBackend(url, "m", timeout=0.2, retries=0, max_workers=1)
        run = translate({"a": "slow", "b": "fast"}, backend, src_lang="en", tgt_lang="fr")
    by_id = {o.segment_id: o for o in run.outcomes}
    assert by_id["a"].status == "failed" and "timed out" in (by_id["a"].error or "")
    assert by_id["b"].status == "generated"


def test_unreachable_server_fails_fast_for_the_rest(tmp_path: Path) -> None:
    with stub_server() as (url, _state):
        dead = url  # the port is closed once the context exits
    backend = OpenAICompatBackend(dead, "m", retries=1, backoff=0.01, max_workers=1)
    run = translate({str(i): f"sentence {i}" for i in range(10)}, backend, src_lang="en", tgt_lang="fr")
    errors = [o.error or "" for o in run.outcomes]
    # 3 consecutive unreachable segments stop the run; a worker may already have started one more
    assert run.counts["failed"] == 10 and 3 <= run.calls <= 4
    assert all(e.startswith("cannot reach") for e in errors[:run.calls])
    assert all(e.startswith("not attempted") for e in errors[run.calls:])


def test_bad_configuration_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        OpenAICompatBackend("localhost:8080", "m")
    with pytest.raises(ConfigError):
        OpenAICompatBackend("http://x/v1", "m", api="edits")
