"""Word boundaries exactly as SPEC.md, and regexes applied as written to folded text."""

from __future__ import annotations

import re

import pytest

from pipelines.conventions.matching import find_plain, find_regex


@pytest.mark.parametrize(
    ("text", "term", "found"),
    [
        ("the chair is here", "air", False),
        ("the air is here", "air", True),
        ("l'air est pur", "air", True),
        ("airport", "air", False),
        ("air.", "air", True),
        ("COVID-19 cases", "covid", True),
        ("covid19", "covid", False),
        ("x1 and 1x", "1", False),
        ("(1)", "1", True),
        ("new-york", "-york", True),  # edge char '-' is not a letter: no boundary needed on that side
        ("新冠疫苗接种", "疫苗", True),  # Han: matches anywhere
        ("ワクチン接種", "ワクチン", True),  # Katakana
        ("วัคซีนโควิด", "โควิด", True),  # Thai
        ("COVID疫苗", "covid", True),  # neighbour is Han
        ("xCOVID疫苗", "covid", False),  # but a Latin letter on the other side still blocks
        ("नमस्ते", "नमस", False),  # a combining mark after the term continues the word
    ],
)
def test_word_boundaries(text: str, term: str, found: bool) -> None:
    assert bool(find_plain(text.casefold(), term.casefold())) is found


def test_all_occurrences_overlapping() -> None:
    assert find_plain("aa aa", "aa") == [(0, 2), (3, 5)]
    assert find_plain("a a a", "a a") == [(0, 3), (2, 5)]


def test_regex_is_applied_as_written() -> None:
    pattern = re.compile(r"\bair\b")
    assert find_regex("chair air", pattern) == [(6, 9)]
    assert find_regex("chair air", pattern, first_only=True) == [(6, 9)]
