"""Quotation marks: the style the targets use, the space inside guillemets, and the source–target
convention "where the source quotes, the target quotes this way".

Straight quotes are counted only outside markup (``href="…"`` is not a quotation).
"""

from __future__ import annotations

import re

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.patterns.base import (
    Family,
    count_variants,
    dominant,
    family_convention,
    variant,
)

MQM_QUOTES = "Linguistic conventions/Punctuation"
STRAIGHT = '(?<![=\\w])"[^"<>=\\n]{1,200}"'
CURLY = "\u201c[^\u201d\\n]{1,200}\u201d"
SOURCE_QUOTE = f"{STRAIGHT}|{CURLY}"
_INNER = {"nbsp": "\u00a0", "nnbsp": "\u202f", "space": " "}



STYLE = Family(
    "quotes:style",
    (variant("guillemets", "\u00ab[^\u00bb\\n]{1,200}\u00bb"), variant("curly", CURLY), variant("straight", STRAIGHT),
     variant("low", "\u201e[^\u201c\u201d\\n]{1,200}[\u201c\u201d]")),
    MQM_QUOTES, "quotation mark style",
)
GUILLEMET_SPACE = Family(
    "quotes:guillemet_inner_space",
    tuple([variant(k, f"\u00ab{re.escape(c)}|{re.escape(c)}\u00bb") for k, c in _INNER.items()]
          + [variant("none", "\u00ab(?=[^\\s\u00a0\u202f])|(?<=[^\\s\u00a0\u202f])\u00bb")]),
    MQM_QUOTES, "the space inside « »",
)
_OPEN_CLOSE = {"guillemets": ("\u00ab", "\u00bb"), "curly": ("\u201c", "\u201d"), "low": ("\u201e", "\u201c")}


def mine_quotes(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    targets = corpus.targets.gather(indices)
    out: list[Convention] = []
    occ, units = count_variants(STYLE, targets)
    style = dominant(occ, units, params)
    inner = None
    if style is not None:
        conv = family_convention(STYLE, style, corpus)
        if conv is not None:
            out.append(conv)
    if style == "guillemets":
        occ_i, units_i = count_variants(GUILLEMET_SPACE, targets)
        inner = dominant(occ_i, units_i, params)
        if inner is not None:
            conv = family_convention(GUILLEMET_SPACE, inner, corpus)
            if conv is not None:
                out.append(conv)
    if style in _OPEN_CLOSE:
        out.append(_pair(style, inner, corpus))
    return out


def _pair(style: str, inner: str | None, corpus: Corpus) -> Convention:
    """Where the source quotes, the target quotes in the client's style (measured afterwards)."""
    open_, close = _OPEN_CLOSE[style]
    space = re.escape(_INNER[inner]) if inner in _INNER else ""
    expected = f"{open_}{space}[^{close}\\n]{{1,200}}{space}{close}"
    conv = Convention(
        dimension="quotes:source_quoted", rule="pattern", src=SOURCE_QUOTE, src_regex=True,
        expected_terms=[expected], regex=True, match_mode="exact", src_lang=corpus.src_lang,
        tgt_lang=corpus.tgt_lang, mqm_category=MQM_QUOTES, origin="mined", status="candidate",
    )
    conv.extra = {"variant": f"{style}+{inner or 'any'}"}
    return conv
