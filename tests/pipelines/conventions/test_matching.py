"""Word boundaries exactly as SPEC.md, and regexes applied as written to folded text."""

from __future__ import annotations

import re

import pytest

from housestyle.pipelines.conventions.compiled import make_entry
from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.conventions.matching import find_plain, find_regex, rows_containing


@pytest.mark.parametrize(
    ("text", "term", "found"),
    [
        ("the chair is here", "air", False),
        ("the air is here", "air", True),
        ("l'air est pur", "air", True),
        ("airport", "air", False),
        ("air.", "air", True),
        ("COVID-19 cases", "covid", False),  # hyphen-joined words are one word (SPEC.md §2)
        ("COVID-19 cases", "covid-19", True),
        ("SARS-CoV-2", "sars-cov", False),
        ("SARS-CoV-2", "cov-2", False),
        ("un anti-virus", "virus", False),
        ("un anti-virus", "anti", False),
        ("anti-virus", "anti-virus", True),
        ("e-mail", "e", False),
        ("covid- 19", "covid", True),  # a hyphen that joins nothing on its far side is punctuation
        ("covid -19", "covid", True),
        ("covid--19", "covid", True),
        ("mot-", "mot", True),
        ("-mot", "mot", True),
        ("anti‐virus", "virus", False),  # U+2010 HYPHEN
        ("anti‑virus", "virus", False),  # U+2011 NON-BREAKING HYPHEN
        ("Paris–Lyon", "lyon", True),  # EN DASH is a boundary
        ("Paris—Lyon", "paris", True),  # EM DASH too
        ("Paris−Lyon", "paris", True),  # MINUS SIGN too
        ("l'épidémie", "épidémie", True),  # apostrophes are boundaries
        ("l’épidémie", "épidémie", True),
        ("(virus)", "virus", True),
        ("virus/bactérie", "virus", True),
        ("新冠-疫苗", "疫苗", True),  # Han on both sides of the hyphen: matches anywhere
        ("COVID-疫苗", "covid", True),  # the hyphen joins a Latin word to Han: no boundary rule there
        ("疫苗-COVID", "covid", True),
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


@pytest.mark.parametrize(
    ("raw", "mode", "term", "found"),
    [
        ("Paris–Lyon", "typographic", "paris", True),  # the fold writes – as '-': the raw text decides
        ("Paris-Lyon", "typographic", "paris", False),
        ("Straße–Lyon", "typographic", "strasse", True),  # casefold lengthens the text: found by counting
        ("Straße-Lyon Straße–Nord", "typographic", "lyon", False),
        ("Straße-Lyon Straße–Nord", "typographic", "nord", True),
        ("Paris－Lyon", "nfkc", "paris", True),  # FULLWIDTH HYPHEN-MINUS folds to '-' under NFKC
        ("Paris‑Lyon", "nfkc", "paris", False),  # U+2011 folds to U+2010: still a hyphen
        ("Paris–Lyon", "caseless", "paris", True),
    ],
)
def test_a_folded_hyphen_is_a_hyphen_only_if_the_raw_text_has_one(raw: str, mode: str, term: str, found: bool) -> None:
    assert bool(find_plain(fold_text(raw, mode), fold_text(term, mode), raw=raw, mode=mode)) is found
    entry = make_entry(term, mode, regex=False)
    assert entry.present(fold_text(raw, mode), raw) is found
    assert (rows_containing([fold_text(raw, mode)], [0], fold_text(term, mode), raws=[raw], mode=mode) == [0]) is found


def test_all_occurrences_overlapping() -> None:
    assert find_plain("aa aa", "aa") == [(0, 2), (3, 5)]
    assert find_plain("a a a", "a a") == [(0, 3), (2, 5)]


def test_regex_is_applied_as_written() -> None:
    pattern = re.compile(r"\bair\b")
    assert find_regex("chair air", pattern) == [(6, 9)]
    assert find_regex("chair air", pattern, first_only=True) == [(6, 9)]


def _raw_hyphen_by_scan(folded: str, pos: int, raw: str, sources: str) -> bool:
    """The k-th hyphen of the folded text is the k-th character of ``raw`` that the fold writes as a
    hyphen (``matching.raw_hyphen``'s rule), found by scanning the raw text for each hyphen."""
    from housestyle.pipelines.conventions.matching import HYPHENS

    k = sum(folded.count(h, 0, pos) for h in HYPHENS)
    for char in raw:
        if char in sources:
            if k == 0:
                return char in HYPHENS
            k -= 1
    return True


def test_raw_hyphen_finds_each_hyphens_origin_as_the_scan_does() -> None:
    """Seeded random texts of words, hyphens and the dashes each fold writes as one (raw and folded
    lengths differ in the count fold, which collapses spaces): every folded hyphen's answer equals the
    scan's, and a raw text with fewer such characters than the folded (a caller's mismatch) answers True."""
    import random

    from housestyle.pipelines.conventions.matching import _FOLDS_TO_HYPHEN, raw_hyphen
    from housestyle.pipelines.mining.tokens import fold_count

    rng = random.Random(7)
    pieces = ["é", "a", "19", " ", "  ", "-", "\u2010", "\u2011", "\u2013", "\u2014", "\u2212", "\ufe63", "\uff0d"]
    checked = 0
    for _ in range(300):
        raw = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 40)))
        for mode, folded in (("count", fold_count(raw)), ("typographic", fold_text(raw, "typographic")),
                             ("nfkc", fold_text(raw, "nfkc"))):
            for pos, char in enumerate(folded):
                if char == "-":
                    for given in (raw, raw[: len(raw) // 2]):
                        assert raw_hyphen(folded, pos, given, mode) == _raw_hyphen_by_scan(
                            folded, pos, given, _FOLDS_TO_HYPHEN[mode]), (raw, mode, pos)
                        checked += 1
    assert checked > 1000


def test_a_text_of_hyphen_joined_words_is_read_once_not_once_per_hyphen() -> None:
    """16,000 hyphen-joined words: every hit of ``é`` is blocked by a raw hyphen, and each look-up of
    a hyphen's origin scanned the raw text (12 s); now the origins are made once per text."""
    from housestyle.pipelines.conventions.multisearch import word_hits
    from housestyle.pipelines.mining.tokens import fold_count

    raw = "é-" * 16_000
    assert word_hits(["é"], [fold_count(raw)], raws=[raw], mode="count") == [[]]
