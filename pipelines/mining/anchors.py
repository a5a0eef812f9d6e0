"""Anchors: what a translation copies from its source — digit runs and acronym-like names
(``IPv6``, ``WebRTC``, ``HTTP``) — as a second witness of misaligned TM units beside the
term rules (``suspect_units``).

Why: a misaligned run (TICO-19 en→fr's PubMed_8 pairs most of its sources with other sentences'
targets) is told by the term rules it fails, but many of its units trigger only one or two rules
and so can never be improbable enough. Numbers and names need no mining: an aligned target keeps
them, with a rate the TM itself shows.

Each (unit, anchor) pair is one trial of the suspect test, in both directions: a source anchor the
target drops, and a target anchor its source lacks (a misaligned target brings its own numbers). Its failure probability is the anchor's
own miss rate over the OTHER units holding it (leave-one-out, so a unit never witnesses for
itself), smoothed towards the miss rate of its class (digits or names) with the weight of
``PRIOR_UNITS`` units — an anchor seen once is judged by its class, one seen in 40 units by itself
(``NATO`` → ``OTAN`` is never copied: missing it is no evidence). A misaligned target that happens
to hold the same number passes that trial: the test only errs towards keeping a unit.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from housestyle.pipelines.conventions.matching import mask_code

# a number: digit groups joined by a thousands separator (2400 / 2 400 / 2,400 are one number), an
# optional decimal part; compared by its digits alone (3.5 and 3,5 are one number)
NUMBER = re.compile(r"\d{1,3}(?:[ ,.'\u00a0\u2009\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?")
NOT_DIGIT = re.compile(r"\D")
# a word with two capitals, or a capital and a digit: acronyms and product names, not a sentence's
# first word (hyphens and digits inside: IPv6, WebRTC, Wi-Fi, GPT-4o, ISO-8859-1)
WORD = re.compile(r"[^\W_][\w-]*[^\W_]")
PRIOR_UNITS = 2.0  # weight of the class rate: the rule of succession's two pseudo-units
# an anchor at most this many sources hold, kept by the target, shows the unit aligned: a misaligned
# target holds a number like 473,933,356 by chance almost never (one unit, or a duplicate of it)
RARE_SOURCES = 2


def name_key(word: str) -> str:
    """An acronym's English plural is the acronym (HCoVs, CoVs, URLs): targets write it bare."""
    return word[:-1] if len(word) > 2 and word.endswith("s") and word[-2].isupper() else word


def is_name(word: str) -> bool:
    capitals = sum(map(str.isupper, word))  # map: C-level loops (the suspect test reads every unit twice)
    return capitals >= 2 or (capitals == 1 and any(map(str.isdigit, word)) and not word[0].isdigit())


def numbers_of(text: str) -> set[str]:
    return {NOT_DIGIT.sub("", n) for n in NUMBER.findall(text)}


def anchors_of(source: str) -> set[tuple[str, str]]:
    """(class, anchor) pairs of a source, outside code spans (placeholders and tags are checked by
    their own rule)."""
    text = mask_code(source)
    alpha = list(filter(str.isalpha, text))
    upper, lower = sum(map(str.isupper, alpha)), sum(map(str.islower, alpha))
    shouting = upper > (upper + lower) / 2  # an ALL-CAPS text: no word is a name
    words = WORD.findall(text)
    capitals = [w.isalpha() and w.isupper() for w in words]
    # ALL-CAPS words side by side are emphasis ("IT IS FURTHER ORDERED"), not names
    emphasis = {w for i, w in enumerate(words) if capitals[i] and (i and capitals[i - 1] or i + 1 < len(words) and capitals[i + 1])}
    # a lower-case word has no capital (``islower``, one C call, spares ``is_name`` most words)
    names = set() if shouting else {w for w in words if not w.islower() and is_name(w) and w not in emphasis}
    # a name's own digits (the 6 of IPv6) are not a second, dependent witness; blanking a name
    # without digits changes no number (the word is letters between non-word characters)
    numbered = {w for w in names if any(map(str.isdigit, w))}
    digits = numbers_of(WORD.sub(lambda m: " " if m.group() in numbered else m.group(), text) if numbered else text)
    return {("digits", d) for d in digits} | {("name", name_key(w)) for w in names}


def kept(anchor: tuple[str, str], other: str, other_digits: set[str]) -> bool:
    """Whether the other side holds the anchor: the same digit run, or the name as written."""
    kind, text = anchor
    return text in other_digits if kind == "digits" else text in other


@dataclass(frozen=True, slots=True)
class Trials:
    """One row per (unit, anchor): the unit's index, the failure probability, whether it failed."""

    unit: np.ndarray
    rate: np.ndarray
    failed: np.ndarray

    @staticmethod
    def empty() -> Trials:
        return Trials(np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0, dtype=bool))


Anchor = tuple[str, str, str]  # (direction, class, text)


Outcome = tuple[int, Anchor, bool]  # (unit, anchor, missed on the other side)


def anchor_outcomes(sources: Sequence[str], targets: Sequence[str]) -> list[Outcome]:
    """Each unit's anchors, both directions: the source's looked for in the target, the target's in
    the source. What is kept does not depend on the other units: computed once per corpus."""
    rows: list[Outcome] = []
    for i, (source, target) in enumerate(zip(sources, targets)):
        source, target = source or "", target or ""
        for direction, text, other in (("kept", source, target), ("brought", target, source)):
            anchors = anchors_of(text) if text else set()
            if not anchors:
                continue
            other_digits = numbers_of(other)
            for kind, anchor in sorted(anchors):
                rows.append((i, (direction, kind, anchor), not kept((kind, anchor), other, other_digits)))
    return rows


def anchor_trials(sources: Sequence[str], targets: Sequence[str], exclude: Collection[int] = frozenset(),
                  outcomes: list[Outcome] | None = None) -> Trials:
    """Every (unit, anchor) trial of the corpus, with its leave-one-out smoothed miss rate (an
    aligned target seldom brings a number or a name its source lacks; ``OTAN`` for ``NATO`` is
    always "brought" and so no witness). The ``exclude``d units (already told misaligned) get
    trials but count in no rate: a misaligned run must not teach that its names go missing.
    ``outcomes``: ``anchor_outcomes`` of the same texts, when the caller has them."""
    rows = outcomes if outcomes is not None else anchor_outcomes(sources, targets)
    if not rows:
        return Trials.empty()
    seen: dict[Anchor, list[int]] = defaultdict(lambda: [0, 0])  # anchor -> [units, misses]
    for i, key, miss in rows:
        if i not in exclude:
            seen[key][0] += 1
            seen[key][1] += miss
    totals: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (direction, kind, _), (units, misses) in seen.items():
        totals[(direction, kind)][0] += units
        totals[(direction, kind)][1] += misses
    class_rate = {key: (misses + 1) / (units + 2) for key, (units, misses) in totals.items()}
    unit = np.fromiter((i for i, _, _ in rows), dtype=np.int64, count=len(rows))
    failed = np.fromiter((miss for _, _, miss in rows), dtype=bool, count=len(rows))
    rate = np.empty(len(rows))
    for k, (i, key, miss) in enumerate(rows):
        units, misses = seen[key] if key in seen else (0, 0)
        own = 0 if i in exclude else 1  # leave the unit's own trial out of its rate
        prior = class_rate.get(key[:2], 0.5)
        rate[k] = (misses - own * miss + PRIOR_UNITS * prior) / (units - own + PRIOR_UNITS)
    return Trials(unit, rate, failed)


def kept_rare_anchor(sources: Sequence[str], targets: Sequence[str], outcomes: list[Outcome] | None = None) -> set[int]:
    """Units whose target keeps a source anchor that at most ``RARE_SOURCES`` sources hold: never
    misaligned, however many term rules a free translation of them fails."""
    rows = [r for r in (outcomes if outcomes is not None else anchor_outcomes(sources, targets)) if r[1][0] == "kept"]
    holders: dict[Anchor, int] = defaultdict(int)
    for _, key, _ in rows:
        holders[key] += 1
    return {i for i, key, miss in rows if not miss and holders[key] <= RARE_SOURCES}
