"""Compound repair (pipelines/mining/compound.py): a rendering that is half a hyphenated compound."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.boundary import Choice
from housestyle.pipelines.mining.compound import drop_compound_of_longer_term, repair_halves, whole_compound
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_rules import TermResult, mine_terms

TARGETS = ["des maladies sous-jacentes", "une affection sous-jacente", "des problèmes sous-jacents",
           "un sous-marin", "sous la table"]


def test_the_aligned_compound_replaces_its_half_with_the_forms_the_tm_writes() -> None:
    half = Choice("sous", ["sous"], 3, 1.0, 0.8, 3)
    aligned = Counter({"sous": 3, "sous - jacents": 1})
    rebuilt = whole_compound(half, aligned, {"sous - jacents": Counter({"sous-jacents": 1})}, np.array([0, 1, 2]), TARGETS)
    assert rebuilt is not None
    choice, units = rebuilt
    assert choice.key == "sous - jacents" and choice.forms == ["sous-jacente", "sous-jacentes", "sous-jacents"]
    assert units.tolist() == [0, 1, 2]  # not sous-marin, not the free "sous"
    assert choice.support == 3 and choice.coverage == 1.0 and choice.dice == 1.0


def test_no_compound_without_the_aligner_linking_one() -> None:
    half = Choice("sous", ["sous"], 3, 1.0, 0.8, 3)
    assert whole_compound(half, Counter({"sous": 3}), {}, np.array([0, 1, 2]), TARGETS) is None
    phrase = Choice("problème de santé sous", ["problèmes de santé sous"], 1, 1.0, 0.8, 1)
    assert whole_compound(phrase, Counter({"sous - jacents": 1}), {}, np.array([2]), TARGETS) is None


def test_a_half_is_repaired_before_the_choice_and_the_shared_hits_stay_as_they_are() -> None:
    """The half ``sous`` is a word of its own only in ``sous la table`` (SPEC §2: sous-jacents is one
    word), so it covers none of the term's units; the compound replaces it among the candidates."""
    half = Choice("sous", ["sous"], 0, 0.0, 0.0, 3)
    other = Choice("problème", ["problèmes"], 1, 1 / 3, 0.5, 1)
    key_hits = {"sous": np.array([4]), "problème": np.array([2]), "sous - jacents": np.array([2])}
    aligned = Counter({"sous": 3, "sous - jacents": 1, "problème": 1})
    forms = {"sous - jacents": Counter({"sous-jacents": 1})}
    own = Choice("sous - jacents", ["sous-jacents"], 1, 1 / 3, 0.5, 1)
    choices_of = {"underlying": [half, other], "other term": [half, own], "far": [other]}
    src_hits = {t: np.array([0, 1, 2]) for t in choices_of}
    hits_of = repair_halves(choices_of, {t: aligned for t in choices_of}, forms, src_hits, TARGETS, TARGETS, key_hits)
    assert [(c.key, c.repair, c.coverage) for c in choices_of["underlying"]] == [
        ("problème", "", 1 / 3), ("sous - jacents", "compound", 1.0)]
    hits = hits_of["underlying"]
    assert hits["sous - jacents"].tolist() == [0, 1, 2] and hits["problème"].tolist() == [2]
    assert set(key_hits) == {"sous", "problème", "sous - jacents"} and key_hits["sous - jacents"].tolist() == [2]
    assert hits_of["far"] is key_hits  # the shared table is not changed
    # A compound that already is a rendering of the term stays as the aligner gave it (no repair).
    assert [(c.key, c.forms, c.repair) for c in choices_of["other term"]] == [("sous - jacents", ["sous-jacents"], "")]
    assert hits_of["other term"] is key_hits  # with the hits of its own forms, not the rebuilt spellings'.


def test_the_compound_is_counted_with_the_raw_texts() -> None:
    """A form followed by a dash the counting fold wrote as ``-`` is a word there (raw en dash), not
    where the raw text has a hyphen; the TM's spellings are its raw hyphen-joined words."""
    folded = ["des effets sous-jacents-x", "des effets sous-jacents-x", "des maladies sous-jacentes-x"]
    raws = ["des effets sous-jacents-x", "des effets sous-jacents–x", "des maladies sous-jacentes–x"]
    half = Choice("sous", ["sous"], 0, 0.0, 0.0, 2)
    aligned = Counter({"sous - jacents": 1})
    forms = {"sous - jacents": Counter({"sous-jacents": 1})}
    rebuilt = whole_compound(half, aligned, forms, np.array([1, 2]), folded, raw_targets=raws)
    assert rebuilt is not None
    assert rebuilt[0].forms == ["sous-jacentes", "sous-jacents"] and rebuilt[1].tolist() == [1, 2]


def _rule(term: str, key: str, repaired: bool) -> Convention:
    conv = Convention(dimension=f"term:{term}", rule="term", src=term, expected_terms=[key.replace(" - ", "-")],
                      src_lang="en", tgt_lang="fr")
    conv.extra = {"lemma_key": key, **({"boundary_repair": "compound"} if repaired else {})}
    return conv


def test_a_rebuilt_compound_that_renders_a_longer_term_is_that_terms_fragment() -> None:
    rules = [_rule("east", "moyen - orient", True), _rule("middle east", "moyen - orient", False),
             _rule("wi-fi", "wi - fi", False), _rule("guest wi-fi", "wi - fi", False)]
    result = TermResult(rules, {r.convention_id: ([], []) for r in rules}, [], Counter())  # type: ignore[arg-type]
    drop_compound_of_longer_term(result)
    assert [c.src for c in result.conventions] == ["middle east", "wi-fi", "guest wi-fi"]  # a copy is no repair
    assert result.stats["compound_of_longer_term"] == 1


def test_tico_dev_rules_hold_whole_compounds_not_their_halves(tico_dev: Corpus) -> None:
    """Real data: before the compound filter the dev split mandated ``sous`` for underlying, ``unis``
    for States, ``jacents`` for conditions and ``auto`` for isolation (16 such rules, all wrong); the
    repair rebuilds underlying → sous-jacent(e)(s) and gastrointestinal → gastro-intestinal(e)(s)."""
    rules = {c.src: c for c in mine_terms(tico_dev, MiningParams()).conventions if c.src}
    for term, wrong in (("States", "unis"), ("conditions", "jacents"), ("isolation", "auto"), ("United", "états")):
        assert term not in rules or wrong not in rules[term].expected_terms[0], (term, rules[term].expected_terms)
    underlying = re.compile(rules["underlying"].expected_terms[0])
    assert all(underlying.search(f) for f in ("sous-jacent", "sous-jacente", "sous-jacents", "sous-jacentes"))
    assert not underlying.search("sous la table")
    assert rules["underlying"].extra["boundary_repair"] == "compound"
    assert re.search(rules["gastrointestinal"].expected_terms[0], "gastro-intestinales")
    # A copy that is a hyphen-joined word stays whole and is no repair. Its piece ``COVID`` is no word
    # of the sources (SPEC §2: COVID-19 is one word), so no rule triggers on it inside COVID-19.
    assert rules["COVID-19"].expected_terms == ["COVID-19"] and "boundary_repair" not in rules["COVID-19"].extra
