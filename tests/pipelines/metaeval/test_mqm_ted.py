"""Contract of the TED/newstest layout (housestyle.pipelines.metaeval.mqm_ted) and of the layout registry: the
header picks the layout, TED files keep mt-metrics-eval's weights and drop nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.metaeval.mqm import LAYOUTS, layout_for, load_mqm
from housestyle.pipelines.metaeval.mqm_score import DEFAULT_WEIGHTS
from housestyle.pipelines.metaeval.mqm_ted import REQUIRED_COLUMNS


def test_registry_picks_by_header() -> None:
    assert [layout.name for layout in LAYOUTS] == ["ted", "marot"]
    ted_header = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity", "comment"]
    assert layout_for(ted_header, Path("x.tsv")).name == "ted"
    assert layout_for(ted_header[:-1], Path("x.tsv")).name == "ted"
    with pytest.raises(InputError, match="not a known MQM layout") as info:
        layout_for(["system", "target"], Path("x.tsv"))
    assert info.value.location == "1" and "TED" in str(info.value) and "Marot" in str(info.value)


@pytest.mark.parametrize("name", ["mqm_toy_ende.tsv", "mqm_toy_zhen.tsv"])
def test_ted_contract(toy_ende: Path, name: str) -> None:
    data = load_mqm(toy_ende.with_name(name))
    assert data.layout == "ted" and data.dropped == {}
    assert set(REQUIRED_COLUMNS) - {"seg_id", "rater", "category", "severity"} <= set(data.segments.columns)
    assert data.segments.columns == ["system", "seg_id", "doc", "source", "target", "mqm", "n_raters", "n_errors"]
    assert data.errors.columns == ["line", "system", "seg_id", "rater", "category", "severity", "weight"]
    assert "layout:ted" in data.signature and "dropped" not in data.signature
    assert f"weights:{','.join(r.describe() for r in DEFAULT_WEIGHTS)}" in data.signature


def test_ted_lp_option(toy_ende: Path) -> None:
    assert load_mqm(toy_ende).lp == "en-de" and load_mqm(toy_ende, lp="en-ch").lp == "en-ch"
