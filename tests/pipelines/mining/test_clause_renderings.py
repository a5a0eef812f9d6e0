"""A rendering where a determiner follows a content word is a verb and its object, not a term."""

from __future__ import annotations

from collections import Counter

from housestyle.pipelines.mining.rendering_class import nominal_key
from housestyle.pipelines.mining.term_candidates import Candidates


def _nominal(key: str, tags: str) -> bool:
    return nominal_key(key, Candidates({}, {key: Counter({key: 1})}, {key: Counter({tags: 1})}, []))


def test_participle_and_object_is_no_term() -> None:
    assert not _nominal("accroître le fréquence de livraison", "ADJ DET NOUN ADP NOUN")  # a accru la fréquence
    assert not _nominal("signer un pétition", "ADJ DET NOUN")  # ont signé des pétitions
    assert not _nominal("réduit le contamination bactérien", "NOUN DET NOUN ADJ")  # participle read as a noun


def test_determiners_inside_noun_phrases_pass() -> None:
    assert _nominal("membre de le famille", "NOUN ADP DET NOUN")
    assert _nominal("développement d' un résistance", "NOUN ADV DET NOUN")  # d' misread as an adverb
    assert _nominal("pays le plus toucher", "NOUN DET ADV ADJ")  # superlative
    assert _nominal("contrôle de risque", "NOUN DET NOUN")  # des read as a determiner, lemma de
