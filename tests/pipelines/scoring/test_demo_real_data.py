"""The demo bundle on real data: TICO-19 references vs the Fairseq outputs, authored conventions."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.scoring.check import check_item
from housestyle.pipelines.scoring.engine import score_systems
from housestyle.pipelines.segments import load_segments

REPO = Path(__file__).resolve().parents[3]
DEMO = REPO / "inbox" / "demo"


@pytest.fixture(scope="module")
def demo(shared_data: Path) -> tuple[list, dict[str, str], dict[str, dict[str, str]]]:  # type: ignore[type-arg]
    conventions = load_conventions(DEMO / "conventions" / "authored.jsonl")
    sources = load_segments(shared_data / "tico19" / "TM" / "all.en-fr.tmx", side="source")
    systems = {name: load_segments(DEMO / "systems" / f"{name}.jsonl") for name in ("reference", "fairseq")}
    return conventions, sources, systems


def test_bundle_is_keyed_by_tmx_ids_and_all_authored(demo: tuple) -> None:  # type: ignore[type-arg]
    conventions, sources, systems = demo
    assert all(c.origin == "authored" for c in conventions)
    for outputs in systems.values():
        assert list(outputs) == list(sources)
    generic = (DEMO / "generic" / "fairseq.jsonl").read_bytes()
    assert generic == (DEMO / "systems" / "fairseq.jsonl").read_bytes()
    first = json.loads((DEMO / "systems" / "fairseq.jsonl").read_text(encoding="utf-8").splitlines()[1])
    assert first == {"id": "CMU_1:2", "text": "et toutes les douleurs thoraciques devraient être traitées de cette façon, "
                                              "particulièrement avec votre âge."}


def test_reference_beats_fairseq_on_typography_and_the_engine_agrees_with_the_checker(demo: tuple) -> None:  # type: ignore[type-arg]
    conventions, sources, systems = demo
    result = score_systems(conventions, sources, systems)
    dims = {(r["system"], r["dimension"]): r["score"] for r in result.dimension_scores.iter_rows(named=True)}
    for dim in ("punct:nbsp_before_colon", "punct:nbsp_before_question_mark", "punct:typographic_apostrophe",
                "casing:sentence_start"):
        assert dims[("reference", dim)] > 70 > dims[("fairseq", dim)], dim
    assert result.coverage["missing"].to_list() == [0, 0]
    # the fast engine and the reference checker agree item by item on a real-data slice
    ids = list(sources)[::10]
    failed = {(r["system"], r["convention_id"], r["segment_id"]) for r in result.failures.iter_rows(named=True)}
    for system, outputs in systems.items():
        for conv in conventions:
            for seg in ids:
                verdict = check_item(conv, sources[seg], outputs[seg])
                expected_fail = verdict is not None and not verdict.full_pass
                assert ((system, conv.convention_id, seg) in failed) == expected_fail
    assert result.failures.filter(pl.col("system") == "fairseq").height > result.failures.filter(pl.col("system") == "reference").height
