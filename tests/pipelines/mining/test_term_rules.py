from __future__ import annotations

from pipelines.mining.corpus import Corpus
from pipelines.mining.params import MiningParams
from pipelines.mining.term_filters import adverb, covers, stem
from pipelines.mining.term_rules import Choice, choose, mine_terms
from pipelines.scoring.check import check_item


def _rules(corpus: Corpus) -> dict[str, object]:
    return {c.src.casefold(): c for c in mine_terms(corpus, MiningParams()).conventions if c.src}


def test_fixture_terms_are_mined_with_inflected_alternatives(tiny: Corpus) -> None:
    rules = _rules(tiny)
    fever = rules["fever"]
    assert fever.expected_terms == [r"\bfièvres?\b"] and fever.regex
    assert fever.match_mode == "typographic" and fever.rule == "term" and fever.origin == "mined"
    assert fever.status == "candidate" and fever.mqm_category.startswith("Terminology/")
    assert fever.support == 4 and fever.consistency == 1.0
    assert rules["masks"].expected_terms == [r"\bmasques?\b"]


def test_mined_term_rule_behaves_under_the_checker(tiny: Corpus) -> None:
    masks = _rules(tiny)["masks"]
    assert check_item(masks, "Wear masks.", "Portez des masques.").full_pass
    assert not check_item(masks, "Wear masks.", "Portez des protections.").full_pass


def test_evidence_and_counter_units_partition_the_term_units(make_corpus) -> None:
    pairs = [("The fever is high.", "La fièvre est forte.")] * 1 + [
        (f"Fever case {i}.", f"Cas de fièvre {i}.") for i in range(6)] + [("Fever again.", "Encore de la température.")]
    result = mine_terms(make_corpus(pairs), MiningParams())
    rule = next(c for c in result.conventions if c.src and c.src.casefold() == "fever")
    evidence, counter = result.evidence[rule.convention_id]
    assert len(evidence) == rule.support == 7 and len(counter) == 1
    assert rule.consistency == round(7 / 8, 4)


def test_boundary_repair_prefers_the_longer_rendering_when_truncation_gains_nothing() -> None:
    full = Choice("douleur thoracique", ["douleur thoracique"], 17, 0.85, 0.8, 12)
    short = Choice("douleur", ["douleur"], 19, 0.95, 0.3, 3)
    assert choose([full, short], tolerance=0.1, min_coverage=0.5).key == "douleur thoracique"


def test_extension_kept_when_coverage_holds() -> None:
    short = Choice("distanciation", ["distanciation"], 20, 1.0, 0.6, 5)
    longer = Choice("distanciation social", ["distanciation sociale"], 19, 0.95, 0.6, 15)
    assert choose([short, longer], tolerance=0.1, min_coverage=0.5).key == "distanciation social"


def test_helpers() -> None:
    assert adverb("successfully", {"successful"}) and not adverb("family", {"famine", "famous"})
    assert stem("trials") == "trial" and stem("viruses") == "virus"
    assert covers("chest pain", "douleur thoracique") and not covers("share of annual revenue", "revenu")


def test_thresholds_are_parameters(tiny: Corpus) -> None:
    strict = mine_terms(tiny, MiningParams(term_min_support=4)).conventions
    assert strict and all((c.support or 0) >= 4 for c in strict)
