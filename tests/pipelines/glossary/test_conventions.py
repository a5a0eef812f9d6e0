"""Glossary concepts → conventions, and how they stand for the mined rules of a set."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.conventions.compiled import compile_generic
from housestyle.pipelines.conventions.folding import fold_with_map
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.set_glossary import merge_glossary
from housestyle.pipelines.glossary.conventions import to_conventions
from housestyle.pipelines.glossary.intake import import_glossary
from housestyle.pipelines.glossary.model import Concept
from housestyle.pipelines.paths import UnsafePathError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "glossary"
DATA = Path(__file__).resolve().parents[4] / "shared" / "data"


def _present(entries: list[str], conv: Convention, text: str) -> bool:
    compiled = compile_generic(conv)
    pool = compiled.expected if entries is conv.expected_terms else compiled.wrong
    return any(e.present(fold_with_map(text, conv.match_mode).text, text) for e in pool)


def test_preferred_and_admitted_are_one_entry_forbidden_are_wrong() -> None:
    concept = Concept("c1", "g.tbx:3", "en", "fr", ["email"], ["courriel"], ["adresse électronique"], ["e-mail"])
    done = to_conventions([concept, Concept("c2", "g.tbx:9", "en", "fr", ["ghost"])])
    (conv,) = done.conventions
    assert conv.origin == "glossary" and conv.status == "validated" and conv.rule == "term" and conv.src == "email"
    assert len(conv.expected_terms) == 1 and len(conv.wrong_variants) == 1
    for text in ("Envoyez un courriel", "deux courriels", "votre adresse électronique"):  # any of them, any number
        assert _present(conv.expected_terms, conv, text)
    assert _present(conv.wrong_variants, conv, "un e-mail") and not _present(conv.expected_terms, conv, "un e-mail")
    assert [(r.concept_id, r.reason) for r in done.refused] == [("c2", "no target term (fr)")]


def test_homonyms_join_and_forbidden_only_is_a_forbidden_rule() -> None:
    done = to_conventions([Concept("a", "f:1", "en", "fr", ["mail"], ["courrier"]),
                           Concept("b", "f:2", "en", "fr", ["mail"], ["courriel"]),
                           Concept("c", "f:3", "en", "fr", ["spam"], wrong=["spam"])])
    assert done.merged == 1 and [c.rule for c in done.conventions] == ["term", "forbidden"]
    mail = done.conventions[0]
    assert _present(mail.expected_terms, mail, "un courrier") and _present(mail.expected_terms, mail, "un courriel")



def test_a_german_glossary_term_takes_its_case_forms_and_stands_in_compounds() -> None:
    """As the miner's German rules (issue 25): lexicon forms, compound parts, for preferred and deprecated terms."""
    done = to_conventions([Concept("c1", "g.tbx:3", "en", "de", ["comment"], ["Kommentar"], wrong=["Anmerkung"])])
    (conv,) = done.conventions
    assert conv.regex
    for text in ("Neue Kommentare", "bei neuen Kommentaren", "das Kommentarfeld", "Blog-Kommentar"):
        assert _present(conv.expected_terms, conv, text), text
    assert not _present(conv.expected_terms, conv, "Ein Text")
    assert _present(conv.wrong_variants, conv, "Anmerkungen hinzufügen")

def _mined(src: str, forms: list[str]) -> Convention:
    return Convention(dimension=f"term:{src}", rule="term", src=src, expected_terms=forms, match_mode="typographic",
                      src_lang="en", tgt_lang="fr", origin="mined", support=5)


def test_a_term_holding_a_control_character_is_refused_not_written() -> None:
    """A NUL in a CSV cell (or a C1 code in a TBX term) made a rule no text can ever pass."""
    concepts = [Concept("1", "t.csv:2", "en", "fr", ["file"], preferred=["fich\x00ier"]),
                Concept("2", "t.csv:3", "en", "fr", ["fol\x85der"], preferred=["dossier"]),
                Concept("3", "t.csv:4", "en", "fr", ["page"], preferred=["page"])]
    done = to_conventions(concepts)
    assert [c.src for c in done.conventions] == ["page"]
    assert [r.reason for r in done.refused] == [
        "term 'fich\\x00ier' holds a control character (U+0000): no text can match it",
        "term 'fol\\x85der' holds a control character (U+0085): no text can match it"]


def test_a_mined_rule_is_not_written_twice_and_a_contradiction_is_reported() -> None:
    glossary = to_conventions([Concept("c1", "g:1", "en-US", "fr", ["email"], ["courriel"]),
                               Concept("c2", "g:2", "en-US", "fr", ["password"], ["mot de passe"])]).conventions
    agreeing, contrary, other = _mined("password", ["mot de passe"]), _mined("email", ["e-mail"]), _mined("tab", ["onglet"])
    merged = merge_glossary([agreeing, contrary, other], glossary)
    assert [c.src for c in merged.conventions] == ["tab", "email", "password"]
    assert merged.removed == {agreeing.convention_id, contrary.convention_id}
    assert merged.report == {"conventions": 2, "also_mined": 1, "conflicts": 1}
    (conflict,) = merged.conflicts
    assert conflict["kind"] == "glossary" and conflict["src"] == "email" and conflict["resolved"]
    assert [r["forms"] for r in conflict["renderings"]] == [["courriel", "courriels"], ["e-mail"]]


def test_import_writes_the_clients_glossary_file(tmp_path: Path) -> None:
    done = import_glossary(FIXTURES / "basic2008.tbx", inbox=tmp_path, client="fx", src_lang="en", tgt_lang="fr")
    assert done.path == tmp_path / "fx" / "glossary" / "basic2008.jsonl"
    rows = [json.loads(line) for line in done.path.read_text(encoding="utf-8").splitlines()]
    assert [(r["src"], r["src_lang"], r["origin"], r["status"]) for r in rows] == [
        ("email", "en", "glossary", "validated"), ("password", "en", "glossary", "validated")]
    assert sorted(r.concept_id for r in done.converted.refused) == ["c3", "c3", "c4"]  # c3: its term, then the entry


@pytest.mark.parametrize("link", ["client", "glossary"])
def test_an_import_is_never_written_through_a_symlink(tmp_path: Path, link: str) -> None:
    """Found 2026-12-07: a symlinked inbox/<client>/ or glossary/ made the import write outside the project,
    where no run ever read it (the pipeline lists no file through a symlinked folder)."""
    inbox, outside = tmp_path / "inbox", tmp_path / "outside"
    outside.mkdir()
    (inbox / "fx").mkdir(parents=True) if link == "glossary" else inbox.mkdir()
    (inbox / "fx" / "glossary" if link == "glossary" else inbox / "fx").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError, match="is outside|is a symlink"):
        import_glossary(FIXTURES / "basic2008.tbx", inbox=inbox, client="fx", tgt_lang="fr")
    assert not any(outside.rglob("*"))


@pytest.mark.parametrize(("path", "imported", "refused"), [
    ("mozilla-fr/terminology_management/terminology/fr.tbx", 93, 0),
    ("tico19/terminologies/f_en-fr_XX.csv", 306, 0),
])
def test_real_termbases(tmp_path: Path, path: str, imported: int, refused: int) -> None:
    source = DATA / path
    if not source.is_file():
        pytest.skip(f"real data absent: {source}")
    done = import_glossary(source, inbox=tmp_path, client="c", src_lang="en", tgt_lang="fr", dry_run=True)
    assert (len(done.converted.conventions), len(done.converted.refused)) == (imported, refused)
    assert not done.path.exists()
    assert pl.DataFrame([c.to_dict() for c in done.converted.conventions]).get_column("origin").unique().to_list() == ["glossary"]


def test_every_new_set_includes_the_glossary_and_reports_the_conflict(tmp_path: Path) -> None:
    from housestyle.pipelines.mining.build_set import build_set, read_sources
    from housestyle.pipelines.mining.merge import MiningResult

    done = import_glossary(FIXTURES / "basic2008.tbx", inbox=tmp_path / "inbox", client="fx", src_lang="en", tgt_lang="fr")
    mined = [_mined("email", ["e-mail"]), _mined("tab", ["onglet"])]
    evidence = pl.DataFrame({"convention_id": [c.convention_id for c in mined], "unit_id": ["u1", "u2"],
                             "role": ["evidence", "evidence"]})
    written, _ = build_set({"en__fr": MiningResult(mined, evidence, [], {"units": 2}, [])},
                           read_sources(glossary=[done.path]), client="fx", rules_out=tmp_path / "out",
                           inputs={"tm": "t"}, split=None)
    manifest = json.loads((written.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["stats"]["glossary"] == {"conventions": 2, "also_mined": 0, "conflicts": 1}
    assert "glossary/basic2008.jsonl" in manifest["inputs"]
    rows = [json.loads(line) for line in (written.path / "conventions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted((r["src"], r["origin"]) for r in rows) == [("email", "glossary"), ("password", "glossary"), ("tab", "mined")]
    conflicts = pl.read_parquet(written.path / "conflicts.parquet")
    assert conflicts.filter(pl.col("kind") == "glossary")["src"].to_list() == ["email"]
    evidence_ids = set(pl.read_parquet(written.path / "evidence.parquet")["convention_id"])
    assert mined[0].convention_id not in evidence_ids and mined[1].convention_id in evidence_ids
