"""Number-format agreement learned per client: how targets write the source's decimals and groups.

Source numbers are read with the checker's number grammar (``housestyle.pipelines.rules.numbers``: identifiers
such as ``3.2.1`` or ``20-0097189`` are not quantities and teach nothing about formats). Evidence
comes from source–target pairs: a source decimal ``3.5`` found in the target as ``3,5`` or ``3.5``;
a grouped source number ``12,000`` found as ``12 000`` / ``12\u00a0000`` / ``12\u202f000`` /
``12.000`` / ``12,000`` / ``12000``. The dominant decimal separator and every
group separator with a real share become the ``numeric`` rule's params; ``verify`` then measures
the whole rule (every source number present in that format) on the units.
"""

from __future__ import annotations

from collections import Counter

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams
from housestyle.pipelines.rules.numbers import SourceStyle, form_pattern, grouped, source_numbers

MQM_NUMBER = "Locale conventions/Number format"
_GROUP_SEPS = (" ", "\u00a0", "\u202f", ".", ",", "'", "")
_SOURCE = SourceStyle(".", ",")  # how the mined rule's source side is read (the rule's defaults)


def _bounded(text: str, form: str) -> bool:
    return form_pattern((form,), ".,").search(text) is not None


def learn_formats(corpus: Corpus, indices: list[int],
                  params: MiningParams = DEFAULT_PARAMS) -> tuple[Counter[str], Counter[str]]:
    decimals: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    for i in indices:
        source, target = corpus.sources[i], corpus.targets[i]
        for number in source_numbers(source, _SOURCE):
            if number.kind != "quantity":
                continue
            if number.fraction and not number.grouped and len(number.integer) <= params.numeric.max_integer_digits \
                    and len(number.fraction) <= params.numeric.max_fraction_digits:
                for sep in (",", "."):
                    if _bounded(target, f"{number.integer}{sep}{number.fraction}"):
                        decimals[sep] += 1
                        break
            elif number.grouped and not number.fraction:
                for sep in _GROUP_SEPS:
                    if _bounded(target, grouped(number.integer, sep)):
                        groups[sep] += 1
                        break
    return decimals, groups


def mine_numeric(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    decimals, groups = learn_formats(corpus, indices, params)
    if sum(decimals.values()) < params.numeric.min_support:
        return []
    decimal = max(decimals.items(), key=lambda kv: (kv[1], kv[0]))[0]
    if decimals[decimal] < params.numeric.min_consistency * sum(decimals.values()):
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
