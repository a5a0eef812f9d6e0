"""Contrast mining end to end on a small hand-made TM: kept, inflection, client-uses and noise cases."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from housestyle.pipelines.contrast.cases import Unit, find_cases
from housestyle.pipelines.contrast.conventions import as_regex, fold_contrast
from housestyle.pipelines.contrast.mine import ContrastResult, mine_contrast
from housestyle.pipelines.contrast.params import ContrastParams
from housestyle.pipelines.rules.io import load_conventions, write_conventions
from housestyle.pipelines.scoring.check import check_item
from housestyle.pipelines.segments import load_segments

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "contrast"


def tm_units() -> list[Unit]:
    rows = [json.loads(line) for line in (FIX / "tm.jsonl").read_text(encoding="utf-8").splitlines()]
    return [Unit(r["id"], r["source"], r["reference"]) for r in rows]


@pytest.fixture(scope="module")
def result() -> ContrastResult:
    rules = load_conventions(FIX / "rules.jsonl")
    return mine_contrast(rules, tm_units(), load_segments(FIX / "generic.jsonl"), tgt_lang="fr", system="toy")


def by_variant(result: ContrastResult) -> dict[str, dict[str, object]]:
    return {row["variant"]: row for row in result.candidates.iter_rows(named=True)}


def test_cases_follow_the_checker(result: ContrastResult) -> None:
    rules = [r for r in load_conventions(FIX / "rules.jsonl") if r.rule == "term"]
    cases, counts = find_cases(rules, tm_units(), load_segments(FIX / "generic.jsonl"))
    assert sorted(c.unit_id for c in cases if c.rule_index == 0) == ["u01", "u02", "u03", "u04"]
    assert counts.agree == {0: 1, 1: 1} and counts.ref_lacks == {1: 1}  # u05, u10 agree; u15's reference lacks it
    assert result.stats["term_rules"] == 5 and result.stats["cases"] == 16


def test_real_alternatives_are_kept_with_evidence(result: ContrastResult) -> None:
    rows = by_variant(result)
    assert rows["éloignement social"]["status"] == "kept" and rows["éloignement social"]["unit_ids"] == ["u01", "u02"]
    eclosion = rows["éclosion"]  # éclosion and éclosions: one variant (same lemma), support 2
    assert eclosion["status"] == "kept" and eclosion["support"] == 2 and eclosion["forms"] == ["éclosion", "éclosions"]


def test_inflection_client_usage_and_noise_are_demoted_with_reasons(result: ContrastResult) -> None:
    rows = by_variant(result)
    assert rows["distanciation social"]["reasons"] == ["inflection"]
    assert rows["début d'avril"]["reasons"] == ["function_words"]  # same words, another preposition
    assert rows["transmission"]["reason"] == "noise:partial"  # part of the term left out: an omission
    assert rows["flambée"]["reasons"] == ["client_uses"] and rows["flambée"]["tm_examples"] == ["u14"]
    noisy = [r for v, r in rows.items() if v.startswith("Hier soir")]
    assert len(noisy) == 1 and noisy[0]["status"] == "demoted" and noisy[0]["reason"] == "noise:too_long"
    assert set(result.candidates["status"]) == {"kept", "demoted"} and result.stats["kept"] == 3


def test_spacing_and_punctuation_variants_are_kept_as_format_alternatives(result: ContrastResult) -> None:
    row = by_variant(result)["lopinavir / ritonavir"]
    assert row["status"] == "kept" and row["format"] and row["support"] == 2


def test_conventions_extend_the_term_rules(result: ContrastResult, tmp_path: Path) -> None:
    by_dim = {c.dimension: c for c in result.conventions}
    assert set(by_dim) == {"term:social distancing", "term:outbreak", "term:lopinavir/ritonavir"}
    distancing, outbreak = by_dim["term:social distancing"], by_dim["term:outbreak"]
    assert distancing.wrong_variants == ["éloignement social"] and distancing.expected_terms == ["distanciation sociale"]
    assert outbreak.regex and outbreak.wrong_variants == [as_regex("éclosion", "caseless"), as_regex("éclosions", "caseless")]
    for conv in result.conventions:
        assert conv.origin == "contrast" and conv.status == "candidate" and conv.rule == "term"
        assert conv.extra["contrast_system"] == "toy" and conv.extra["base_convention_id"]
    assert outbreak.extra["contrast_evidence"] == {"éclosion": ["u06", "u08"]}
    assert {d["variant"] for d in outbreak.extra["contrast_demoted"]} >= {"flambée"}
    # the candidates are valid conventions, round-trip through JSONL and are scored as intended
    path = write_conventions(result.conventions, tmp_path / "contrast.jsonl")
    again = {c.convention_id: c for c in load_conventions(path)}
    assert set(again) == {c.convention_id for c in result.conventions}
    assert again[outbreak.convention_id].extra["base_convention_id"] == outbreak.extra["base_convention_id"]
    verdict = check_item(outbreak, "Two outbreaks occurred.", "Deux éclosions se sont produites.")
    assert verdict is not None and verdict.found_wrong and not verdict.full_pass
    assert re.search(outbreak.wrong_variants[0], "une éclosion") and not re.search(outbreak.wrong_variants[0], "éclosionx")


def test_fold_replaces_the_base_rule_and_reports_orphans(result: ContrastResult) -> None:
    rules = load_conventions(FIX / "rules.jsonl")
    merged, orphans = fold_contrast(rules, result.conventions)
    assert [c.rule for c in merged] == ["term", "term", "placeholder", "term", "term", "term"] and orphans == []
    assert [c.origin for c in merged] == ["contrast", "contrast", "authored", "contrast", "mined", "mined"]
    merged_again, orphans = fold_contrast(rules[1:], result.conventions)
    assert len(merged_again) == 5 and [o.dimension for o in orphans] == ["term:social distancing"]


def test_forbidden_emission_and_support_threshold() -> None:
    rules = load_conventions(FIX / "rules.jsonl")
    outputs = load_segments(FIX / "generic.jsonl")
    forbidden = mine_contrast(rules, tm_units(), outputs, tgt_lang="fr", params=ContrastParams(emit="forbidden"))
    assert {c.rule for c in forbidden.conventions} == {"forbidden"}
    assert all(not c.regex and c.mqm_category for c in forbidden.conventions)
    merged, _ = fold_contrast(rules, forbidden.conventions)
    assert [c.rule for c in merged] == ["term", "forbidden", "term", "forbidden", "placeholder", "term", "forbidden",
                                        "term", "term"]
    strict = mine_contrast(rules, tm_units(), outputs, tgt_lang="fr", params=ContrastParams(min_support=3))
    assert strict.candidates.is_empty() and strict.conventions == []


def test_a_suggested_base_gives_a_suggested_contrast_rule() -> None:
    """Issue 25: a rule the held-out folds did not keep stays unscored when contrast refines it."""
    rules = load_conventions(FIX / "rules.jsonl")
    for rule in rules:
        rule.status = "suggested"
    found = mine_contrast(rules, tm_units(), load_segments(FIX / "generic.jsonl"), tgt_lang="fr", system="toy")
    assert found.conventions and {c.status for c in found.conventions} == {"suggested"}
