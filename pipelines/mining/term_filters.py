"""Helpers of the term decision's filters (term_decision.FILTERS): why a chosen (term, rendering) pair is NOT a rule.

Each filter encodes one failure seen on the dev data (TICO-19 en→fr dev split): clause fragments
("people perceived"), partial renderings ("share of annual revenue" → "revenus"), renderings that
belong to another term (competitive linking), adverbs, punctuation fragments. Thresholds live in
``MiningParams``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

import spacy

from housestyle.pipelines.mining.boundary import Choice
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams, at_least

# Acronyms spelled like a function word (US, IT) trigger only when written in capitals.
STOP_LIKE = frozenset(w.casefold() for w in spacy.blank("en").Defaults.stop_words)
_PLAIN_FORM = re.compile(r"[^\W_](?:[\w' /\-]*[^\W_])?")


COUNT_WORDS = frozenset({"hundred", "hundreds", "thousand", "thousands", "million", "millions", "billion",
                         "billions", "trillion", "dozen", "dozens"})
_JOINED_SENTENCES = re.compile(r"[a-z0-9]\.[A-Z][a-z]")


def joined_sentences(spelling: str) -> bool:
    """A source term spanning two sentences whose space was lost (``2014.In``): a typo, not a term.
    Abbreviations (``U.S.``) and versions (``v2.1``) never put a lowercase word after the period."""
    return _JOINED_SENTENCES.search(spelling) is not None


def content_words(text: str, params: MiningParams = DEFAULT_PARAMS) -> int:
    return sum(1 for w in text.replace("-", " ").split(" ")
               if len(w) >= params.candidates.content_word_min_chars and w not in STOP_LIKE)


def covers(term: str, key: str, params: MiningParams = DEFAULT_PARAMS) -> bool:
    """A rendering far shorter than its term translates only part of it (``share of annual revenue``
    → ``revenus``): at least ``candidates.cover_share`` of the term's content words need a counterpart."""
    words = len([w for w in key.replace(" - ", "-").split(" ") if len(w) >= params.candidates.rendering_word_min_chars])
    return at_least(max(1, words), content_words(term, params), params.candidates.cover_share)


def adverb(word: str, vocabulary: set[str], params: MiningParams = DEFAULT_PARAMS) -> bool:
    """English -ly adverbs (``successfully``, ``possibly``, ``easily``): phrasing, not terms. A word
    counts as an adverb when its base (successful, possible, easy) is itself a word of the TM."""
    if not word.endswith("ly") or len(word) < params.candidates.adverb_min_chars:
        return False
    return any(base in vocabulary for base in (word[:-2], word[:-1] + "e", word[:-3] + "y"))


def compositional(term: str, key: str, word_keys: Mapping[str, set[str]], params: MiningParams = DEFAULT_PARAMS) -> bool:
    """Every content word of a multiword term has one of its own aligned renderings inside ``key``
    (``operating system`` → ``système d'exploitation``: system→système, operating→exploitation). A
    phrase seen once has no other evidence; this keeps real terms and drops clause fragments."""
    inside = set(key.split(" "))
    for word in term.replace("-", " ").split(" "):
        if len(word) < params.candidates.content_word_min_chars or word in STOP_LIKE:
            continue
        if not any(set(k.split(" ")) & inside for k in word_keys.get(word, ())):
            return False
    return True


def hyphen_sides(forms: Sequence[str], texts: Iterable[str], share: float = 1.0) -> frozenset[str] | None:
    """The sides (``before``/``after``) on which the forms are hyphen-joined to a neighbouring word,
    or None when fewer than ``share`` of their occurrences are so joined (or none is found).
    A joined occurrence needs ``form-`` or ``-form`` in its text: where no text holds either, the
    answer is None without a regex search (most renderings are never hyphen-joined)."""
    texts = list(texts)
    if forms and not any(form + "-" in text or "-" + form in text for text in texts for form in forms):
        return None
    pattern = _forms_pattern(tuple(sorted(forms, key=len, reverse=True)))
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


@lru_cache(maxsize=16384)
def _forms_pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """The forms as one word-bounded alternation, compiled once per set of forms: the held-out
    folds' re-mining asks for the full run's patterns again (``re``'s own cache holds 512)."""
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, forms)) + r")(?!\w)")


def fragment_of_compound(term: str, forms: Sequence[str], sources: Sequence[str], targets: Sequence[str],
                         share: float = 1.0) -> bool:
    """The rendering is (in ``share`` of its occurrences) hyphen-joined to a word the term lacks: one
    half of a compound (dev: ``underlying`` → ``sous`` of ``sous-jacents``, ``assessment`` → ``auto``
    of ``auto-évaluation``, ``States`` → ``unis`` of ``États-Unis``), and its regex would hold only
    that half. A term joined on the same side in the source keeps it (``ICD`` → ``CIM``: ICD-10 →
    CIM-10)."""
    target_sides = hyphen_sides(forms, targets, share)
    if target_sides is None:
        return False
    return not target_sides <= (hyphen_sides([term], sources, share) or frozenset())


def stem(term: str, params: MiningParams = DEFAULT_PARAMS) -> str:
    """English plural folded away (entries → entry, addresses → address): a term and its plural are
    one term when deciding whose rendering a target phrase is."""
    for suffix, repl in (("ies", "y"), ("ses", "s"), ("s", "")):
        if term.endswith(suffix) and len(term) - len(suffix) >= params.candidates.plural_stem_min_chars:
            return term[: -len(suffix)] + repl
    return term


def _rival_dice(term: str, key: str, best_dice: Mapping[str, list[tuple[float, str]]], params: MiningParams) -> float:
    return max((d for d, t in best_dice.get(key, []) if stem(t, params) != stem(term, params)), default=0.0)
