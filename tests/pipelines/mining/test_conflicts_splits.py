from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.mining.conflicts import conflict_rows, dimension_conflicts
from housestyle.pipelines.mining.corpus import corpus_from_units
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_rules import mine_terms
from housestyle.pipelines.splits import select_split


def test_two_renderings_of_one_term_are_reported_not_resolved(make_corpus) -> None:
    pairs = ([(f"The outbreak {i} grew.", f"L’épidémie {i} a grandi.") for i in range(5)]
             + [(f"The outbreak {i} spread.", f"La flambée {i} s’est étendue.") for i in range(5, 10)])
    result = mine_terms(make_corpus(pairs), MiningParams())
    conflict = next(c for c in result.conflicts if c["src"] == "outbreak")
    keys = {r["lemma_key"] for r in conflict["renderings"]}
    assert {"épidémie", "flambée"} <= keys and all(r["support"] == 5 for r in conflict["renderings"])
    assert not conflict["resolved"]  # a 5/5 split mandates neither rendering
    assert not any(c.dimension == "term:outbreak" for c in result.conventions)
    row = conflict_rows([conflict])[0]
    assert row["dimension"] == "term:outbreak" and "flambée" in row["renderings"]


def test_dimension_conflict_between_rules() -> None:
    a = Convention(dimension="term:x", rule="term", src="x", expected_terms=["a"], support=3)
    b = Convention(dimension="term:x", rule="term", src="x", expected_terms=["b"], support=2)
    found = dimension_conflicts([a, b])
    assert len(found) == 1 and {r["expected_terms"][0] for r in found[0]["renderings"]} == {"a", "b"}


def test_split_selection_and_errors(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    splits = tmp_path / "splits.json"
    splits.write_text(json.dumps({"dev": {"unit_id": ["q1", "q2"]}, "vpn": {"domain": ["vpn"]}}), encoding="utf-8")
    assert sorted(select_split(tiny_units, splits, "dev")["unit_id"].to_list()) == ["q1", "q2"]
    with pytest.raises(InputError, match="no split 'nope'"):
        select_split(tiny_units, splits, "nope")


def test_corpus_drops_repeats_and_other_pairs(tiny_units: pl.DataFrame) -> None:
    doubled = pl.concat([tiny_units, tiny_units.with_columns(pl.col("unit_id") + "-copy")])
    assert len(corpus_from_units(doubled, "en", "fr")) == tiny_units.height
    assert len(corpus_from_units(doubled, "en", "de")) == 0
