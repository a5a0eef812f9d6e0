from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import polars as pl

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.build_set import mine_to_set
from housestyle.pipelines.conventionset.diff import diff_conventions, diff_sets, render
from housestyle.pipelines.conventionset.version import MINING_RESOURCES
from tests.conftest import write_sealed_set


def _mine(units: pl.DataFrame, out: Path, **kw: object):
    return mine_to_set(units, src_lang="en", tgt_lang="fr", client="fx", rules_out=out, inputs={"tm": "abc"}, **kw)


def test_set_layout_manifest_and_determinism(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    first, result = _mine(tiny_units, tmp_path / "a")
    second, _ = _mine(tiny_units.sample(fraction=1.0, shuffle=True, seed=3), tmp_path / "b")
    assert first.set_version == second.set_version  # row order of the TM does not matter
    for name in ("conventions.parquet", "conventions.jsonl", "evidence.parquet", "conflicts.parquet", "manifest.json"):
        assert (first.path / name).read_bytes() == (second.path / name).read_bytes(), name
    assert (tmp_path / "a" / "fx" / "LATEST").read_text(encoding="utf-8").strip() == first.set_version
    manifest = json.loads((first.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["set_version"] == first.set_version and manifest["split"] is None
    assert manifest["language_pairs"] == ["en→fr"] and manifest["conventions"] == len(result.conventions)
    assert "created" not in json.dumps(manifest)
    assert manifest["resources"]["babel"] == metadata.version("babel")  # CLDR month names decide date rules
    assert set(manifest["resources"]) == set(MINING_RESOURCES)
    loaded = load_conventions(first.path)  # validates every mined convention (regexes probed)
    assert {c.convention_id for c in loaded} == {c.convention_id for c in result.conventions}
    evidence = pl.read_parquet(first.path / "evidence.parquet")
    assert set(evidence["role"].unique()) <= {"evidence", "counter"}
    assert set(evidence["convention_id"]) <= {c.convention_id for c in loaded}


def test_split_changes_version_and_is_recorded(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    splits = tmp_path / "splits.json"
    splits.write_text(json.dumps({"ui": {"unit_id": [u for u in tiny_units["unit_id"] if u.startswith(("ui", "q"))]}}),
                      encoding="utf-8")
    whole, _ = _mine(tiny_units, tmp_path / "o")
    part, result = _mine(tiny_units, tmp_path / "o", split="ui", splits_file=splits)
    assert part.set_version != whole.set_version and result.stats["units"] == 17
    assert json.loads((part.path / "manifest.json").read_text(encoding="utf-8"))["split"] == "ui"


def test_diff_added_removed_changed(tmp_path: Path) -> None:
    a = Convention(dimension="term:fever", rule="term", src="fever", expected_terms=["fièvre"], support=3)
    b = Convention(dimension="term:fever", rule="term", src="fever", expected_terms=[r"\bfièvres?\b"], regex=True)
    c = Convention(dimension="term:mask", rule="term", src="mask", expected_terms=["masque"])
    d = Convention(dimension="term:cough", rule="term", src="cough", expected_terms=["toux"])
    diff = diff_conventions([a, c], [b, d])
    assert diff.summary() == {"added": 1, "removed": 1, "changed": 1, "evidence_changed": 0}
    text = render(diff)
    assert "+ term:cough" in text and "- term:mask" in text and "~ term:fever" in text
    from housestyle.pipelines.rules.io import write_conventions
    write_conventions([a, c], tmp_path / "a.jsonl")
    write_conventions([b, d], tmp_path / "b.jsonl")
    assert diff_sets(tmp_path / "a.jsonl", tmp_path / "b.jsonl").summary()["changed"] == 1


def test_diff_lists_units_newly_left_out_of_the_term_rules(tmp_path: Path) -> None:
    rule = Convention(dimension="term:fever", rule="term", src="fever", expected_terms=["fièvre"])
    for name, units in (("a", ["u1", "u2"]), ("b", ["u2", "u3"])):
        table = pl.DataFrame({"unit_id": units, "rules_in_scope": [4, 4], "rules_failed": [4, 4], "p_value": [1e-4, 1e-4]})
        write_sealed_set(tmp_path / name, [rule], files={"suspect_units.parquet": table.write_parquet})
    diff = diff_sets(tmp_path / "a", tmp_path / "b")
    assert (diff.suspects_added, diff.suspects_removed) == (["u3"], ["u1"])
    assert "suspect units: 1 newly left out of the term rules, 1 back in\n! u3\n. u1" in render(diff)
    assert diff_sets(tmp_path / "a" / "conventions.jsonl", tmp_path / "b").suspects_added == []  # a file: unknown
