"""verify.measure (the scoring engine over a whole family's proposals) against the reference checker
``check_item`` run by hand on each (rule, unit): the same evidence and counter-evidence units."""

from __future__ import annotations

import re
import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.mine import PROPOSERS
from housestyle.pipelines.mining.params import DEFAULT_PARAMS
from housestyle.pipelines.mining.verify import measure
from housestyle.pipelines.scoring.check import check_item
from tests.pipelines.mining.conftest import corpus_of


def reference(conv: Convention, corpus: Corpus, indices: list[int]) -> tuple[list[int], list[int]]:
    """(evidence, counter) as check_item says, unit by unit."""
    shown = conv.extra.get("evidence_regex")
    evidence, counter = [], []
    for i, source, target in zip(indices, corpus.sources.gather(indices), corpus.targets.gather(indices)):
        verdict = check_item(conv, source, target)
        if verdict is None:
            continue
        if not verdict.full_pass:
            counter.append(i)
        elif not isinstance(shown, str) or re.search(shown, target):
            evidence.append(i)
    return evidence, counter


def proposals(corpus: Corpus) -> list[Convention]:
    listed = corpus.listed()
    local = list(range(len(listed)))
    return [conv for propose, _ in PROPOSERS.values() for conv in propose(listed, local, DEFAULT_PARAMS)]


def assert_agrees(corpus: Corpus, convs: list[Convention], indices: list[int]) -> None:
    measured = measure(convs, corpus, indices)
    assert [m.conv for m in measured] == convs
    for m in measured:
        assert (m.evidence, m.counter) == reference(m.conv, corpus, indices), m.conv.convention_id


def test_measure_agrees_with_check_item_on_the_fixture_tm(tiny: Corpus) -> None:
    convs = proposals(tiny)
    assert {c.rule for c in convs} >= {"pattern", "placeholder"}
    assert_agrees(tiny.listed(), convs, list(range(len(tiny))))


def test_measure_on_a_subset_maps_rows_back_to_the_given_indices() -> None:
    corpus = corpus_of([("Save %s now", "Enregistrer %s maintenant"), ("Open the file", "Ouvrir le fichier"),
                        ("Delete %s?", "Supprimer ?"), ("Copy %s", "Copier %s")])
    convs = proposals(corpus) or pytest.fail("no proposal on the placeholder corpus")
    placeholder = [c for c in convs if c.rule == "placeholder"]
    assert placeholder
    measured = measure(placeholder, corpus, [0, 2, 3])
    assert all(set(m.evidence) | set(m.counter) <= {0, 2, 3} for m in measured)
    assert any(2 in m.counter for m in measured)  # "Supprimer ?" dropped the %s
    assert_agrees(corpus, placeholder, [0, 2, 3])


def test_measure_of_nothing_is_nothing(tiny: Corpus) -> None:
    assert measure([], tiny, list(range(len(tiny)))) == []


@pytest.mark.shared_data
def test_measure_agrees_with_check_item_on_tico_dev(tico_dev: Corpus) -> None:
    sample = tico_dev.subset(list(range(0, len(tico_dev), 3))).listed()  # a third: the reference is slow
    assert_agrees(sample, proposals(sample), list(range(len(sample))))
