"""The review packet: rows sorted by support, literal forms, examples with the match marked (CSV
[[…]], XLSX rich text), a drop-down for the decision, read back from both formats; and the filled
rows turned into decisions, all or nothing."""

from __future__ import annotations

import csv
from pathlib import Path

import polars as pl
import pytest
from openpyxl import load_workbook
from openpyxl.cell.rich_text import CellRichText

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.decisions import identity_of
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.review.decide import decisions_from_rows, review_frame
from housestyle.pipelines.review.packet import PACKET_COLUMNS, build_packet, display_forms, write_csv
from housestyle.pipelines.review.xlsx import read_packet, write_xlsx

FEVER = Convention(dimension="term:fever", rule="term", src="fever", expected_terms=[r"\bfièvres?\b"], regex=True,
                   src_lang="en", tgt_lang="fr", support=2, consistency=0.67, match_mode="caseless")
MASK = Convention(dimension="term:mask", rule="term", src="mask", expected_terms=["masque"], wrong_variants=["bavette"],
                  src_lang="en", tgt_lang="fr", support=5, consistency=1.0, match_mode="caseless")
DIGITS = Convention(dimension="number:x", rule="pattern", expected_terms=[r"\d+ %"], regex=True, src_lang="en",
                    tgt_lang="fr", support=None, status="validated")
UNITS = pl.DataFrame({"unit_id": ["u1", "u2", "u3", "u4"],
                      "source": ["A high Fever.", "No fever here at all, none", "Wear a mask.", "A mask!"],
                      "target": ["Une forte fièvre.", "Pas de température du tout", "Portez un masque.", "Une bavette !"]})
EVIDENCE = pl.DataFrame({"convention_id": [FEVER.convention_id] * 2 + [MASK.convention_id] * 2,
                         "unit_id": ["u1", "u2", "u3", "u4"], "role": ["evidence", "counter", "evidence", "counter"]})
CONFLICTS = pl.DataFrame({"kind": ["term"], "dimension": ["term:fever"], "src": ["fever"], "resolved": [False],
                          "renderings": ['[{"chosen":true,"coverage":0.67,"forms":["fièvre"],"support":2},'
                                        '{"chosen":false,"coverage":0.33,"forms":["température"],"support":1}]']})


def _packet(**kw: object) -> object:
    return build_packet([FEVER, MASK, DIGITS], client="fx", set_version="s1", evidence=EVIDENCE, conflicts=CONFLICTS,
                        units=UNITS, **kw)  # type: ignore[arg-type]


def test_rows_forms_marks_and_filters(tmp_path: Path) -> None:
    packet = _packet()
    rows = packet.rows  # type: ignore[attr-defined]
    assert [r["dimension"] for r in rows] == ["term:mask", "term:fever", "number:x"]  # support, most first
    assert rows[1]["expected_forms"] == "fièvre | fièvres" and rows[2]["expected_forms"] == r"re:\d+ %"
    assert rows[0]["wrong_forms"] == "bavette" and rows[1]["conflicts"].startswith("UNRESOLVED: *fièvre (2, 67%)")
    write_csv(packet, tmp_path / "p.csv")  # type: ignore[arg-type]
    with (tmp_path / "p.csv").open(encoding="utf-8-sig", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0]) == list(PACKET_COLUMNS)
    assert table[1]["evidence"] == "u1\nen: A high [[Fever]].\nfr: Une forte [[fièvre]]."
    assert table[1]["counter_examples"] == "u2\nen: No [[fever]] here at all, none\nfr: Pas de température du tout"
    assert table[0]["counter_examples"] == "u4\nen: A [[mask]]!\nfr: Une [[bavette]] !"  # the wrong variant marked
    assert table[0]["client"] == "fx" and table[0]["set_version"] == "s1" and table[0]["decision"] == ""
    only = _packet(rules=["term"], statuses=["candidate"]).rows  # type: ignore[attr-defined]
    assert [r["dimension"] for r in only] == ["term:mask", "term:fever"]
    assert display_forms([r"\b(?:masque|masques)\b", "x"], True) == "masque | masques | x"


def test_xlsx_is_made_for_a_spreadsheet_and_reads_back(tmp_path: Path) -> None:
    path = write_xlsx(_packet(), tmp_path / "p.xlsx")  # type: ignore[arg-type]
    book = load_workbook(path, rich_text=True)
    sheet = book["review"]
    assert sheet.freeze_panes == "B2" and sheet.column_dimensions["I"].width == 70
    header = [c.value for c in sheet[1]]
    evidence = sheet.cell(row=3, column=header.index("evidence") + 1)
    assert isinstance(evidence.value, CellRichText) and evidence.alignment.wrap_text
    assert [b.text for b in evidence.value if not isinstance(b, str)] == ["Fever", "fièvre"]
    (validation,) = sheet.data_validations.dataValidation
    column = chr(ord("A") + header.index("decision"))
    assert validation.formula1 == '"accept,reject,edit"' and str(validation.sqref) == f"{column}2:{column}4"
    sheet.cell(row=2, column=header.index("decision") + 1, value="accept")
    book.save(path)
    rows = read_packet(path)
    assert [n for n, _ in rows] == [2, 3, 4] and rows[0][1]["decision"] == "accept" and rows[0][1]["support"] == "5"


def test_a_tm_text_with_control_characters_exports_as_control_pictures(tmp_path: Path) -> None:
    """A Word-born vertical tab in a TM target made review-export fail (openpyxl refuses it in a sheet)."""
    units = UNITS.with_columns(pl.col("target").str.replace("forte", "forte\x0b", literal=True))
    packet = build_packet([FEVER, MASK, DIGITS], client="fx", set_version="s1", evidence=EVIDENCE, conflicts=CONFLICTS,
                          units=units)
    book = load_workbook(write_xlsx(packet, tmp_path / "p.xlsx"))
    texts = [str(c.value) for row in book["review"].iter_rows() for c in row if c.value is not None]
    assert any("forte\u240b" in t for t in texts) and not any("\x0b" in t for t in texts)


def _rows(*filled: dict[str, str]) -> list[tuple[int, dict[str, str]]]:
    base = {"client": "fx", "set_version": "s1", "decision": "", "expected_terms": "", "wrong_variants": "",
            "comment": "", "reviewer": "Anne", "reviewer_role": "Linguist"}
    return [(n, {**base, **row}) for n, row in enumerate(filled, start=2)]


def test_filled_rows_become_decisions() -> None:
    frame = decisions_from_rows(_rows({"convention_id": MASK.convention_id, "decision": " Accept "},
                                      {"convention_id": FEVER.convention_id, "decision": "edit",
                                       "expected_terms": "fièvre | fièvres", "comment": "both numbers"},
                                      {"convention_id": DIGITS.convention_id, "decision": ""}),  # not reviewed
                                [FEVER, MASK, DIGITS], path=Path("p.csv"), client="fx", set_version="s1")
    assert frame["decision"].to_list() == ["accept", "edit"] and frame["reviewer_role"].to_list() == ["linguist"] * 2
    assert frame["identity"].to_list() == [identity_of(MASK), identity_of(FEVER)]
    assert frame["expected_terms"].to_list() == [[], ["fièvre | fièvres"]]  # one term, either form
    assert review_frame(frame)["verdict"].to_list() == ["correct", "incorrect"]


@pytest.mark.parametrize(("row", "message"), [
    ({"convention_id": "0000000000000000", "decision": "accept"}, "row 3: unknown convention_id '0000000000000000'"),
    ({"decision": "maybe"}, "row 3: unknown decision 'maybe'"),
    ({"decision": "edit"}, "row 3: edit without forms"),
    ({"decision": "edit", "expected_terms": "re:fi(èvre"}, "row 3: the edited forms do not make a valid convention"),
    ({"decision": "edit", "expected_terms": "masque", "wrong_variants": "Masque"}, "row 3: the edited forms do not"),
    ({"decision": "accept", "expected_terms": "masque"}, "row 3: forms given with decision 'accept'"),
    ({"decision": "accept", "client": "other"}, "row 3: packet row of client 'other', not of 'fx'"),
    ({"decision": "accept", "set_version": "s0"}, "row 3: packet row of set 's0', not of 's1'"),
    ({"decision": "", "comment": "unsure"}, "row 3: no decision"),
    ({"decision": "accept", "dimension": "term:fever"}, "row 3: dimension 'term:fever' is not convention [0-9a-f]+'s "
                                                         r"\('term:mask'\): the row no longer lines up"),
])
def test_a_bad_row_refuses_the_whole_packet(row: dict[str, str], message: str) -> None:
    good = {"convention_id": FEVER.convention_id, "decision": "accept"}
    with pytest.raises(InputError, match=f"p.csv:{message}") as caught:
        decisions_from_rows(_rows(good, {"convention_id": MASK.convention_id, **row}), [FEVER, MASK], path=Path("p.csv"),
                            client="fx", set_version="s1")
    assert "nothing recorded" in str(caught.value) and "\n" not in str(caught.value)


def test_a_rule_decided_twice_differently_refuses_the_packet_and_a_plain_repeat_counts_once() -> None:
    """The later row silently won before, and an identical repeat counted twice in the precision gate."""
    accept = {"convention_id": MASK.convention_id, "decision": "accept"}
    with pytest.raises(InputError, match=r"p.csv:row 4: convention '[0-9a-f]+' is decided again, differently from "
                                         r"row 2 .*; nothing recorded"):
        decisions_from_rows(_rows(accept, {"convention_id": FEVER.convention_id, "decision": "accept"},
                                  {"convention_id": MASK.convention_id, "decision": "reject"}),
                            [FEVER, MASK], path=Path("p.csv"), client="fx", set_version="s1")
    frame = decisions_from_rows(_rows(accept, {**accept, "decision": " ACCEPT", "reviewer": "B"}), [FEVER, MASK],
                                path=Path("p.csv"), client="fx", set_version="s1")
    assert frame["convention_id"].to_list() == [MASK.convention_id]


def test_suggested_rules_are_listed_only_when_named() -> None:
    from dataclasses import replace
    tab = replace(MASK, dimension="term:tab", src="tab", expected_terms=["onglet"], wrong_variants=[], status="suggested",
                  convention_id="")
    packet = build_packet([FEVER, MASK, tab], client="fx", set_version="s1", evidence=EVIDENCE, units=UNITS)
    assert "term:tab" not in [r["dimension"] for r in packet.rows]
    named = build_packet([FEVER, MASK, tab], client="fx", set_version="s1", evidence=EVIDENCE, units=UNITS,
                         statuses=["suggested"])
    assert [r["dimension"] for r in named.rows] == ["term:tab"]
