"""Russian case/number forms from pymorphy3 paradigms (pipelines/mining/inflect_ru.py)."""

from __future__ import annotations

import pytest

from housestyle.pipelines.mining.inflect_ru import forms


@pytest.mark.parametrize(("form", "wanted"), [
    ("школьных администраторов", {"школьный администратор", "школьные администраторы", "школьным администраторам"}),
    ("коронавирусной инфекции", {"коронавирусная инфекция", "коронавирусную инфекцию", "коронавирусных инфекций"}),
    ("сердечно-сосудистые", {"сердечно-сосудистый", "сердечно-сосудистая", "сердечно-сосудистое"}),
    ("пациентов с mers-cov", {"пациенты с mers-cov", "пациент с mers-cov"}),  # the complement keeps its form
    ("больных детей", {"больной ребёнок", "больной ребенок", "больные дети"}),  # ё and е both
    ("рамка считывания", {"рамки считывания", "рамкой считывания"}),  # genitive complement unchanged
])
def test_every_case_and_number(form: str, wanted: set[str]) -> None:
    assert wanted | {form} <= forms(form, "", "")


def test_names_codes_and_other_scripts_are_left_alone() -> None:
    assert forms("cov-2", "", "") == {"cov-2"}
    assert forms("надзор", "", "", frozenset({"надзор"})) == {"надзор"}
    assert "рамки считываний" not in forms("рамка считывания", "", "")
