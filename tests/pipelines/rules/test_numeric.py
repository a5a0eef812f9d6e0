"""numeric: each source number in the output in the target format."""

from __future__ import annotations

from pipelines.conventions.model import Convention
from pipelines.scoring.check import check_item

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
