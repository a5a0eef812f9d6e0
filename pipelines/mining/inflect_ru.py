"""Russian case, number and gender forms of a rendering, from pymorphy3's own paradigms.

WHY: a Russian term changes case with its role in the sentence; a rule listing only the case forms
its TM happened to use (``школьных администраторов``, genitive plural) fails a correct nominative
output. pymorphy3 (already the Russian lemmatiser, see ``morphology``) knows each word's paradigm
(``lexeme``) and inflects to a grammeme set (``inflect``), so nothing is written by hand but the
noun-phrase shape: modifiers (adjectives, participles) agree with the head noun that follows them;
what comes after the head (a genitive complement, a prepositional phrase, Latin names) keeps its form.
"""

from __future__ import annotations

import re
from typing import Any

from housestyle.pipelines.mining.morphology import russian_analyzer

CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")
NUMBERS = ("sing", "plur")
_MODIFIER = frozenset({"ADJF", "PRTF"})
_CYRILLIC_WORD = re.compile(r"[а-яё]+(?:-[а-яё]+)*")


def _parse(word: str, wanted: frozenset[str]) -> Any | None:
    """pymorphy3's most probable analysis of ``word`` with a POS in ``wanted`` (None if none)."""
    for parse in russian_analyzer().parse(word):
        if parse.tag.POS in wanted:
            return parse
    return None


def _one_word(form: str) -> set[str]:
    parse = _parse(form, frozenset({"NOUN", *_MODIFIER}))
    if parse is None:
        return {form}
    if parse.tag.POS == "NOUN":
        return {str(f.word) for f in parse.lexeme if f.tag.POS == "NOUN"} | {form}
    return {str(f.word) for f in parse.lexeme if f.tag.POS == parse.tag.POS and "Cmp2" not in f.tag} | {form}


def _phrase(words: list[str]) -> set[str]:
    """Every case/number of ``modifier* head-noun rest``; the rest keeps its form."""
    head, noun = None, None
    modifiers: list[Any] = []
    for i, word in enumerate(words):
        if not _CYRILLIC_WORD.fullmatch(word):
            return set()
        noun = _parse(word, frozenset({"NOUN"}))
        modifier = _parse(word, _MODIFIER)
        if modifier is not None and (noun is None or russian_analyzer().parse(word)[0].tag.POS in _MODIFIER) \
                and i < len(words) - 1:
            modifiers.append(modifier)
            continue
        if noun is None:
            return set()
        head = i
        break
    if head is None or noun is None:
        return set()
    out: set[str] = set()
    for number in NUMBERS:
        for case in CASES:
            inflected_noun = noun.inflect({case, number})
            if inflected_noun is None:
                continue
            agree = {case, number}
            if number == "sing" and noun.tag.gender:
                agree.add(noun.tag.gender)
            inflected = [m.inflect(agree) for m in modifiers]
            if any(m is None for m in inflected):
                continue
            if case == "accs" and noun.tag.animacy == "anim":  # animate accusative = genitive
                inflected = [m.inflect(agree - {"accs"} | {"gent"}) or i for m, i in zip(modifiers, inflected)]
            out.add(" ".join([*(str(m.word) for m in inflected), str(inflected_noun.word), *words[head + 1:]]))
    return out


def forms(form: str, lemma_key: str, pos_key: str, frozen: frozenset[str] = frozenset()) -> set[str]:
    """Every case/number (and, for a lone adjective, gender) form of one attested ``form`` of a
    rendering. ``lemma_key``/``pos_key`` are unused (pymorphy3 analyses the words itself); words in
    ``frozen`` (names, codes copied from the source) end the phrase's inflected part."""
    del lemma_key, pos_key
    words = form.split(" ")
    if form in frozen or not words or words[0] in frozen:
        return {form}
    if len(words) == 1:
        out = _one_word(form) if _CYRILLIC_WORD.fullmatch(form) else {form}
    else:
        out = _phrase(words) | {form}
    out |= {f.replace("ё", "е") for f in out}  # pymorphy3 writes ё; most Russian text writes е
    return {f for f in out if len(f) >= min(3, len(form))}  # lexemes list stray abbreviations (ш)
