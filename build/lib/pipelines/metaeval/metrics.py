"""BLEU and chrF (sacrebleu), single- and multi-reference, with signatures that name the references.

Corpus level uses sacrebleu's own multi-reference statistics (clipped n-gram counts over all
references; a segment may have any number of references: streams are padded with ``None``, which
sacrebleu skips). Segment level is the MAXIMUM of the single-reference sentence scores over a
segment's references. Only tokenizers that need no download: 13a by default, ``zh`` for Chinese
targets, mecab for ja/ko (``spm``/``flores*`` are refused).

For the bootstrap we keep sacrebleu's per-segment sufficient statistics and rebuild a corpus score
from any counts-weighted sum of them; sacrebleu's public API has no such entry point, so we call
``_extract_corpus_statistics`` / ``_compute_score_from_stats``, exactly as sacrebleu's own
paired-bootstrap module (sacrebleu/significance.py) does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.metrics.base import Metric

SegId = int | str
ORIGINS = ("approved", "generated", "selected")
FORBIDDEN_TOKENIZERS = ("spm", "flores101", "flores200")
_TOKENIZER_BY_LANG = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


@dataclass(frozen=True)
class Reference:
    text: str
    origin: str = "approved"


@dataclass(frozen=True)
class ReferenceSet:
    """A named set of references, any number per segment; each reference records its origin.

    Generated references plug in here: build one with origin ``generated``/``selected`` and merge
    it with the approved one (``merge``) to evaluate approved + generated together.
    """

    name: str
    segments: Mapping[SegId, Sequence[Reference]] = field(default_factory=dict)

    @classmethod
    def from_texts(cls, name: str, texts: Mapping[int, Sequence[str] | str] | Mapping[str, Sequence[str] | str],
                   origin: str = "approved") -> ReferenceSet:
        if origin not in ORIGINS:
            raise ValueError(f"reference origin must be one of {ORIGINS}, not {origin!r}")
        segs: dict[SegId, list[Reference]] = {
            k: [Reference(t, origin) for t in ([v] if isinstance(v, str) else v)] for k, v in texts.items()}
        return cls(name, segs)

    @classmethod
    def merge(cls, name: str, *sets: ReferenceSet) -> ReferenceSet:
        merged: dict[SegId, list[Reference]] = {}
        for rs in sets:
            for seg, refs in rs.segments.items():
                merged.setdefault(seg, []).extend(refs)
        return cls(name, merged)

    def texts(self, seg: SegId) -> list[str]:
        return [r.text for r in self.segments.get(seg, ())]

    def covered(self) -> set[SegId]:
        """Segments with at least one reference (the only ones a reference metric can score)."""
        return {seg for seg, refs in self.segments.items() if refs}

    def describe(self, seg_ids: Sequence[SegId] | None = None) -> str:
        """``refs:NAME|nrefs:1-3|origin:approved=529,generated=1200`` over the given segments."""
        segs = list(self.segments) if seg_ids is None else list(seg_ids)
        per_seg = [len(self.segments.get(s, ())) for s in segs] or [0]
        origins = Counter(r.origin for s in segs for r in self.segments.get(s, ()))
        lo, hi = min(per_seg), max(per_seg)
        nrefs = str(lo) if lo == hi else f"{lo}-{hi}"
        origin_text = ",".join(f"{o}={origins[o]}" for o in ORIGINS if origins[o])
        return f"refs:{self.name}|nrefs:{nrefs}|origin:{origin_text}"


def tokenizer_for(tgt_lang: str) -> str:
    """sacrebleu's language default, restricted to tokenizers that download nothing."""
    return _TOKENIZER_BY_LANG.get(tgt_lang.split("-")[0].lower(), "13a")


def make_metric(name: str, tgt_lang: str = "", *, sentence: bool = False, tokenize: str | None = None,
                references: Any = None) -> Metric:
    """A sacrebleu metric object: ``BLEU`` (effective order at sentence level) or ``chrF``;
    ``references`` (sacrebleu streams) are pre-processed once and cached in the object."""
    if name == "BLEU":
        tok = tokenize or tokenizer_for(tgt_lang)
        if tok in FORBIDDEN_TOKENIZERS:
            raise ValueError(f"tokenizer {tok!r} downloads a model at run time; not available here")
        return BLEU(tokenize=tok, effective_order=sentence, references=references)
    if name == "chrF":
        return CHRF(references=references)
    raise ValueError(f"unknown metric {name!r}: expected BLEU or chrF")


METRIC_NAMES = ("BLEU", "chrF")


def _streams(refs: Sequence[Sequence[str]]) -> Any:
    """Per-segment reference lists → sacrebleu reference streams, padded with None (sacrebleu skips
    None references; its type hints say Sequence[Sequence[str]], hence Any)."""
    width = max((len(r) for r in refs), default=0)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


@dataclass
class CorpusStats:
    """Per-segment sufficient statistics of one system under one metric, re-aggregable."""

    metric: Metric
    stats: NDArray[np.float64]  # (n_segments, n_stats)

    def score(self, counts: NDArray[np.int64] | None = None) -> float:
        summed = self.stats.sum(axis=0) if counts is None else counts @ self.stats
        return float(self.metric._compute_score_from_stats(np.rint(summed).astype(np.int64).tolist()).score)

    def scores(self, counts: NDArray[np.int64]) -> NDArray[np.float64]:
        """Corpus score for each row of a (n_draws, n_segments) counts matrix."""
        summed = np.rint(counts @ self.stats).astype(np.int64)
        return np.array([self.metric._compute_score_from_stats(row.tolist()).score for row in summed], dtype=float)


class ReferenceScorer:
    """One metric against fixed per-segment reference lists, references pre-processed once and
    reused for every system (the bulk of the cost when many systems share references)."""

    def __init__(self, name: str, refs: Sequence[Sequence[str]], tgt_lang: str = "") -> None:
        if any(len(r) == 0 for r in refs):
            raise ValueError("every segment needs at least one reference")
        self.name = name
        self.metric = make_metric(name, tgt_lang, references=_streams(refs))
        self._sentence = make_metric(name, tgt_lang, sentence=True)
        self._per_ref: list[tuple[list[int], Metric]] = []
        if name == "BLEU" and max((len(r) for r in refs), default=0) > 1:
            # Multi-reference BLEU statistics merge the references' n-gram counts; the segment score
            # we want is the best single-reference score, so keep one cached scorer per reference slot.
            for k in range(max(len(r) for r in refs)):
                idx = [i for i, r in enumerate(refs) if len(r) > k]
                single = make_metric(name, tgt_lang, sentence=True, references=[[refs[i][k] for i in idx]])
                self._per_ref.append((idx, single))

    def corpus(self, hyps: Sequence[str]) -> CorpusStats:
        return CorpusStats(self.metric, np.asarray(self.metric._extract_corpus_statistics(list(hyps), None), dtype=float))

    def segments(self, hyps: Sequence[str], corpus: CorpusStats | None = None) -> list[float]:
        """Max over references of the single-reference sentence score (chrF's multi-reference
        statistics already are those of the best reference; BLEU needs one pass per reference)."""
        if not self._per_ref:
            rows = (corpus or self.corpus(hyps)).stats
            return [float(self._sentence._compute_score_from_stats([int(v) for v in row]).score) for row in rows]
        best = [float("-inf")] * len(hyps)
        for idx, single in self._per_ref:
            stats = single._extract_corpus_statistics([hyps[i] for i in idx], None)
            for i, row in zip(idx, stats):
                best[i] = max(best[i], float(single._compute_score_from_stats(row).score))
        return best


def corpus_stats(name: str, hyps: Sequence[str], refs: Sequence[Sequence[str]], tgt_lang: str = "") -> CorpusStats:
    """Statistics of ``hyps`` against per-segment reference lists (each non-empty)."""
    return ReferenceScorer(name, refs, tgt_lang).corpus(hyps)


def corpus_score(name: str, hyps: Sequence[str], refs: Sequence[Sequence[str]], tgt_lang: str = "") -> tuple[float, str]:
    """(score, sacrebleu signature) of a corpus against multi-references."""
    metric = make_metric(name, tgt_lang)
    result = metric.corpus_score(list(hyps), _streams(refs))
    return float(result.score), str(metric.get_signature())


def segment_scores(name: str, hyps: Sequence[str], refs: Sequence[Sequence[str]], tgt_lang: str = "") -> list[float]:
    """Sentence score of each hypothesis: max over its references of the single-reference score."""
    return ReferenceScorer(name, refs, tgt_lang).segments(hyps)


def signature(name: str, metric: Metric, reference_set: ReferenceSet, seg_ids: Sequence[SegId]) -> str:
    """sacrebleu's signature (of an already evaluated metric) with ``nrefs`` replaced by the
    reference set's name, count per segment and origins."""
    base = str(metric.get_signature()).split("|")
    kept = [part for part in base if not part.startswith("nrefs:")]
    segment = "seg:sentence-eff:yes,max-over-refs" if name == "BLEU" else "seg:sentence,max-over-refs"
    return "|".join([name, reference_set.describe(seg_ids), *kept, segment])
