"""Deterministic adequacy figures: the text checks by hand, chrF/BLEU against sacrebleu, consensus."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
from sacrebleu.metrics import BLEU, CHRF

from housestyle.pipelines.judge.adequacy import (
    ADEQUACY_COLUMNS,
    adequacy_features,
    copied_share,
    final_punct_agreement,
    number_agreement,
    punct_agreement,
    repetition,
    script_share,
)
from housestyle.pipelines.judge.samples import load_samples


def test_text_checks_by_hand() -> None:
    assert number_agreement("She bought 3 apples and 12 pears.", "Sie kaufte 3 Äpfel.") == 0.5
    assert number_agreement("no digits", "keine Ziffern") == 1.0
    assert number_agreement("1,000 people", "1.000 Menschen") == 1.0  # separators do not matter
    assert punct_agreement("Wie geht's?", ["How are you?"]) == 1.0
    assert punct_agreement("Er sagte hallo.", ["Er sagte „hallo“."]) == 0.0  # quotes dropped
    assert final_punct_agreement("Ist das so.", ["Is that so?"]) == 0.0
    assert final_punct_agreement("这个城市有多少人口？", ["How many?"]) == 1.0  # full-width ? is a question
    assert copied_share("The results were better", "The results were better", ["Die Ergebnisse"]) == 1.0
    assert copied_share("Talk by Greta Thunberg", "Vortrag von Greta Thunberg", ["Vortrag von Greta Thunberg"]) == 0.0
    assert script_share("这个城市", ["How many people?"]) == 0.0
    assert script_share("Die Stadt", ["Die Stadt"]) == 1.0
    assert repetition("a b c a b c a b c") > 0.5 and repetition("a b c d") == 0.0


def test_number_agreement_reads_scale_words_and_identifiers_with_the_rule_grammar() -> None:
    assert number_agreement("760 thousand doses", "760.000 Dosen") == 1.0
    assert number_agreement("2.5 million cases", "2,5 Millionen Fälle") == 1.0
    assert number_agreement("Call 1-800-555-0199", "Rufen Sie 1-800-555-0199 an") == 1.0  # one number, not four
    assert number_agreement("Call 1-800-555-0199", "Rufen Sie 1-800-555 an") == 0.0
    assert number_agreement("CI 3.51-4.05", "KI 3,51-4,05") == 1.0  # a range: two quantities


def test_features_on_toy(toy_ende: Path) -> None:
    samples = load_samples(toy_ende)
    feats = adequacy_features(samples.frame, samples.tgt_lang)
    assert feats.columns == ["system", "seg_id", *ADEQUACY_COLUMNS] and feats.height == samples.frame.height
    row = feats.filter((pl.col("system") == "Bad") & (pl.col("seg_id") == 4)).row(0, named=True)
    target = samples.frame.filter((pl.col("system") == "Bad") & (pl.col("seg_id") == 4))["target"][0]
    ref = "Die Ergebnisse waren besser als erwartet."
    assert row["chrf"] == pytest.approx(CHRF().sentence_score(target, [ref]).score)
    assert row["bleu"] == pytest.approx(BLEU(effective_order=True).sentence_score(target, [ref]).score)
    assert row["copied_share"] == 1.0  # English left in the German output
    # consensus = mean chrF against the 3 other systems' outputs of the segment
    others = samples.frame.filter((pl.col("seg_id") == 4) & (pl.col("system") != "Bad"))["target"].to_list()
    expected = sum(CHRF().sentence_score(target, [o]).score for o in others) / 3
    assert row["consensus"] == pytest.approx(expected)
    seg = feats.filter(pl.col("seg_id") == 4)
    assert seg["chrf_rel"].sum() == pytest.approx(0.0, abs=1e-9)  # relative to the segment mean
    assert not any(math.isnan(v) for v in feats["consensus"].to_list())


def test_zhen_uses_best_of_two_references(toy_zhen: Path) -> None:
    samples = load_samples(toy_zhen)
    feats = adequacy_features(samples.frame, samples.tgt_lang)
    row = feats.filter((pl.col("system") == "Good") & (pl.col("seg_id") == 4)).row(0, named=True)
    assert row["chrf"] == pytest.approx(100.0)  # identical to ref, not to refB
    untranslated = feats.filter((pl.col("system") == "Bad") & (pl.col("seg_id") == 5)).row(0, named=True)
    assert untranslated["script_share"] == 0.0
