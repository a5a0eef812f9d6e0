"""The term miner's thresholds live in MiningParams and are honoured from there; shares compare
counts exactly (2/3 of 3 is 2, not 1.9999999999999998)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from housestyle.pipelines.mining.params import DEFAULT_PARAMS, at_least, more_than
from housestyle.pipelines.mining.patterns.casing import learn_keep, title_source
from housestyle.pipelines.mining.term_candidates import Candidates, TermCandidate
from housestyle.pipelines.mining.term_context import modifier_words, verb_senses
from housestyle.pipelines.mining.term_filters import adverb, covers, stem
from housestyle.pipelines.mining.term_rules import cognate


def test_shares_compare_counts_exactly() -> None:
    for share in (0.2, 0.5, 2 / 3, 0.75, 9.0):
        exact = Fraction(share).limit_denominator(1000)
        for whole in range(0, 40):
            for part in range(0, 40):
                assert at_least(part, whole, share) == (Fraction(part) >= exact * whole), (part, whole, share)
                assert more_than(part, whole, share) == (Fraction(part) > exact * whole), (part, whole, share)
    assert at_least(2, 3, 2 / 3) and not more_than(1, 2, 0.5)


def test_the_moved_thresholds_are_read_from_the_parameters() -> None:
    p = DEFAULT_PARAMS
    assert not cognate("menu", "menu", p) and cognate("menu", "menu", p.with_(term_cognate_min_chars=4))
    assert adverb("rarely", {"rare"}, p) and not adverb("rarely", {"rare"}, p.with_(term_adverb_min_chars=7))
    assert stem("gas") == "gas" and stem("bus", p.with_(term_plural_stem_min_chars=2)) == "bu"
    assert covers("chest pain relief", "soulagement douleur") and not covers(
        "chest pain relief", "soulagement douleur", p.with_(term_cover_share=0.9))
    terms = {"wide": TermCandidate(aligned=Counter({"large": 2, "élargir": 1}))}
    pos = {"large": Counter({"ADJ": 2}), "élargir": Counter({"VERB": 1})}
    cands = Candidates(terms, {}, pos, [])
    assert modifier_words(cands, p.with_(term_word_class_min_aligned=3)) == {"wide"}
    assert modifier_words(cands, p.with_(term_word_class_min_aligned=4)) == frozenset()
    assert verb_senses("wide", cands, p) == [] and verb_senses("wide", cands, p.with_(term_verb_sense_min_aligned=1)) == ["élargir"]
    keep = learn_keep(["a", "b", "c"], ["Voir Acme ici", "voir Acme là", "un acme"], p)
    assert keep == [] and learn_keep(["a", "b", "c"], ["Voir Acme ici", "voir Acme là", "un acme"],
                                     p.with_(casing_keep_min_ratio=2.0)) == ["Acme"]
    assert "{0,80}" in title_source() and "{0,12}" in title_source(p.with_(casing_title_max_chars=12))
