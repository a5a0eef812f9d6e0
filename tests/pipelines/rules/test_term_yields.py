"""term ``params.yields_to`` (longest match, issue 25): a short term is not triggered inside a longer
mined term whose own rule decides that span; it still is where it stands alone, and a wrong
rendering there still fails. Strings are Wagtail fr UI messages (../shared/data/po-corpora)."""

from __future__ import annotations

import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import ConventionError
from housestyle.pipelines.mining.inflection import alternatives
from housestyle.pipelines.rules.validate import validate_convention
from housestyle.pipelines.scoring.check import check_item
from housestyle.pipelines.scoring.engine import score_systems


def _page(yields: list[str] | None) -> Convention:
    entry, is_regex = alternatives(["page", "pages"], tgt_lang="fr")
    return Convention(dimension="term:page", rule="term", src="page", expected_terms=[entry], regex=is_regex,
                      match_mode="typographic", src_lang="en", tgt_lang="fr",
                      params={"yields_to": yields} if yields else {})


SOURCES = {
    "child": "Add a child page",
    "both": "This will also delete 3 more child pages. Deleting this page will also delete 2 translations.",
    "alone": "Delete this page",
    "code": "%(page)s child page",
}
APPROVED = {
    "child": "Ajouter une sous-page",
    "both": "Cela supprimera également 3 sous-pages. Supprimer cette page supprimera aussi 2 traductions.",
    "alone": "Supprimer ce document",  # a wrong rendering: must still fail
    "code": "%(page)s sous-page",
}


def test_an_occurrence_inside_a_longer_term_does_not_trigger() -> None:
    plain, yielding = _page(None), _page(["child page", "child pages"])
    assert check_item(plain, SOURCES["child"], APPROVED["child"]) is not None  # the defect: scored, fails
    assert check_item(yielding, SOURCES["child"], APPROVED["child"]) is None
    assert check_item(yielding, SOURCES["code"], APPROVED["code"]) is None  # placeholders are not words either
    both = check_item(yielding, SOURCES["both"], APPROVED["both"])  # "this page" stands alone
    assert both is not None and both.full_pass
    alone = check_item(yielding, SOURCES["alone"], APPROVED["alone"])
    assert alone is not None and not alone.full_pass  # not lenient: a missing rendering fails
    wrong = check_item(yielding, SOURCES["both"], "Cela supprimera également 3 sous-pages et 2 traductions.")
    assert wrong is not None and not wrong.full_pass


def test_the_engine_agrees_with_the_reference_checker() -> None:
    conv = _page(["child page", "child pages"])
    scores = score_systems([conv], SOURCES, {"approved": APPROVED}).scores
    assert (scores["scored"][0], scores["passed"][0]) == (2, 1)  # "both" passes, "alone" fails
    expected = [check_item(conv, SOURCES[k], APPROVED[k]) for k in SOURCES]
    assert sum(v is not None for v in expected) == 2 and sum(bool(v and v.full_pass) for v in expected) == 1


@pytest.mark.parametrize("params", [{"yields_to": "child page"}, {"yields_to": [""]}, {"longer": ["child page"]},
                                    {"yields_to": [f"t{i}" for i in range(65)]}])
def test_bad_params_are_refused(params: dict[str, object]) -> None:
    conv = _page(None)
    conv.params = params
    with pytest.raises(ConventionError):
        validate_convention(conv)
    validate_convention(_page(["child page"]))
