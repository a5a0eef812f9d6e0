"""What a pattern family is: closed variants of one typographic choice, counted in the targets.

A family lists the ways a target can write one thing (an apostrophe: ’ or '; the space before
``?``: U+00A0, U+202F, a space or none). The miner counts which variant the client's targets use;
when one dominates (``patterns.min_consistency``), the convention is "write it that way": the other
variants become wrong variants. Nothing comes from locale defaults: a family says what the choices
are, the TM says which one the client made. Code-point content → match_mode ``exact``.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from housestyle.pipelines.conventions.factors import required_factors
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.timed_regex import MAX_FAST_TEXT, MAX_TIMEOUTS, RegexTimeout, TimedPattern
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.params import MiningParams


LOG = logging.getLogger("housestyle.mining")


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    count: re.Pattern[str]  # finds occurrences in a raw target (for counting)
    wrong: str  # the regex that flags it in an output (exact mode)


def variant(name: str, pattern: str) -> Variant:
    """A variant whose counting regex and wrong-variant regex are the same expression."""
    return Variant(name, re.compile(pattern), pattern)


@dataclass(frozen=True, slots=True)
class Family:
    dimension: str
    variants: tuple[Variant, ...]
    mqm: str
    note: str
    # A regex every variant's match holds a match of, when ``required_factors`` picks a weaker one (a
    # space, not the currency sign): the prefilter then skips more targets (``family_prefilter``).
    requires: str = ""


@lru_cache(maxsize=256)
def family_prefilter(family: Family) -> re.Pattern[str] | None:
    """A search for the strings one of which every match of every variant of ``family`` holds
    (``factors.required_factors``: ``?`` for the space before it, the guillemets), or None when a
    variant has no such strings. A target without them has no variant to count, and most targets
    hold none: counting skips them (0.85 s to 0.49 s a pass over the demo TM's 18 families). A
    family's own ``requires`` comes first: it also keeps a hostile target out of a variant that
    backtracks (10,000 characters of ``1 1 1 …`` took 9.7 s in the currency space family)."""
    if family.requires:
        return re.compile(family.requires)
    factors: set[str] = set()
    for variant in family.variants:
        found = required_factors(variant.count.pattern)
        if found is None or variant.count.flags & re.IGNORECASE:
            return None
        factors.update(found)
    return re.compile("|".join(re.escape(f) for f in sorted(factors))) if factors else None


def count_variants(family: Family, targets: Sequence[str]) -> tuple[Counter[str], Counter[str]]:
    """(occurrences, units) per variant over raw targets. A target longer than the scorer's
    ``MAX_FAST_TEXT`` is counted on its timed engine (``_count_long``)."""
    occ: Counter[str] = Counter()
    units: Counter[str] = Counter()
    prefilter = family_prefilter(family)
    timed: dict[str, TimedPattern] = {}  # per call: a pattern stopped on one count is not stopped for the next
    for text in targets:
        if prefilter is not None and prefilter.search(text) is None:
            continue
        for variant in family.variants:
            if len(text) <= MAX_FAST_TEXT:
                n = len(variant.count.findall(text))  # one item per match, as finditer: no match objects
            else:
                n = _count_long(family, variant, text, timed)
            if n:
                occ[variant.name] += n
                units[variant.name] += 1
    return occ, units


def _count_long(family: Family, variant: Variant, text: str, timed: dict[str, TimedPattern]) -> int:
    """Matches of ``variant`` in a long target, bounded in time as the scorer bounds them: a currency
    amount backtracks over a run of numbers (20,000 characters of ``1 1 1 …`` and a ``$`` took about a
    minute, and a TM unit may hold 64 MiB). A timeout counts nothing for that target and is logged;
    after ``MAX_TIMEOUTS`` the variant is not run on the long targets left in this count."""
    pattern = timed.setdefault(variant.name, TimedPattern(variant.count.pattern))
    try:
        return sum(1 for _ in pattern.finditer(text))
    except RegexTimeout as exc:
        if not exc.stopped:  # once stopped, the last timeout's warning has said so
            after = "; not run on the further long targets of this count" if pattern.timeouts >= MAX_TIMEOUTS else ""
            LOG.warning("%s, variant %r: not counted in a target of %s characters (timed out after %g s)%s",
                        family.dimension, variant.name, f"{len(text):,}", exc.timeout, after)
        return 0


def dominant(occ: Counter[str], units: Counter[str], params: MiningParams) -> str | None:
    """The variant the client uses, if one dominates by occurrences and has enough units."""
    total = sum(occ.values())
    if not total:
        return None
    name, n = max(occ.items(), key=lambda kv: (kv[1], kv[0]))
    if units[name] < params.patterns.min_support or n / total < params.patterns.min_consistency:
        return None
    return name


def family_convention(family: Family, chosen: str, corpus: Corpus) -> Convention | None:
    """'Write it the ``chosen`` way': every other variant is a wrong variant (exact match)."""
    wrong = [v.wrong for v in family.variants if v.name != chosen]
    if not wrong:
        return None
    conv = Convention(
        dimension=family.dimension, rule="pattern", wrong_variants=wrong, regex=True, match_mode="exact",
        src_lang=corpus.src_lang, tgt_lang=corpus.tgt_lang, mqm_category=family.mqm, origin="mined",
        status="candidate",
    )
    shown = next(v.wrong for v in family.variants if v.name == chosen)
    conv.extra = {"variant": chosen, "family_note": family.note, "evidence_regex": shown}
    return conv


FamilyMiner = Callable[[Corpus, list[int], MiningParams], list[Convention]]


def mine_family(family: Family, corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    occ, units = count_variants(family, corpus.targets.gather(indices))
    chosen = dominant(occ, units, params)
    if chosen is None:
        return []
    conv = family_convention(family, chosen, corpus)
    if conv is not None:
        conv.extra["observed"] = dict(sorted(occ.items()))
    return [conv] if conv is not None else []
