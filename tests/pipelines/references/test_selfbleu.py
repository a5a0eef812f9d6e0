"""Self-BLEU (sacrebleu, candidate vs the rest) and the greedy selection below a threshold."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU

from housestyle.pipelines.references.selfbleu import select, self_bleu

CANDS = ["The cat sat on the mat today.", "The cat sat on the mat today!", "A feline rested upon the rug.",
         "Today my pet relaxed on a carpet."]


def test_self_bleu_is_sentence_bleu_against_the_others() -> None:
    values = self_bleu(CANDS)
    bleu = BLEU(effective_order=True)
    assert values[2] == pytest.approx(bleu.sentence_score(CANDS[2], [CANDS[0], CANDS[1], CANDS[3]]).score)
    assert values[0] is not None and values[0] > 80 and values[2] is not None and values[2] < 35
    assert self_bleu(["alone"]) == [None] and self_bleu([]) == []


def test_greedy_selection_keeps_one_of_two_near_copies() -> None:
    chosen = select(CANDS, threshold=35)
    assert len(chosen.removed) == 1 and chosen.removed[0][0] in CANDS[:2] and chosen.removed[0][1] > 80
    assert len(chosen.kept) == 3 and all(v is not None and v < 35 for v in chosen.kept_self_bleu)
    assert chosen.initial_self_bleu == self_bleu(CANDS)


def test_identical_candidates_leave_one_and_a_high_threshold_keeps_all() -> None:
    assert select(["same words here"] * 3).kept == ["same words here"]
    assert select(CANDS, threshold=101).kept == CANDS


def test_chinese_targets_use_the_zh_tokenizer() -> None:
    values = self_bleu(["我们明天见。", "我们明天见！", "明天再说吧。"], tgt_lang="zh")
    assert values[0] is not None and values[0] > values[2]  # type: ignore[operator]
