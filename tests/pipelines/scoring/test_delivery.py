"""Deliveries as they come: a folder or a zip of PO / XLIFF files mirroring the TM, ids qualified by
file; a repeated id is an error naming the file and line; built-in placeholders in real formats."""

from __future__ import annotations

import zipfile
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.scoring.builtin import builtin_conventions
from housestyle.pipelines.scoring.check import check_item
from housestyle.pipelines.scoring.delivery import load_segments_at
from housestyle.pipelines.scoring.runs import run_scoring

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "scoring" / "delivery"
XLIFF = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="fr" datatype="plaintext"><body>
<trans-unit id="t1"><source>One</source><target>Un</target></trans-unit>
<trans-unit id="t1"><source>Two</source><target>Deux</target></trans-unit>
</body></file></xliff>
"""


def test_a_folder_qualifies_ids_by_file() -> None:
    sources = load_segments_at(FIX / "tm", side="source")
    assert sorted({k.split("::")[0] for k in sources}) == ["a/one.po", "two.po"]  # "Save" twice, two files
    assert len(sources) == 3


def test_a_zip_mirrors_the_folder(tmp_path: Path) -> None:
    archive = tmp_path / "mt.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for file in sorted((FIX / "mt").rglob("*.po")):
            z.write(file, file.relative_to(FIX / "mt").as_posix())
    assert load_segments_at(archive, side="target") == load_segments_at(FIX / "mt", side="target")


def test_a_repeated_id_names_the_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.xliff").write_text(XLIFF, encoding="utf-8")
    with pytest.raises(InputError, match=r"x\.xliff:\d+: repeated segment id"):
        load_segments_at(tmp_path / "d", side="source")


def test_folders_score_file_by_file(tmp_path: Path) -> None:
    conventions = tmp_path / "set.jsonl"
    conventions.write_text('{"dimension":"term:save","rule":"term","src":"Save","expected_terms":["Enregistrer"],'
                           '"src_lang":"en","tgt_lang":"fr"}\n', encoding="utf-8")
    out = run_scoring(conventions, FIX / "tm", {"mt": FIX / "mt"}, [FIX / "tm"], tmp_path / "run")
    f = pl.read_parquet(out / "failures.parquet")
    rows = {(r["dimension"], r["segment_id"].split("::")[0], r["inherited"]) for r in f.iter_rows(named=True)}
    assert rows == {("term:save", "two.po", True), ("placeholder:builtin", "a/one.po", False)}


@pytest.mark.parametrize(("source", "output", "fails"), [
    ("Connect to %1", "Se connecter à % 1", True),  # Qt
    ("Connect to %1", "Se connecter à %1", False),
    ("Hi { $user }", "Salut { $user }", False),  # Fluent
    ("Hi { $user }", "Salut { $utilisateur }", True),
    ("Use { -brand-name }", "Utilisez Firefox", True),
    ("Hi %(name)s, %1$s", "Salut %(name)s, %1$s", False),
    ("Plain text", "Texte <b>gras</b>", True),  # an extra tag
    ("100% sure", "sûr à 100 %", False),  # a percent sign is no placeholder
])
def test_builtin_placeholders(source: str, output: str, fails: bool) -> None:
    [placeholder, *_] = builtin_conventions([Convention(dimension="x", rule="term", src="a", expected_terms=["b"],
                                                        src_lang="en", tgt_lang="fr")])
    verdict = check_item(placeholder, source, output)
    assert verdict is not None and verdict.full_pass is not fails


def test_builtin_leaves_what_the_set_checks_to_the_set() -> None:
    mined = Convention(dimension="placeholder:integrity", rule="placeholder", params={"patterns": [r"\{\d+\}"]},
                       src_lang="en", tgt_lang="fr")
    added = builtin_conventions([mined])
    [placeholder] = [c for c in added if c.rule == "placeholder"]
    assert r"\{\d+\}" not in placeholder.params["patterns"] and placeholder.params["inline"] is False
    verdict = check_item(placeholder, "Item {0} ⟨x1/⟩", "Article ⟨x1/⟩")
    assert verdict is not None and verdict.full_pass  # the set's rule reports these
    numeric = [c for c in added if c.rule == "numeric"]
    assert numeric and numeric[0].params["decimal"] == ","  # CLDR fr


def test_a_zip_member_outside_the_archive_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(FIX / "tm" / "two.po", "../two.po")
    with pytest.raises(InputError, match="outside the archive"):
        load_segments_at(archive, side="target")
