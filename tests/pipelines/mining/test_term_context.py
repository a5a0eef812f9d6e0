"""What the rest of the TM says about a term (term_context: nesting, word class, verb sense) and the
filters built on it (term_filters.joined_sentences, COUNT_WORDS)."""

from __future__ import annotations

from collections.abc import Callable

from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.inflection import entry_matches
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_filters import joined_sentences
from housestyle.pipelines.mining.term_rules import mine_terms

PAIRS = [
    ("Known risk factors include age.", "Les facteurs de risque connus incluent l'âge."),
    ("Doctors list known risk factors.", "Les médecins listent les facteurs de risque connus."),
    ("Other known risk factors exist.", "D'autres facteurs de risque connus existent."),
    ("Chronic renal disease is rare.", "La maladie rénale chronique est rare."),
    ("Patients with chronic renal disease wait.", "Les patients atteints de maladie rénale chronique attendent."),
    ("Age matters for patients.", "L'âge compte pour les patients."),
]


def _terms(make_corpus: Callable[..., Corpus]) -> set[str]:
    result = mine_terms(make_corpus(PAIRS), MiningParams())
    return {c.src.casefold() for c in result.conventions if c.src}


def test_a_term_seen_only_as_the_start_of_a_longer_term_is_dropped(make_corpus: Callable[..., Corpus]) -> None:
    terms = _terms(make_corpus)
    assert {"known risk factors", "chronic renal disease"} <= terms
    assert not {"known risk", "chronic renal"} & terms


def test_a_term_nested_at_the_end_keeps_its_head_and_its_rule(make_corpus: Callable[..., Corpus]) -> None:
    assert "risk factors" in _terms(make_corpus)  # only ever inside "known risk factors", yet a term


def test_joined_sentences() -> None:
    assert joined_sentences("2014.In")
    assert joined_sentences("cases.The")
    assert not joined_sentences("U.S. adults")
    assert not joined_sentences("v2.1")
    assert not joined_sentences("COVID-19")


def test_a_verb_sense_of_one_family_joins_the_noun_rendering(make_corpus: Callable[..., Corpus]) -> None:
    """``cough`` is a noun (toux) and a verb (tousser) in this TM: the rule accepts either."""
    pairs = [("A dry cough is common.", "Une toux sèche est fréquente."),
             ("Symptoms include fever and cough.", "Les symptômes incluent la fièvre et la toux."),
             ("Cough into your elbow.", "Toussez dans votre coude."),
             ("If you cough, stay home.", "Si vous toussez, restez chez vous."),
             ("Children cough at night.", "Les enfants toussent la nuit."),
             ("Fever is common.", "La fièvre est fréquente.")]
    rules = {c.src.casefold(): c for c in mine_terms(make_corpus(pairs), MiningParams()).conventions if c.src}
    entry = rules["cough"].expected_terms[0]
    assert rules["cough"].regex and all(entry_matches(entry, True, form) for form in ("toux", "toussez", "toussent"))


def test_adjectives_must_reach_their_noun() -> None:
    """A rendering starting with adjectives followed by a preposition lost its noun: a fragment."""
    from collections import Counter

    from housestyle.pipelines.mining.rendering_class import nominal

    assert not nominal(Counter({"ADJ ADP NOUN": 1}))  # médicales d'urgence
    assert not nominal(Counter({"ADJ ADJ ADP DET NOUN": 1}))  # virologique annuelle de la grippe
    assert nominal(Counter({"ADJ NOUN": 1}))  # forte prévalence
    assert nominal(Counter({"NOUN ADJ ADP NOUN": 1}))  # détresse respiratoire de l'adulte
    assert nominal(Counter({"ADJ": 1}))


def test_counts_are_not_terms(make_corpus: Callable[..., Corpus]) -> None:
    pairs = [(f"About {n} million children were affected.", f"Environ {n} millions d'enfants ont été touchés.")
             for n in (2, 3, 4, 5)]
    assert "million children" not in _terms_of(make_corpus, pairs)


def _terms_of(make_corpus: Callable[..., Corpus], pairs: list[tuple[str, str]]) -> set[str]:
    return {c.src.casefold() for c in mine_terms(make_corpus(pairs), MiningParams()).conventions if c.src}


def test_a_term_always_followed_by_a_noun_it_forms_a_recurring_phrase_with_lacks_its_head() -> None:
    """``PHE reference`` is only seen before ``laboratories``, and ``reference laboratories`` recurs
    without it: a fragment. ``public places`` before ``like`` (not a noun) ends in its head."""
    from collections import Counter

    from housestyle.pipelines.conventions.model import Convention
    from housestyle.pipelines.mining.term_candidates import Candidates, TermCandidate
    from housestyle.pipelines.mining.term_context import drop_headless
    from housestyle.pipelines.mining.term_rules import TermResult

    def rule(term: str) -> Convention:
        return Convention(dimension=f"term:{term}", rule="term", src=term, expected_terms=[term])

    terms = {"phe reference": TermCandidate(units={0}, occurrences=1, next_words=Counter({("reference", "laboratories"): 1})),
             "public places": TermCandidate(units={4}, occurrences=1, next_words=Counter({("places", "like"): 1})),
             "reference": TermCandidate(units={0, 1, 2}, occurrences=3, next_words=Counter({("reference", "laboratories"): 3})),
             "laboratories": TermCandidate(units={0, 1, 2}, aligned=Counter({"laboratoire": 3})),
             "like": TermCandidate(units={4, 5}, aligned=Counter({"comme": 2}))}
    pos = {"laboratoire": Counter({"NOUN": 3}), "comme": Counter({"ADP": 2})}
    pairs = Counter({("reference", "laboratories"): 3, ("places", "like"): 2})
    result = TermResult([rule(t) for t in ("phe reference", "public places", "reference")],
                        {}, stats=Counter())
    drop_headless(result, Candidates(terms, {}, pos, [], pairs))
    assert [c.src for c in result.conventions] == ["public places", "reference"]  # one word: never a fragment here
    assert result.stats["headless_before_next_word"] == 1
