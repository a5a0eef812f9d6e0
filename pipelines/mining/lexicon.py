"""Real word forms from a maintained lexicon: simplemma's form → lemma dictionaries, inverted.

WHY (issue 25, "only real words"): a rule's expected forms are required of every output, so a form
that is no word (``nouveaue``, ``acheminère``, ``activers``, written by the hand rules of
``inflect_fr``) is a defect the client sees, and a verb rendering that lists only the infinitive
fails the imperative the client writes (``évitez``). simplemma ships one dictionary per language
(form → lemma, from Wiktionary-derived lists); inverted, it gives every attested form of a lemma.

Used two ways by ``paradigm.generated_forms``: a generated form is kept only when each of its words
is a form the lexicon knows (or the TM attests, or a name copied from the source), and a one-word
verb rendering takes every form the lexicon lists for its lemma (finite, imperative, participles).
A language simplemma does not cover is left as it was (``known`` answers None). Loading costs about
1.5 s per language, once per process (cached).
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from simplemma.strategies.dictionaries import DefaultDictionaryFactory
from simplemma.utils import validate_lang_input

from housestyle.pipelines.langtags import CAPITALISED_NOUNS, primary_subtag

_FACTORY = DefaultDictionaryFactory(cache_max_size=4)


# Languages whose dictionary writes nouns capitalised (German ``Kommentare`` → ``Kommentar``): their
# table is looked up by the casefolded form every caller holds (``ß`` folds to ``ss``, as in the
# targets). Where a lower-case word and a capitalised one fold alike (``gesperrte``, a participle;
# ``Gesperrte``, a noun), the lower-case entry wins. Folding the German table costs ~2 s, once.
FOLDED_LOOKUP = CAPITALISED_NOUNS


@lru_cache(maxsize=8)
def _table(lang: str) -> dict[bytes, bytes] | None:
    """simplemma's form → lemma table for ``lang`` (None: no dictionary for it), casefolded for the
    FOLDED_LOOKUP languages."""
    try:
        validate_lang_input(lang)
        # a folded language's raw table is read by a factory of its own, so it is freed once folded
        factory = DefaultDictionaryFactory(cache_max_size=1) if lang in FOLDED_LOOKUP else _FACTORY
        mapping = factory.get_dictionary(lang)
    except (ValueError, TypeError):
        return None
    table = getattr(mapping, "_dict", mapping)
    if not isinstance(table, dict):
        return None
    return _folded(table) if lang in FOLDED_LOOKUP else table


def _folded(table: dict[bytes, bytes]) -> dict[bytes, bytes]:
    out: dict[bytes, bytes] = {}
    for lower_first in (True, False):  # two passes, not a sort: no second copy of a million pairs
        for form, lemma in table.items():
            if (form.lower() == form) is lower_first:
                out.setdefault(form.decode().casefold().encode(), lemma.decode().casefold().encode())
    return out


@lru_cache(maxsize=8)
def _inverse(lang: str) -> dict[bytes, tuple[bytes, ...]]:
    """lemma → every form the dictionary maps to it (the lemma itself included)."""
    table = _table(lang) or {}
    out: dict[bytes, set[bytes]] = defaultdict(set)
    for form, lemma in table.items():
        out[lemma].add(form)
    return {lemma: tuple(sorted(forms | {lemma})) for lemma, forms in out.items()}


def known(word: str, lang: str) -> bool | None:
    """Whether ``word`` (folded) is a form or a lemma of the ``lang`` lexicon; None when the language
    has no lexicon (then nothing can be said)."""
    table = _table(primary_subtag(lang))
    if table is None:
        return None
    key = word.encode()
    return key in table or key in _inverse(primary_subtag(lang))


def lemma_of(word: str, lang: str) -> str | None:
    """The lemma the lexicon gives ``word`` (folded); None when it does not list the word as a form."""
    table = _table(primary_subtag(lang))
    found = None if table is None else table.get(word.encode())
    return None if found is None else found.decode()


def lemma_forms(lemma: str, lang: str) -> set[str]:
    """Every form the lexicon lists for ``lemma`` (empty when it does not know the lemma)."""
    if _table(primary_subtag(lang)) is None:
        return set()
    return {f.decode() for f in _inverse(primary_subtag(lang)).get(lemma.encode(), ())}


# A prefixed verb the lexicon lacks (``dépublier``, a UI coinage) conjugates like its base
# (``publier``): the prefix is at most MAX_PREFIX characters and the base a lemma of at least
# MIN_BASE characters with a paradigm (>= MIN_PARADIGM forms), so a short word is never read as a
# prefix plus a verb. Wagtail fr (issue 25 held-out failures): "dépubliera" failed `Unpublish`.
MAX_PREFIX, MIN_BASE, MIN_PARADIGM = 4, 5, 10


def verb_forms(lemma: str, lang: str) -> set[str]:
    """``lemma_forms``, or, for a lemma the lexicon does not know, the forms of the shortest-prefixed
    known base it is built on, prefix kept (``dépublier`` → ``dépubliera``, ``dépubliez``)."""
    forms = lemma_forms(lemma, lang)
    if forms or known(lemma, lang) is not False:
        return forms
    for cut in range(1, MAX_PREFIX + 1):
        base = lemma[cut:]
        if len(base) < MIN_BASE:
            break
        base_forms = lemma_forms(base, lang)
        if len(base_forms) >= MIN_PARADIGM:
            return {lemma[:cut] + f for f in base_forms}
    return set()
