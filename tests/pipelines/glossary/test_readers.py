"""The termbase readers on small real-format fixtures: statuses become roles, refusals name the entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import InputError, UnsafeXmlError
from housestyle.pipelines.glossary.intake import read_glossary
from housestyle.pipelines.glossary.model import Concept, covers, role_of
from housestyle.pipelines.glossary.tables import column_of

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "glossary"


def _by_source(concepts: list[Concept]) -> dict[str, Concept]:
    return {c.sources[0]: c for c in concepts}


def test_status_words_map_to_roles() -> None:
    assert role_of(None) == role_of("") == role_of("preferredTerm-admn-sts") == role_of("APPROVED") == "preferred"
    assert role_of("admittedTerm-admn-sts") == role_of("admitted") == "admitted"
    assert role_of("deprecatedTerm-admn-sts") == role_of("not recommended") == role_of("Obsolete") == "wrong"
    assert role_of("maybeTerm") is None
    assert covers("en", "en-US") and not covers("en-GB", "en-US") and covers(None, "fr")


def test_tbx_2008_statuses_and_refusals() -> None:
    concepts, refused = read_glossary(FIXTURES / "basic2008.tbx", src_lang=None, tgt_lang="fr")
    email = _by_source(concepts)["email"]
    assert (email.preferred, email.admitted, email.wrong) == (["courriel"], ["adresse électronique"], ["e-mail"])
    assert email.src_lang == "en-US" and email.tgt_lang == "fr" and email.note == "Electronic mail."
    assert _by_source(concepts)["password"].preferred == ["mot de passe"]  # no status: preferred
    reasons = sorted(r.reason for r in refused)
    assert reasons == ["no terms in the source language en-US", "unknown status 'maybeTerm' of target term 'bidule'"]
    assert {r.concept_id for r in refused} == {"c3", "c4"}


def test_tbx_v3_concept_entries() -> None:
    concepts, refused = read_glossary(FIXTURES / "v3.tbx", src_lang="en", tgt_lang="fr")
    (update,) = concepts
    assert (update.sources, update.preferred, update.wrong, refused) == (["update"], ["mise à jour"], ["update"], [])


def test_a_tbx_declaring_entities_is_refused() -> None:
    with pytest.raises(UnsafeXmlError, match="declares entities"):
        read_glossary(FIXTURES / "entities.tbx", src_lang=None, tgt_lang=None)


def test_memoq_crowdin_phrase_and_weblate_layouts() -> None:
    memoq, _ = read_glossary(FIXTURES / "memoq.csv", src_lang=None, tgt_lang=None)
    assert (_by_source(memoq)["email"].preferred, _by_source(memoq)["email"].wrong) == (["courriel"], ["e-mail"])
    crowdin, _ = read_glossary(FIXTURES / "crowdin.csv", src_lang="en", tgt_lang="fr")
    assert [(c.sources, c.preferred, c.wrong, c.note) for c in crowdin][:2] == [
        (["email"], ["courriel"], [], "mail"), (["email"], [], ["mél"], None)]
    phrase, _ = read_glossary(FIXTURES / "phrase.xlsx", src_lang=None, tgt_lang=None)
    assert [(c.sources, c.preferred, c.note) for c in phrase] == [(["download"], ["télécharger"], "get a file"),
                                                                 (["account"], ["compte"], None)]
    weblate, refused = read_glossary(FIXTURES / "weblate.csv", src_lang="en", tgt_lang="fr")
    assert [(c.preferred, c.wrong) for c in weblate] == [(["courriel"], ["e-mail"])]
    assert [r.reason for r in refused] == ["no source term"]
    with pytest.raises(InputError, match="needs --src and --tgt"):
        read_glossary(FIXTURES / "weblate.csv", src_lang=None, tgt_lang=None)


def test_column_headers_of_the_tools() -> None:
    assert column_of("Status [fr]") == ("fr", "status") and column_of("fr_Def") == ("fr", "def")
    assert column_of("French_France") == ("fr", "term") and column_of("English (United States)") == ("en", "term")
    assert column_of("fr_FR") == ("fr-FR", "term") and column_of("Gender") == (None, "gender")
    assert column_of("id") == (None, "id") and column_of("Term_Info") == (None, "term_info")


# Hostile CSV termbases (2026-12-07): each was a traceback or a silent loss before.

def test_an_unclosed_quote_is_refused_with_the_line_it_opens_on(tmp_path: Path) -> None:
    """Read leniently, the quote swallowed the 11 rows after it into one "term"; now it names line 2."""
    path = tmp_path / "quote.csv"
    path.write_text('source,target\nfile,"fichier\nfolder,dossier\n' + "a,b\n" * 10)
    with pytest.raises(InputError, match=r"quote.csv:2: not readable as CSV: unexpected end of data"):
        read_glossary(path, src_lang="en", tgt_lang="fr")


def test_a_cell_past_the_csv_field_limit_is_an_input_error_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text("source,target\nfolder,dossier\nfile," + "x" * 200_000 + "\n")
    with pytest.raises(InputError, match=r"long.csv:3: not readable as CSV: field larger than field limit"):
        read_glossary(path, src_lang="en", tgt_lang="fr")
