"""Deterministic adequacy and surface figures per sample (raw values; criteria.py maps them to [0,1]).

Reference figures: sentence chrF and BLEU (sacrebleu through ``housestyle.pipelines.metaeval.metrics``; max over
a segment's references). Consensus: the mean sentence chrF of an output against the OTHER systems'
outputs for the same source (systems that agree with many others are rarely badly wrong: an
unsupervised, label-free signal; NaN when a segment has a single system). Relative figures: an
output's chrF / consensus minus the mean over the systems of its segment, which removes how hard
the segment is. The rest are cheap text checks: lengths, numbers, punctuation classes, tokens
copied from the source, script, repetition. Nothing here reads a label.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter

import numpy as np
import polars as pl

from housestyle.pipelines.metaeval.metrics import ReferenceScorer
from housestyle.pipelines.rules.numbers import LIBERAL, source_numbers

_WORD_RE = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
# Punctuation classes compared between output and references (full-width forms count as the same class).
PUNCT_CLASSES: dict[str, str] = {
    "question": "?？", "exclamation": "!！", "colon": ":：", "quote": "\"“”„«»「」『』", "parenthesis": "()（）",
    "dash": "—–", "semicolon": ";；",
}
_FINAL = {"question": "?？", "exclamation": "!！", "stop": ".。…"}

ADEQUACY_COLUMNS = (
    "chrf", "bleu", "consensus", "chrf_rel", "consensus_rel", "seg_consensus", "len_ratio_ref", "len_ratio_src",
    "src_chars", "number_agreement", "punct_agreement", "final_punct_agreement", "copied_share", "script_share",
    "repetition",
)


def script_of(ch: str) -> str | None:
    """The script word of a letter (LATIN, CJK, CYRILLIC, HIRAGANA…) from its Unicode name."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return name.split(" ")[0] if name else None


def script_share(output: str, references: list[str]) -> float:
    """Share of the output's letters written in the references' dominant script (1 when no letters)."""
    ref_scripts = Counter(s for r in references for s in map(script_of, r) if s)
    out_scripts = [s for s in map(script_of, output) if s]
    if not out_scripts or not ref_scripts:
        return 1.0
    main = ref_scripts.most_common(1)[0][0]
    return sum(s == main for s in out_scripts) / len(out_scripts)


def number_agreement(source: str, output: str) -> float:
    """|source numbers ∩ output numbers| / |union| (1 when neither has a number). Numbers are read
    with the checker's grammar (``housestyle.pipelines.rules.numbers``): the source as English-style digits
    (scale words: ``2.5 million`` is also 2500000), the output in any locale's format (digits
    compared without separators); identifiers (``1-800-555-0199``) are one number each."""
    src = {frozenset(n.keys()) for n in source_numbers(source)}
    out = {frozenset(n.keys()) for n in source_numbers(output, LIBERAL)}
    if not src and not out:
        return 1.0
    matched_src = sum(1 for s in src if any(s & o for o in out))
    matched_out = sum(1 for o in out if any(s & o for s in src))
    common = min(matched_src, matched_out)
    return common / (len(src) + len(out) - common)


def _classes(text: str) -> set[str]:
    return {name for name, chars in PUNCT_CLASSES.items() if any(c in text for c in chars)}


def punct_agreement(output: str, references: list[str]) -> float:
    """Share of punctuation classes on which the output agrees with the references (present in the
    output iff present in some reference); 1 when neither uses any."""
    out = _classes(output)
    ref = set().union(*(_classes(r) for r in references)) if references else set()
    union = out | ref
    return 1.0 if not union else len(out & ref) / len(union)


def _final(text: str) -> str:
    stripped = text.rstrip(" \"'”“’»」』)）")
    last = stripped[-1:] if stripped else ""
    return next((name for name, chars in _FINAL.items() if last and last in chars), "none")


def final_punct_agreement(output: str, references: list[str]) -> float:
    """1 when the output ends like one of its references (question / exclamation / stop / none)."""
    return 1.0 if _final(output) in {_final(r) for r in references} else 0.0


def copied_share(source: str, output: str, references: list[str]) -> float:
    """Share of the output's words (3+ letters) copied from the source but absent from every
    reference: untranslated text (names the reference also keeps are legitimate copies)."""
    words = [w.casefold() for w in _WORD_RE.findall(output)]
    if not words:
        return 0.0
    src = {w.casefold() for w in _WORD_RE.findall(source)}
    ref = {w.casefold() for r in references for w in _WORD_RE.findall(r)}
    return sum(w in src and w not in ref for w in words) / len(words)


def repetition(output: str) -> float:
    """Share of repeated units among the output's trigrams (words; characters for unspaced scripts)."""
    units = output.split() if " " in output.strip() else list(output.strip())
    grams = [tuple(units[i:i + 3]) for i in range(len(units) - 2)]
    return 0.0 if not grams else 1.0 - len(set(grams)) / len(grams)


def _consensus(frame: pl.DataFrame, tgt_lang: str) -> list[float]:
    """Mean sentence chrF of each row's output against every other system's output of its segment."""
    systems = sorted(frame["system"].unique().to_list())
    by_system = {s: dict(zip(g["seg_id"].to_list(), g["target"].to_list()))
                 for s, g in ((k[0], v) for k, v in frame.group_by("system"))}
    total: dict[tuple[str, int], list[float]] = {}
    for other in systems:
        refs_of = by_system[other]
        seg_ids = sorted(refs_of)
        scorer = ReferenceScorer("chrF", [[refs_of[k]] for k in seg_ids], tgt_lang)
        index = {k: i for i, k in enumerate(seg_ids)}
        for system in systems:
            if system == other:
                continue
            common = [k for k in by_system[system] if k in index]
            hyps = [by_system[system].get(k, "") for k in seg_ids]
            scores = scorer.segments(hyps)
            for k in common:
                total.setdefault((system, k), []).append(scores[index[k]])
    return [float(np.mean(total[(s, k)])) if (s, k) in total else math.nan
            for s, k in zip(frame["system"].to_list(), frame["seg_id"].to_list())]


def _reference_scores(frame: pl.DataFrame, name: str, tgt_lang: str) -> list[float]:
    refs = frame["references"].to_list()
    return ReferenceScorer(name, refs, tgt_lang).segments(frame["target"].to_list())


def adequacy_features(samples: pl.DataFrame, tgt_lang: str) -> pl.DataFrame:
    """system, seg_id and ADEQUACY_COLUMNS for every sample (SAMPLES_SCHEMA input)."""
    frame = samples.select("system", "seg_id", "source", "target", "references")
    if frame.is_empty():
        return frame.select("system", "seg_id").with_columns([pl.lit(None, dtype=pl.Float64).alias(c)
                                                             for c in ADEQUACY_COLUMNS])
    texts = list(zip(frame["source"].to_list(), frame["target"].to_list(), frame["references"].to_list()))
    mean_ref_len = [float(np.mean([len(r) for r in refs])) for _, _, refs in texts]
    out = frame.select("system", "seg_id").with_columns(
        pl.Series("chrf", _reference_scores(frame, "chrF", tgt_lang)),
        pl.Series("bleu", _reference_scores(frame, "BLEU", tgt_lang)),
        pl.Series("consensus", _consensus(frame, tgt_lang), dtype=pl.Float64),
        pl.Series("len_ratio_ref", [math.log((len(o) + 1) / (m + 1)) for (_, o, _), m in zip(texts, mean_ref_len)]),
        pl.Series("len_ratio_src", [math.log((len(o) + 1) / (len(s) + 1)) for s, o, _ in texts]),
        pl.Series("src_chars", [float(len(s)) for s, _, _ in texts]),
        pl.Series("number_agreement", [number_agreement(s, o) for s, o, _ in texts]),
        pl.Series("punct_agreement", [punct_agreement(o, r) for _, o, r in texts]),
        pl.Series("final_punct_agreement", [final_punct_agreement(o, r) for _, o, r in texts]),
        pl.Series("copied_share", [copied_share(s, o, r) for s, o, r in texts]),
        pl.Series("script_share", [script_share(o, r) for _, o, r in texts]),
        pl.Series("repetition", [repetition(o) for _, o, _ in texts]),
    )
    out = out.with_columns(
        (pl.col("chrf") - pl.col("chrf").mean().over("seg_id")).alias("chrf_rel"),
        (pl.col("consensus") - pl.col("consensus").mean().over("seg_id")).alias("consensus_rel"),
        pl.col("consensus").mean().over("seg_id").alias("seg_consensus"),
    )
    return out.select("system", "seg_id", *ADEQUACY_COLUMNS)
