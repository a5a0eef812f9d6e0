"""Every attested form of a multiword rendering: the same lemma sequence, anywhere in the TM targets.

A multiword rendering's forms used to be only the surfaces the ALIGNED occurrences happened to use
(``clé publique``), so a correct output in another gender or number (``clés
publiques``) failed the rule. Here each multiword rendering key (a lemma sequence) collects every
contiguous token run of the analysed targets with the same lemma sequence. Only attested forms are
added here; ``generated_forms`` then adds the number/gender forms the TM did not attest, for target
languages with a generator (French: ``inflect_fr``), at rule level. One-word keys need no attested
search: candidate extraction already records every target word under its lemma.

Guards against the lemmatiser merging different words under one lemma (the small French model
gives ``revenus`` the lemma of ``revenir``): an occurrence joins only when its POS sequence is one
the aligned occurrences of the key were tagged with, and each of its words shares a prefix with the
word at the same position of an aligned form (all but ``terms.form_suffix_slack`` characters of the
shorter word). Occurrences holding masked content (inline codes, placeholders, URLs) are skipped:
a form is plain text.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache

from housestyle.pipelines.langtags import primary_subtag
from housestyle.pipelines.mining import inflect_de, inflect_fr, inflect_ru, lexicon
from housestyle.pipelines.mining.term_candidates import Candidates
from housestyle.pipelines.mining.termhood import zipf
from housestyle.pipelines.mining.tokens import Tok, fold_count, mask

Occurrence = tuple[tuple[str, ...], str, str]  # (word norms, POS sequence, folded surface)


def _occurrences(keys: set[str], tgt_toks: Sequence[Sequence[Tok]], targets: Sequence[str]) -> dict[str, list[Occurrence]]:
    """Every token run of the targets whose lemma sequence is one of ``keys``."""
    lengths: dict[str, set[int]] = defaultdict(set)  # first lemma -> token counts of keys starting with it
    for key in keys:
        words = key.split(" ")
        lengths[words[0]].add(len(words))
    found: dict[str, list[Occurrence]] = defaultdict(list)
    for toks, text in zip(tgt_toks, targets):
        for i, first in enumerate(toks):
            for size in lengths.get(first.key, ()):
                run = toks[i:i + size]
                if len(run) < size:
                    continue
                key = " ".join(t.key for t in run)
                if key not in keys:
                    continue
                raw = text[run[0].start:run[-1].end]
                if mask(raw) != raw:
                    continue
                found[key].append((tuple(t.norm for t in run), " ".join(t.pos for t in run), fold_count(raw)))
    return found


def _related(word: str, known: set[str], slack: int) -> bool:
    """``word`` shares with some known word all but ``slack`` characters of the shorter one."""
    return any(len(os.path.commonprefix([word, k])) >= max(1, min(len(word), len(k)) - slack) for k in known)


def add_attested_forms(cands: Candidates, tgt_toks: Sequence[Sequence[Tok]], targets: Sequence[str],
                       slack: int) -> int:
    """Add to ``cands.forms`` every guarded attested form of each multiword key (see module
    docstring); returns how many (key, form) pairs were added."""
    keys = {k for k in cands.forms if " " in k}
    added = 0
    for key, occurrences in sorted(_occurrences(keys, tgt_toks, targets).items()):
        seen = cands.forms[key]
        tags = set(cands.pos.get(key, Counter()))
        known: list[set[str]] = [set() for _ in key.split(" ")]
        for norms, _, surface in occurrences:
            if surface in seen:
                for position, norm in zip(known, norms):
                    position.add(norm)
        if not any(known):
            continue
        new: Counter[str] = Counter()
        for norms, pos, surface in occurrences:
            if surface in seen or pos not in tags:
                continue
            if all(_related(n, k, slack) for n, k in zip(norms, known)):
                new[surface] += 1
        for surface, count in new.items():
            seen[surface] += count
            added += 1
    return added


# Per target language: (attested form, lemma key, POS key) -> every number/gender form (see inflect_fr).
FORM_GENERATORS: dict[str, Callable[[str, str, str, frozenset[str]], set[str]]] = {
    "fr": inflect_fr.forms,
    "ru": inflect_ru.forms,
    "de": inflect_de.forms,
}


# Per target language: whether a generated form's articles agree with their nouns (form, genders, attested forms).
AGREEMENT: dict[str, Callable[[str, Mapping[str, str], Sequence[str]], bool]] = {"fr": inflect_fr.agrees}
# Per target language: noun lemma -> gender from the TM's tokens, as (norm, lemma, POS) runs.
GENDER_READERS: dict[str, Callable[[Iterable[Sequence[tuple[str, str, str]]]], dict[str, str]]] = {
    "fr": inflect_fr.noun_genders}

# Per target language: the function words a generator writes (inflect_fr's articles, as split at
# the apostrophe): real words the lexicon does not list (simplemma's French table lacks ``du``, ``l``).
CLOSED_CLASS: dict[str, frozenset[str]] = {"fr": inflect_fr.ARTICLE_WORDS}


def names_and_codes(term: str) -> frozenset[str]:
    """Folded words of the source term (as the TM spells it) that are names or codes when copied:
    acronyms and words with digits or inner capitals (``AICE``, ``OC43``, ``mRNA``), and a capitalised
    term as a whole (``Diamond`` → ``diamond``). A plain word spelled alike in both languages
    (``international``, ``territorial``) is a French word and inflects."""
    words = term.replace("-", " ").split(" ")
    out = {fold_count(w) for w in words if any(c.isdigit() for c in w) or any(c.isupper() for c in w[1:])}
    if any(c.isupper() for c in term):
        out.add(fold_count(term))
    return frozenset(out)


def _label_unfrozen(frozen: frozenset[str], term: str, tags: str, lang: str) -> frozenset[str]:
    """``frozen`` without the capitalised term as a whole when it is a UI label, not a name: the
    tagger reads its rendering as a common word (no PROPN) and the lexicon knows every word of it.
    ``Alternative`` → ``alternative`` agrees like any adjective (``formats alternatifs``; Plone fr
    held-out failures, issue 25); ``Diamond`` (unknown to French) and names tagged PROPN stay as spelled."""
    whole = fold_count(term)
    words = [w for w in _WORDS.split(whole.replace("-", " ")) if w]
    if whole not in frozen or not tags or "PROPN" in tags.split(" ") or any(w in frozen for w in words if w != whole):
        return frozen
    return frozen - {whole} if words and all(lexicon.known(w, lang) for w in words) else frozen


def _acronym(term: str) -> bool:
    return " " not in term and term.isupper() and sum(c.isalpha() for c in term) >= 2


def generated_forms(forms: Sequence[str], key: str, pos: Counter[str] | None, lang: str, term: str,
                    genders: Mapping[str, str] | None = None) -> list[str]:
    """``_generated_forms``, remembered: a mining run asks for the same rendering's forms in each of
    its term passes and held-out folds (~1.5 s of the demo TM's run). ``genders`` (noun lemma -> m/f,
    ``inflect_fr.noun_genders`` of the TM): a generated article must agree with its noun, and where the
    gender is not known only the articles without one are kept (``extension des fichiers``, never
    ``extension de la fichier``)."""
    # What the forms depend on of the POS counts: the most frequent tag and which tags occur (the
    # counts differ between passes, and would make every pass's call a new one).
    top = max(pos.items(), key=lambda kv: (kv[1], kv[0]))[0] if pos else None
    out = _remembered_forms(tuple(forms), key, top, tuple(sorted(pos)) if pos else (), lang, term)
    agree = AGREEMENT.get(primary_subtag(lang))
    return [f for f in out if f in forms or agree(f, genders or {}, forms)] if agree else list(out)


@lru_cache(maxsize=16384)
def _remembered_forms(forms: tuple[str, ...], key: str, top: str | None, tags: tuple[str, ...], lang: str,
                      term: str) -> tuple[str, ...]:
    pos = Counter({tag: 2 if tag == top else 1 for tag in tags}) if top is not None else None  # same top, same tags
    return tuple(_generated_forms(forms, key, pos, lang, term))


def _generated_forms(forms: Sequence[str], key: str, pos: Counter[str] | None, lang: str, term: str) -> list[str]:
    """The attested ``forms`` of one rendering plus their generated number/gender forms (languages
    with a generator; others unchanged). The POS key is the one most of the aligned occurrences had;
    names and codes of the source ``term`` (as spelled) copied into the rendering are never inflected.
    Only real words (``lexicon``): a generated form is kept when each of its words is attested in
    ``forms``, a copied name, or a form the language's lexicon knows; a one-word verb rendering also
    takes every form the lexicon lists for its lemma (``éviter`` → ``évitez``, ``évité``; a prefixed
    verb the lexicon lacks, those of its base: ``lexicon.verb_forms``)."""
    generate = FORM_GENERATORS.get(lang.split("-")[0].lower())
    if generate is None:
        return list(forms)
    if _acronym(term):
        return sorted(set(forms))  # an acronym renders as an acronym or a name (DNA → ADN, ICD → CIM): invariable
    tags = max(pos.items(), key=lambda kv: (kv[1], kv[0]))[0] if pos else ""  # "" = no tagger (ru)
    out = set(forms)
    frozen = names_and_codes(term)
    if tags == "PROPN" and " " not in key and key not in frozen and (lemma := lexicon.lemma_of(key, lang)):
        # a common noun the tagger read as a name (a capitalised UI label, "Images"): it has a number
        # ("aucune image", "d'image" after a negation; Wagtail fr held-out failures, issue 25)
        key, tags = lemma, "NOUN"
    frozen = _label_unfrozen(frozen, term, tags, lang)
    lexical = lexicon.verb_forms(key, lang) if " " not in key else set()
    if not _verbal(key, pos, lexical):
        lexical = set()
    elif tags not in VERB_TAGS | {"ADJ"}:
        tags = "VERB"  # a verb the tagger read as a name or noun: its participles agree ("modifiées")
    for form in forms:
        out |= generate(form, key, tags, frozen)
    if tags in ("NOUN", "PROPN", ""):  # an English adjective has no plural (viral: never "virals"); "" = no tagger (de)
        lexical |= english_plurals(forms, term, frozen)
    out |= lexical
    attested = {w for f in forms for w in _WORDS.split(f) if w} | frozen | CLOSED_CLASS.get(primary_subtag(lang), frozenset())
    # a word the lexicon does not know (courriel) cannot have its inflections judged by it: its regular
    # forms (courriels) stay; only inflections of words the lexicon knows must be known forms
    stems = tuple(w[:max(3, len(w) - 2)] for w in attested if lexicon.known(w, lang) is False)
    return sorted(f for f in out if f in forms or f in lexical or all(
        w in attested or lexicon.known(w, lang) is not False or (stems and w.startswith(stems))
        for w in _WORDS.split(f) if w))


def english_plurals(forms: Sequence[str], term: str, frozen: frozenset[str] = frozenset()) -> set[str]:
    """The English plural of a one-word rendering copied from the English term (``proxy`` → ``proxies``,
    as German and French UIs write a borrowed word: Plone de's held-out "URLs aller Proxies" failed
    ``proxy``): English's regular plural (-ies after a consonant's y, -es after a sibilant, else -s),
    kept only when wordfreq's English list, which termhood already holds, attests it (loading
    simplemma's English table for this cost ~25 MB of the demo run's peak). The target's own plural
    comes from its generator as for any word; a name (``frozen``: ``Diamond``) gets none."""
    word = fold_count(term)
    if " " in word or not word.isalpha() or word not in forms or word in frozen or len(word) < 3:
        return set()
    if word.endswith("y") and word[-2] not in "aeiou":
        plural = word[:-1] + "ies"
    elif word.endswith(("s", "x", "z", "ch", "sh")):
        plural = word + "es"
    else:
        plural = word + "s"
    return {plural} if zipf(plural, "en") > 0 else set()


# Tags of a verb used as one (infinitive, finite, auxiliary): see tokens.tokenize.
VERB_TAGS = frozenset({"VERB", "AUX", "VFIN"})


def _verbal(key: str, pos: Counter[str] | None, lexical: set[str]) -> bool:
    """A one-word rendering that is a verb: its lemma has a conjugation in the lexicon (``lexical``,
    at least ``lexicon.MIN_PARADIGM`` forms: an adjective or noun lemma has a handful) and the TM
    uses it as a verb or a participle (a VERB/AUX/VFIN or ADJ tag; UI buttons "Modifier" are mostly
    tagged PROPN). Such a rendering takes the verb's finite and imperative forms: the client's UI
    writes "Modifiez", "créez-les", "dépubliera" where the TM aligned "modifier", "créé" (Wagtail fr
    held-out failures, issue 25). Nouns derived from the verb (ajout, suppression, modification) are
    never added: another sense, which needs its own rule."""
    return " " not in key and len(lexical) >= lexicon.MIN_PARADIGM and any(
        t in VERB_TAGS or t == "ADJ" for t in (pos or {}))


_WORDS = re.compile(r"[\s']+")  # a form's words: split at spaces and after elision (l'adresse)
