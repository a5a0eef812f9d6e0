from __future__ import annotations

import re

from housestyle.pipelines.conventions.matching import SPACED_BOUND_AFTER, SPACED_BOUND_BEFORE
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.inflection import alternatives, entry_matches
from housestyle.pipelines.scoring.check import check_item


def test_single_form_stays_a_plain_string() -> None:
    assert alternatives(["masque", "masque"]) == ("masque", False)


def test_forms_become_one_bounded_escaped_alternation() -> None:
    entry, is_regex = alternatives(["contagieux", "contagieuse", "contagieuses"])
    assert is_regex and entry == SPACED_BOUND_BEFORE + "contagieu(?:ses|se|x)" + SPACED_BOUND_AFTER  # a French target
    for form in ("contagieux", "contagieuse", "contagieuses"):
        assert entry_matches(entry, True, form)
    assert re.search(entry, "contagieusement") is None
    assert re.search(entry, "non-contagieux") is None and re.search(entry, "contagieuse-x") is None  # one word
    assert re.search(entry, "l'contagieux") and re.search(entry, "contagieuse - et")  # apostrophe, spaced dash


def test_literals_are_escaped_and_spaces_kept_readable() -> None:
    entry, _ = alternatives(["masse d'air", "masses d'air", "a.b"])
    assert r"a\.b" in entry and " d'air" in entry


def test_checker_scores_the_alternation_as_one_required_term() -> None:
    entry, is_regex = alternatives(["fièvre", "fièvres"])
    conv = Convention(dimension="term:fever", rule="term", src="fever", expected_terms=[entry], regex=is_regex,
                      match_mode="typographic")
    good = check_item(conv, "Fever cases were reported", "Des FIÈVRES ont été signalées")
    bad = check_item(conv, "Fever is common", "La température est fréquente")
    assert good is not None and good.full_pass
    assert bad is not None and not bad.full_pass and bad.missing_expected == [entry]
    assert check_item(conv, "No trigger here", "rien") is None
