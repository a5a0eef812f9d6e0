"""The term decision as ONE ordered list of named filters over one context object.

Each filter reads a ``TermCase`` (the chosen rendering of one source term and what the rest of the
TM says about it) and returns the figures that reject it as one readable phrase, or None. The
first filter that answers decides; ``term_rules`` writes a rule when none does. The miner's
statistics, ``term_trace.parquet`` and ``housestyle explain`` all name the filter by its key here
(``describe`` gives its one-line meaning). Set-level drops that need every rule at once
(``SET_FILTERS``) run after the per-term list, in that order.

Held-out agreement hook: ``HELDOUT_SLOT`` is where a filter judging a candidate on units it was not
mined from goes (the miner's cross-fitting, mine.py/corpus.py); it is the last per-term filter so
every cheaper reason is given first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from housestyle.pipelines.mining.boundary import Choice
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_filters import (
    _PLAIN_FORM,
    COUNT_WORDS,
    _rival_dice,
    adverb,
    compositional,
    content_words,
    covers,
    joined_sentences,
)
from housestyle.pipelines.mining.termhood import general_word, zipf


@dataclass(slots=True)
class TermCase:
    """Everything one term's decision reads (built once per term by ``term_rules``)."""

    term: str  # folded source term
    chosen: Choice
    params: MiningParams
    occurrences: int = 0  # source occurrences of the term in the aligned sample
    spelling: str = ""  # as the TM most often writes it
    src_lang: str = "en"
    best_dice: Mapping[str, list[tuple[float, str]]] = field(default_factory=dict)
    vocabulary: set[str] = field(default_factory=set)  # every candidate source term
    word_keys: Mapping[str, set[str]] = field(default_factory=dict)  # source word -> its top renderings

    @property
    def words(self) -> list[str]:
        return self.term.split(" ")


Filter = Callable[[TermCase], "str | None"]


def _low_consistency(c: TermCase) -> str | None:
    p = c.params
    if c.chosen.coverage < p.terms.min_consistency:
        return f"best coverage {c.chosen.coverage:.2f} ('{c.chosen.key}') < terms.min_consistency {p.terms.min_consistency}"
    return None


def _joined_sentences(c: TermCase) -> str | None:
    return f"'{c.spelling}' spans two sentences joined without a space" if joined_sentences(c.spelling) else None


def _low_support(c: TermCase) -> str | None:
    p = c.params
    return f"support {c.chosen.support} < terms.min_support {p.terms.min_support}" if c.chosen.support < p.terms.min_support else None


def _no_majority(c: TermCase) -> str | None:
    # At the consistency floor itself the rendering ties with the others (5 of 10 units): frequency
    # alone does not make it the client's choice (dev: TICO ``protect`` → a disease's name; VPN
    # ``Save`` → ``économiser``), the term is a conflict, unless a cognate, or a phrase built from its
    # words' own renderings, breaks the tie. (Its own threshold ``no_majority`` .5 is gone: it only
    # ever acted at ``terms.min_consistency``, below which ``low_consistency`` rejects first.)
    p, ch = c.params, c.chosen
    if ch.coverage > p.terms.min_consistency or ch.cognate:
        return None
    if " " in c.term and compositional(c.term, ch.key, c.word_keys, p):
        return None
    return (f"coverage {ch.coverage:.2f} <= terms.min_consistency {p.terms.min_consistency}, a tie, not a cognate, "
            + ("one word" if " " not in c.term else "not built from its words' renderings"))


def _rendering_adds_words(c: TermCase) -> str | None:  # "research efforts" → "efforts importants dans la recherche"
    p, ch = c.params, c.chosen
    extra = content_words(ch.key, p) - content_words(c.term, p)
    allowed = p.candidates.extra_words_allowed
    return f"the rendering adds {extra} content words > candidates.extra_words_allowed {allowed}" if extra > allowed else None


def _odd_rendering(c: TermCase) -> str | None:  # "p.", fragments with punctuation
    odd = [f for f in c.chosen.forms if not _PLAIN_FORM.fullmatch(f)]
    return f"form '{odd[0]}' is not a plain word form" if odd else None


def _partial_rendering(c: TermCase) -> str | None:
    p = c.params
    if covers(c.term, c.chosen.key, p):
        return None
    return (f"'{c.chosen.key}' has counterparts for fewer than candidates.cover_share {p.candidates.cover_share} "
            f"of the term's {content_words(c.term, p)} content words")


def _count_phrase(c: TermCase) -> str | None:  # "million children": a quantity
    return f"starts with the count word '{c.words[0]}'" if len(c.words) > 1 and c.words[0] in COUNT_WORDS else None


def _adverb(c: TermCase) -> str | None:
    word = next((w for w in dict.fromkeys((c.words[0], c.words[-1])) if adverb(w, c.vocabulary, c.params)), None)
    return None if word is None else f"'{word}' is an -ly adverb (its base is a word of the TM)"


def _ends_in_participle(c: TermCase) -> str | None:  # "cases reported": a clause
    last = c.words[-1]
    if len(c.words) > 1 and last.endswith("ed") and len(last) >= c.params.candidates.participle_min_chars:
        return f"ends in the participle '{last}'"
    return None


def _ragged_edge(c: TermCase) -> str | None:
    return None if c.term[0].isalnum() and c.term[-1].isalnum() else "the term starts or ends with punctuation"


def _rendering_belongs_to_other_term(c: TermCase) -> str | None:  # competitive linking: santé publique ↔ public health
    p, ch = c.params, c.chosen
    if ch.support > p.terms.reverse_max_support:
        return None
    rival = _rival_dice(c.term, ch.key, c.best_dice, p)  # no copy: the mapping holds every rendering key
    if ch.dice < p.terms.reverse_ratio * rival:
        return f"dice {ch.dice:.2f} < terms.reverse_ratio {p.terms.reverse_ratio} × {rival:.2f} of another term with the rendering '{ch.key}'"
    return None


def _general_word(c: TermCase) -> str | None:
    """Terms, not vocabulary: a one-word source term frequent in general language (``like``,
    ``turn``, ``allow``, ``privacy``) is a rule only on overwhelming evidence (see params). An
    acronym (the TM spells it in capitals: ``CAT``) is a name, not the common word it
    spells (TICO held-out: 30 of 30 items pass)."""
    p, ch = c.params, c.chosen
    if ch.cognate or (len(c.spelling) > 1 and c.spelling.isupper()) or not general_word(c.term, c.src_lang, p.terms.general_zipf):
        return None
    short = [f"support {ch.support} < terms.general_min_support {p.terms.general_min_support}"] if ch.support < p.terms.general_min_support else []
    if ch.coverage < p.terms.general_min_consistency:
        short.append(f"coverage {ch.coverage:.2f} < terms.general_min_consistency {p.terms.general_min_consistency}")
    if not short:
        return None
    return f"a general word (zipf {zipf(c.term, c.src_lang):.1f} >= terms.general_zipf {p.terms.general_zipf}), " + " and ".join(short)


HELDOUT_SLOT = "heldout_agreement"

FILTERS: list[tuple[str, Filter]] = [
    ("low_consistency", _low_consistency),
    ("joined_sentences", _joined_sentences),
    ("low_support", _low_support),
    ("no_majority", _no_majority),
    ("rendering_adds_words", _rendering_adds_words),
    ("odd_rendering", _odd_rendering),
    ("partial_rendering", _partial_rendering),
    ("count_phrase", _count_phrase),
    ("adverb", _adverb),
    ("ends_in_participle", _ends_in_participle),
    ("ragged_edge", _ragged_edge),
    ("rendering_belongs_to_other_term", _rendering_belongs_to_other_term),
    ("general_word", _general_word),
    # HELDOUT_SLOT: a filter on the candidate's agreement with held-out units goes here (h25a).
]

# Decided per term by term_rules (a repair, not a filter): a rendering hyphen-joined to a word the
# term lacks is rebuilt as the whole compound, or rejected under this name.
# A one-word rendering that is a word of a longer aligned expression (jour of "mise à jour") is
# replaced by that expression, or rejected under "fragment_of_expression" (mining/expression.py).
REPAIR_FILTERS: tuple[str, ...] = ("fragment_of_compound", "fragment_of_expression")
# Run on the whole rule set after the per-term list (term_context, compound), in this order.
SET_FILTERS: tuple[str, ...] = ("nested", "headless", "compound_of_longer_term")



def first_rejection(case: TermCase) -> tuple[str, str] | None:
    """(filter name, figures) of the first filter that rejects the case; None: it is a rule."""
    for name, check in FILTERS:
        figures = check(case)
        if figures is not None:
            return name, figures
    return None


def filter_names() -> list[str]:
    """Every reason a term can be left without a rule, in decision order."""
    return [name for name, _ in FILTERS] + list(REPAIR_FILTERS) + list(SET_FILTERS)


def describe(name: str) -> str:
    """The position of a filter in the decision (shown by ``housestyle explain``)."""
    names = filter_names()
    if name not in names:
        return name
    return f"{name} (filter {names.index(name) + 1} of {len(names)} in term_decision.FILTERS order)"
