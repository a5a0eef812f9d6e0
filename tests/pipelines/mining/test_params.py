"""The miner's thresholds live in MiningParams, grouped per stage, and are honoured from there;
shares compare counts exactly (2/3 of 3 is 2, not 1.9999999999999998)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams, TermParams, at_least, more_than
from housestyle.pipelines.mining.patterns.casing import learn_keep, title_source
from housestyle.pipelines.mining.term_candidates import Candidates, TermCandidate
from housestyle.pipelines.mining.term_context import noun_words, verb_senses
from housestyle.pipelines.mining.term_filters import adverb, covers, stem
from housestyle.pipelines.mining.term_keys import cognate


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
    assert not cognate("menu", "menu", p) and cognate("menu", "menu", p.with_({"candidates.cognate_min_chars": 4}))
    assert adverb("rarely", {"rare"}, p) and not adverb("rarely", {"rare"}, p.with_({"candidates.adverb_min_chars": 7}))
    assert stem("gas") == "gas" and stem("bus", p.with_({"candidates.plural_stem_min_chars": 2})) == "bu"
    assert covers("chest pain relief", "soulagement douleur") and not covers(
        "chest pain relief", "soulagement douleur", p.with_({"candidates.cover_share": 0.9}))
    terms = {"wide": TermCandidate(aligned=Counter({"large": 2, "élargir": 1})),
             "table": TermCandidate(aligned=Counter({"tableau": 2}))}
    pos = {"large": Counter({"ADJ": 2}), "élargir": Counter({"VERB": 1}), "tableau": Counter({"NOUN": 2})}
    cands = Candidates(terms, {}, pos, [])
    assert noun_words(cands, p) == {"table"}
    assert noun_words(cands, p.with_({"term_context.noun_min_aligned": 3})) == frozenset()
    assert verb_senses("wide", cands, p) == [] and verb_senses("wide", cands, p.with_({"term_context.verb_sense_min_aligned": 1})) == ["élargir"]
    keep = learn_keep(["a", "b", "c"], ["Voir Acme ici", "voir Acme là", "un acme"], p)
    assert keep == [] and learn_keep(["a", "b", "c"], ["Voir Acme ici", "voir Acme là", "un acme"],
                                     p.with_({"casing.keep_min_ratio": 2.0})) == ["Acme"]
    assert "{0,80}" in title_source() and "{0,12}" in title_source(p.with_({"casing.title_max_chars": 12}))


def test_params_are_grouped_and_replaced_by_dotted_name_or_group() -> None:
    p = DEFAULT_PARAMS
    dotted = p.with_({"terms.min_support": 2, "heldout.term.min_rate": 0.99})
    assert (dotted.terms.min_support, dotted.heldout.term.min_rate, dotted.heldout.term.min_items) == (2, 0.99, 4)
    assert p.terms.min_support == 1  # frozen: a copy, the defaults untouched
    assert p.with_(terms={"min_support": 2}) == p.with_(terms=TermParams(min_support=2)) == p.with_({"terms.min_support": 2})
    assert dotted.params_hash() != p.params_hash() and p.with_({}).params_hash() == p.params_hash()
    for bad in ({"terms.nope": 1}, {"nope": 1}, {"terms": 1}):
        with pytest.raises(ValueError, match="mining parameter"):
            p.with_(bad)


def test_stored_params_read_back_and_unknown_names_keep_the_default() -> None:
    changed = DEFAULT_PARAMS.with_({"casing.min_support": 7, "heldout.other.min_rate": 0.98})
    assert MiningParams.from_dict(changed.to_dict()) == changed
    # a manifest written before the groups (flat names) or with a removed threshold: the defaults
    assert MiningParams.from_dict({"term_min_support": 3, "terms": {"gone": 1}}) == DEFAULT_PARAMS  # regroup: keep
