"""Reference generation through the generator (stub endpoint and, when installed, local Gemma)."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.openai_compat import OpenAICompatBackend
from housestyle.pipelines.metaeval.metrics import ReferenceSet
from housestyle.pipelines.references.generate import (
    generate_references,
    load_reference_set,
    read_references,
    write_references,
)
from tests.pipelines.generation.stub_server import stub_server

ANSWER = ("Here you go:\n1. It is raining today.\n2. It is raining today.\n3. Today it pours with rain.\n"
          "4. Rain is falling today.\n5. It rains tod")


def test_one_call_per_source_parse_select_and_cache(tmp_path: Path) -> None:
    cache = GenerationCache(tmp_path / "cache")
    with stub_server() as (url, state):
        state.script = [("reply", ANSWER, "length")]
        backend = OpenAICompatBackend(url, "m")
        records, run = generate_references({"7": "今天下雨。"}, backend, src_lang="zh", tgt_lang="en", n=10,
                                           ground_truth={"7": "It rains today."}, cache=cache)
        again, rerun = generate_references({"7": "今天下雨。"}, backend, src_lang="zh", tgt_lang="en", n=10,
                                           ground_truth={"7": "It rains today."}, cache=cache)
    assert len(state.calls) == 1 and rerun.calls == 0 and run.counts["generated"] == 1
    user = state.calls[0]["body"]["messages"][-1]["content"]
    assert "in 10 different ways" in user and "It rains today." in user  # input + ground truth parts
    rec = records[0]
    assert rec.candidates == ["It is raining today.", "Today it pours with rain.", "Rain is falling today."]
    assert [r for _t, r in rec.dropped] == ["preamble", "truncated at max_tokens", "duplicate"]
    assert len(rec.self_bleu) == 3 and rec.references and set(rec.references) <= set(rec.candidates)
    assert again[0].references == rec.references and again[0].status == "cached"


def test_failed_sources_are_recorded_and_files_round_trip(tmp_path: Path) -> None:
    with stub_server() as (url, state):
        state.script = [("status", 400, None)]
        backend = OpenAICompatBackend(url, "m", max_workers=1)
        records, _ = generate_references({"1": "一。", "2": "二。"}, backend, src_lang="zh", tgt_lang="en", n=3)
    assert records[0].status == "failed" and records[0].references == [] and "HTTP 400" in (records[0].error or "")
    path = write_references(records, tmp_path / "refs.jsonl", meta={"backend": "stub"})
    header, back = read_references(path)
    assert header["backend"] == "stub" and back == records
    refs = load_reference_set(path, id_type=int)
    assert isinstance(refs, ReferenceSet) and refs.covered() == {2}
    assert refs.describe([2]).startswith("refs:generated|nrefs:1|origin:selected=1")
    (tmp_path / "bad.jsonl").write_text('{"format": "other/9"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="bad.jsonl:1"):
        read_references(tmp_path / "bad.jsonl")
