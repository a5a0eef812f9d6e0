"""A one-word rendering that is a word of a fixed target expression: the expression, or no rule.

WHY (issue 25, wrong rules among the held-out failures): ``update`` → "jour(s)" (from "mise(s) à
jour", "mettre à jour") and ``password`` → "mot(s)" (from "mot de passe"). The aligner links the term
to one word of the expression; that word alone covers every inflection of the expression, so it wins
the choice, and the rule then passes "jour" anywhere ("météo du jour") and fails nothing useful. The
multiword hyphen-free analogue of ``term_filters.fragment_of_compound``: when, in at least
``terms.compound_share`` of the rendering's occurrences in the term's units, it sits inside a form of
a longer rendering the aligner also linked to the term (``mettre à jour``, ``mot de passer``), the
rule is that longer rendering if it is consistent enough on its own, else none.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

import numpy as np

from housestyle.pipelines.conventions.matching import find_plain
from housestyle.pipelines.conventions.compound_parts import compounding
from housestyle.pipelines.mining.association import dice
from housestyle.pipelines.mining.boundary import Choice
from housestyle.pipelines.mining.column_hits import batched_unit_hits, concat_hits, joint_count
from housestyle.pipelines.mining.corpus import Corpus


def longer_keys(key: str, aligned: Mapping[str, int]) -> list[str]:
    """Aligned multiword renderings of the term holding ``key`` as one of their words."""
    return sorted(k for k in aligned if " " in k and k != key and key in k.split(" "))


def inside_share(forms: Sequence[str], longer_forms: Sequence[str], targets: Sequence[str]) -> float:
    """Of the occurrences of ``forms`` in the (folded) ``targets``, the share lying inside an
    occurrence of one of ``longer_forms``; 0.0 when the forms never occur."""
    total = inside = 0
    for text in targets:
        covers = [span for form in longer_forms for span in find_plain(text, form)]
        for form in forms:
            for start, end in find_plain(text, form):
                total += 1
                inside += any(a <= start and end <= b for a, b in covers)
    return inside / total if total else 0.0


def fragment_of_expression(chosen: Choice, choices: Sequence[Choice], aligned: Mapping[str, int],
                           forms_of: Mapping[str, Mapping[str, int]], targets: Sequence[str],
                           share: float) -> tuple[bool, Choice | str | None]:
    """(is a fragment, what stands instead). Not a fragment: (False, None). A fragment: the
    best-covering measured choice among the longer aligned renderings, else the most aligned longer
    key (a str: to be measured, ``measured``; the aligned verb phrase ``mettre à jour`` is no nominal
    candidate and was not), else None."""
    if " " in chosen.key:
        return False, None
    longer = longer_keys(chosen.key, aligned)
    longer_forms = sorted({f for k in longer for f in forms_of.get(k, {})})
    if not longer_forms or inside_share(chosen.forms, longer_forms, targets) < share:
        return False, None
    measured = [c for c in choices if c.key in longer]
    best = max(measured, key=lambda c: (c.coverage, c.support, c.key), default=None)
    if best is not None:
        return True, best
    with_forms = [k for k in longer if forms_of.get(k)]
    return True, max(with_forms, key=lambda k: (aligned[k], k)) if with_forms else None


_WORD = re.compile(r"[^\W_][\w'-]*")
MIN_CONTEXT_CHARS = 3  # a context word shorter than this (à, de, la) does not make an expression alone


def attested_context(forms: Sequence[str], targets: Sequence[str], share: float) -> list[str]:
    """The fixed expression the TM writes the rendering in: the longest run of one or two words right
    or left of it that accompanies at least ``share`` of its occurrences in the (folded) ``targets``
    and holds a word of MIN_CONTEXT_CHARS letters or more, with each of the rendering's ``forms``
    (``mot``, ``mots`` → "mot de passe", "mots de passe": the fragment carries the number); [] when
    there is none. Used when the aligner linked the term to
    no such expression as a whole (Django fr aligned only "réinitialisation de mot")."""
    wanted = set(forms)
    counts: Counter[tuple[str, tuple[str, ...]]] = Counter()
    spellings: dict[tuple[str, tuple[str, ...]], set[str]] = defaultdict(set)
    total = 0
    for text in targets:
        words = _WORD.findall(text)
        for i, word in enumerate(words):
            if word not in wanted:
                continue
            total += 1
            for n in (1, 2):
                for side, run in (("right", tuple(words[i + 1:i + 1 + n])), ("left", tuple(words[max(0, i - n):i]))):
                    if len(run) == n:
                        counts[(side, run)] += 1
                        spellings[(side, run)] |= {" ".join([f, *run] if side == "right" else [*run, f]) for f in forms}
    fixed = [(len(k[1]), n, k) for k, n in counts.items()
             if n >= share * total and any(len(w) >= MIN_CONTEXT_CHARS for w in k[1])]
    return sorted(spellings[max(fixed)[2]]) if fixed else []


def measured(key: str, forms: Sequence[str], aligned: int, s_units: np.ndarray, corpus: Corpus) -> tuple[Choice, np.ndarray]:
    """A rendering counted over all units like any candidate (word-bounded, raw hyphens): the
    choice and the units holding one of its forms."""
    units = concat_hits(batched_unit_hits(list(forms), corpus.folded_targets, corpus.targets,
                                          compound=compounding(corpus.tgt_lang))).astype(np.int64)
    joint = joint_count(s_units, units)
    return Choice(key, sorted(forms), joint, joint / max(1, s_units.size), dice(joint, int(s_units.size), int(units.size)),
                  aligned, False, repair="expression"), units
