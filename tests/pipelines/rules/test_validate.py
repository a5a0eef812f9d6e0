"""Validation rules beyond the fixtures: regex guards, folding contradictions, rule params."""

from __future__ import annotations

import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.regex_guard import slow_patterns, static_problem
from housestyle.pipelines.rules.validate import validate_convention, validate_conventions
from housestyle.pipelines.errors import ConventionError


def conv(**kw: object) -> Convention:
    base: dict[str, object] = {"dimension": "x:y", "rule": "pattern"}
    base.update(kw)
    return Convention(**base)  # type: ignore[arg-type]


def test_fullwidth_brackets_are_fine_under_exact_and_refused_under_nfkc() -> None:
    validate_convention(conv(expected_terms=["（"], wrong_variants=["("], match_mode="exact"))
    with pytest.raises(ConventionError, match="NFKC") as info:
        validate_convention(conv(expected_terms=["（"], wrong_variants=["("], match_mode="nfkc"))
    assert info.value.field == "expected_terms"


def test_nbsp_trigger_under_nfkc_is_refused() -> None:
    with pytest.raises(ConventionError) as info:
        validate_convention(conv(src="\u00a0:", wrong_variants=["x"], match_mode="nfkc"))
    assert info.value.field == "src"


def test_canonical_composition_is_not_an_nfkc_change() -> None:
    validate_convention(conv(expected_terms=["e\u0301te\u0301"], match_mode="nfkc"))  # NFC-only change


def test_expected_equal_to_wrong_after_folding_is_refused() -> None:
    with pytest.raises(ConventionError, match="can never pass") as info:
        validate_convention(conv(rule="term", expected_terms=["masse d’air"], wrong_variants=["masse d'air"], match_mode="typographic"))
    assert info.value.field == "wrong_variants"
    validate_convention(conv(rule="term", expected_terms=["masse d’air"], wrong_variants=["masse d'air"], match_mode="exact"))


def test_regex_literal_that_folding_removes_is_refused() -> None:
    with pytest.raises(ConventionError, match="never occurs in caseless-folded text"):
        validate_convention(conv(wrong_variants=["Masse"], regex=True, match_mode="caseless"))
    validate_convention(conv(wrong_variants=["masse"], regex=True, match_mode="caseless"))


def test_empty_matching_regex_is_refused() -> None:
    with pytest.raises(ConventionError, match="empty string"):
        validate_convention(conv(wrong_variants=["x*"], regex=True))


@pytest.mark.parametrize("pattern", [r"(a+)+", r"(\w+\s?)*$", r"(?:x*y?)*z"])
def test_nested_quantifiers_are_statically_unsafe(pattern: str) -> None:
    assert static_problem(pattern) is not None


@pytest.mark.parametrize("pattern", [r"(?:ab++)*", r"\s+[:;]", r"(?>a+)+b", r"a{2,3}(b+)"])
def test_safe_patterns_pass_the_static_check(pattern: str) -> None:
    assert static_problem(pattern) is None


def test_a_quadratic_pattern_is_caught_by_the_timed_probe() -> None:
    """``\\s+$`` has no nested quantifier, but the search retries the repeat at every position:
    quadratic (44.6 s on 100,000 spaces with ``re``); only running it shows it. Bounded patterns are
    not probed; ambiguous alternations the scorer's engine handles in linear time pass."""
    assert static_problem(r"\s+$") is None
    slow = slow_patterns([r"\s[:;]", r"\s+$", r"(a|aa)*b", r"[0-9]+", r"(?<!\s)\s+$"], timeout=0.5)
    assert list(slow) == [r"\s+$"]
    assert "20,000-character adversarial input" in slow[r"\s+$"]


def test_set_validation_names_the_slow_regex() -> None:
    with pytest.raises(ConventionError, match="too slow") as info:
        validate_conventions([conv(wrong_variants=[r"\s+$"], regex=True)], path="c.jsonl", locations=[7],
                             regex_timeout=0.5)
    assert info.value.path == "c.jsonl:7"
    assert info.value.field == "wrong_variants"
    assert str(info.value).startswith("c.jsonl:7: convention ")


@pytest.mark.parametrize(
    ("rule", "params", "field"),
    [
        ("term", {"x": 1}, "params.x"),
        ("term", {"yields_to": "page"}, "params.yields_to"),
        ("forbidden", {"x": 1}, "params"),
        ("numeric", {"decimal": ",,"}, "params.decimal"),
        ("numeric", {"group": ["\u202f", 3]}, "params.group"),
        ("numeric", {"colour": "red"}, "params.colour"),
        ("casing", {}, "params.style"),
        ("casing", {"style": "shouting"}, "params.style"),
        ("placeholder", {"patterns": ["(x"]}, "params.patterns"),
        ("source_copy", {}, "src"),
    ],
)
def test_rule_params_are_validated(rule: str, params: dict[str, object], field: str) -> None:
    with pytest.raises(ConventionError) as info:
        validate_convention(conv(rule=rule, params=params))
    assert info.value.field == field
