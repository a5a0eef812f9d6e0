"""Anchors: what a translation copies from its source — digit runs and acronym-like names
(``SARS-CoV-2``, ``HCoV``, ``COVID``) — as a second witness of misaligned TM units beside the
term rules (``suspect_units``).

Why: a misaligned run (TICO-19 en→fr's PubMed_8 pairs most of its sources with other sentences'
targets) is told by the term rules it fails, but many of its units trigger only one or two rules
and so can never be improbable enough. Numbers and names need no mining: an aligned target keeps
them, with a rate the TM itself shows.

Each (unit, anchor) pair is one trial of the suspect test. Its failure probability is the anchor's
own miss rate over the OTHER units holding it (leave-one-out, so a unit never witnesses for
itself), smoothed towards the miss rate of its class (digits or names) with the weight of
``PRIOR_UNITS`` units — an anchor seen once is judged by its class, one seen in 40 units by itself
(``WHO`` → ``OMS`` is never copied: missing it is no evidence). A misaligned target that happens
to hold the same number passes that trial: the test only errs towards keeping a unit.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from housestyle.pipelines.conventions.matching import mask_code

DIGITS = re.compile(r"\d+")
# a word with two capitals, or a capital and a digit: acronyms and product names, not a sentence's
# first word (hyphens and digits inside: SARS-CoV-2, HCoV-OC43, MERS-CoV, COVID-19)
WORD = re.compile(r"[^\W_][\w-]*[^\W_]")
PRIOR_UNITS = 2.0  # weight of the class rate: the rule of succession's two pseudo-units
CLASSES = ("digits", "name")


def is_name(word: str) -> bool:
    capitals = sum(c.isupper() for c in word)
    return capitals >= 2 or (capitals == 1 and any(c.isdigit() for c in word) and not word[0].isdigit())


def anchors_of(source: str) -> set[tuple[str, str]]:
    """(class, anchor) pairs of a source, outside code spans (placeholders and tags are checked by
    their own rule)."""
    text = mask_code(source)
    names = {w for w in WORD.findall(text) if is_name(w)}
    # a name's own digits (the 2 of SARS-CoV-2) are not a second, dependent witness
    digits = DIGITS.findall(WORD.sub(lambda m: " " if m.group() in names else m.group(), text))
    return {("digits", d) for d in digits} | {("name", w) for w in names}


def kept(anchor: tuple[str, str], target: str, target_digits: set[str]) -> bool:
    kind, text = anchor
    return text in target_digits if kind == "digits" else text in target


@dataclass(frozen=True, slots=True)
class Trials:
    """One row per (unit, anchor): the unit's index, the failure probability, whether it failed."""

    unit: np.ndarray
    rate: np.ndarray
    failed: np.ndarray

    @staticmethod
    def empty() -> Trials:
        return Trials(np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0, dtype=bool))


def anchor_trials(sources: Sequence[str], targets: Sequence[str]) -> Trials:
    """Every (unit, anchor) trial of the corpus, with its leave-one-out smoothed miss rate."""
    rows: list[tuple[int, tuple[str, str], bool]] = []
    seen: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])  # anchor -> [units, misses]
    for i, (source, target) in enumerate(zip(sources, targets)):
        anchors = anchors_of(source) if source else set()
        if not anchors:
            continue
        target_digits = set(DIGITS.findall(target or ""))
        for anchor in sorted(anchors):
            miss = not kept(anchor, target or "", target_digits)
            rows.append((i, anchor, miss))
            seen[anchor][0] += 1
            seen[anchor][1] += miss
    if not rows:
        return Trials.empty()
    class_rate = {}
    for kind in CLASSES:
        units = sum(n for (k, _), (n, _m) in seen.items() if k == kind)
        misses = sum(m for (k, _), (_n, m) in seen.items() if k == kind)
        class_rate[kind] = (misses + 1) / (units + 2)
    unit = np.fromiter((i for i, _, _ in rows), dtype=np.int64, count=len(rows))
    failed = np.fromiter((miss for _, _, miss in rows), dtype=bool, count=len(rows))
    rate = np.empty(len(rows))
    for k, (_, anchor, miss) in enumerate(rows):
        units, misses = seen[anchor]
        rate[k] = (misses - miss + PRIOR_UNITS * class_rate[anchor[0]]) / (units - 1 + PRIOR_UNITS)
    return Trials(unit, rate, failed)
