"""The one many-strings search: the same answer as looking for each string in each text alone."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.conventions.matching import find_plain
from housestyle.pipelines.conventions.multisearch import substring_rows, word_hits

# Neighbours of every kind the inline boundary test tells apart: separators (ASCII, no-break space,
# ellipsis), ASCII and non-ASCII letters and digits, a combining mark, raw and folded hyphens, Han.
PIECES = ["air", "chair", "air mass", "anti", "-", "virus", "‐", "–", " ", "'", "l'", "疫苗", "19", "covid", "x",
          "é", "\u0301", "\u00a0", "…", "٣"]
texts_st = st.lists(st.lists(st.sampled_from(PIECES), max_size=7).map("".join), min_size=1, max_size=6)
patterns_st = st.lists(st.sampled_from(["air", "air mass", "virus", "anti-virus", "covid-19", "covid", "疫苗", "-", "l'air"]),
                       min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(raws=texts_st, patterns=patterns_st, mode=st.sampled_from(["exact", "caseless", "typographic", "nfkc"]))
def test_word_hits_is_find_plain_for_each_pair(raws: list[str], patterns: list[str], mode: str) -> None:
    texts = [fold_text(r, mode) for r in raws]
    folded = [fold_text(p, mode) for p in patterns]
    got = word_hits(folded, texts, raws=raws, mode=mode)
    want = [[i for i, (t, r) in enumerate(zip(texts, raws)) if find_plain(t, p, raw=r, mode=mode, first_only=True)]
            for p in folded]
    assert got == want


@settings(max_examples=100, deadline=None)
@given(texts=texts_st, patterns=patterns_st)
def test_substring_rows_are_plain_containment(texts: list[str], patterns: list[str]) -> None:
    rows = np.arange(10, 10 + len(texts), dtype=np.int64)  # rows name the texts, not their positions
    got = {p: r.tolist() for p, r in substring_rows(texts, rows, patterns).items()}
    want = {p: [10 + i for i, t in enumerate(texts) if p in t] for p in set(patterns)}
    assert got == {p: r for p, r in want.items() if r}


def test_repeated_and_empty_patterns() -> None:
    assert word_hits(["air", "air", ""], ["air", "chair"]) == [[0], [0], []]
    assert word_hits([], ["air"]) == []
    assert substring_rows([], np.zeros(0, dtype=np.int64), ["air"]) == {}


def test_every_neighbour_pair_is_decided_as_find_plain_decides() -> None:
    """Each pattern between every two pieces, in every mode: the inline boundary test (separators,
    ASCII letters and digits) and the functions it falls back to answer as ``find_plain`` does."""
    patterns = ["air", "virus", "covid-19", "疫苗", "l'air", "-"]
    for mode in ("exact", "caseless", "typographic", "nfkc"):
        raws = [left + p + right for left in PIECES for p in patterns for right in PIECES]
        texts = [fold_text(r, mode) for r in raws]
        folded = [fold_text(p, mode) for p in patterns]
        want = [[i for i, (t, r) in enumerate(zip(texts, raws)) if find_plain(t, p, raw=r, mode=mode, first_only=True)]
                for p in folded]
        assert word_hits(folded, texts, raws=raws, mode=mode) == want, mode
