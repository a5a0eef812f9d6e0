"""Unit hits over a corpus column: batch by batch, or in the texts holding a few patterns, always the
matcher's own hits; and the joint count of two unit arrays."""

from __future__ import annotations

import numpy as np
import pytest

import housestyle.pipelines.mining.column_hits as column_hits
from housestyle.pipelines.mining.association import unit_hits
from housestyle.pipelines.mining.column_hits import batched_unit_hits, concat_hits, joint_count
from housestyle.pipelines.mining.corpus import Corpus


@pytest.mark.parametrize("size", [1, 2, 7, 10_000])
def test_batched_hits_are_the_matchers_hits_whatever_the_batch(tiny: Corpus, size: int) -> None:
    """The hits counted batch by batch are ``unit_hits`` over the whole column: same units, in
    order, for every pattern (repeated and absent patterns included)."""
    texts = tiny.folded_sources
    words = sorted({w for t in texts for w in t.split() if w.isalpha()})
    patterns = [*words[:40], words[0], "no such words here", *[f"{a} {b}" for a, b in zip(words, words[1:20])]]
    expected = unit_hits(patterns, list(texts))
    got = batched_unit_hits(patterns, texts, size=size)
    assert [h.tolist() for h in got] == expected and sum(map(len, expected)) > len(tiny)
    raws = tiny.sources  # with the raw texts beside (a hyphen told from a folded dash): the same agreement
    with_raws = batched_unit_hits(patterns, texts, raws, size=size)
    assert [h.tolist() for h in with_raws] == unit_hits(patterns, list(texts), list(raws))
    assert batched_unit_hits([], texts, size=size) == []
    assert [h.tolist() for h in batched_unit_hits(["fever"], Corpus([], [], [], "en", "fr").sources, size=size)] == [[]]
    assert concat_hits(got[:3]).tolist() == sorted(set().union(*expected[:3]))


def test_a_few_patterns_are_searched_in_the_texts_holding_them_with_the_same_hits() -> None:
    """Few texts hold a pattern: only those are searched (``_rows_holding``), and the hits are the
    matcher's over the whole column, word bounds, hyphens (raws) and compound parts included."""
    sources = [f"Open the window {i}" for i in range(40)] + ["the e-mail box", "send mail now", "mails", "a mail-box"]
    corpus = Corpus([f"u{i:03d}" for i in range(len(sources))], sources, sources, "en", "de")
    texts, raws = corpus.folded_sources, corpus.sources
    patterns = ["mail", "box", "", "nowhere", "mail"]
    assert column_hits._rows_holding(patterns, texts) is not None  # the prefilter is taken
    got = batched_unit_hits(patterns, texts, raws)
    assert [h.tolist() for h in got] == unit_hits(patterns, list(texts), list(raws))
    assert got[0].tolist() == [41]  # not the "mail" of e-mail, mails or the hyphened mail-box
    compound = batched_unit_hits(["box"], texts, raws, compound=True)
    assert [h.tolist() for h in compound] == unit_hits(["box"], list(texts), list(raws), compound=True)
    assert column_hits._rows_holding(["the"], texts) is None  # most texts hold it: the whole column


def test_the_joint_count_of_two_unit_arrays_is_their_intersections_size() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        a = np.unique(rng.integers(0, 60, size=int(rng.integers(0, 30)))).astype(np.int32)
        b = np.unique(rng.integers(0, 60, size=int(rng.integers(0, 30)))).astype(np.int64)
        assert joint_count(a, b) == joint_count(b, a) == np.intersect1d(a, b).size
    assert joint_count(np.array([5]), np.array([], dtype=np.int64)) == 0
    assert joint_count(np.array([9, 10]), np.array([1, 2, 3])) == 0  # past the end of the larger
