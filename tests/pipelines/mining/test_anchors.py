"""Anchors (pipelines/mining/anchors.py): the numbers and names a translation keeps, as the suspect
test's second witness of misaligned units."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from translate.storage import pypo

from housestyle.pipelines.mining.anchors import (anchor_outcomes, anchor_trials, anchors_of, is_name, kept_rare_anchor,
                                                 may_hold_anchors)
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.suspect_units import find_suspects


def test_anchors_are_digit_runs_and_acronym_like_names_outside_code() -> None:
    assert anchors_of("Similar to HCoV-NL63, SARS-CoV-2 killed 5,900 in 2020.") == {
        ("name", "HCoV-NL63"), ("name", "SARS-CoV-2"), ("digits", "5900"), ("digits", "2020")}
    assert anchors_of("il y a 2 400 ans, 3,5 %") == {("digits", "2400"), ("digits", "35")}  # one number, however grouped
    assert anchors_of("The Minister said it was over.") == set()  # a sentence's first word is no name
    assert anchors_of("IT IS FURTHER ORDERED that the NATO acts as soon as possible") == {("name", "NATO")}  # emphasis is no name
    assert anchors_of("ORDER OF THE STATE PUBLIC HEALTH OFFICER") == set()
    assert anchors_of("Seven HCoVs are known") == {("name", "HCoV")}  # an acronym's plural: French writes it bare
    assert anchors_of("Delete {count} files from %(folder)s") == set()  # placeholders: their own rule
    assert is_name("COVID") and is_name("iOS") and is_name("B2") and not is_name("Paris") and not is_name("2B")


def test_each_trial_is_judged_by_the_other_units_and_its_class() -> None:
    sources = ["In 2019 the NATO met.", "In 2019 the NATO spoke.", "The NATO acted in 2020.", "No anchor here."]
    targets = ["En 2019, l'OTAN s'est réunie.", "En 2019, l'OTAN a parlé.", "L'OTAN a agi en 2021.", "Rien."]
    trials = anchor_trials(sources, targets)
    rows = sorted(zip(trials.unit.tolist(), trials.rate.tolist(), trials.failed.tolist()))
    # both directions: each source's 2019/2020 and NATO looked for in its target, each target's
    # 2019/2021 and OTAN looked for in its source
    assert [sum(1 for u, _, _ in rows if u == k) for k in range(4)] == [4, 4, 4, 0]
    assert [sum(f for u, _, f in rows if u == k) for k in range(3)] == [2, 2, 4]
    by_unit = {u: [(r, f) for uu, r, f in rows if uu == u] for u in range(3)}
    # NATO is never kept (nor OTAN brought by its source): missing it is expected, from the other units
    assert min(r for r, f in by_unit[0] if f) > 0.5
    # 2020 (and 2021) are seen once: no evidence of their own (leave-one-out), so their class's rate:
    # a digit run missed once in three trials, (1 + 1) / (3 + 2)
    assert min(r for r, f in by_unit[2]) == pytest.approx(0.4)


def test_a_unit_with_few_rules_is_told_by_the_names_and_numbers_its_target_drops() -> None:
    """A run of 30 aligned units keeps its numbers and names; one unit whose target is another
    sentence drops four of them and fails its one term rule: suspect, while a unit dropping one
    number is not."""
    sources = [f"Study {k} of SARS-CoV-2 in HCoV-OC43 hosts found {k + 100} cases." for k in range(30)]
    targets = [f"L'étude {k} du SARS-CoV-2 chez les hôtes du HCoV-OC43 a trouvé {k + 100} cas." for k in range(30)]
    targets[7] = "Les chauves-souris jouent un rôle de réservoir génétique."  # misaligned
    targets[12] = "L'étude 12 du SARS-CoV-2 chez les hôtes du HCoV-OC43 a trouvé des cas."  # drops one number
    evidence = {"term:study": ([k for k in range(30) if k != 7], [7])}
    anchors = anchor_trials(sources, targets)
    suspects = find_suspects(evidence, 0.01, anchors)
    assert [(s.index, s.in_scope, s.failed, s.anchors_in_scope, s.anchors_failed) for s in suspects] == [(7, 1, 1, 4, 4)]  # its target brings none
    assert find_suspects(evidence, 0.01) == []  # the term rule alone cannot tell it
    assert np.all((anchors.rate > 0) & (anchors.rate < 1))


def test_a_target_keeping_a_rare_number_of_its_source_is_aligned() -> None:
    """A free translation may fail many term rules; keeping 473,933,356 shows it translates its
    source. A number every source holds (2019) shows nothing."""
    sources = ["UNESCO counts 473,933,356 learners in 2019", "In 2019 schools closed", "In 2019 it spread",
               "Cases rose in 2019"]
    targets = ["L'UNESCO compte 473 933 356 élèves", "Les écoles ont fermé en 2019", "Il s'est propagé",
               "Les cas ont augmenté en 2019"]
    assert kept_rare_anchor(sources, targets) == {0}


def test_every_trial_rate_is_the_leave_one_out_formula_of_its_anchor_and_class() -> None:
    """The array computation against the definition, row by row, with some units excluded."""
    sources = [f"In {2018 + k % 3} the NATO and WHO met {k % 4} times" for k in range(24)] + ["No anchor."]
    targets = [f"En {2018 + k % 3}, l'OTAN et l'{'OMS' if k % 5 else 'WHO'} " + ("ont siégé" if k % 4 else f"{k % 4} fois")
               for k in range(24)] + ["Rien."]
    exclude = frozenset({3, 7, 11})
    outcomes = anchor_outcomes(sources, targets)
    trials = anchor_trials(sources, targets, exclude, outcomes)
    rows = [(int(u), outcomes.anchors[k], bool(m)) for u, k, m in zip(outcomes.unit, outcomes.anchor, outcomes.missed)]
    counted = [(a, m) for u, a, m in rows if u not in exclude]
    for (unit, anchor, miss), rate, failed in zip(rows, trials.rate.tolist(), trials.failed.tolist()):
        own = 0 if unit in exclude else 1
        units = sum(1 for a, _ in counted if a == anchor) - own
        misses = sum(m for a, m in counted if a == anchor) - own * miss
        in_class = [m for a, m in counted if a[:2] == anchor[:2]]
        prior = (sum(in_class) + 1) / (len(in_class) + 2)
        assert failed == miss and rate == (misses + 2.0 * prior) / (units + 2.0)
    assert len(rows) == trials.unit.size and set(trials.unit.tolist()) == set(range(24))


HINT_EDGES = [
    "", "plain words only", "The Minister said it was over.", "Wi-Fi", "an IPv6 address", "GPT-4o",
    "x² + y²", "１２ items", "٣ units", "Ⅻ chapters", "ǅemal", "ΑΘΗΝΑ", "Ölfeld ÄÖ", "über-ÜBER",
    "snake_CASE_name", "{UserName}", "%(OrgName)s", "<B>bold</B>", "a\u00a0B\u0301C", "À-É", "Ǆ",
]


def test_the_anchor_hint_never_skips_a_text_that_holds_an_anchor() -> None:
    """``may_hold_anchors`` only lets ``anchor_outcomes`` skip texts: a text it turns down must have
    no anchor, whatever its scripts, digits or capitals (polars' regex and Python's differ)."""
    hint = may_hold_anchors(HINT_EDGES)
    assert [t for t, h in zip(HINT_EDGES, hint) if not h and anchors_of(t)] == []
    assert not hint[1] and not hint[2]  # the point: a sentence's capital alone is no hint
    assert hint[HINT_EDGES.index("x² + y²")] and hint[HINT_EDGES.index("ΑΘΗΝΑ")]


def test_the_anchor_hint_agrees_with_the_anchors_on_real_texts(shared_data: Path, tico_dev: Corpus) -> None:
    """UI messages (PO sources and targets: 22,150 texts) and TICO-19 dev (both sides)."""
    po = [text for path in sorted((shared_data / "po-corpora").rglob("*.po"))[:40]
          for u in pypo.pofile(path.read_bytes()).units if u.source for text in (str(u.source), str(u.target))]
    for texts in (po, list(tico_dev.sources) + list(tico_dev.targets)):
        hint = may_hold_anchors(texts)
        assert [t for t, h in zip(texts, hint) if not h and anchors_of(t)] == []
        assert hint.mean() < 0.7  # it does skip texts (9% of the UI messages hold a hint, 55% of TICO demo TM texts)
