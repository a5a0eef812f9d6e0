"""Real word forms (pipelines/mining/lexicon.py) and general-language termhood (termhood.py)."""

from __future__ import annotations

from collections import Counter

from housestyle.pipelines.mining.lexicon import known, lemma_forms
from housestyle.pipelines.mining.paradigm import generated_forms
from housestyle.pipelines.mining.termhood import general_word, zipf


def test_the_lexicon_knows_words_and_not_invented_forms() -> None:
    assert known("évitez", "fr") and known("nouvelles", "fr-FR")
    # forms the hand-written French rules once required of outputs (issue 25)
    for invented in ("nouveaue", "nouveaus", "cadeal", "acheminère", "confirmers", "fermère", "ajoutère", "activers"):
        assert known(invented, "fr") is False, invented
    assert known("anything", "xx") is None  # no lexicon: nothing can be said


def test_a_lemma_has_its_attested_forms() -> None:
    assert {"évitez", "évite", "évité"} <= lemma_forms("éviter", "fr")
    assert "réinitialisé" in lemma_forms("réinitialiser", "fr")
    assert lemma_forms("zzzz", "fr") == set()


def test_generated_forms_are_real_words_and_verbs_take_the_lexicon_forms() -> None:
    assert generated_forms(["nouveau"], "nouveau", Counter({"ADJ": 2}), "fr", "new") == ["nouveau", "nouveaux"]
    assert generated_forms(["cadeau"], "cadeau", Counter({"NOUN": 2}), "fr", "gift") == ["cadeau", "cadeaux"]
    verb = generated_forms(["activer"], "activer", Counter({"VERB": 3}), "fr", "activate")
    assert {"activer", "activez", "active"} <= set(verb) and "activers" not in verb
    # a copied name is not a lexicon word and stays
    assert "mozilla vpn" in generated_forms(["mozilla vpn"], "mozilla vpn", Counter({"PROPN PROPN": 1}), "fr", "Mozilla VPN")


def test_general_words_and_terms() -> None:
    assert general_word("like", "en", 4.0) and general_word("privacy", "en-US", 4.0)
    assert not general_word("firewall", "en", 4.0) and not general_word("help center", "en", 4.0)  # a phrase is judged otherwise
    assert zipf("like", "xx") == 0.0  # a language wordfreq does not cover: nothing is general
