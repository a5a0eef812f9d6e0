"""Number-format agreement learned per client: how targets write the source's decimals and groups.

Evidence comes from source–target pairs: a source decimal ``3.5`` found in the target as ``3,5``
or ``3.5``; a grouped source number ``12,000`` found as ``12 000`` / ``12\u00a0000`` /
``12\u202f000`` / ``12.000`` / ``12,000`` / ``12000``. The dominant decimal separator and every
group separator with a real share become the ``numeric`` rule's params; ``verify`` then measures
the whole rule (every source number present in that format) on the units.
"""

from __future__ import annotations

import re
from collections import Counter

from pipelines.conventions.model import Convention
from pipelines.mining.corpus import Corpus
from pipelines.mining.params import MiningParams

MQM_NUMBER = "Locale conventions/Number format"
_DECIMAL = re.compile(r"(?<![\w.,])(\d{1,6})\.(\d{1,4})(?![\d.,]|\.\d)")
_GROUPED = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+)(?![\d,]|\.\d)")
_GROUP_SEPS = (" ", "\u00a0", "\u202f", ".", ",", "'", "")


def _bounded(text: str, form: str) -> bool:
    return re.search(rf"(?<![\d.,]){re.escape(form)}(?![\d]|[.,]\d)", text) is not None


def learn_formats(corpus: Corpus, indices: list[int]) -> tuple[Counter[str], Counter[str]]:
    decimals: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    for i in indices:
        source, target = corpus.sources[i], corpus.targets[i]
        for m in _DECIMAL.finditer(source):
            for sep in (",", "."):
                if _bounded(target, f"{m.group(1)}{sep}{m.group(2)}"):
                    decimals[sep] += 1
                    break
        for m in _GROUPED.finditer(source):
            parts = m.group(1).split(",")
            for sep in _GROUP_SEPS:
                if _bounded(target, sep.join(parts)):
                    groups[sep] += 1
                    break
    return decimals, groups


def mine_numeric(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    decimals, groups = learn_formats(corpus, indices)
    if sum(decimals.values()) < params.numeric_min_support:
        return []
    decimal = max(decimals.items(), key=lambda kv: (kv[1], kv[0]))[0]
    if decimals[decimal] < params.numeric_min_consistency * sum(decimals.values()):
        return []
    total = sum(groups.values())
    accepted = sorted(s for s, n in groups.items() if s and s != decimal and n * 10 >= total)
    p: dict[str, object] = {"decimal": decimal}
    if accepted:
        p["group"] = accepted if len(accepted) > 1 else accepted[0]
    conv = Convention(
        dimension="number:format", rule="numeric", params=p, match_mode="exact", src_lang=corpus.src_lang,
        tgt_lang=corpus.tgt_lang, mqm_category=MQM_NUMBER, origin="mined", status="candidate",
    )
    conv.extra = {"observed_decimal": dict(sorted(decimals.items())), "observed_group": {repr(k): v for k, v in sorted(groups.items())}}
    return [conv]
