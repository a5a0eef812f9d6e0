"""Sentence vs title case of short title-like units (``Manage Devices`` → ``Gérer les appareils``).

Title-like sources (2+ words, every major word capitalised, no sentence punctuation) are selected by
a source regex; the convention says their targets are in sentence case (``strict``: no capital
after the first word) except for names in ``keep``. The keep-list is learned from the TM: words
that targets write capitalised in mid-sentence (almost) every time they occur (Acme, Thunderbird,
Windows). The rule is only proposed; ``verify`` measures it on the units and keeps it if
consistent. Uncased target scripts (zh, ja) never yield it.
"""

from __future__ import annotations

import re
from collections import Counter

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.langtags import CAPITALISED_NOUNS
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams, at_least
from housestyle.pipelines.mining.tokens import mask

MINOR = ("a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "of", "on", "or", "per", "the",
         "to", "via", "vs", "with", "your", "my", "our", "you", "is", "are", "it")


def title_source(params: MiningParams = DEFAULT_PARAMS) -> str:
    """The source trigger of the casing rule. Written without nested repeats (the set validator
    refuses them as potentially catastrophic): no word may start lowercase unless it is a minor word;
    the first word and a later one are capitalised; no sentence punctuation."""
    most = params.casing.title_max_chars
    return (rf"^(?!.*(?<= )(?!(?:{'|'.join(MINOR)})\b)[a-z])"
            rf"[A-Z][^.!:;\n]{{0,{most}}} [A-Z0-9][^.!:;\n]{{0,{most}}}$")


TITLE_SOURCE = title_source()
_TITLE_RE = re.compile(TITLE_SOURCE)
_WORD_RE = re.compile(r"[^\W\d_][\w'’\-]*")
_SENTENCE_END = re.compile(r"[.!?…:]['\"’”»)\]]*\s+$")
MQM_CASING = "Linguistic conventions/Capitalization"


def learn_keep(sources: list[str], targets: list[str], params: MiningParams) -> list[str]:
    """Names whose casing the client keeps: words written capitalised mid-sentence in >=
    ``casing.keep_min_units`` targets and lowercase in (almost) none, plus capitalised words a
    target copies verbatim from its own source (Buenos Aires, Tel Aviv)."""
    capital: Counter[str] = Counter()
    lower: Counter[str] = Counter()
    copied: set[str] = set()
    for source, text in zip(sources, targets):
        src_words = {m.group() for m in _WORD_RE.finditer(mask(source)) if m.group()[0].isupper()}
        copied.update(m.group() for m in _WORD_RE.finditer(mask(text)) if m.group() in src_words)
        masked = mask(text)
        seen_cap, seen_low = set(), set()
        for index, match in enumerate(_WORD_RE.finditer(masked)):
            word = match.group()
            if index == 0 or _SENTENCE_END.search(masked[: match.start()]) or masked[: match.start()].rstrip().endswith(("[", "(")):
                continue
            if word[0].isupper() and not word.isupper():
                seen_cap.add(word)
            elif word.islower():
                seen_low.add(word)
        capital.update(seen_cap)
        lower.update(seen_low)
    keep = {w for w, n in capital.items()
            if n >= params.casing.keep_min_units and at_least(n, lower.get(w.lower(), 0), params.casing.keep_min_ratio)}
    keep.update(w for w in copied if not w.isupper() and lower.get(w.lower(), 0) == 0)
    return sorted(keep)


def lowercase_initials(sources: list[str], targets: list[str], params: MiningParams) -> list[str]:
    """First words the targets of title-like sources write in lowercase in >= ``casing.keep_min_units``
    units and never capitalised there: list labels whose language does not capitalise them (French
    language names, ``anglais britannique``). They join ``keep``, so the first-word check leaves
    them as written."""
    lower: Counter[str] = Counter()
    capital: Counter[str] = Counter()
    for source, text in zip(sources, targets):
        if not _TITLE_RE.match(source):
            continue
        first = _WORD_RE.search(mask(text))
        if first is None or first.start() > 0 and mask(text)[: first.start()].strip():
            continue
        word = first.group()
        (lower if word.islower() else capital)[word.casefold()] += 1
    return sorted(w for w, n in lower.items() if n >= params.casing.keep_min_units and not capital[w])


# CAPITALISED_NOUNS (langtags): sentence case there says only that the first word is capitalised
# (held-out, Django/Wagtail de: strict flagged ``Statische Dateien``, ``Treffern``).


def mine_casing(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    targets = corpus.targets.gather(indices)
    sources = corpus.sources.gather(indices)
    if not any(c.isupper() for t in targets[:params.casing.script_probe_units] for c in t):
        return []  # uncased target script
    source = title_source(params)
    title = re.compile(source)
    titled = sum(1 for text in sources if title.match(text))
    if titled < params.casing.min_support:
        return []
    conv = Convention(
        dimension="casing:title_to_sentence", rule="casing", src=source, src_regex=True,
        src_match_mode="exact", match_mode="exact",
        params={"style": "sentence",
                "strict": corpus.tgt_lang.split("-")[0].lower() not in CAPITALISED_NOUNS,
                "keep": sorted(set(learn_keep(sources, targets, params)) | set(lowercase_initials(sources, targets, params)))},
        src_lang=corpus.src_lang, tgt_lang=corpus.tgt_lang, mqm_category=MQM_CASING, origin="mined",
        status="candidate",
    )
    return [conv]
