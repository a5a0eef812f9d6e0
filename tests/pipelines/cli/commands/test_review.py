"""`housestyle review-export | review-import` and `mine --decisions` on the tiny mining fixture, as a
linguist and an analyst use them; bad packets are refused in one line naming the row."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from openpyxl import load_workbook

from housestyle.pipelines.cli.main import main
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.version import sha256_file
from tests.conftest import REPO_ROOT, write_sealed_set

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "mining" / "tiny_enfr.xliff"


@pytest.fixture()
def mined(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """inbox/fx/tm/ holds the fixture TM; rules_out/fx/<set>/ the set mined from it."""
    tm = tmp_path / "inbox" / "fx" / "tm"
    tm.mkdir(parents=True)
    shutil.copyfile(FIXTURE, tm / FIXTURE.name)
    assert main(["mine", str(tm), "--src", "en", "--tgt", "fr", "--client", "fx", "--out", str(tmp_path / "rules_out")]) == 0
    capsys.readouterr()
    version = (tmp_path / "rules_out" / "fx" / "LATEST").read_text(encoding="utf-8").strip()
    return tmp_path / "rules_out" / "fx" / version


def _fill(path: Path, decisions: dict[int, dict[str, str]]) -> dict[str, str]:
    """Write decisions into packet rows (row index → column → value) of an XLSX packet; id → decision."""
    book = load_workbook(path)
    sheet = book["review"]
    header = [c.value for c in sheet[1]]
    chosen = {}
    for row, values in decisions.items():
        for column, value in values.items():
            sheet.cell(row=row, column=header.index(column) + 1, value=value)
        chosen[str(sheet.cell(row=row, column=1).value)] = values["decision"]
    book.save(path)
    return chosen


def test_export_fill_import_and_the_next_set_follows(mined: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inbox = tmp_path / "inbox"
    packet = tmp_path / "packet.xlsx"
    everything = load_conventions(mined)
    total, listed = len(everything), sum(c.status != "suggested" for c in everything)
    assert main(["review-export", "--conventions", str(mined), "--out", str(tmp_path / "default.csv")]) == 0
    assert f"{listed} of {total} rules of set {mined.name}" in capsys.readouterr().out  # suggested only when named
    assert main(["review-export", "--conventions", str(mined), "--out", str(packet), "--inbox", str(inbox),
                 "--status", "all"]) == 0
    out = capsys.readouterr().out
    assert f"{total} of {total} rules of set {mined.name} → {packet}" in out and "examples from " in out
    terms = [n for n, r in enumerate(load_workbook(packet)["review"].iter_rows(values_only=True), start=1)
             if r[2] == "term" and n > 1]
    chosen = _fill(packet, {terms[0]: {"decision": "accept", "reviewer": "Anne", "reviewer_role": "linguist"},
                            terms[1]: {"decision": "reject", "comment": "not a house term"},
                            terms[2]: {"decision": "edit", "expected_terms": "alpha | bêta; delta", "wrong_variants": "gamma"}})
    assert main(["review-import", str(packet), "--conventions", str(mined), "--inbox", str(inbox), "--dry-run"]) == 0
    decisions_file = inbox / "fx" / "decisions.parquet"
    dry = capsys.readouterr().out
    assert 'requires "alpha" or "bêta"; and "delta"; wrong: "gamma"' in dry and "nothing recorded" in dry
    assert not decisions_file.exists()
    assert main(["review-import", str(packet), "--conventions", str(mined), "--inbox", str(inbox)]) == 0
    assert f"recorded 3 decisions of set {mined.name} (accept 1, reject 1, edit 1) → {decisions_file} (3 rows)" \
        in capsys.readouterr().out
    recorded = pl.read_parquet(decisions_file)
    assert dict(zip(recorded["convention_id"], recorded["decision"])) == chosen

    assert main(["mine", str(inbox / "fx" / "tm"), "--src", "en", "--tgt", "fr", "--client", "fx",
                 "--out", str(tmp_path / "rules_out"), "--decisions", str(decisions_file)]) == 0
    assert "decisions: 3 applied (accept 1, reject 1, edit 1), 0 match no rule of this set" in capsys.readouterr().out
    after = tmp_path / "rules_out" / "fx" / (tmp_path / "rules_out" / "fx" / "LATEST").read_text(encoding="utf-8").strip()
    assert after != mined
    by_id = {c.convention_id: c for c in load_conventions(after / "conventions.jsonl")}  # with the extra fields
    accepted, rejected, edited = chosen
    assert by_id[accepted].status == "validated" and by_id[rejected].status == "rejected" and edited not in by_id
    (edit,) = [c for c in by_id.values() if c.origin == "authored" and c.extra.get("replaces") == edited]
    # 'alpha | bêta' is one entry (either form), 'delta' a second required one
    assert edit.regex and len(edit.expected_terms) == 2 and len(edit.wrong_variants) == 1 and edit.status == "validated"
    assert edit.note is not None and edit.note.startswith(f"edit of {edited} by a reviewer (-), set {mined.name}")
    manifest = json.loads((after / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["inputs"]["decisions/decisions.parquet"] == sha256_file(decisions_file)


def test_a_bad_packet_is_one_line_naming_the_row_and_records_nothing(mined: Path, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    inbox = tmp_path / "inbox"
    packet = tmp_path / "packet.csv"
    assert main(["review-export", "--conventions", str(mined), "--out", str(packet), "--inbox", str(inbox),
                 "--status", "all"]) == 0
    capsys.readouterr()
    with packet.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))

    def attempt(edit: dict[str, str], row: int = 3) -> str:
        filled = [dict(r) for r in rows]
        filled[0]["decision"] = "accept"
        filled[row - 2].update(edit)
        with (tmp_path / "bad.csv").open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(filled)
        assert main(["review-import", str(tmp_path / "bad.csv"), "--conventions", str(mined), "--inbox", str(inbox)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and not (inbox / "fx" / "decisions.parquet").exists()
        return err

    assert "bad.csv:row 3: unknown convention_id 'ffffffffffffffff'" in attempt({"convention_id": "ffffffffffffffff",
                                                                                 "decision": "accept"})
    assert "bad.csv:row 4: unknown decision 'ok'" in attempt({"decision": "ok"}, row=4)
    assert "bad.csv:row 3: the edited forms do not make a valid convention" in attempt(
        {"decision": "edit", "expected_terms": "re:(unclosed"})
    assert "bad.csv:row 3: packet row of client 'acme', not of 'fx'" in attempt({"decision": "reject", "client": "acme"})
    assert main(["review-import", str(tmp_path / "nope.xlsx"), "--conventions", str(mined), "--inbox", str(inbox)]) == 2
    assert "nope.xlsx: file not found" in capsys.readouterr().err
    assert main(["review-export", "--conventions", str(mined), "--out", str(packet), "--rules", "term,terms"]) == 2
    assert "--rules: unknown --rules value(s) terms (one of term," in capsys.readouterr().err


def _term(src: str, expected: str) -> Convention:
    return Convention(dimension=f"term:{src}", rule="term", src=src, expected_terms=[expected], src_lang="en",
                      tgt_lang="fr", support=2)


def test_with_a_registration_the_rows_are_filed_for_its_precision_gate(registration_repo: Path,
                                                                       capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    tmp_path = registration_repo
    monkeypatch.setenv("HOUSESTYLE_ROOT", str(tmp_path))  # the project whose inbox the rows are filed in
    assert main(["register", "--client", "fx", "--root", str(tmp_path)]) == 0
    set_dir = write_sealed_set(tmp_path / "rules_out" / "fx" / "s1", [_term("air mass", "masse d'air"), _term("fever", "fièvre")],
                               {"client": "fx"})
    packet = tmp_path / "packet.csv"
    assert main(["review-export", "--conventions", str(set_dir), "--out", str(packet), "--inbox", str(tmp_path / "inbox")]) == 0
    assert "examples show no texts" in capsys.readouterr().err
    frame = pl.read_csv(packet, infer_schema=False).with_columns(
        decision=pl.lit("accept"), reviewer=pl.lit("Anne"), reviewer_role=pl.lit("linguist"))
    frame.write_csv(packet)
    assert main(["review-import", str(packet), "--conventions", str(set_dir),
                 "--registration", str(tmp_path / "registrations" / "fx" / "v1")]) == 0
    out = capsys.readouterr().out
    assert "2 linguist judgements, precision 1.000; gate precision_under_review (>= 0.85): pass" in out
    review = pl.read_csv(tmp_path / "inbox" / "fx" / "review" / "s1.csv")
    assert review["verdict"].to_list() == ["correct", "correct"]
    assert pl.read_parquet(tmp_path / "inbox" / "fx" / "decisions.parquet").height == 2
    # a verdict file (review-sample's) still needs the registration
    assert main(["review-import", str(tmp_path / "inbox" / "fx" / "review" / "s1.csv"), "--conventions", str(set_dir)]) == 2
    assert "give --registration" in capsys.readouterr().err


def test_a_packet_csv_that_is_not_utf8_is_one_line_naming_its_line(mined: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Found 2026-12-07: telling a packet from a verdict file read the CSV's header through a decoder that
    raised on a bad byte anywhere in the first block: a UnicodeDecodeError traceback."""
    packet = tmp_path / "bad.csv"
    packet.write_bytes(b"convention_id,decision\nc1,acc\xffept\n")
    assert main(["review-import", str(packet), "--conventions", str(mined), "--inbox", str(tmp_path / "inbox")]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"housestyle review-import: error: {packet}:2: not UTF-8: byte 0xFF at column 7"]
