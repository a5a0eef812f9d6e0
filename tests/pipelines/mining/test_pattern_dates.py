"""Date conventions (pipelines/mining/patterns/dates.py): learned from targets, checked by the
reference checker exactly as a system output would be."""

from __future__ import annotations


import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.mine import proposer_group
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.patterns.base import count_variants
from housestyle.pipelines.mining.patterns.dates import (
    NUMERIC_ORDER,
    NUMERIC_SEPARATOR,
    day_month_link,
    month_names,
    written_families,
)
from housestyle.pipelines.scoring.check import check_item
from tests.pipelines.mining.conftest import corpus_of

NB = "\u00a0"


def _dates(corpus: Corpus) -> dict[str, Convention]:
    mined, _ = proposer_group(corpus, ("dates",), MiningParams())
    return {m.conv.dimension: m.conv for m in mined}


def _passes(rule: Convention, source: str, output: str) -> bool | None:
    verdict = check_item(rule, source, output)
    return None if verdict is None else verdict.full_pass


@pytest.fixture(scope="module")
def french_dates() -> dict[str, Convention]:
    days = [(3, "March", "mars"), (12, "May", "mai"), (28, "September", "septembre"), (31, "December", "décembre"),
            (17, "April", "avril"), (9, "January", "janvier")]
    pairs = [(f"On {month} {day}, 2020, the WHO reported cases.", f"Le {day}{NB}{mois} 2020, l’OMS a signalé des cas.")
             for day, month, mois in days]
    pairs.append(("Cases rose on 1 June.", f"Les cas ont augmenté le 1er{NB}juin."))
    pairs.append(("B0AT1 may become a target.", "B0AT1 pourrait devenir une cible."))
    return _dates(corpus_of(pairs))


def test_month_names_come_from_cldr() -> None:
    assert {"mars", "janv.", "décembre"} <= set(month_names("fr"))
    assert "марта" in month_names("ru")  # the genitive, as dates write it
    assert month_names("zh") == () and month_names("zz") == ()  # no spaces between words / unknown
    assert month_names("es-LA") == month_names("es") != ()  # no such CLDR locale: the language's names
    assert [f.dimension for f in written_families("fr")][-1] == "date:month_case"
    assert written_families("zh") == ()


def test_written_date_families_are_learned_from_targets(french_dates: dict[str, Convention]) -> None:
    order, case, space = french_dates["date:order"], french_dates["date:month_case"], french_dates["date:day_month_space"]
    assert order.extra["variant"] == "day_first" and case.extra["variant"] == "lower"
    assert space.extra["variant"] == "nbsp" and space.match_mode == "exact" and space.support == 7
    assert not _passes(order, "x", "Le mars 15, 2020, l’OMS a signalé des cas.")
    assert _passes(order, "x", "Le 26 mars 1,7 milliard de personnes étaient confinées.")  # 1,7 is no day
    assert not _passes(case, "x", f"le 15{NB}Mars 2020")
    assert _passes(case, "x", "Mars est une planète.")
    assert not _passes(space, "x", "le 15 mars 2020") and _passes(space, "x", f"le 15{NB}mars 2020")
    assert "date:first_of_month" not in french_dates  # one unit shows it: below patterns.min_support


def test_source_date_rule_needs_a_written_date_in_the_target(french_dates: dict[str, Convention]) -> None:
    rule = french_dates["date:source_date"]
    assert rule.support == 7 and rule.consistency == 1.0
    assert _passes(rule, "On March 15, 2020, cases rose.", f"Le 15{NB}mars 2020, les cas ont augmenté.")
    assert not _passes(rule, "On March 15, 2020, cases rose.", "Le 15/03/2020, les cas ont augmenté.")
    assert not _passes(rule, "On March 15, 2020, cases rose.", "Le mars 15, 2020, les cas ont augmenté.")
    assert _passes(rule, "B0AT1 may become a target.", "B0AT1 pourrait devenir une cible.") is None
    assert _passes(rule, "Type 2 may cause it.", "Le type 2 peut en être la cause.") is None  # the modal, not May


def test_numeric_dates_separator_and_unambiguous_order() -> None:
    pairs = [(f"Updated {m}/{d}/2021.", f"Mis à jour le {d:02d}/{m:02d}/2021.") for d, m in
             ((15, 3), (21, 4), (30, 6), (13, 11), (25, 12), (2, 5))]
    pairs.append(("Version 1.2.10 is out.", "La version 1.2.10 est disponible."))
    rules = _dates(corpus_of(pairs))
    separator, order = rules["date:numeric_separator"], rules["date:numeric_order"]
    assert separator.extra["variant"] == "slash" and order.extra["variant"] == "day_first"
    assert order.support == 5  # 02/05/2021 is ambiguous: it shows neither order
    assert not _passes(order, "x", "Mis à jour le 03/15/2021.") and _passes(order, "x", "le 03/05/2021")
    assert not _passes(separator, "x", "le 15.03.2021") and _passes(separator, "x", "version 1.2.10")
    occ, _ = count_variants(NUMERIC_SEPARATOR, ["2021-03-15", "15-03-2021", "1.2.10"])
    assert dict(occ) == {"iso": 1, "hyphen": 1}
    occ, _ = count_variants(NUMERIC_ORDER, ["15/03/2021", "03/15/21", "05/03/2021"])
    assert dict(occ) == {"day_first": 1, "month_first": 1}


def test_the_tico_dev_split_writes_a_no_break_space_inside_dates(tico_dev: Corpus) -> None:
    """Real data (dev split of the demo client): the TM's own choice, with its counter-examples kept."""
    mined, _ = proposer_group(tico_dev, ("dates",), MiningParams())
    rules = {m.conv.dimension: m.conv for m in mined}
    space = next(m for m in mined if m.conv.dimension == "date:day_month_space")
    assert space.conv.extra["variant"] == "nbsp" and space.conv.extra["observed"] == {"nbsp": 40, "space": 4}
    assert len(space.counter) == 4 and space.conv.consistency == pytest.approx(37 / 41, abs=1e-4)
    assert rules["date:order"].extra["variant"] == "day_first" and rules["date:month_case"].extra["variant"] == "lower"
    assert (rules["date:source_date"].support or 0) >= 40


def test_chinese_dates_learn_the_spacing_around_numbers() -> None:
    pairs = [(f"On March {d}, cases rose.", f"3 月 {d} 日，病例增加。") for d in (2, 5, 9, 14, 17, 20, 27)]
    pairs.append(("On April 1, cases fell.", "4月1日，病例减少。"))
    rules = _dates(corpus_of(pairs, tgt="zh"))
    spacing = rules["date:cjk_spacing"]
    assert spacing.extra["observed"] == {"compact": 1, "spaced": 7}
    assert spacing.consistency == pytest.approx(7 / 8, abs=1e-4)  # the compact unit is kept as counter-evidence
    assert not _passes(spacing, "x", "3月15日") and _passes(spacing, "x", "3 月 15 日")
    assert set(rules) == {"date:cjk_spacing"}  # no written-date families without spaced month names


def test_the_day_month_link_comes_from_cldr() -> None:
    """Spanish writes ``15 de marzo``, German ``15. März``: CLDR's long date pattern says so."""
    assert (day_month_link("es-LA"), day_month_link("de"), day_month_link("fr")) == ("de", ".", "")
    pairs = [(f"On March {d}, cases rose.", f"El {d} de marzo aumentaron los casos.") for d in (2, 5, 9, 14, 17)]
    rules = _dates(corpus_of(pairs, tgt="es"))
    assert rules["date:order"].extra["variant"] == "day_first" and rules["date:source_date"].support == 5
    assert not _passes(rules["date:month_case"], "x", "el 15 de Marzo")
    assert not _passes(rules["date:source_date"], "On March 15, cases rose.", "El 15/03 aumentaron los casos.")
    german = [f"Am {d}. März stiegen die Fälle." for d in (2, 5, 9, 14, 17)]
    occ, _ = count_variants(written_families("de")[0], german)
    assert dict(occ) == {"day_first": 5}
