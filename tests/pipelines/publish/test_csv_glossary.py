"""CSV glossary: a BOM, a header, one row per source × target term, read back by the csv module."""

from __future__ import annotations

import csv
from pathlib import Path

from housestyle.pipelines.conventions.model import STATUSES
from housestyle.pipelines.publish.csv_glossary import COLUMNS
from housestyle.pipelines.publish.publish import publish
from tests.pipelines.publish.sample import sample_set


def test_csv_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "glossary.csv"
    done = publish(sample_set(tmp_path / "v1"), "csv", out, ("validated",))
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data
    with out.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == COLUMNS
    assert done.files[0].items == len(rows) == 8
    pairs = [(r["source"], r["target"], r["forbidden"]) for r in rows]
    assert pairs[:2] == [("air mass", "masse d'air", "false"), ("air mass", "masse atmosphérique", "true")]
    assert ("household soap", "savons ménagers", "false") in pairs
    assert ("lockdown", "bouclage", "true") in pairs
    air = rows[0]
    assert air["note"].startswith("Météo-France usage; support: 12; consistency: 0.92")
    assert len(air["convention_id"]) == 16


def test_csv_quotes_what_needs_quoting(tmp_path: Path) -> None:
    from housestyle.pipelines.conventions.model import Convention
    from tests.conftest import write_sealed_set

    conv = Convention(dimension="term:a, b", rule="term", src='say "a, b"', expected_terms=["dire « a; b »\nx"],
                      status="validated", note="line one\nline two", src_lang="en", tgt_lang="fr")
    out = tmp_path / "g.csv"
    publish(write_sealed_set(tmp_path / "v2", [conv]), "csv", out, STATUSES)
    with out.open(encoding="utf-8-sig", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    assert (row["source"], row["target"]) == ('say "a, b"', "dire « a; b »\nx")


def test_csv_cells_never_become_spreadsheet_formulas(tmp_path: Path) -> None:
    """A hostile TM term such as ``=HYPERLINK(…)`` must not run when the glossary opens in Excel."""
    from housestyle.pipelines.conventions.model import Convention
    from tests.conftest import write_sealed_set

    convs = [Convention(dimension="term:x", rule="term", src='=HYPERLINK("http://x","y")', expected_terms=["@SUM(A1)"],
                        status="validated", note="+1 call", src_lang="en", tgt_lang="fr"),
             Convention(dimension="term:t", rule="term", src="-20", expected_terms=["-20"], status="validated",
                        src_lang="en", tgt_lang="fr")]
    out = tmp_path / "g.csv"
    publish(write_sealed_set(tmp_path / "v3", convs), "csv", out, STATUSES)
    with out.open(encoding="utf-8-sig", newline="") as handle:
        rows = {r["convention_id"]: r for r in csv.DictReader(handle)}
    hostile = rows[convs[0].convention_id]
    assert (hostile["source"], hostile["target"]) == ("'=HYPERLINK(\"http://x\",\"y\")", "'@SUM(A1)")
    assert hostile["note"].startswith("'+1 call")
    assert rows[convs[1].convention_id]["source"] == "-20"  # a plain number is not a formula
