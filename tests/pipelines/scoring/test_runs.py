"""Versioned scoring runs on small fixtures: files, run ids, report, audit label, storage."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.scoring.audit import audit_status
from housestyle.pipelines.scoring.report import highlight
from housestyle.pipelines.scoring.runs import acknowledge_run, run_scoring, score_into_set, store_run
from tests.conftest import write_sealed_set

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "scoring"
SYSTEMS = {"good": FIX / "good.jsonl", "bad": FIX / "bad.tsv"}


@pytest.fixture()
def run_dir(tmp_path: Path) -> Path:
    return run_scoring(FIX / "set.jsonl", FIX / "sources.tsv", SYSTEMS, [FIX / "good.jsonl", FIX / "bad.tsv"], tmp_path / "run")


def test_run_writes_every_table_and_the_report(run_dir: Path) -> None:
    for name in ("scores.parquet", "failures.parquet", "adequacy.parquet", "report.html", "run.json", "conventions.jsonl"):
        assert (run_dir / name).is_file(), name
    scores = pl.read_parquet(run_dir / "scores.parquet")
    assert {"system", "dimension", "convention_id", "rule", "scored", "passed", "missing", "score"} <= set(scores.columns)
    good = scores.filter(pl.col("system") == "good")
    assert good["score"].drop_nulls().to_list() == [100.0] * good["score"].drop_nulls().len()
    bad = scores.filter(pl.col("system") == "bad")
    assert bad["scored"].sum() > 0
    coverage = pl.read_parquet(run_dir / "coverage.parquet")
    assert coverage.filter(pl.col("system") == "bad")["missing"].to_list() == [1]  # bad.tsv has no s4
    failures = pl.read_parquet(run_dir / "failures.parquet")
    assert set(failures["system"]) == {"bad"}
    assert failures.schema["spans"] == pl.List(pl.Struct({"start": pl.Int64, "end": pl.Int64}))
    adequacy = pl.read_parquet(run_dir / "adequacy.parquet")
    assert "good+bad" in set(adequacy["references"])  # multi-reference row beside the single ones
    run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert run["signature"].startswith("housestyle-scs|v:")
    assert set(run["inputs"]["systems"]) == {"good", "bad"}
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert "unaudited" in html and run["signature"].split("|")[2] in html and "<mark>" in html
    # self-contained: one inline script (the search box), nothing fetched (no src, no stylesheet link)
    assert html.count("<script") == 1 and "<script>" in html and " src=" not in html and "<link" not in html
    assert "http://" not in html.split("<body>")[0]


def test_run_id_is_derived_from_inputs(tmp_path: Path, run_dir: Path) -> None:
    first = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))["run_id"]
    again = run_scoring(FIX / "set.jsonl", FIX / "sources.tsv", SYSTEMS, [FIX / "good.jsonl", FIX / "bad.tsv"], tmp_path / "again")
    assert json.loads((again / "run.json").read_text(encoding="utf-8"))["run_id"] == first
    changed = tmp_path / "bad2.tsv"
    changed.write_text((FIX / "bad.tsv").read_text(encoding="utf-8") + "s4\tRien\n", encoding="utf-8")
    other = run_scoring(FIX / "set.jsonl", FIX / "sources.tsv", {"good": FIX / "good.jsonl", "bad": changed}, [], tmp_path / "other")
    assert json.loads((other / "run.json").read_text(encoding="utf-8"))["run_id"] != first


def test_acknowledgement_flips_the_label_until_failures_change(run_dir: Path) -> None:
    assert audit_status(run_dir)[0] == "unaudited"
    acknowledge_run(run_dir, "Ana Linguist", "checked all 9 failures")
    status, detail = audit_status(run_dir)
    assert status == "audited" and "Ana Linguist" in detail
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert 'class="label audited"' in html and "checked all 9 failures" in html
    pl.read_parquet(run_dir / "failures.parquet").head(1).write_parquet(run_dir / "failures.parquet")
    assert audit_status(run_dir) == ("unaudited", "the failure list changed after the last acknowledgement")


def test_runs_are_stored_beside_their_convention_set(tmp_path: Path, run_dir: Path) -> None:
    set_dir = write_sealed_set(tmp_path / "rules_out" / "acme" / "v123", load_conventions(FIX / "set.jsonl"))
    stored = score_into_set(tmp_path / "rules_out", "acme", set_dir, FIX / "sources.tsv", SYSTEMS, [])
    run = json.loads((stored / "run.json").read_text(encoding="utf-8"))
    assert stored == tmp_path / "rules_out" / "acme" / "v123" / "runs" / run["run_id"]
    assert run["set_version"] == "v123"
    copied = store_run(run_dir, tmp_path / "rules_out", "acme")
    assert (copied / "report.html").is_file() and copied.parent.name == "runs"


def test_highlight_marks_raw_offsets_and_shows_invisible_spaces() -> None:
    html = highlight("Remarque : a\u00a0b", [{"start": 8, "end": 10}])
    assert html == 'Remarque<mark><span class="ws" title="U+0020">␣</span>:</mark> a<span class="ws" title="U+00A0">⍽</span>b'
