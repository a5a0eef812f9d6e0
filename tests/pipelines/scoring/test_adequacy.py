"""Adequacy: sacrebleu's own numbers, single- and multi-reference, never merged with the SCS."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU, CHRF

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.scoring.adequacy import adequacy_table

SRC = {"a": "x", "b": "y", "c": "z"}
REF1 = {"a": "le chat est sur le tapis", "b": "il pleut beaucoup", "c": "bonjour à tous"}
REF2 = {"a": "un chat est sur le tapis", "b": "il pleut fort", "c": "salut tout le monde"}
SYS = {"mt": {"a": "le chat est sur un tapis", "b": "il pleut fort"}}


def test_single_and_multi_reference_rows_match_sacrebleu() -> None:
    table = adequacy_table(SYS, [REF1, REF2], SRC, reference_names=["r1", "r2"])
    assert sorted(set(table["references"])) == ["r1", "r1+r2", "r2"]
    hyps = ["le chat est sur un tapis", "il pleut fort", ""]  # the missing output counts as empty
    want = BLEU().corpus_score(hyps, [[REF1[k] for k in "abc"], [REF2[k] for k in "abc"]]).score
    row = table.filter((table["references"] == "r1+r2") & (table["metric"] == "BLEU")).row(0, named=True)
    assert row["score"] == pytest.approx(want)
    assert row["n_refs"] == 2 and row["missing"] == 1 and row["segments"] == 3
    assert row["signature"].startswith("nrefs:2|")
    chrf = table.filter((table["references"] == "r1") & (table["metric"] == "chrF")).row(0, named=True)
    assert chrf["score"] == pytest.approx(CHRF().corpus_score(hyps, [[REF1[k] for k in "abc"]]).score)


def test_model_downloading_tokenizers_are_refused() -> None:
    with pytest.raises(ConfigError):
        adequacy_table(SYS, [REF1], SRC, tokenize="spm")
