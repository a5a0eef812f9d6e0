"""Do-not-translate spans: names, codes and URLs the client's targets copy verbatim from the source.

Candidates are source tokens that look like names or codes (CamelCase, ALL CAPS, letter–digit
mixes, capitalised words not starting a sentence) and URLs. A candidate copied into the target
(exact code points, word-bounded) in >= ``source_copy.min_support`` units and in >= ``source_copy.min_consistency``
of the units whose source holds it becomes a ``source_copy`` rule (match_mode ``exact``).
"""

from __future__ import annotations

import re
from collections import Counter

from housestyle.pipelines.conventions.matching import find_plain
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.tokens import mask

MQM_COPY = "Accuracy/Should not have been translated"
URL_RE = r"https?://[^\s<>\"')\]]+"
_TOKEN = re.compile(r"(?<![\w.\-])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?![\w\-])")
_SENTENCE_START = re.compile(r"(?:^|[.!?…:]['\"’”»)\]]*\s+|[\[(]\s*)$")


def _name_like(token: str, start: int, text: str) -> bool:
    if len(token) < 2:
        return False
    inner_upper = any(c.isupper() for c in token[1:])
    has_digit = any(c.isdigit() for c in token)
    if inner_upper or (has_digit and token[0].isalpha()):
        return True  # CamelCase, ALLCAPS, H1N1, macOS
    return token[0].isupper() and not _SENTENCE_START.search(text[:start])


def candidates(source: str) -> set[str]:
    masked = mask(source)
    return {m.group() for m in _TOKEN.finditer(masked) if _name_like(m.group(), m.start(), masked)}


def mine_source_copy(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    seen: Counter[str] = Counter()
    copied: Counter[str] = Counter()
    sources = corpus.sources.gather(indices)
    for source, target in zip(sources, corpus.targets.gather(indices)):
        for token in candidates(source):
            seen[token] += 1
            if find_plain(target, token, first_only=True):
                copied[token] += 1
    out = []
    for token in sorted(copied):
        if copied[token] >= params.source_copy.min_support and copied[token] >= params.source_copy.min_consistency * seen[token]:
            out.append(_rule(token, False, corpus))
    urls = [source for source in sources if re.search(URL_RE, source)]
    if len(urls) >= params.source_copy.min_support:
        out.append(_rule(URL_RE, True, corpus))
    return out


def _rule(src: str, is_regex: bool, corpus: Corpus) -> Convention:
    name = "url" if is_regex else src
    return Convention(
        dimension=f"copy:{name}", rule="source_copy", src=src, src_regex=is_regex, match_mode="exact",
        src_lang=corpus.src_lang, tgt_lang=corpus.tgt_lang, mqm_category=MQM_COPY, origin="mined", status="candidate",
    )
