"""The regex prefilter must never drop a segment the regex matches (a superset filter)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housestyle.pipelines.conventions.factors import literal_forms, required_factors


@pytest.mark.parametrize(
    ("pattern", "factors"),
    [
        ("masse d'air", ("masse d'air",)),
        (r"\bépidémies?\b", ("épidémie",)),
        (r"ma(?:l|ux) de gorge", ("mal de gorge", "maux de gorge")),
        (r"(?<![\u00a0\u202f]):(?=\s|$)", (":",)),
        (r"[0-9]+", tuple("0123456789")),
        (r"\b(?:le|du|au) covid-19\b", ("au covid-19", "du covid-19", "le covid-19")),
        (r"\d+", None),  # \d is 600+ characters: no useful factor
        (r"a*", None),  # can match nothing
        (r"(?i)abc", None),  # case flags are not modelled
        (r"foo|ba[rz]", ("bar", "baz", "foo")),
    ],
)
def test_known_factors(pattern: str, factors: tuple[str, ...] | None) -> None:
    assert required_factors(pattern) == factors


def test_space_class_expands_to_every_python_whitespace() -> None:
    factors = required_factors(r"\s:") or ()
    assert " :" in factors and "\u00a0:" in factors and "\u3000:" in factors


PATTERNS = [
    r"masse d'air", r"\b(?:le|du|au) covid-19\b", r"ma(?:l|ux) de gorge", r"[ab]c+d", r"(?:x|yz){2}w",
    r"\s[:;!?]", r"(?<=\w)'(?=\w)", r"a(?=b)c?", r"(ab|cd)+e", r"(a)\1b", r"a{2,5}", r"(?:ab)?c", r"a.b", r"[^a]b",
    r"ab++c", r"(?>ab|a)c", r"^ab$", r"x(?:y|)z",
]


@settings(max_examples=500, deadline=None)
@given(pattern=st.sampled_from(PATTERNS), text=st.text(alphabet="abcdxyzw: '\u00a0le du covid-19", max_size=25))
def test_a_match_always_contains_a_factor(pattern: str, text: str) -> None:
    factors = required_factors(pattern)
    if factors is not None and re.search(pattern, text):
        assert any(f in text for f in factors), (pattern, text, factors)


@pytest.mark.parametrize(
    ("entry", "is_regex", "forms"),
    [
        ("masque chirurgical", False, ("masque chirurgical",)),  # a plain string is itself
        (r"\bsavon(?:s ménagers| ménager)\b", True, ("savon ménager", "savons ménagers")),
        (r"\bmasques?\b", True, ("masque", "masques")),
        (r"colou?r", True, ("color", "colour")),
        (r"\d+", True, None),  # infinite
        (r"(?i)abc", True, None),  # case flags: the forms are not the strings written
        (r"x?", True, None),  # matches the empty string
        (r"[", True, None),  # does not compile
    ],
)
def test_literal_forms_expand_the_bounded_alternations_the_miner_writes(entry: str, is_regex: bool,
                                                                       forms: tuple[str, ...] | None) -> None:
    assert literal_forms(entry, is_regex) == forms


def test_literal_forms_are_the_strings_the_miner_s_regex_matches() -> None:
    from housestyle.pipelines.mining.inflection import alternatives

    for words in (["savon ménager", "savons ménagers"], ["a", "ab", "abc"], ["gel", "gels", "gel hydratant"]):
        entry, is_regex = alternatives(words)
        assert literal_forms(entry, is_regex) == tuple(sorted(words))
