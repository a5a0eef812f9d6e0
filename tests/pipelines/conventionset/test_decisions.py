"""Sets follow the client's review decisions (the last SET_STEP), and the derived literal forms."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.matching import plain_regex
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.build_set import SET_STEPS, follow_decisions, build_set, read_sources
from housestyle.pipelines.conventionset.decisions import (
    DECISIONS_SCHEMA,
    append_decisions,
    apply_decisions,
    describe_entries,
    edited_convention,
    identity_of,
    parse_forms,
    read_decisions,
)
from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.mining.merge import MiningResult


def _term(src: str, expected: str, regex: bool = False, support: int = 3) -> Convention:
    return Convention(dimension=f"term:{src}", rule="term", src=src, expected_terms=[expected], regex=regex,
                      src_lang="en", tgt_lang="fr", origin="mined", support=support, match_mode="caseless")


def _pair(*conventions: Convention) -> MiningResult:
    evidence = pl.DataFrame({"convention_id": [c.convention_id for c in conventions], "unit_id": ["u1"] * len(conventions),
                             "role": ["evidence"] * len(conventions)})
    return MiningResult(list(conventions), evidence, [], {"units": 1}, [])


def _decision(conv: Convention, word: str, at: str, expected: list[str] | None = None,
              wrong: list[str] | None = None) -> dict[str, object]:
    return {"convention_id": conv.convention_id, "identity": identity_of(conv), "decision": word,
            "expected_terms": expected or [], "wrong_variants": wrong or [], "comment": None, "reviewer": "Anne",
            "reviewer_role": "linguist", "decided_at": at, "set_version": "s0"}


def _frame(*rows: dict[str, object]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=DECISIONS_SCHEMA)


FEVER = _term("fever", r"\bfièvres?\b", regex=True)
MASK = _term("mask", "masque")
COUGH = _term("cough", "toux")
FLU = _term("flu", "grippe")


def test_identity_ignores_forms_and_evidence() -> None:
    changed = Convention(dimension="term:fever", rule="term", src="fever", expected_terms=["fièvre"], src_lang="en",
                         tgt_lang="fr", support=9)
    assert changed.convention_id != FEVER.convention_id and identity_of(changed) == identity_of(FEVER)
    assert identity_of(_term("fever", "x") ) != identity_of(Convention(dimension="term:fever", rule="term", src="fever",
                                                                       src_lang="en", tgt_lang="es"))


def test_accept_reject_edit_newest_wins_and_unmatched_reported() -> None:
    gone = _term("gone", "parti")
    decisions = _frame(_decision(FEVER, "reject", "2025-01-01T00:00:00Z"),
                       _decision(FEVER, "accept", "2025-01-02T00:00:00Z"),  # newer: wins
                       _decision(MASK, "reject", "2025-01-01T00:00:00Z"),
                       _decision(COUGH, "edit", "2025-01-01T00:00:00Z", ["toux sèche", "re:\\btoux\\b"], ["tousse"]),
                       _decision(gone, "accept", "2025-01-01T00:00:00Z"))
    evidence = _pair(FEVER, MASK, COUGH, FLU).evidence
    done = apply_decisions([FEVER, MASK, COUGH, FLU], evidence, decisions)
    by_src = {c.src: c for c in done.conventions}
    assert by_src["fever"].status == "validated" and by_src["mask"].status == "rejected"
    assert by_src["flu"].status == "candidate"
    edit = by_src["cough"]
    assert edit.origin == "authored" and edit.status == "validated" and edit.regex
    bounded = plain_regex(["toux sèche"], "caseless", no_space_neighbours=False)  # the miner's own bound
    assert edit.expected_terms == [bounded, r"\btoux\b"]
    assert edit.wrong_variants == [plain_regex(["tousse"], "caseless", no_space_neighbours=False)]
    assert edit.match_mode == "caseless" and edit.extra["replaces"] == COUGH.convention_id
    assert COUGH.convention_id not in set(done.evidence["convention_id"])  # the replaced rule's evidence goes with it
    report = done.report
    assert report["applied"] == 3 and report["applied_by_decision"] == {"accept": 1, "reject": 1, "edit": 1}
    assert report["unmatched"] == 1 and report["unmatched_decisions"][0]["identity"] == identity_of(gone)
    assert report["by_status"] == {"candidate": 1, "rejected": 1, "validated": 2}


def test_parse_forms_and_literal_edits() -> None:
    assert parse_forms(" masque | masques |") == ["masque | masques"]  # one term, any of its forms
    assert parse_forms("masque|masques; écran ;") == ["masque | masques", "écran"]  # ';' separates terms
    assert parse_forms("re:a|b") == ["re:a|b"] and parse_forms("") == [] and parse_forms(None) == []
    assert parse_forms("x; re:a;b") == ["x", "re:a;b"]  # a regex runs to the end of the cell
    assert describe_entries(parse_forms("masque | masques; écran")) == '"masque" or "masques"; and "écran"'
    edit = edited_convention(MASK, ["masque de protection"], [])
    assert not edit.regex and edit.expected_terms == ["masque de protection"] and edit.src == "mask"


def test_an_edit_with_alternatives_requires_any_of_them() -> None:
    """`a | b` as the packet shows forms: either form passes; two entries are both required."""
    from housestyle.pipelines.conventions.compiled import compile_generic
    from housestyle.pipelines.conventions.folding import fold_with_map

    edit = edited_convention(MASK, parse_forms("masque | masques"), parse_forms("bavette"))
    assert edit.regex and len(edit.expected_terms) == 1 and len(edit.wrong_variants) == 1
    (entry,) = compile_generic(edit).expected
    for text, found in (("un masque", True), ("des Masques", MASK.match_mode != "exact"), ("la mascotte", False)):
        assert entry.present(fold_with_map(text, MASK.match_mode).text, text) is found
    both = edited_convention(MASK, parse_forms("masque; protection"), [])
    assert not both.regex and both.expected_terms == ["masque", "protection"]


def test_build_set_follows_the_decisions_file(tmp_path: Path) -> None:
    assert SET_STEPS[-1] is follow_decisions
    path = tmp_path / "inbox" / "fx" / "decisions.parquet"
    assert append_decisions(path, _frame(_decision(MASK, "reject", "2025-01-01T00:00:00Z"))) == 1
    assert append_decisions(path, _frame(_decision(FEVER, "accept", "2025-01-02T00:00:00Z"))) == 2  # appended
    sources = read_sources(decisions=path)
    written, result = build_set({"en__fr": _pair(FEVER, MASK, FLU)}, sources, client="fx", rules_out=tmp_path / "out",
                                inputs={"tm": "t"}, split=None)
    manifest = json.loads((written.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["inputs"]["decisions/decisions.parquet"] == sha256_file(path)
    assert manifest["decisions"]["applied"] == 2 and manifest["decisions"]["unmatched"] == 0
    assert manifest["by_status"] == manifest["decisions"]["by_status"] == {"candidate": 1, "rejected": 1, "validated": 1}
    statuses = {c.src: c.status for c in load_conventions(written.path)}
    assert statuses == {"fever": "validated", "mask": "rejected", "flu": "candidate"}
    bare, _ = build_set({"en__fr": _pair(FEVER, MASK, FLU)}, read_sources(), client="fx", rules_out=tmp_path / "out",
                        inputs={"tm": "t"}, split=None)
    assert bare.set_version != written.set_version  # the decisions are an input of the version


def test_a_bad_decisions_file_names_the_row(tmp_path: Path) -> None:
    path = tmp_path / "decisions.parquet"
    _frame(_decision(MASK, "reject", "t"), _decision(FEVER, "maybe", "t")).write_parquet(path)
    with pytest.raises(InputError, match=r"decisions.parquet:row 2: unknown decision 'maybe'"):
        read_decisions(path)
    pl.DataFrame({"convention_id": ["x"]}).write_parquet(path)
    with pytest.raises(InputError, match="lacks columns"):
        read_decisions(path)


def test_derived_literal_forms_in_the_set_files(tmp_path: Path) -> None:
    """expected_forms / wrong_forms: the literal strings, null (parquet) or absent (jsonl) when not finite;
    never part of the id, and never read back as fields."""
    digits = Convention(dimension="number:x", rule="pattern", expected_terms=[r"\d+ %"], regex=True, src_lang="en",
                        tgt_lang="fr")
    written, _ = build_set({"en__fr": _pair(FEVER, MASK, digits)}, read_sources(), client="fx", rules_out=tmp_path,
                           inputs={}, split=None)
    frame = pl.read_parquet(written.path / "conventions.parquet")
    forms = {r["dimension"]: (r["expected_forms"], r["wrong_forms"]) for r in frame.iter_rows(named=True)}
    assert forms["term:fever"] == (["fièvre", "fièvres"], []) and forms["term:mask"] == (["masque"], [])
    assert forms["number:x"] == (None, [])
    lines = {json.loads(x)["dimension"]: json.loads(x) for x in (written.path / "conventions.jsonl").read_text("utf-8").splitlines()}
    assert lines["term:fever"]["expected_forms"] == ["fièvre", "fièvres"] and "expected_forms" not in lines["number:x"]
    for name in ("conventions.parquet", "conventions.jsonl"):
        loaded = {c.dimension: c for c in load_conventions(written.path / name)}
        assert loaded["term:fever"].convention_id == FEVER.convention_id and "expected_forms" not in loaded["term:fever"].extra


def test_an_edit_that_makes_no_valid_rule_of_the_new_set_leaves_the_rule_and_is_reported() -> None:
    nfkc = Convention(dimension="term:cough", rule="term", src="cough", expected_terms=["toux"], src_lang="en",
                      tgt_lang="fr", match_mode="nfkc")  # re-mined with another mode: the edit's forms clash with it
    done = apply_decisions([nfkc], _pair(nfkc).evidence,
                           _frame(_decision(COUGH, "edit", "t", ["ﬁ"], [])))  # NFKC folds the ligature away
    assert [c.convention_id for c in done.conventions] == [nfkc.convention_id]
    assert done.report["applied"] == 0 and done.report["invalid_edits"][0]["identity"] == identity_of(nfkc)


def test_every_set_step_keeps_the_term_trace(tmp_path: Path) -> None:
    """A step that rebuilt the MiningResult field by field once dropped the trace (explain then had
    nothing to read): each step must carry every field it does not change."""
    from housestyle.pipelines.mining.term_trace import TRACE_SCHEMA

    path = tmp_path / "decisions.parquet"
    append_decisions(path, _frame(_decision(MASK, "accept", "2025-01-01T00:00:00Z")))
    trace = pl.DataFrame([{name: None for name in TRACE_SCHEMA}], schema=TRACE_SCHEMA)
    pair = _pair(MASK, FLU)
    pair.term_trace = trace
    written, result = build_set({"en__fr": pair}, read_sources(decisions=path), client="fx",
                                rules_out=tmp_path / "out", inputs={"tm": "t"}, split=None)
    assert result.term_trace is not None and result.term_trace.height == 1
    assert pl.read_parquet(written.path / "term_trace.parquet").height == 1
