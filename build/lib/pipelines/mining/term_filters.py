"""Precision filters for term rules: why a chosen (term, rendering) pair is NOT a rule.

Each filter encodes one failure seen on the dev data (TICO-19 en→fr dev split): clause fragments
("people perceived"), partial renderings ("share of annual revenue" → "revenus"), renderings that
belong to another term (competitive linking), adverbs, punctuation fragments. Thresholds live in
``MiningParams``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import spacy

from pipelines.mining.params import MiningParams

if TYPE_CHECKING:
    from pipelines.mining.term_rules import Choice

# Acronyms spelled like a function word (WHO, US, IT) trigger only when written in capitals.
STOP_LIKE = frozenset(w.casefold() for w in spacy.blank("en").Defaults.stop_words)
_PLAIN_FORM = re.compile(r"[^\W_](?:[\w' /\-]*[^\W_])?")


COUNT_WORDS = frozenset({"hundred", "hundreds", "thousand", "thousands", "million", "millions", "billion",
                         "billions", "trillion", "dozen", "dozens"})
_JOINED_SENTENCES = re.compile(r"[a-z0-9]\.[A-Z][a-z]")


def joined_sentences(spelling: str) -> bool:
    """A source term spanning two sentences whose space was lost (``2014.In``): a typo, not a term.
    Abbreviations (``U.S.``) and versions (``v2.1``) never put a lowercase word after the period."""
    return _JOINED_SENTENCES.search(spelling) is not None


def content_words(text: str) -> int:
    return sum(1 for w in text.replace("-", " ").split(" ") if len(w) > 2 and w not in STOP_LIKE)


def covers(term: str, key: str) -> bool:
    """A rendering far shorter than its term translates only part of it (``share of annual revenue``
    → ``revenus``): at least half the term's content words must have a counterpart."""
    return 2 * max(1, len([w for w in key.replace(" - ", "-").split(" ") if len(w) > 1])) >= content_words(term)


def adverb(word: str, vocabulary: set[str]) -> bool:
    """English -ly adverbs (``successfully``, ``possibly``, ``easily``): phrasing, not terms. A word
    counts as an adverb when its base (successful, possible, easy) is itself a word of the TM."""
    if not word.endswith("ly") or len(word) < 6:
        return False
    return any(base in vocabulary for base in (word[:-2], word[:-1] + "e", word[:-3] + "y"))


def compositional(term: str, key: str, word_keys: dict[str, set[str]]) -> bool:
    """Every content word of a multiword term has one of its own aligned renderings inside ``key``
    (``immune system`` → ``système immunitaire``: system→système, immune→immunitaire). A phrase
    seen once has no other evidence; this keeps real terms and drops clause fragments."""
    inside = set(key.split(" "))
    for word in term.replace("-", " ").split(" "):
        if len(word) <= 2 or word in STOP_LIKE:
            continue
        if not any(set(k.split(" ")) & inside for k in word_keys.get(word, ())):
            return False
    return True


def hyphen_sides(forms: Sequence[str], texts: Iterable[str], share: float = 1.0) -> frozenset[str] | None:
    """The sides (``before``/``after``) on which the forms are hyphen-joined to a neighbouring word,
    or None when fewer than ``share`` of their occurrences are so joined (or none is found)."""
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(forms, key=len, reverse=True))) + r")(?!\w)")
    sides: set[str] = set()
    joined_count = free = 0
    for text in texts:
        for match in pattern.finditer(text):
            start, end = match.span()
            glued = {side for side, joined in (
                ("after", text[end:end + 1] == "-" and text[end + 1:end + 2].isalnum()),
                ("before", start >= 2 and text[start - 1] == "-" and text[start - 2].isalnum())) if joined}
            sides |= glued
            joined_count += bool(glued)
            free += not glued
    return frozenset(sides) if joined_count and joined_count >= share * (joined_count + free) else None


def fragment_of_compound(term: str, forms: Sequence[str], sources: Sequence[str], targets: Sequence[str],
                         share: float = 1.0) -> bool:
    """The rendering is (in ``share`` of its occurrences) hyphen-joined to a word the term lacks: one
    half of a compound (dev: ``underlying`` → ``sous`` of ``sous-jacents``, ``isolation`` → ``auto``
    of ``auto-isolement``, ``States`` → ``unis`` of ``États-Unis``), and its regex would hold only
    that half. A term joined on the same side in the source keeps it (``ICD`` → ``CIM``: ICD-10 →
    CIM-10)."""
    target_sides = hyphen_sides(forms, targets, share)
    if target_sides is None:
        return False
    return not target_sides <= (hyphen_sides([term], sources, share) or frozenset())


def stem(term: str) -> str:
    """English plural folded away (trials → trial, viruses → virus): a term and its plural are
    one term when deciding whose rendering a target phrase is."""
    for suffix, repl in (("ies", "y"), ("ses", "s"), ("s", "")):
        if term.endswith(suffix) and len(term) > len(suffix) + 2:
            return term[: -len(suffix)] + repl
    return term


def _rival_dice(term: str, key: str, best_dice: dict[str, list[tuple[float, str]]]) -> float:
    return max((d for d, t in best_dice.get(key, []) if stem(t) != stem(term)), default=0.0)


def reject(term: str, chosen: Choice, occurrences: int, best_dice: dict[str, list[tuple[float, str]]],
            lexicon: tuple[set[str], dict[str, set[str]]], params: MiningParams) -> str | None:
    """Why a chosen (term, rendering) is not a rule (None when it is)."""
    vocabulary, word_keys = lexicon
    if chosen.support < params.term_min_support:
        return "low_support"
    if chosen.support <= params.term_low_support and not chosen.cognate and (
            chosen.dice < params.term_min_dice or chosen.aligned < params.term_low_support_min_align * occurrences):
        return "weak_low_support"
    # The TM writes the rendering in at most half the term's units: frequency alone does not make
    # it the client's choice (dev: TICO ``protect`` → ``covid``, ``code`` → ``section``; VPN ``Save``
    # → ``économiser``, ``United`` → ``royaume``). A cognate, or a phrase built from its words' own
    # renderings, is a second, independent line of evidence.
    if chosen.coverage <= params.term_no_majority and not chosen.cognate and (
            " " not in term or not compositional(term, chosen.key, word_keys)):
        return "no_majority"
    if chosen.support <= 1 and len(term.split(" ")) > params.term_singleton_max_words:
        return "long_singleton"
    if (" " in term and (chosen.support <= params.term_compositional_support or chosen.dice < params.term_compositional_dice)
            and not compositional(term, chosen.key, word_keys)):
        return "not_compositional"
    extra = content_words(chosen.key) - content_words(term)
    if extra > (0 if chosen.support <= params.term_low_support else 1):
        return "rendering_adds_words"  # "research efforts" → "efforts importants dans la recherche"
    if not all(_PLAIN_FORM.fullmatch(f) for f in chosen.forms):
        return "odd_rendering"  # "p.", fragments with punctuation
    if not covers(term, chosen.key):
        return "partial_rendering"
    words = term.split(" ")
    if len(words) > 1 and words[0] in COUNT_WORDS:
        return "count_phrase"  # "million children" of "1.5 million children": a quantity, not a term
    if adverb(words[0], vocabulary) or adverb(words[-1], vocabulary):
        return "adverb"
    if len(words) > 1 and words[-1].endswith("ed") and len(words[-1]) > 4:
        return "ends_in_participle"  # "people infected", "cases reported": clauses, not terms
    if words[-1].endswith("ing") and chosen.support <= params.term_low_support:
        return "rare_gerund"  # "investigating", "patients showing": verbs unless well attested
    if not (term[0].isalnum() and term[-1].isalnum()):
        return "ragged_edge"
    if (chosen.support <= params.term_reverse_max_support
            and chosen.dice < params.term_reverse_ratio * _rival_dice(term, chosen.key, best_dice)):
        return "rendering_belongs_to_other_term"  # competitive linking: santé publique ↔ public health
    return None
