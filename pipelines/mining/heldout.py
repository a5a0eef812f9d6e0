"""Held-out agreement: is a mined rule kept by the client's approved targets it was NOT mined from?

Issue 25: mined on one half of a TM and scored on the other half's approved targets, term rules
fail 10-18% of their items, so "consistent on the units it was mined from" does not make a rule a
convention. The miner therefore cross-fits: the TM is cut into ``FOLDS`` deterministic folds (by a
hash of the unit id, so a unit's fold never depends on file order or on the other units); for each
fold the miner runs again on the other folds only, and the rules it finds there are scored on the
held-out fold's approved targets with the scoring engine (``score_systems``: the figure means what
``housestyle score`` means). A rule of the full run gets the items and passes of the rules with its
key (rule, dimension, src) mined without each fold; a rule never re-found without a fold has
0 held-out items. Rules that do not clear their kind's bar (``params.heldout``, a ``HeldoutBar`` each,
with the figures that justify them) become ``suggested``.

Why re-mine rather than score the full run's rules on each fold: a rule mined on all units has seen
the fold it is checked on, so its fold agreement is its consistency again (issue 25: consistency
>= .95 still held out at .959 on TICO). Cost: ``FOLDS`` more mining runs on (FOLDS-1)/FOLDS of the
units each, run after the full one so the peak is the larger run's, not their sum. What depends on a
unit alone is not redone: the folds reuse the full run's tokens, lemmas and POS tags
(``mine.cross_fit``: spaCy tagging was a third of a run), and build no term trace. What counts over
units (alignment, co-occurrence, hits, thresholds) is the fold's own. `housestyle mine` on the demo
TICO-19 en→fr TMX: 44 s / 730 MB without the cross-fit; with it 1:20-1:29 wall, 77-86 s user,
912 MB peak RSS before that reuse, 1:04-1:06, 62-64 s, 837-848 MB after
(tests/bench/results/mining_cost_2026-12-06.md), 0:48.8-0:50.6, 47-50 s, 794-801 MB in 0.4.1
(mining_cost_h25t_2026-12-06.md). On 1M units of real text mining took 38:52 wall, 2,226 s user,
3.68 GiB when the folds re-mined both halves of the whole TM; since 0.4.2 they are cut from a hashed
sample of at most ``params.heldout.max_units`` units (``sample_of``): 29:47, 1,706 s, 3.65 GiB, and
19:16, 1,065 s, 3.63 GiB with the cheaper searches of the same release
(tests/bench/results/mining_cost_s5_2026-12-06.md), 14:43, 879 s, 3.02 GiB in 0.4.3
(mining_cost_s6_2026-12-06.md; the target before the cross-fit, 10:07 / 2.79 GiB, is still missed).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus, log_memory
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, HeldoutBar, MiningParams
from housestyle.pipelines.mining.tokens import fold_count
from housestyle.pipelines.rules.registry import release_compiled
from housestyle.pipelines.scoring.engine import score_systems

FOLDS = 2  # two halves: each re-mining sees half the TM, as the split measurement did
Key = tuple[str, str, str]


def bar_of(rule: str, params: MiningParams = DEFAULT_PARAMS) -> HeldoutBar:
    """The bar a rule of this kind must clear (params.heldout: term, or every other kind)."""
    return params.heldout.term if rule == "term" else params.heldout.other


def fold_of(unit_id: str, folds: int = FOLDS) -> int:
    """The unit's fold: the first 8 bytes of sha1(unit_id), modulo ``folds``."""
    return int.from_bytes(hashlib.sha1(unit_id.encode("utf-8")).digest()[:8], "big") % folds


def draw_of(unit_id: str) -> int:
    """The unit's draw for the cross-fit's sample (``sample_of``): the next 8 bytes of sha1(unit_id),
    so which units are sampled is independent of their fold, of file order and of the other units."""
    return int.from_bytes(hashlib.sha1(unit_id.encode("utf-8")).digest()[8:16], "big")


def sample_of(unit_ids: Sequence[str], max_units: int) -> np.ndarray:
    """Which units the cross-fit uses (a boolean mask): all of them up to ``max_units``; beyond, the
    units whose draw falls in the first ``max_units / len(unit_ids)`` of its range (about
    ``max_units`` of them, binomially). Why a sample: the folds re-mine the TM, which on 1M units
    made mining ~4x the CPU; agreement measured on a sample is the same estimate with a wider
    interval, but a rule too rare to be re-found in the sample's folds gets no held-out items and
    is ``suggested`` (params.heldout.max_units)."""
    if max_units <= 0 or len(unit_ids) <= max_units:
        return np.ones(len(unit_ids), dtype=bool)
    bound = (max_units << 64) // len(unit_ids)
    return np.fromiter((draw_of(u) < bound for u in unit_ids), dtype=bool, count=len(unit_ids))


def rule_key(conv: Convention) -> Key:
    """Which rules of two runs are the same rule: its kind, dimension and trigger (the rendering a
    half finds may differ by a form from the full run's, and is still that rule). A term's trigger
    is compared folded (``fold_count``, as the miner keys terms): its ``src`` is the spelling the
    units at hand write most often, so a fold whose few units start a sentence with the term
    ("School closures") re-finds the full run's "school closures", not another rule
    (issue 25, tests/eval/gold_recall_misses.md)."""
    src = conv.src or ""
    return conv.rule, conv.dimension, fold_count(src) if conv.rule == "term" else src


@dataclass(frozen=True, slots=True)
class FoldScore:
    """One fold of the cross-fit: which full-run rules its complement re-found (``refound``) and their
    (items, passed) on the fold's judging units (``counts``, (0, 0) for a re-found rule the fold never
    triggers). A rule not re-found has no entry: not judged by this fold, which is not a failure."""

    fold: int
    held: np.ndarray  # indices of the fold's judging units (misaligned ones left out)
    refound: frozenset[Key]
    counts: dict[Key, tuple[int, int]]


def fold_scores(corpus: Corpus, conventions: Sequence[Convention],
                mine: Callable[[Corpus], Iterable[Convention]], folds: int = FOLDS,
                excluded: Collection[str] = (), sample: np.ndarray | None = None) -> Iterator[FoldScore]:
    """Each fold's ``FoldScore``: ``mine`` runs on the fold's complement and the rules it finds with
    a key of ``conventions`` are scored on the fold's approved targets, but for the ``excluded``
    units (misaligned: they still count in the complement, where the miner tells them itself).
    With a ``sample`` mask (``sample_of``) the folds are cut from the sampled units only."""
    wanted = {rule_key(c) for c in conventions}
    fold_ids = np.fromiter((fold_of(u, folds) for u in corpus.unit_ids), dtype=np.int64, count=len(corpus))
    judges = np.fromiter((u not in excluded for u in corpus.unit_ids), dtype=bool, count=len(corpus))
    sampled = sample if sample is not None else np.ones(len(corpus), dtype=bool)
    for fold in range(folds):
        held = np.flatnonzero((fold_ids == fold) & judges & sampled)
        train = np.flatnonzero((fold_ids != fold) & sampled)
        if not len(held) or not len(train):
            continue
        rules = [c for c in mine(corpus.subset(train)) if rule_key(c) in wanted]
        log_memory(f"held-out fold {fold} mined")
        counts: dict[Key, tuple[int, int]] = {}
        for key, items, passed in _score(rules, corpus.subset(held)):
            before = counts.get(key, (0, 0))
            counts[key] = (before[0] + items, before[1] + passed)
        refound = frozenset(rule_key(c) for c in rules)
        release_compiled(rules)  # scored once: not held through the next fold's mining
        del rules
        yield FoldScore(fold, held, refound, counts)


def heldout_counts(corpus: Corpus, conventions: Sequence[Convention],
                   mine: Callable[[Corpus], Iterable[Convention]], folds: int = FOLDS,
                   excluded: Collection[str] = (), sample: np.ndarray | None = None) -> dict[str, tuple[int, int]]:
    """convention_id -> (heldout_items, heldout_passed) for every convention of ``conventions``,
    summed over the folds (``fold_scores``)."""
    totals: dict[Key, list[int]] = defaultdict(lambda: [0, 0])
    for score in fold_scores(corpus, conventions, mine, folds, excluded, sample):
        for key, (items, passed) in score.counts.items():
            totals[key][0] += items
            totals[key][1] += passed
    out: dict[str, tuple[int, int]] = {}
    for conv in conventions:
        items, passed = totals.get(rule_key(conv), (0, 0))
        out[conv.convention_id] = (items, passed)
    return out


def _score(rules: Sequence[Convention], held: Corpus) -> list[tuple[Key, int, int]]:
    """(key, items, passed) of each rule on the held-out units, the approved target as the output."""
    if not rules or not len(held):
        return []
    ids = list(held.unit_ids)
    sources = dict(zip(ids, held.sources))
    approved = dict(zip(ids, held.targets))
    scores = score_systems(rules, sources, {"approved": approved}).scores
    keys = {c.convention_id: rule_key(c) for c in rules}
    return [(keys[row["convention_id"]], int(row["scored"]), int(row["passed"]))
            for row in scores.select("convention_id", "scored", "passed").iter_rows(named=True)]


def apply_heldout(conventions: Sequence[Convention], counts: dict[str, tuple[int, int]],
                  params: MiningParams = DEFAULT_PARAMS) -> None:
    """Write the counts into the mined conventions and demote those below their bar to ``suggested``."""
    for conv in conventions:
        items, passed = counts.get(conv.convention_id, (0, 0))
        conv.heldout_items, conv.heldout_passed = items, passed
        bar = bar_of(conv.rule, params)
        if conv.status == "candidate" and (items < bar.min_items or passed < bar.min_rate * items):
            conv.status = "suggested"


def heldout_table(conventions: Iterable[Convention]) -> dict[str, dict[str, Any]]:
    """The manifest's per-kind held-out table: kind -> rules (with a held-out figure), heldout_items,
    heldout_passed, rate (None without items), and how many of them are ``suggested``."""
    table: dict[str, dict[str, Any]] = {}
    for conv in conventions:
        if conv.heldout_items is None or conv.heldout_passed is None:
            continue
        row = table.setdefault(conv.rule, {"rules": 0, "heldout_items": 0, "heldout_passed": 0, "suggested": 0})
        row["rules"] += 1
        row["heldout_items"] += conv.heldout_items
        row["heldout_passed"] += conv.heldout_passed
        row["suggested"] += conv.status == "suggested"
    for row in table.values():
        row["rate"] = round(row["heldout_passed"] / row["heldout_items"], 4) if row["heldout_items"] else None
    return dict(sorted(table.items()))
