"""Placeholder and inline-code integrity, proposed from the tokens the sources actually hold.

Inline codes (⟨g1⟩, ⟨x2/⟩) are always checked by the rule; the printf/brace families listed in
``params.patterns`` are those seen in the client's sources, so a client whose text never uses
``{name}`` is not checked for it. HTML/XML tags written as text (PO, TSV and JSONL keep markup as
plain text; XLIFF inline codes become tokens) join the patterns when at least
``placeholder.min_support`` source units hold one. ``verify`` measures the rule on the units; since
the rule applies to every segment, its evidence is the units whose target shows a token
(``extra["evidence_regex"]``), not the many that pass because neither side has one.
"""

from __future__ import annotations

import re

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.readers.base import INLINE_TOKEN_RE
from housestyle.pipelines.rules.placeholder import DEFAULT_PATTERNS, MARKUP_PATTERN

MQM_PLACEHOLDER = "Locale conventions/Markup"  # MQM: Markup / placeholder integrity


def _units_with(pattern: str, texts: list[str]) -> int:
    compiled = re.compile(pattern)
    return sum(1 for text in texts if compiled.search(text))


def mine_placeholder(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    sources = [corpus.sources[i] for i in indices]
    seen = [p for p in DEFAULT_PATTERNS if _units_with(p, sources)]
    if _units_with(MARKUP_PATTERN, sources) >= params.placeholder.min_support:
        seen.append(MARKUP_PATTERN)
    inline = _units_with(INLINE_TOKEN_RE.pattern, sources)
    if not seen and inline < params.placeholder.min_support:
        return []
    conv = Convention(
        # patterns always listed (an empty list checks the inline codes only; omitted would mean the defaults)
        dimension="placeholder:integrity", rule="placeholder", params={"patterns": seen},
        match_mode="exact", src_lang=corpus.src_lang, tgt_lang=corpus.tgt_lang, mqm_category=MQM_PLACEHOLDER,
        origin="mined", status="candidate",
    )
    conv.extra = {"evidence_regex": "|".join(f"(?:{p})" for p in (INLINE_TOKEN_RE.pattern, *seen))}
    return [conv]
