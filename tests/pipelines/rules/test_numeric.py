"""numeric: each source number in the output in the target format."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import check_item

FR = Convention(dimension="number:fr", rule="numeric", params={"decimal": ",", "group": ["\u202f", "\u00a0"]})


def test_french_decimal_and_group() -> None:
    src = "It costs 3.5 euros, 12,345 in total, in 2020."
    v = check_item(FR, src, "Cela coûte 3,5 euros, 12\u202f345 au total, en 2020.")
    assert v is not None and v.full_pass
    v = check_item(FR, src, "Cela coûte 3.5 euros, 12,345 au total, en 2020.")
    assert v is not None
    assert v.missing_expected == ["3,5", "12\u00a0345"]
    assert v.found_wrong == ["3.5", "12,345"]
    assert v.spans == [(11, 14), (22, 28)]


def test_four_digit_numbers_may_stay_ungrouped() -> None:
    assert check_item(FR, "In 2020 and 1,234", "En 2020 et 1234").full_pass  # type: ignore[union-attr]
    assert check_item(FR, "In 2020 and 1,234", "En 2020 et 1\u00a0234").full_pass  # type: ignore[union-attr]


def test_digit_boundaries() -> None:
    v = check_item(FR, "3 cases", "13 cas et 3,5")
    assert v is not None and v.missing_expected == ["3"]


def test_plain_space_group_is_distinct_under_exact_but_not_typographic() -> None:
    typo = Convention(dimension="number:fr", rule="numeric", params={"decimal": ",", "group": "\u202f"}, match_mode="typographic")
    src, out = "12,000 people", "12 000 personnes"
    assert not check_item(FR, src, out).full_pass  # type: ignore[union-attr]
    assert check_item(typo, src, out).full_pass  # type: ignore[union-attr]


def test_applies_only_to_sources_with_numbers() -> None:
    assert check_item(FR, "COVID19 is here", "x") is None
    assert check_item(FR, "no digits", "12") is None


def _verdict(conv: Convention, source: str, output: str) -> tuple[list[str], list[str]]:
    v = check_item(conv, source, output)
    assert v is not None, source
    return v.missing_expected, v.found_wrong


def test_a_scale_word_is_satisfied_by_the_mantissa_or_by_the_digits_of_the_value() -> None:
    for output in ("760\u202f000 doses", "760 mille doses", "760\u00a0000 doses"):
        assert _verdict(FR, "760 thousand doses", output) == ([], []), output
    for output in ("2,5 millions de cas", "2\u202f500\u202f000 cas"):
        assert _verdict(FR, "2.5 million cases", output) == ([], []), output
    assert _verdict(FR, "1.2 billion people", "1,2 milliard de personnes") == ([], [])  # the word is not checked
    assert _verdict(FR, "2.5 million cases", "2.5 millions de cas") == (["2,5"], ["2.5"])  # wrong decimal stays wrong
    assert _verdict(FR, "760 thousand doses", "76 000 doses")[0] == ["760"]  # other digits: missing
    assert _verdict(FR, "2.5 Million", "2,5 millions") == ([], [])  # case of the word is free


def test_identifiers_are_copied_verbatim_never_regrouped() -> None:
    for source, identifier in (("Tax ID 20-0097189.", "20-0097189"), ("Call 1-800-555-0199 now", "1-800-555-0199"),
                               ("version 3.2.1 is out", "3.2.1"), ("on 2020-03-15", "2020-03-15")):
        assert _verdict(FR, source, f"… {identifier} …") == ([], []), source
    # regrouping the digits of an identifier as a quantity is a wrong variant, not a pass
    assert _verdict(FR, "Tax ID 20-0097189.", "numéro 20\u202f009\u202f7189") == (["20-0097189"], ["20\u202f009\u202f7189"])
    assert _verdict(FR, "Tax ID 20-0097189.", "numéro 200097189")[1] == ["200097189"]
    assert _verdict(FR, "version 3.2.1", "version 3,2,1") == (["3.2.1"], ["3,2,1"])
    # an identifier inside a longer one is not it
    assert _verdict(FR, "Call 1-800-555-0199", "1-800-555-01999")[0] == ["1-800-555-0199"]


def test_ranges_and_ratios_are_two_quantities_in_the_target_format() -> None:
    assert _verdict(FR, "CI 3.51-4.05", "IC 3,51-4,05") == ([], [])
    assert _verdict(FR, "3-7 days", "3 à 7 jours") == ([], [])
    assert _verdict(FR, "0.31/100,000", "0,31/100\u202f000") == ([], [])
    assert _verdict(FR, "CI 3.51-4.05", "IC 3.51-4.05") == (["3,51", "4,05"], ["3.51", "4.05"])


def test_the_number_grammar_is_shared() -> None:
    """The rule, the miner and the judge read numbers with the same module."""
    from housestyle.pipelines.judge import adequacy
    from housestyle.pipelines.mining import numeric as mined
    from housestyle.pipelines.rules import numeric, numbers

    assert numeric.grammar_numbers is numbers.source_numbers
    assert mined.source_numbers is numbers.source_numbers
    assert adequacy.source_numbers is numbers.source_numbers
