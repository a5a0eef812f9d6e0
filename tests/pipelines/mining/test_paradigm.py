from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.inflection import alternatives, entry_matches
from housestyle.pipelines.mining.paradigm import add_attested_forms, generated_forms
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_candidates import Candidates
from housestyle.pipelines.mining.term_rules import mine_terms
from housestyle.pipelines.mining.tokens import Tok, tokenize
from housestyle.pipelines.scoring.check import check_item

KEY = "facteur de risque"


def _cands() -> Candidates:
    """One aligned multiword rendering, seen in the singular only."""
    return Candidates({}, {KEY: Counter({"facteur de risque": 2})}, {KEY: Counter({"NOUN ADP NOUN": 2})}, [])


def _add(texts: list[str], cands: Candidates) -> int:
    return add_attested_forms(cands, list(tokenize(texts, "fr", analyse=True)), texts, slack=3)


def test_forms_attested_anywhere_in_the_targets_join_the_rendering() -> None:
    cands = _cands()
    texts = ["Le facteur de risque est connu.", "Les facteurs de risque sont connus.", "Les facteurs du risque."]
    assert _add(texts, cands) == 2
    assert set(cands.forms[KEY]) == {"facteur de risque", "facteurs de risque", "facteurs du risque"}
    entry, is_regex = alternatives(cands.forms[KEY])
    assert is_regex and entry_matches(entry, True, "facteurs de risque") and entry_matches(entry, True, "facteur de risque")


def test_nothing_is_generated_and_masked_runs_are_skipped() -> None:
    cands = _cands()
    texts = ["Le facteur de risque.", "Un facteur ⟨x1/⟩de risque.", "Des facteurs ⟨g1⟩de risque⟨/g1⟩."]
    assert _add(texts, cands) == 0  # the plural occurs only around inline codes; no plural is invented
    assert set(cands.forms[KEY]) == {"facteur de risque"}


def _tok(norm: str, lemma: str, pos: str, start: int) -> Tok:
    return Tok(start=start, end=start + len(norm), norm=norm, is_word=True, is_stop=False, is_hyphen=False,
               lemma=lemma, pos=pos)


def _run(words: list[tuple[str, str, str]]) -> tuple[list[Tok], str]:
    toks, start = [], 0
    for norm, lemma, pos in words:
        toks.append(_tok(norm, lemma, pos, start))
        start += len(norm) + 1
    return toks, " ".join(w for w, _, _ in words)


def test_lemmatiser_merges_are_guarded_by_pos_and_prefix() -> None:
    """A form joins only with a POS sequence seen for the rendering and words sharing a prefix with
    the aligned form's words (the lemmatiser's mistakes: revenus → revenir, an unrelated word)."""
    key = "revenir fiscal"
    cands = Candidates({}, {key: Counter({"revenus fiscaux": 1})}, {key: Counter({"NOUN ADJ": 1})}, [])
    runs = [_run([("revenus", "revenir", "NOUN"), ("fiscaux", "fiscal", "ADJ")]),
            _run([("revenu", "revenir", "NOUN"), ("fiscal", "fiscal", "ADJ")]),      # same POS, shared prefixes: joins
            _run([("revenant", "revenir", "VERB"), ("fiscal", "fiscal", "ADJ")]),    # prefixes shared, other POS sequence
            _run([("rendus", "revenir", "NOUN"), ("fiscaux", "fiscal", "ADJ")])]     # same POS, no shared prefix
    added = add_attested_forms(cands, [t for t, _ in runs], [s for _, s in runs], slack=3)
    assert added == 1 and set(cands.forms[key]) == {"revenus fiscaux", "revenu fiscal"}


def test_one_word_keys_are_left_alone() -> None:
    cands = Candidates({}, {"fièvre": Counter({"fièvre": 1})}, {"fièvre": Counter({"NOUN": 1})}, [])
    assert _add(["Les fièvres."], cands) == 0 and set(cands.forms["fièvre"]) == {"fièvre"}


def test_mined_rule_accepts_a_form_attested_outside_its_aligned_units(make_corpus: Callable[..., Corpus]) -> None:
    pairs = [(f"The risk factor {i} matters.", f"Le facteur de risque {i} compte.") for i in range(4)] + [
        ("Several of them were listed.", "Plusieurs facteurs de risque ont été listés.")]
    rules = {c.src.casefold(): c for c in mine_terms(make_corpus(pairs), MiningParams()).conventions if c.src}
    rule = rules["risk factor"]
    assert rule.regex and entry_matches(rule.expected_terms[0], True, "facteurs de risque")
    verdict = check_item(rule, "Each risk factor counts.", "Tous les facteurs de risque comptent.")
    assert verdict is not None and verdict.full_pass


def test_generated_forms_add_the_number_the_tm_did_not_attest_and_leave_copies_alone() -> None:
    """French renderings take both numbers (and an adjective every gender), Russian ones every case;
    languages without a generator and words copied from the source term (names, acronyms) are unchanged."""
    assert generated_forms(["territoriales"], "territorial", Counter({"ADJ": 1}), "fr", "territorial") == [
        "territorial", "territoriale", "territoriales", "territoriaux"]
    assert generated_forms(["fièvre"], "fièvre", Counter({"NOUN": 2}), "fr", "fever") == ["fièvre", "fièvres"]
    assert generated_forms(["aice"], "aice", Counter({"NOUN": 1}), "fr", "AICE") == ["aice"]
    assert generated_forms(["cim"], "cim", Counter({"NOUN": 1}), "fr", "ICD") == ["cim"]  # an acronym's acronym: not cime(s)
    assert generated_forms(["diplôme aice"], "diplôme aice", Counter({"NOUN ADJ": 1}), "fr", "AICE Diploma") == [
        "diplôme aice", "diplômes aice"]
    assert {"лихорадки", "лихорадкой"} <= set(generated_forms(["лихорадка"], "лихорадка", None, "ru", "fever"))
    assert generated_forms(["发烧"], "发烧", None, "zh", "fever") == ["发烧"]
    assert MiningParams().terms.generate_forms is True


def test_a_mined_rule_accepts_the_other_number_of_its_rendering(make_corpus: Callable[..., Corpus]) -> None:
    """The TM writes only the plural; an output in the singular fulfils the term rule."""
    pairs = [("Human interactions are limited.", "Les interactions humaines sont limitées."),
             ("We study human interactions today.", "Nous étudions les interactions humaines aujourd'hui."),
             ("Fewer human interactions help patients.", "Moins d'interactions humaines aident les patients."),
             ("Patients stay at home.", "Les patients restent à la maison.")]
    rules = {c.src.casefold(): c for c in mine_terms(make_corpus(pairs), MiningParams()).conventions if c.src}
    rule = rules["human interactions"]
    verdict = check_item(rule, "Each of the human interactions counts.", "Chaque interaction humaine compte.")
    assert verdict is not None and verdict.full_pass


def test_a_capitalised_ui_label_inflects_but_a_name_stays_as_spelled() -> None:
    """``Alternative`` is a label the tagger reads as an adjective and the lexicon knows: its rendering
    agrees (``formats alternatifs``, Plone fr held-out failures). ``Diamond`` is no French word and keeps
    its spelling; an acronym never inflects."""
    assert generated_forms(["alternative"], "alternatif", Counter({"ADJ": 3}), "fr", "Alternative") == [
        "alternatif", "alternatifs", "alternative", "alternatives"]
    assert generated_forms(["diamond"], "diamond", Counter({"NOUN": 3}), "fr", "Diamond") == ["diamond"]
    assert generated_forms(["orange"], "orange", Counter({"PROPN": 3}), "fr", "Orange") == ["orange"]


def test_generated_articles_agree_with_the_noun_the_tm_tells_and_have_no_gender_otherwise() -> None:
    """simplemma's French table lists neither ``du`` nor ``l``: the generator's articles are kept as
    words; a gendered one only where the TM's determiners tell the noun's gender (``noun_genders``)."""
    args = (["extension de fichier"], "extension de fichier", Counter({"NOUN ADP NOUN": 2}), "fr", "file extension")
    told = set(generated_forms(*args, {"fichier": "m"}))
    assert {"extension du fichier", "extension d'un fichier", "extensions des fichiers"} <= told
    assert not any(" de la " in f or "d'une" in f for f in told)
    unknown = set(generated_forms(*args))
    assert "extension des fichiers" in unknown and not any(" du " in f or " la " in f or "d'un" in f for f in unknown)
    # an article the TM itself writes stays, whatever is known of the noun
    assert "ports du masque" in generated_forms(["port du masque"], "port de le masque", Counter({"NOUN ADP DET NOUN": 1}),
                                                "fr", "mask wearing")


def test_a_mined_n_de_n_rule_takes_the_articles_of_its_nouns_gender(make_corpus: Callable[..., Corpus]) -> None:
    pairs = [(f"Check the file extension {i}.", f"Vérifiez l'extension de fichier {i}.") for i in range(4)] + [
        (f"Open the file {i}.", f"Ouvrez le fichier {i}.") for i in range(3)]
    rule = next(c for c in mine_terms(make_corpus(pairs), MiningParams()).conventions if c.src == "file extension")
    for output, passes in (("L'extension du fichier est fausse.", True), ("Les extensions des fichiers", True),
                           ("L'extension de la fichier", False)):  # the TM writes "le fichier": masculine
        verdict = check_item(rule, "The file extension is wrong.", output)
        assert verdict is not None and verdict.full_pass is passes, output


def test_a_borrowed_english_word_keeps_its_english_plural_and_a_name_does_not() -> None:
    """German and French UIs write "Proxies" for a copied ``proxy`` (Plone de held-out failure)."""
    assert generated_forms(["proxy"], "proxy", Counter({"NOUN": 3}), "de", "proxy") == ["proxies", "proxy", "proxys"]
    assert "proxied" not in generated_forms(["proxy"], "proxy", Counter({"NOUN": 3}), "fr", "proxy")
    assert generated_forms(["diamond"], "diamond", Counter({"NOUN": 3}), "fr", "Diamond") == ["diamond"]
    assert generated_forms(["fichier"], "fichier", Counter({"NOUN": 3}), "fr", "file") == ["fichier", "fichiers"]


def test_a_copied_english_adjective_takes_no_english_plural() -> None:
    assert "virals" not in generated_forms(["viral"], "viral", Counter({"ADJ": 3}), "fr", "viral")
