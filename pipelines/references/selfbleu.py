"""Diversity-aware selection: Self-BLEU of each candidate against the other candidates.

Self-BLEU(c) = sacrebleu sentence BLEU of c with every other candidate as its references. The method
keeps candidates below a threshold (default 35). Applied once, two near-copies of each other would
BOTH be dropped although one of them is as diverse as any; so the filter is applied greedily: the
candidate with the highest Self-BLEU goes, the rest are re-scored, until all are below the threshold
(or one is left). Both the initial and the final values are recorded with the kept set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sacrebleu.metrics import BLEU

from housestyle.pipelines.metaeval.metrics import tokenizer_for

DEFAULT_THRESHOLD = 35.0


def _bleu(tgt_lang: str) -> BLEU:
    return BLEU(tokenize=tokenizer_for(tgt_lang), effective_order=True)


def self_bleu(candidates: Sequence[str], tgt_lang: str = "en") -> list[float | None]:
    """Self-BLEU of each candidate vs the others (None for a lone candidate: nothing to compare)."""
    if len(candidates) < 2:
        return [None] * len(candidates)
    bleu = _bleu(tgt_lang)
    return [float(bleu.sentence_score(c, [o for j, o in enumerate(candidates) if j != i]).score)
            for i, c in enumerate(candidates)]


@dataclass(slots=True)
class Selection:
    kept: list[str] = field(default_factory=list)
    kept_self_bleu: list[float | None] = field(default_factory=list)  # final values among the kept
    initial_self_bleu: list[float | None] = field(default_factory=list)  # per input candidate
    removed: list[tuple[str, float]] = field(default_factory=list)  # (candidate, Self-BLEU when removed)


def select(candidates: Sequence[str], threshold: float = DEFAULT_THRESHOLD, tgt_lang: str = "en") -> Selection:
    """Greedy Self-BLEU filter: drop the most redundant candidate until every one is below ``threshold``."""
    pool = list(candidates)
    out = Selection(initial_self_bleu=self_bleu(pool, tgt_lang))
    values = list(out.initial_self_bleu)
    while len(pool) > 1:
        worst = max(range(len(pool)), key=lambda i: values[i] or 0.0)
        score = values[worst]
        if score is None or score < threshold:
            break
        out.removed.append((pool.pop(worst), score))
        values = self_bleu(pool, tgt_lang)
    out.kept, out.kept_self_bleu = pool, values
    return out
