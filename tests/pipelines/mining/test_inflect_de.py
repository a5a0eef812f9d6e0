"""German forms of a rendering come from the lexicon (issue 25: ``Passwortes`` failed ``passworts?``)."""

from __future__ import annotations

from housestyle.pipelines.mining import inflect_de, lexicon
from housestyle.pipelines.mining.morphology import german_lemma
from housestyle.pipelines.mining.paradigm import generated_forms


def test_a_noun_takes_every_case_and_number_form_of_its_lemma() -> None:
    forms = inflect_de.forms("kommentare", "kommentar", "", frozenset())
    assert {"kommentar", "kommentare", "kommentaren", "kommentars"} <= forms
    assert {"passwortes", "passwörter"} <= set(generated_forms(["passwort"], "passwort", None, "de", "password"))


def test_names_codes_and_phrases_keep_their_attested_forms() -> None:
    assert inflect_de.forms("mozilla", "mozilla", "", frozenset({"mozilla"})) == {"mozilla"}
    assert inflect_de.forms("externe anbieter", "extern anbieter", "", frozenset()) == {"externe anbieter"}
    assert inflect_de.forms("ipv6", "ipv6", "", frozenset()) == {"ipv6"}
    assert inflect_de.forms("xyzzyqux", "xyzzyqux", "", frozenset()) == {"xyzzyqux"}  # unknown word: as is


def test_the_german_lemma_is_looked_up_folded() -> None:
    assert german_lemma("Passwörter") == "passwort" and german_lemma("Kommentaren") == "kommentar"
    assert german_lemma("Größen") == "grösse"  # casefolded like the targets: ß → ss
    assert german_lemma("Xyzzyqux") == "xyzzyqux"
    assert lexicon.lemma_of("gesperrten", "de") == "sperren"  # the lower-case entry wins a fold clash
