"""BLEU/chrF single- and multi-reference agree with sacrebleu's own API; signatures name the references."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from housestyle.pipelines.metaeval.metrics import (
    ReferenceScorer,
    ReferenceSet,
    corpus_score,
    corpus_stats,
    make_metric,
    segment_scores,
    signature,
    tokenizer_for,
)

HYPS = ["the cat sat on the mat .", "a dog barked", "hello world", "nothing here at all"]
REFS = [["the cat is on the mat .", "a cat sat on a mat"], ["the dog barked loudly"],
        ["hello there world", "hi world", "hello world !"], ["something else entirely"]]


@pytest.mark.parametrize("name", ["BLEU", "chrF"])
def test_segment_score_is_max_over_single_references(name: str) -> None:
    sentence = BLEU(effective_order=True) if name == "BLEU" else CHRF()
    expected = [max(sentence.sentence_score(h, [r]).score for r in refs) for h, refs in zip(HYPS, REFS)]
    assert segment_scores(name, HYPS, REFS) == pytest.approx(expected)


@pytest.mark.parametrize("name", ["BLEU", "chrF"])
def test_single_reference_segments_match_sentence_score(name: str) -> None:
    refs = [[r[0]] for r in REFS]
    sentence = BLEU(effective_order=True) if name == "BLEU" else CHRF()
    expected = [sentence.sentence_score(h, r).score for h, r in zip(HYPS, refs)]
    assert segment_scores(name, HYPS, refs) == pytest.approx(expected)


@pytest.mark.parametrize("name", ["BLEU", "chrF"])
def test_corpus_multi_reference_with_variable_counts_matches_sacrebleu(name: str) -> None:
    metric = BLEU() if name == "BLEU" else CHRF()
    streams = [[r[k] if k < len(r) else None for r in REFS] for k in range(3)]
    expected = metric.corpus_score(HYPS, streams).score  # type: ignore[arg-type]
    assert corpus_stats(name, HYPS, REFS).score() == pytest.approx(expected)
    score, sig = corpus_score(name, HYPS, REFS)
    assert score == pytest.approx(expected) and "nrefs:var" in sig


@pytest.mark.parametrize("name", ["BLEU", "chrF"])
def test_resampled_statistics_equal_the_resampled_corpus(name: str) -> None:
    counts = np.array([[2, 0, 1, 1], [0, 3, 0, 1]])
    stats = corpus_stats(name, HYPS, REFS)
    for row, value in zip(counts, stats.scores(counts)):
        idx = np.repeat(np.arange(len(HYPS)), row)
        hyps, refs = [HYPS[i] for i in idx], [REFS[i] for i in idx]
        assert value == pytest.approx(corpus_score(name, hyps, refs)[0])


def test_tokenizers_never_download() -> None:
    assert tokenizer_for("de") == "13a" and tokenizer_for("en") == "13a" and tokenizer_for("zh-Hans") == "zh"
    with pytest.raises(ValueError, match="downloads"):
        make_metric("BLEU", tokenize="spm")
    with pytest.raises(ValueError):
        make_metric("TER")
    with pytest.raises(ValueError, match="at least one reference"):
        ReferenceScorer("BLEU", [["x"], []])


def test_reference_sets_record_origin_and_signature() -> None:
    approved = ReferenceSet.from_texts("ref", {1: "the cat sat", 2: "a dog"})
    generated = ReferenceSet.from_texts("gen", {1: ["a cat sat", "the cat was sitting"]}, origin="generated")
    both = ReferenceSet.merge("ref+gen", approved, generated)
    assert both.texts(1) == ["the cat sat", "a cat sat", "the cat was sitting"]
    assert both.covered() == {1, 2}
    assert both.describe([1, 2]) == "refs:ref+gen|nrefs:1-3|origin:approved=2,generated=2"
    with pytest.raises(ValueError):
        ReferenceSet.from_texts("x", {1: "y"}, origin="invented")
    scorer = ReferenceScorer("BLEU", [both.texts(1), both.texts(2)], "en")
    scorer.corpus(["the cat sat", "a dog"])
    sig = signature("BLEU", scorer.metric, both, [1, 2])
    assert sig.startswith("BLEU|refs:ref+gen|nrefs:1-3|origin:approved=2,generated=2|")
    assert "tok:13a" in sig and "version:" in sig and "nrefs:var" not in sig
