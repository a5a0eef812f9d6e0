"""French number and gender forms of a rendering, so a rule requires the term, not one grammatical form.

WHY: a required term is a choice of words; its grammatical number follows the sentence, and an
English adjective or participle (``suspended``, ``imperative``) does not inflect while its French
rendering does. A rule listing only the forms its TM happened to use fails correct outputs
(``interactions humaines`` mandated, ``interaction humaine`` written). The TM rarely attests a whole
paradigm, and no maintained Python package inflects French offline (``inflecteur`` fetches the DELA
dictionary at run time; spaCy's lookup tables only map forms to lemmas and miss rare technical
words), so the regular rules of French agreement are written here.

Over-generation is cheap by construction: a generated string that is not a French word never occurs
in an output, so it only widens an alternation. What is never generated: gender of nouns (``patient``
→ ``patiente`` is another word), forms of complements after a preposition (``port du casque``:
``casque`` keeps its number), verb conjugations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

_PREPOSITION_OR_DETERMINER = frozenset({"ADP", "DET", "CCONJ", "SCONJ", "PRON", "PUNCT"})
_PARTICIPLE = re.compile(r"(?:é|i|u|is|it|ert|int|uit)$")
_WORD_SPLIT = re.compile(r"\s+|(?<=')")


def plural(word: str) -> set[str]:
    """Plural forms of a singular noun or adjective (irregular families give both candidates)."""
    if word.endswith(("s", "x", "z")):
        return {word}
    if word.endswith("al"):  # the -als exceptions (festivals, finals) are attested forms when used
        return {word[:-2] + "aux"}
    if word.endswith("ail"):
        return {word + "s", word[:-3] + "aux"}
    if word.endswith(("eau", "au", "eu")):
        return {word + "x", word + "s"}
    if word.endswith("ou"):
        return {word + "s", word + "x"}
    return {word + "s"}


def feminine(word: str) -> set[str]:
    """Feminine singular of a masculine singular adjective or participle (regular patterns)."""
    if word.endswith(("e", "a", "o")) and not word.endswith("é"):  # rapide, multimédia, bio
        return {word}
    for masc, fem in (("eau", "elle"), ("eux", "euse"), ("eur", "euse"), ("if", "ive"), ("el", "elle"), ("eil", "eille"),
                      ("ien", "ienne"), ("on", "onne"), ("er", "ère"), ("et", "ète"), ("c", "que"), ("gu", "guë")):
        if word.endswith(masc):
            out = {word[: -len(masc)] + fem}
            if masc in ("eur", "et", "c"):  # supérieur → supérieure, net → nette, public → publique
                out.add(word + "e")
                if masc == "et":
                    out.add(word + "te")
            return out
    return {word + "e"}


def adjective_forms(lemma: str) -> set[str]:
    """The four agreement forms of an adjective or participle from its masculine singular."""
    forms = {lemma} | plural(lemma)
    for fem in feminine(lemma):
        forms |= {fem, fem + "s"}
    return forms


def singular_of(word: str, lemma: str) -> set[str]:
    """Singular of an adjective form, its gender kept (``humaines`` → ``humaine``, ``sociaux`` → ``social``)."""
    if word == lemma or word in feminine(lemma):
        return {word}
    if word in plural(lemma):
        return {lemma}
    for fem in feminine(lemma):
        if word == fem + "s":
            return {fem}
    return {word[:-1]} if word.endswith("s") and len(word) > 3 else {word}


def participle_bases(form: str) -> set[str]:
    """Masculine singular candidates of a past-participle form (``suspendues`` → ``suspendu``; ``mis``
    is its own base and also read as a plural of ``mi``: both are kept, the spare one never matches)."""
    bases = set()
    for ending in ("es", "e", "s", ""):
        stem = form[: len(form) - len(ending)]
        if form.endswith(ending) and _PARTICIPLE.search(stem) and not (ending == "" and form.endswith("e") and not form.endswith("é")):
            bases.add(stem)
    return {b for b in bases if not b.endswith("e") or b.endswith("é")}


def one_word_forms(form: str, lemma: str, pos: str) -> set[str]:
    """Forms of a one-word rendering: both numbers of a noun, the whole agreement paradigm of an
    adjective or of a verb's past participle."""
    if pos == "NOUN":
        return {lemma} | plural(lemma) if form in {lemma} | plural(lemma) else {form}
    if pos == "ADJ" and (form.startswith(lemma) or not participle_bases(form)):
        paradigm = adjective_forms(lemma)
        if form not in paradigm:  # a lemma the form is no agreement of (the small model gives
            # cardiovasculaires the lemma "cardiovasculairer"): the form's own number, its gender kept
            return {form} | {f for s in singular_of(form, lemma) for f in {s} | plural(s)}
        return paradigm | {form}
    if pos in ("ADJ", "VERB", "AUX"):  # a participle (tagged ADJ, its lemma the infinitive: limitées)
        return {form}.union(*(adjective_forms(b) for b in participle_bases(form)))
    return {form}


def _numbers(word: str, lemma: str, pos: str) -> tuple[set[str], set[str]] | None:
    """(singular forms, plural forms) of a word of a noun phrase's head, gender kept; None for a
    word that does not agree (a finite verb: the rendering is a clause, left as it is)."""
    if pos == "X":  # frozen (a copy of the source)
        return {word}, {word}
    if pos == "NOUN":
        if word not in {lemma} | plural(lemma):
            return None
        return {lemma}, plural(lemma)
    if pos == "ADJ":
        singular = singular_of(word, lemma)
    elif pos in ("VERB", "AUX") and participle_bases(word):
        feminine_form = word.endswith(("e", "es")) and not word.endswith(("é", "és"))
        singular = {b + "e" if feminine_form else b for b in participle_bases(word)}
    else:
        return None
    return singular, {p for s in singular for p in plural(s)}


def phrase_forms(form: str, lemmas: list[str], tags: list[str]) -> set[str]:
    """Both numbers of a multiword rendering's head phrase: the words before the first preposition
    or determiner agree with the head noun and change number together; the complement stays."""
    words = [w for w in _WORD_SPLIT.split(form) if w]
    if len(lemmas) != len(tags):
        return {form}
    cut = next((i for i, t in enumerate(tags) if t in _PREPOSITION_OR_DETERMINER), len(tags))
    # the head must be plain words, one per tag; past it a contraction (du = de + le) may differ
    if cut == 0 or len(words) < cut or (cut == len(tags) and len(words) != cut):
        return {form}
    if "NOUN" not in tags[:cut]:
        if cut == 1 and tags[0] in ("VERB", "AUX") and participle_bases(words[0]):  # mis en service
            return {_join([w, *words[1:]]) for w in one_word_forms(words[0], lemmas[0], tags[0])}
        return {form}
    options = [_numbers(w, lemma, t) for w, lemma, t in zip(words[:cut], lemmas[:cut], tags[:cut])]
    if any(o is None for o in options):
        return {form}
    out = {form}
    for number in (0, 1):
        variants: list[list[str]] = [[]]
        for option in options:
            assert option is not None
            variants = [v + [w] for v in variants for w in sorted(option[number])]
        out |= {_join(v + words[cut:]) for v in variants}
    return out | {_join([*_WORD_SPLIT.split(head)[:cut], *tail]) for head in out
                  for tail in bare_complements(words[cut:], lemmas[cut:], tags[cut:])}


# The words ``bare_complements`` writes, as ``paradigm`` splits them (after an apostrophe).
ARTICLE_WORDS = frozenset({"de", "du", "des", "la", "l", "d", "un", "une"})


def bare_complements(words: list[str], lemmas: list[str], tags: list[str]) -> list[list[str]]:
    """The determined forms of a bare noun complement (``de fichier``, ``d'image``): ``du fichier``,
    ``des fichiers``, ``d'un fichier``, ``de l'image``. French writes the classifier (``extension de
    fichier``) and the determined phrase (``l'extension du fichier``) for one term; the article is the
    sentence's grammar, not the client's choice (issue 25: Plone fr's ``file extension`` failed 4 held-out
    units for it). Gender is not known here, so both genders' articles are written; ``agrees`` keeps those
    that fit the noun (``paradigm.generated_forms``). A complement with its own article (``port du casque``)
    is left alone."""
    if (len(words), len(lemmas), len(tags)) != (2, 2, 2) or tags[1] != "NOUN" or words[0] not in ("de", "d'") \
            or not lemmas[1] or words[1] not in {lemmas[1]} | plural(lemmas[1]):
        return []
    noun = lemmas[1]
    many = sorted(plural(noun))
    out: list[list[str]] = [["d'un", noun], ["d'une", noun], *(["des", p] for p in many)]
    if noun[0] in "aeiouyhâàéèêîïôû":  # elided; an h may be aspirated (la hauteur): both are written
        out += [["d'" + noun], ["de", "l'" + noun], *(["d'" + p] for p in many)]
    if noun[0] not in "aeiouyâàéèêîïôû":
        out += [["de", noun], ["du", noun], ["de", "la", noun], *(["de", p] for p in many)]
    return out


_MASCULINE, _FEMININE = frozenset({"le", "un", "du", "au", "ce", "cet"}), frozenset({"la", "une", "cette"})


def noun_genders(runs: Iterable[Sequence[tuple[str, str, str]]]) -> dict[str, str]:
    """Noun lemma -> "m" or "f", from the determiners the TM writes before it: each run is a target's
    tokens as (norm, lemma, POS). A gender is known from at least 2 votes and more than 3 votes to
    each one against (a tagging or tokenising slip). Used to keep only the articles that agree with a
    complement noun (``bare_complements`` writes both genders; ``agrees`` judges them)."""
    votes: dict[str, list[int]] = {}
    for run in runs:
        for (before, _, _), (_, lemma, pos) in zip(run, run[1:]):
            if pos == "NOUN" and (before in _MASCULINE or before in _FEMININE):
                votes.setdefault(lemma, [0, 0])[before in _FEMININE] += 1
    return {lemma: "mf"[fem > masc] for lemma, (masc, fem) in votes.items()
            if max(masc, fem) >= 2 and max(masc, fem) > 3 * min(masc, fem)}


def _gendered(form: str) -> list[tuple[str, str]]:
    """(gender, noun) of each gendered article of a complement in ``form``: du, de la, d'un, d'une."""
    words = [w for w in _WORD_SPLIT.split(form) if w]
    out = []
    for i, word in enumerate(words[:-1]):
        before = words[i - 1] if i else ""
        if word == "du" or (word == "un" and before == "d'"):
            out.append(("m", words[i + 1]))
        elif (word == "la" and before == "de") or (word == "une" and before == "d'"):
            out.append(("f", words[i + 1]))
    return out


def agrees(form: str, genders: Mapping[str, str], attested: Iterable[str]) -> bool:
    """Whether each gendered article before a complement in ``form`` is attested so in ``attested``
    (``port du casque``) or fits the noun's gender in ``genders``: a form whose noun's gender is not
    known keeps only the articles that have none (de, des, d', de l')."""
    seen = {pair for known in attested for pair in _gendered(known)}
    return all(pair in seen or genders.get(pair[1]) == pair[0] for pair in _gendered(form))


def _join(words: list[str]) -> str:
    """Words rejoined as the split found them: a space, or nothing after an apostrophe."""
    text = ""
    for word in words:
        text += word if not text or text.endswith("'") else " " + word
    return text


def forms(form: str, lemma_key: str, pos_key: str, frozen: frozenset[str] = frozenset()) -> set[str]:
    """Every number/gender form of one attested ``form`` of a rendering (lemma and POS sequences
    space-separated, as the candidate tables hold them). Renderings with digits (``oc43``) and words
    in ``frozen`` (copied from the source term: names, acronyms, ``aice``) are left as they are."""
    if not all(c.isalpha() or c in " '-" for c in form) or form in frozen:
        return {form}
    # a lemmatiser that left a plural as the lemma (inflammatoires): no masculine singular ends in -es
    lemmas = [lemma[:-1] if lemma.endswith("es") and len(lemma) > 4 else lemma for lemma in lemma_key.split(" ")]
    tags = pos_key.split(" ")
    if len(lemmas) == 1 and len(tags) == 1 and " " not in form and "'" not in form:
        return one_word_forms(form, lemmas[0], tags[0])
    words = [w for w in _WORD_SPLIT.split(form) if w]
    return phrase_forms(form, lemmas, ["X" if i < len(words) and words[i] in frozen else t for i, t in enumerate(tags)])
