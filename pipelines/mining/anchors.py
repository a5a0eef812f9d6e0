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
from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from housestyle.pipelines.conventions.code_spans import mask_code
from housestyle.pipelines.mining.corpus import Texts

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
    words = WORD.findall(text)
    # a lower-case word has no capital (``islower``, one C call, spares ``is_name`` most words)
    candidates = [w for w in words if not w.islower() and is_name(w)]
    names: set[str] = set()
    if candidates:  # the text's letters are read only then: most texts have no name-like word
        alpha = list(filter(str.isalpha, text))
        upper, lower = sum(map(str.isupper, alpha)), sum(map(str.islower, alpha))
        if upper <= (upper + lower) / 2:  # an ALL-CAPS text: no word is a name
            capitals = [w.isalpha() and w.isupper() for w in words]
            # ALL-CAPS words side by side are emphasis ("IT IS FURTHER ORDERED"), not names
            emphasis = {w for i, w in enumerate(words)
                        if capitals[i] and (i and capitals[i - 1] or i + 1 < len(words) and capitals[i + 1])}
            names = {w for w in candidates if w not in emphasis}
    # a name's own digits (the 6 of IPv6) are not a second, dependent witness; blanking a name
    # without digits changes no number (the word is letters between non-word characters)
    numbered = {w for w in names if any(map(str.isdigit, w))}
    digits = numbers_of(WORD.sub(lambda m: " " if m.group() in numbered else m.group(), text) if numbered else text)
    return {("digits", d) for d in digits} | {("name", name_key(w)) for w in names}


# What every anchor needs in its text (polars' regex syntax): a digit (a number's ``\d`` or a name's
# ``str.isdigit``: ``\p{N}`` holds both), or a word (``WORD``: Python's ``\w`` less ``\p{N}`` is in
# Rust's ``\w``) with two capitals (``\p{Uppercase}`` is ``str.isupper``'s property). Masking code
# only blanks characters, so a text with neither has no anchor. Tested to agree on real texts.
_ANCHOR_HINT = r"\p{N}|\p{Uppercase}[\w\-]*\p{Uppercase}"


def may_hold_anchors(texts: Sequence[str]) -> np.ndarray:
    """Whether each text may hold an anchor (``_ANCHOR_HINT``), for all texts at once: most TM texts
    have none, and ``anchors_of`` reads every character of a text in Python (at 1M units the
    anchors of both sides were ~100 s of the suspect test)."""
    series = texts.series if isinstance(texts, Texts) else pl.Series(list(texts), dtype=pl.Utf8)
    return series.fill_null("").str.contains(_ANCHOR_HINT).to_numpy()


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


@dataclass(frozen=True, slots=True)
class Outcomes:
    """Each unit's anchors, both directions, one row per (unit, anchor) in unit order: the unit, the
    anchor (an index into ``anchors``), whether the other side missed it. Arrays, not tuples: on 1M
    units the rows as Python tuples were ~1 GiB of the miner's peak."""

    unit: np.ndarray  # int64
    anchor: np.ndarray  # int64, index into ``anchors``
    missed: np.ndarray  # bool
    anchors: list[Anchor]

    def __len__(self) -> int:
        return int(self.unit.size)


def anchor_outcomes(sources: Sequence[str], targets: Sequence[str]) -> Outcomes:
    """Each unit's anchors, both directions: the source's looked for in the target, the target's in
    the source. What is kept does not depend on the other units: computed once per corpus."""
    units, keys, missed = array("q"), array("q"), bytearray()
    index: dict[Anchor, int] = {}
    hints = {"kept": may_hold_anchors(sources), "brought": may_hold_anchors(targets)}
    for i, (source, target) in enumerate(zip(sources, targets)):
        source, target = source or "", target or ""
        for direction, text, other in (("kept", source, target), ("brought", target, source)):
            anchors = anchors_of(text) if text and hints[direction][i] else set()
            if not anchors:
                continue
            other_digits = numbers_of(other)
            for kind, anchor in sorted(anchors):
                units.append(i)
                keys.append(index.setdefault((direction, kind, anchor), len(index)))
                missed.append(not kept((kind, anchor), other, other_digits))
    return Outcomes(np.frombuffer(units, dtype=np.int64).copy(), np.frombuffer(keys, dtype=np.int64).copy(),
                    np.frombuffer(bytes(missed), dtype=bool).copy(), list(index))


def anchor_trials(sources: Sequence[str], targets: Sequence[str], exclude: Collection[int] = frozenset(),
                  outcomes: Outcomes | None = None) -> Trials:
    """Every (unit, anchor) trial of the corpus, with its leave-one-out smoothed miss rate (an
    aligned target seldom brings a number or a name its source lacks; ``OTAN`` for ``NATO`` is
    always "brought" and so no witness). The ``exclude``d units (already told misaligned) get
    trials but count in no rate: a misaligned run must not teach that its names go missing.
    ``outcomes``: ``anchor_outcomes`` of the same texts, when the caller has them."""
    rows = outcomes if outcomes is not None else anchor_outcomes(sources, targets)
    if not len(rows):
        return Trials.empty()
    excluded = np.isin(rows.unit, np.fromiter(exclude, dtype=np.int64, count=len(exclude)))
    counted = ~excluded
    n_anchors = len(rows.anchors)
    units = np.bincount(rows.anchor[counted], minlength=n_anchors)  # per anchor: units, misses
    misses = np.bincount(rows.anchor[counted & rows.missed], minlength=n_anchors)
    classes: dict[tuple[str, str], int] = {}
    class_of = np.fromiter((classes.setdefault(a[:2], len(classes)) for a in rows.anchors), dtype=np.int64,
                           count=n_anchors)
    class_units = np.bincount(class_of, weights=units, minlength=len(classes))
    class_misses = np.bincount(class_of, weights=misses, minlength=len(classes))
    class_rate = (class_misses + 1) / (class_units + 2)  # a class no counted unit holds: 1/2
    own = counted.astype(np.int64)  # leave the unit's own trial out of its rate
    numerator = (misses[rows.anchor] - own * rows.missed).astype(np.float64) + PRIOR_UNITS * class_rate[class_of[rows.anchor]]
    rate = numerator / (units[rows.anchor] - own + PRIOR_UNITS)
    return Trials(rows.unit.copy(), rate, rows.missed.copy())


def kept_rare_anchor(sources: Sequence[str], targets: Sequence[str], outcomes: Outcomes | None = None) -> set[int]:
    """Units whose target keeps a source anchor that at most ``RARE_SOURCES`` sources hold: never
    misaligned, however many term rules a free translation of them fails."""
    rows = outcomes if outcomes is not None else anchor_outcomes(sources, targets)
    if not len(rows):
        return set()
    kept_side = np.fromiter((a[0] == "kept" for a in rows.anchors), dtype=bool, count=len(rows.anchors))[rows.anchor]
    holders = np.bincount(rows.anchor[kept_side], minlength=len(rows.anchors))
    rare = kept_side & ~rows.missed & (holders[rows.anchor] <= RARE_SOURCES)
    return set(rows.unit[rare].tolist())
