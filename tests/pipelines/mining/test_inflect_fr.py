"""French number/gender generation (pipelines/mining/inflect_fr.py)."""

from __future__ import annotations

import pytest

from housestyle.pipelines.mining.inflect_fr import adjective_forms, forms, plural


@pytest.mark.parametrize(("word", "expected"), [
    ("masque", {"masques"}), ("virus", {"virus"}), ("prix", {"prix"}), ("social", {"sociaux"}),
    ("réseau", {"réseaux", "réseaus"}), ("travail", {"travails", "travaux"}),
])
def test_plural(word: str, expected: set[str]) -> None:
    assert plural(word) == expected


@pytest.mark.parametrize(("lemma", "wanted"), [
    ("impératif", {"impératif", "impérative", "impératifs", "impératives"}),
    ("contagieux", {"contagieux", "contagieuse", "contagieuses"}),
    ("viral", {"viral", "virale", "viraux", "virales"}),
    ("mécanique", {"mécanique", "mécaniques"}),
    ("public", {"public", "publique", "publics", "publiques"}),
    ("naturel", {"naturel", "naturelle", "naturels", "naturelles"}),
    ("rémunéré", {"rémunéré", "rémunérée", "rémunérés", "rémunérées"}),
])
def test_adjective_paradigm(lemma: str, wanted: set[str]) -> None:
    assert wanted <= adjective_forms(lemma)


@pytest.mark.parametrize(("form", "lemmas", "tags", "wanted"), [
    ("interactions humaines", "interaction humain", "NOUN ADJ", {"interaction humaine", "interactions humaines"}),
    ("contacts sociaux", "contact social", "NOUN ADJ", {"contact social"}),
    ("forte prévalence", "fort prévalence", "ADJ NOUN", {"fortes prévalences"}),
    ("port du masque", "port de le masque", "NOUN ADP DET NOUN", {"ports du masque"}),
    ("programme d'apprentissage", "programme de apprentissage", "NOUN ADP NOUN", {"programmes d'apprentissage"}),
    ("personnes infectées", "personne infecter", "NOUN VERB", {"personne infectée"}),
    ("mis en quarantaine", "mettre en quarantaine", "VERB ADP NOUN", {"mise en quarantaine", "mises en quarantaine"}),
    ("suspendu", "suspendre", "VERB", {"suspendue", "suspendues", "suspendus"}),
    ("limitées", "limiter", "ADJ", {"limité", "limitée", "limités"}),
])
def test_forms_of_renderings(form: str, lemmas: str, tags: str, wanted: set[str]) -> None:
    assert wanted | {form} <= forms(form, lemmas, tags)


@pytest.mark.parametrize(("form", "lemmas", "tags"), [
    ("covid-19 présente", "covid-19 présenter", "PROPN VERB"),  # a clause: a finite verb does not agree
    ("oc43", "oc43", "ADJ"),  # a code
    ("port du masque", "port", "NOUN"),  # tags that do not fit the words
])
def test_forms_left_alone(form: str, lemmas: str, tags: str) -> None:
    assert forms(form, lemmas, tags) == {form}


def test_a_participle_tagged_adjective_is_not_inflected_from_its_infinitive() -> None:
    assert not any(f.startswith("limiter") or "ère" in f for f in forms("limitées", "limiter", "ADJ"))


def test_the_complement_keeps_its_number() -> None:
    assert "ports des masques" not in forms("port du masque", "port de le masque", "NOUN ADP DET NOUN")


def test_a_bare_noun_complement_takes_its_determined_forms() -> None:
    """``extension de fichier`` and ``l'extension du fichier`` render one term (Plone fr, issue 25)."""
    got = forms("extension de fichier", "extension de fichier", "NOUN ADP NOUN")
    assert {"extension du fichier", "extension des fichiers", "extension d'un fichier", "extensions de fichiers"} <= got
    vowel = forms("programme d'apprentissage", "programme de apprentissage", "NOUN ADP NOUN")
    assert {"programme de l'apprentissage", "programme des apprentissages", "programme d'apprentissages"} <= vowel
    assert not any(" de apprentissage" in f or "du apprentissage" in f for f in vowel)  # elided, never "de a…"


def test_a_complement_with_its_own_article_or_another_preposition_gets_no_article() -> None:
    assert not any(" des " in f or " d'un " in f for f in forms("port du masque", "port de le masque", "NOUN ADP DET NOUN"))
    assert all(f.endswith(" en quarantaine") for f in forms("mis en quarantaine", "mettre en quarantaine", "VERB ADP NOUN"))


def test_complements_attested_in_the_plural_or_after_an_h_and_malformed_inputs() -> None:
    assert "extension du fichier" in forms("extension de fichiers", "extension de fichier", "NOUN ADP NOUN")
    assert {"liste de l'hôte", "réglage de la hauteur"} <= (forms("liste d'hôtes", "liste de hôte", "NOUN ADP NOUN")
                                                            | forms("réglage de hauteur", "réglage de hauteur", "NOUN ADP NOUN"))
    from housestyle.pipelines.mining.inflect_fr import bare_complements
    assert bare_complements(["de", "x"], ["de"], ["ADP", "NOUN"]) == []  # lemmas that do not fit the words
    assert bare_complements(["de", "x"], ["de", ""], ["ADP", "NOUN"]) == []
    assert bare_complements(["de", "rapides"], ["de", "rapide"], ["ADP", "ADJ"]) == []  # not a noun


def test_noun_genders_come_from_the_determiners_the_tm_writes() -> None:
    from housestyle.pipelines.mining.inflect_fr import agrees, noun_genders
    runs = [[("le", "le", "DET"), ("fichier", "fichier", "NOUN")], [("un", "un", "DET"), ("fichiers", "fichier", "NOUN")],
            [("la", "le", "DET"), ("page", "page", "NOUN")],  # one vote: not enough
            [("la", "le", "DET"), ("mode", "mode", "NOUN")], [("le", "le", "DET"), ("mode", "mode", "NOUN")]]  # split
    assert noun_genders(runs) == {"fichier": "m"}
    assert agrees("extension du fichier", {"fichier": "m"}, []) and not agrees("extension de la fichier", {"fichier": "m"}, [])
    assert not agrees("extension du fichier", {}, []) and agrees("extension des fichiers", {}, [])
    assert agrees("ports du masque", {}, ["port du masque"])  # attested article
