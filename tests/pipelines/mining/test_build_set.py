"""build_set: the steps that turn merged candidates into a set (contrast, authored, and the seam
for further inputs such as review decisions)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.build_set import SET_STEPS, InputFile, SetDraft, SetSources, build_set
from housestyle.pipelines.mining.merge import MiningResult


def _term(src: str, expected: str, origin: str = "mined") -> Convention:
    return Convention(dimension=f"term:{src}", rule="term", src=src, expected_terms=[expected], src_lang="en",
                      tgt_lang="fr", origin=origin, support=3)


def _pair(*conventions: Convention) -> MiningResult:
    evidence = pl.DataFrame({"convention_id": [c.convention_id for c in conventions], "unit_id": ["u1"] * len(conventions),
                             "role": ["evidence"] * len(conventions)})
    return MiningResult(list(conventions), evidence, [], {"units": 1}, [])


def _rows(set_dir: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in (set_dir / "conventions.jsonl").read_text(encoding="utf-8").splitlines()]


def test_contrast_extends_a_mined_rule_and_authored_rules_join(tmp_path: Path) -> None:
    fever, mask = _term("fever", "fièvre"), _term("mask", "masque")
    contrast = dataclasses.replace(fever, wrong_variants=["température"], origin="contrast", convention_id="",
                                   extra={"base_convention_id": fever.convention_id, "contrast_evidence": {"température": ["u7"]}})
    authored = (_term("mask", "masque", origin="authored"), _term("cough", "toux", origin="authored"))
    sources = SetSources(contrast=(InputFile("contrast/c.jsonl", "c1", (contrast,)),),
                         authored=(InputFile("conventions/a.jsonl", "a1", authored),))
    written, result = build_set({"en__fr": _pair(fever, mask)}, sources, client="fx", rules_out=tmp_path,
                                inputs={"tm": "t"}, split=None)
    by_src = {str(r["src"]): r for r in _rows(written.path)}
    assert sorted(by_src) == ["cough", "fever", "mask"]
    assert by_src["fever"]["origin"] == "contrast" and by_src["fever"]["wrong_variants"] == ["température"]
    assert by_src["mask"]["origin"] == "mined"  # authored too, but the mined row has evidence
    assert result.stats["authored_also_mined"] == 1 and result.stats["contrast_candidates"] == 1
    manifest = json.loads((written.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["inputs"] == {"contrast/c.jsonl": "c1", "conventions/a.jsonl": "a1", "tm": "t"}
    evidence = pl.read_parquet(written.path / "evidence.parquet")
    assert set(evidence.filter(pl.col("role") == "contrast")["unit_id"]) == {"u7"}
    assert by_src["fever"]["convention_id"] in set(evidence["convention_id"])  # the base rule's evidence moved over


def test_one_more_step_is_one_more_input(tmp_path: Path) -> None:
    """The seam issue 20's review decisions use: a step appended to SET_STEPS reshapes the set, and
    the input it records changes the set_version."""
    fever, mask = _term("fever", "fièvre"), _term("mask", "masque")

    def reject_mask(draft: SetDraft, sources: SetSources) -> SetDraft:
        draft.result.conventions = [dataclasses.replace(c, status="rejected") if c.src == "mask" else c
                                    for c in draft.result.conventions]
        draft.inputs["decisions.parquet"] = "d1"
        return draft

    plain, _ = build_set({"en__fr": _pair(fever, mask)}, SetSources(), client="fx", rules_out=tmp_path / "a",
                         inputs={}, split=None)
    decided, _ = build_set({"en__fr": _pair(fever, mask)}, SetSources(), client="fx", rules_out=tmp_path / "b",
                           inputs={}, split=None, steps=(*SET_STEPS, reject_mask))
    assert {r["src"]: r["status"] for r in _rows(decided.path)} == {"fever": "candidate", "mask": "rejected"}
    assert decided.set_version != plain.set_version
