"""One test per reason of the term decision (pipelines/mining/term_decision.FILTERS): each case is
rejected by exactly the named filter (the first that answers), and a plain rule by none."""

from __future__ import annotations

import pytest

from housestyle.pipelines.mining.boundary import Choice
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_decision import FILTERS, HELDOUT_SLOT, TermCase, describe, filter_names, first_rejection

P = MiningParams()
WORD_KEYS = {"firewall": {"pare-feu"}, "rules": {"règle"}, "public": {"public"}, "health": {"santé"}}


def case(term: str, key: str = "pare-feu", support: int = 8, coverage: float = 1.0, dice: float = 0.9,
         aligned: int = 8, *, forms: list[str] | None = None, cognate: bool = False, occurrences: int = 8,
         spelling: str | None = None, **extra: object) -> TermCase:
    choice = Choice(key, forms or [key], support, coverage, dice, aligned, cognate)
    return TermCase(term, choice, P, occurrences, spelling or term, "en", vocabulary={"firewall", "successful"},
                    word_keys=WORD_KEYS, **extra)  # type: ignore[arg-type]


CASES = {
    "low_consistency": case("firewall", coverage=0.4),
    "joined_sentences": case("firewall", spelling="2014.In firewall"),
    "low_support": case("firewall", support=0),
    "no_majority": case("firewall", support=4, coverage=0.5),
    "rendering_adds_words": case("firewall", "pare-feu installé localement"),
    "odd_rendering": case("firewall", forms=["pare-feu."]),
    "partial_rendering": case("firewall packet rules", "règle"),
    "count_phrase": case("million firewalls", "million pare-feu"),
    "adverb": case("successfully", "avec succès"),
    "ends_in_participle": case("firewall rules blocked", "règle pare-feu"),
    "ragged_edge": case("firewall-", forms=["pare-feu"]),
    "rendering_belongs_to_other_term": case("firewall", support=3, dice=0.3, best_dice={"pare-feu": [(0.9, "router")]}),
    "general_word": case("like", "comme", support=5, coverage=0.8),
}


def test_every_filter_has_a_case() -> None:
    assert set(CASES) == {name for name, _ in FILTERS}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_reason_rejects_its_case(name: str) -> None:
    found = first_rejection(CASES[name])
    assert found is not None and found[0] == name and found[1]


def test_a_specific_well_attested_term_is_a_rule() -> None:
    assert first_rejection(case("firewall")) is None


def test_a_general_word_needs_overwhelming_evidence_and_a_term_does_not() -> None:
    assert first_rejection(case("like", "comme", support=20, coverage=0.95)) is None  # overwhelming
    assert first_rejection(case("firewall", support=3, coverage=0.7)) is None  # specific: no such bar
    assert first_rejection(case("cat", "cat", support=3, coverage=0.7, spelling="CAT")) is None  # an acronym
    assert first_rejection(case("cloud-based", "basé sur le cloud", support=3, coverage=0.7)) is None


def test_explain_and_trace_name_filters_from_the_same_list() -> None:
    names = filter_names()
    assert names[: len(FILTERS)] == [n for n, _ in FILTERS] and "fragment_of_compound" in names
    assert HELDOUT_SLOT not in names  # an empty slot until the held-out filter lands
    assert describe("general_word").startswith("general_word (filter ")
