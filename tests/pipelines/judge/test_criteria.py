"""The criteria set artifact: shipped sets load and hash-check; tampering is caught; generation parses."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.judge.criteria import (
    CRITERIA_DIR,
    TRANSFORMS,
    load_criteria,
    merge,
    save_criteria,
)
from housestyle.pipelines.judge.criteria_gen import generate_criteria, parse_questions

from .conftest import ScriptedBackend


def test_shipped_sets_load_with_matching_hashes() -> None:
    det = load_criteria("deterministic")
    seed = load_criteria("llm_seed")
    assert det.of_kind("llm") == [] and len(det.concepts) >= 10
    assert all(c.kind == "llm" for c in seed.concepts)
    assert det.signature.startswith("criteria:deterministic@1|sha:")
    if (CRITERIA_DIR / "llm.json").is_file():
        generated = load_criteria("llm")
        assert generated.provenance["origin"] == "generated" and len(generated.concepts) == len(seed.concepts)
    both = merge("both", det, seed)
    assert len(both.concepts) == len(det.concepts) + len(seed.concepts)
    with pytest.raises(ValueError, match="appear in two"):
        merge("x", det, det)


def test_changed_content_without_new_hash_is_refused(tmp_path: Path) -> None:
    data = json.loads((CRITERIA_DIR / "deterministic.json").read_text(encoding="utf-8"))
    data["concepts"][0]["questions"][0]["transform"] = "identity"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match="sha256 was not updated"):
        load_criteria(path)
    data.pop("sha256")
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_criteria(path).sha256 != load_criteria("deterministic").sha256


def test_bad_transform_names_the_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"concepts": [{"id": "a", "kind": "deterministic", "questions": [
        {"id": "q", "text": "?", "feature": "chrf", "transform": "cube"}]}]}), encoding="utf-8")
    with pytest.raises(InputError, match=r"concepts\[0\]\.questions\[0\].*unknown transform"):
        load_criteria(path)


def test_transforms_stay_in_unit_interval() -> None:
    for name, fn in TRANSFORMS.items():
        for x in (-250.0, -1.0, 0.0, 0.5, 3.0, 120.0):
            value = fn(x)
            assert math.isnan(value) or 0.0 <= value <= 1.0, (name, x, value)


def test_parse_questions_keeps_numbered_questions_and_records_the_rest() -> None:
    kept, dropped = parse_questions(" Is it accurate?\n2. Is it accurate?\n3) Does it read well?\nfoo\n4. Too many?", 3)
    assert kept == ["Is it accurate?", "Does it read well?", "Too many?"]
    assert dropped == ["2. Is it accurate?", "foo"]


def test_generation_one_call_per_concept_with_fallback(tmp_path: Path) -> None:
    seed = load_criteria("llm_seed")
    first = seed.concepts[0].id
    backend = ScriptedBackend(lambda p: " Is the meaning kept?\n2. Is anything wrong?" if f"Concept: {first} " in p
                              else " I do not know.")
    generated = generate_criteria(seed, backend, max_questions=3)
    assert len(backend.prompts) == len(seed.concepts)  # one call per concept
    assert [q.text for q in generated.concepts[0].questions] == ["Is the meaning kept?", "Is anything wrong?"]
    assert all(q.origin == "generated" for q in generated.concepts[0].questions)
    assert all(q.origin == "fallback" for c in generated.concepts[1:] for q in c.questions)
    assert generated.version == seed.version + 1 and generated.provenance["calls"] == len(seed.concepts)
    path = save_criteria(generated, tmp_path / "llm.json")
    assert load_criteria(path) == generated
