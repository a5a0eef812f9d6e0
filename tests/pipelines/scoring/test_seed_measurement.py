"""The seed's worked measurement (issue 3), as tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import ConventionError
from housestyle.pipelines.scoring.check import check_item
from housestyle.pipelines.scoring.engine import score_systems

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "scoring"
SOURCE = "An air mass will cross the region on Saturday morning."
GOOD = "Une masse d'air traversera la région samedi matin."
BAD = "Une masse atmosphérique traversera la région samedi matin."  # adequacy-equivalent, wrong term


def test_air_mass_convention_separates_two_adequate_outputs() -> None:
    (conv,) = load_conventions(FIX / "seed.jsonl")
    good, bad = check_item(conv, SOURCE, GOOD), check_item(conv, SOURCE, BAD)
    assert good is not None and bad is not None
    assert (good.domain_pass, good.no_wrong_variant, good.full_pass) == (True, True, True)
    assert (bad.domain_pass, bad.no_wrong_variant, bad.full_pass) == (False, False, False)
    assert bad.missing_expected == ["masse d'air"]
    assert bad.found_wrong == ["masse atmosphérique"]
    assert BAD[slice(*bad.spans[0])] == "masse atmosphérique"
    # caseless: capitals do not matter
    assert check_item(conv, SOURCE.upper(), GOOD.upper()).full_pass  # type: ignore[union-attr]
    result = score_systems([conv], {"s1": SOURCE}, {"good": {"s1": GOOD}, "bad": {"s1": BAD}})
    assert dict(zip(result.scores["system"], result.scores["score"])) == {"good": 100.0, "bad": 0.0}


def test_typographic_apostrophe_passes_under_typographic_and_fails_under_exact() -> None:
    output = "Une masse d’air traversera la région samedi matin."
    typographic = Convention(dimension="term:air mass", rule="term", src="air mass",
                             expected_terms=["masse d'air"], match_mode="typographic")
    exact = Convention(dimension="term:air mass", rule="term", src="air mass",
                       expected_terms=["masse d'air"], match_mode="exact")
    assert check_item(typographic, SOURCE, output).full_pass  # type: ignore[union-attr]
    verdict = check_item(exact, SOURCE, output)
    assert verdict is not None and not verdict.full_pass and verdict.missing_expected == ["masse d'air"]


def test_fullwidth_brackets_satisfiable_under_exact_destroyed_by_nfkc() -> None:
    conv = Convention(dimension="width:fullwidth_brackets", rule="pattern", src="(",
                      expected_terms=["（"], wrong_variants=["("], match_mode="exact")
    assert check_item(conv, "See (note)", "参见（注）").full_pass  # type: ignore[union-attr]
    assert not check_item(conv, "See (note)", "参见(注)").full_pass  # type: ignore[union-attr]
    # NFKC folds （ into ( — the very distinction the convention is about — so nfkc is refused at load
    assert fold_text("（", "nfkc") == "("
    with pytest.raises(ConventionError, match="changes under NFKC"):
        load_conventions(FIX / "nfkc_fullwidth.jsonl")
