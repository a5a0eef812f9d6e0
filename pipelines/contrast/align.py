"""What did the system write where the approved reference has the mandated term?

The output is aligned to the reference token by token with Levenshtein opcodes (rapidfuzz, on the
folded tokens). The nearest tokens that the two sentences share on each side of the term are the
anchors; what the output has between them is the system's rendering of the term, less closed-class
and punctuation tokens at its edges (``l'``, ``la``, ``de``). Tokens the two share INSIDE the term
stay part of the rendering (``barre latérale`` for ``barre d'outils``).

How far that can be trusted is recorded, not decided here: whether both anchors exist, how many
content words of the reference besides the term sit between the anchors (the rendering then may
include their translation too), and how similar the contexts around term and rendering are
(rapidfuzz ratio of the three tokens either side).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from housestyle.pipelines.contrast.analysis import Tok

CONTEXT_TOKENS = 3
SAME_WORD_RATIO = 85.0


@dataclass(frozen=True, slots=True)
class Extraction:
    """The output's rendering of one term occurrence, with how well it is anchored."""

    text: str  # raw output substring ("" = the system left nothing there: an omission)
    start: int
    end: int
    tokens: tuple[Tok, ...]
    left_anchor: bool
    right_anchor: bool
    gap: int  # content tokens of the reference between the anchors, other than the term's
    context_score: float  # 0..100, similarity of the contexts around term and rendering

    @property
    def content_tokens(self) -> int:
        return sum(t.is_content for t in self.tokens)


def _term_range(ref: Sequence[Tok], start: int, end: int) -> tuple[int, int] | None:
    idx = [i for i, t in enumerate(ref) if t.start < end and t.end > start]
    return (idx[0], idx[-1] + 1) if idx else None


def _equal_pairs(ref: Sequence[Tok], out: Sequence[Tok]) -> list[tuple[int, int]]:
    """(ref index, out index) of every token the alignment matches as equal."""
    pairs: list[tuple[int, int]] = []
    for op in Levenshtein.opcodes([t.norm for t in ref], [t.norm for t in out]):
        if op.tag == "equal":
            pairs.extend(zip(range(op.src_start, op.src_end), range(op.dest_start, op.dest_end)))
    return pairs


def _same_word(a: Tok, b: Tok) -> bool:
    """Same lemma, or (without lemmas) nearly the same folded form: ``nouvelle`` / ``nouveau``."""
    if a.lemma is not None and a.lemma == b.lemma:
        return True
    return fuzz.ratio(a.norm, b.norm) >= SAME_WORD_RATIO


def _trim(span: list[Tok], gap: list[Tok]) -> list[Tok]:
    """Drop edge tokens that are closed-class, or that render a reference word lying between the
    anchors outside the term (each such word is then no longer counted in ``gap``)."""
    while span:
        if not span[0].is_content:
            span.pop(0)
        elif not span[-1].is_content:
            span.pop()
        else:
            match = next(((k, end) for end in (0, -1) for k, g in enumerate(gap) if _same_word(span[end], g)), None)
            if match is None or len(span) == 1:
                break
            k, end = match
            gap.pop(k)
            span.pop(end)
    return span


def _context(tokens: Sequence[Tok]) -> str:
    return " ".join(t.norm for t in tokens)


def extract(ref: Sequence[Tok], term_start: int, term_end: int, out: Sequence[Tok], output: str) -> Extraction | None:
    """The output's counterpart of the reference characters [term_start, term_end); None when the
    term covers no reference token."""
    term = _term_range(ref, term_start, term_end)
    if term is None:
        return None
    t0, t1 = term
    pairs = _equal_pairs(ref, out)
    left = max(((i, j) for i, j in pairs if i < t0), default=None)
    right = min(((i, j) for i, j in pairs if i >= t1), default=None)
    lo = left[1] + 1 if left else 0
    hi = right[1] if right else len(out)
    ref_lo = left[0] + 1 if left else 0
    ref_hi = right[0] if right else len(ref)
    gap_toks = [ref[i] for i in range(ref_lo, ref_hi) if not t0 <= i < t1 and ref[i].is_content]
    span = _trim(list(out[lo:hi]) if hi > lo else [], gap_toks)
    gap = len(gap_toks)
    ref_ctx = _context([*ref[max(0, t0 - CONTEXT_TOKENS):t0], *ref[t1:t1 + CONTEXT_TOKENS]])
    out_ctx = _context([*out[max(0, lo - CONTEXT_TOKENS):lo], *out[hi:hi + CONTEXT_TOKENS]])
    score = float(fuzz.ratio(ref_ctx, out_ctx)) if ref_ctx or out_ctx else 100.0
    if not span:
        at = out[lo].start if lo < len(out) else len(output)
        return Extraction("", at, at, (), left is not None, right is not None, gap, score)
    start, end = span[0].start, span[-1].end
    return Extraction(output[start:end], start, end, tuple(span), left is not None, right is not None, gap, score)
