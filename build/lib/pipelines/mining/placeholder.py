"""Placeholder and inline-code integrity, proposed from the tokens the sources actually hold.

Inline codes (⟨g1⟩, ⟨x2/⟩) are always checked by the rule; the printf/brace families listed in
``params.patterns`` are those seen in the client's sources, so a client whose text never uses
``{name}`` is not checked for it. ``verify`` measures the rule on the units.
"""

from __future__ import annotations

import re

from pipelines.conventions.model import Convention
from pipelines.mining.corpus import Corpus
from pipelines.mining.params import MiningParams
from pipelines.readers.base import INLINE_TOKEN_RE
from pipelines.rules.placeholder import DEFAULT_PATTERNS

MQM_PLACEHOLDER = "Locale conventions/Markup"  # MQM: Markup / placeholder integrity


def mine_placeholder(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    seen = [p for p in DEFAULT_PATTERNS if any(re.search(p, corpus.sources[i]) for i in indices)]
    inline = sum(1 for i in indices if INLINE_TOKEN_RE.search(corpus.sources[i]))
    if not seen and inline < params.placeholder_min_support:
        return []
    conv = Convention(
        dimension="placeholder:integrity", rule="placeholder", params={"patterns": seen} if seen else {},
        match_mode="exact", src_lang=corpus.src_lang, tgt_lang=corpus.tgt_lang, mqm_category=MQM_PLACEHOLDER,
        origin="mined", status="candidate",
    )
    return [conv]
