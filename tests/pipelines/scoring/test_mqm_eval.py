"""The German punctuation evaluation on real MQM data keeps its published figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eval.mqm_punctuation_de import evaluate, strip_spans


def test_strip_spans() -> None:
    assert strip_spans("a <v>-</v> b <v>\"x\"</v>") == ('a - b "x"', [(2, 3), (6, 9)])


def test_figures_on_real_data(shared_data: Path) -> None:
    res = evaluate(shared_data)
    assert res["items"] == 14 * 529 and len(res["systems"]) == 14
    assert res["annotated_spans"] == 244
    any_rule = res["rules"].filter(res["rules"]["rule"] == "any rule").row(0, named=True)
    assert any_rule["flagged"] == 602 and any_rule["flagged_annotated"] == 109
    assert any_rule["seg_recall"] == pytest.approx(109 / 205)
    assert any_rule["in_scope_recall"] > 0.95
