"""A rendering in a compounding target language matches as a compound part (issue 25, German PO corpora)."""

from __future__ import annotations

import re

import pytest

from housestyle.pipelines.conventions.compound_parts import compound_regex, compounding
from housestyle.pipelines.conventions.factors import literal_forms
from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import check_item
from housestyle.pipelines.mining.inflection import alternatives


def _matches(forms: list[str], text: str) -> bool:
    return re.search(compound_regex(forms, "typographic"), fold_text(text, "typographic")) is not None


@pytest.mark.parametrize("forms, text", [
    (["Methode", "Methoden"], "%s() (Klassenmethode von %s)"),  # closed compound, head
    (["Termin", "Termine"], "Terminportlet bearbeiten"),  # closed compound, first part
    (["Sammlung"], "Gruppen-Sammlungs-Berechtigungen"),  # linking s, hyphen-joined
    (["CSS"], "Konfigurieren Sie Plone JavaScript/CSS-Ressourcen."),  # short: whole word, hyphen a boundary
    (["Passwort"], "Ungültiges Passwortformat"),
    (["Größe"], "Die GRÖSSE der Vorschau"),  # folded as the checker folds (ß → ss)
])
def test_compound_parts_match(forms: list[str], text: str) -> None:
    assert _matches(forms, text)


@pytest.mark.parametrize("forms, text", [
    (["Methode"], "Eine Ersatzmethodenliste"),  # glued on both sides
    (["Tag"], "Montag"),  # shorter than MIN_PART: a whole word only
    (["CSS"], "CSSX-Dateien"),
    (["Seite"], "Ein Text"),
])
def test_what_is_no_compound_part_does_not_match(forms: list[str], text: str) -> None:
    assert not _matches(forms, text)


def test_compounding_languages_get_the_compound_regex_even_for_one_form() -> None:
    assert compounding("de-CH") and compounding("nl") and not compounding("fr") and not compounding(None)
    entry, is_regex = alternatives(["methode"], tgt_lang="de")
    assert is_regex and literal_forms(entry, True) == ("methode",)  # failures.parquet stays readable
    assert alternatives(["méthode"], tgt_lang="fr") == ("méthode", False)


def test_the_checker_passes_a_compound_and_fails_its_absence() -> None:
    entry, is_regex = alternatives(["methode", "methoden"], tgt_lang="de")
    conv = Convention(dimension="term:method", rule="term", src="method", expected_terms=[entry], regex=is_regex,
                      match_mode="typographic", tgt_lang="de")
    good = check_item(conv, "class method", "Klassenmethode")
    bad = check_item(conv, "class method", "Klassenfunktion")
    assert good is not None and good.full_pass
    assert bad is not None and not bad.full_pass


@pytest.mark.parametrize("forms, text", [
    (["methode"], "klassenmethode"), (["termin"], "terminportlet bearbeiten"), (["css"], "css-ressourcen"),
    (["methode"], "ersatzmethodenliste"), (["tag"], "montag"), (["seite"], "ein text"),
])
def test_the_miner_counts_compound_parts_as_the_regex_matches(forms: list[str], text: str) -> None:
    """``word_hits(compound=True)`` (the miner's coverage of a rendering) agrees with ``compound_regex``."""
    from housestyle.pipelines.conventions.multisearch import word_hits

    counted = bool(word_hits(forms, [text], mode="count", compound=True)[0])
    assert counted == _matches(forms, text)
    assert not word_hits(["methode"], ["klassenmethode"], mode="count")[0]  # plain counting: a word only


def test_the_engine_agrees_with_the_reference_checker_on_compounds() -> None:
    from housestyle.pipelines.scoring.engine import score_systems

    entry, is_regex = alternatives(["methode", "methoden"], tgt_lang="de")
    conv = Convention(dimension="term:method", rule="term", src="method", expected_terms=[entry], regex=is_regex,
                      match_mode="typographic", tgt_lang="de")
    outputs = {"s1": "Klassenmethode", "s2": "Klassenfunktion", "s3": "Methoden-Liste", "s4": "Ersatzmethodenliste"}
    result = score_systems([conv], {s: "class method" for s in outputs}, {"mt": outputs})
    (row,) = result.dimension_scores.iter_rows(named=True)
    expected = sum(bool(check_item(conv, "class method", text).full_pass) for text in outputs.values())  # type: ignore[union-attr]
    assert (row["scored"], row["passed"]) == (4, expected) == (4, 2)
