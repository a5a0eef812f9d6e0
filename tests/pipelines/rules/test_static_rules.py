"""term, forbidden, pattern: expected strings present, wrong variants absent, per match mode."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import check_item


def test_term_requires_expected_and_bans_wrong_with_raw_spans() -> None:
    conv = Convention(dimension="term:x", rule="term", src="ventilator", expected_terms=["respirateur"],
                      wrong_variants=["ventilateur"], match_mode="caseless")
    ok = check_item(conv, "A ventilator.", "Un Respirateur.")
    assert ok is not None and ok.full_pass
    bad = check_item(conv, "A ventilator.", "Un VENTILATEUR, un ventilateur.")
    assert bad is not None
    assert (bad.domain_pass, bad.no_wrong_variant, bad.full_pass) == (False, False, False)
    assert bad.missing_expected == ["respirateur"]
    assert bad.found_wrong == ["VENTILATEUR", "ventilateur"]
    assert bad.spans == [(3, 14), (19, 30)]
    assert check_item(conv, "A respirator.", "Un ventilateur.") is None  # trigger absent: not scored


def test_forbidden_without_src_applies_everywhere() -> None:
    conv = Convention(dimension="punct:x", rule="forbidden", wrong_variants=["!!"])
    v = check_item(conv, "anything", "Hé!!")
    assert v is not None and v.found_wrong == ["!!"] and v.spans == [(2, 4)]
    ok = check_item(conv, "anything", "Hé !")
    assert ok is not None and ok.full_pass


def test_pattern_regex_on_folded_text_spans_in_raw_text() -> None:
    conv = Convention(dimension="punct:q", rule="pattern", wrong_variants=[r"strasse\b"], regex=True, match_mode="caseless")
    v = check_item(conv, "s", "Die Straße, die STRASSE.")
    assert v is not None
    assert v.found_wrong == ["Straße", "STRASSE"]
    assert v.spans == [(4, 10), (16, 23)]


def test_src_match_mode_can_differ_from_match_mode() -> None:
    conv = Convention(dimension="term:x", rule="term", src="WHO", src_match_mode="exact",
                      expected_terms=["OMS"], match_mode="exact")
    assert check_item(conv, "who knows", "qui sait") is None  # lowercase 'who' is not the acronym
    v = check_item(conv, "The WHO said", "L'OMS a dit")
    assert v is not None and v.full_pass


def test_src_regex_trigger() -> None:
    conv = Convention(dimension="term:x", rule="term", src=r"\boutbreaks?\b", src_regex=True,
                      expected_terms=["épidémie"], match_mode="caseless")
    assert check_item(conv, "Outbreaks grow", "Les épidémies croissent") is not None
    assert check_item(conv, "breakout", "x") is None
