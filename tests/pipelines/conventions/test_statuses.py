"""Scoring follows statuses (SPEC.md §3): candidate and validated by default, rejected only when named,
and the run says which (run.json, signature, report)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.scoring.runs import run_scoring
from housestyle.pipelines.conventions.statuses import SCORED_STATUSES, parse_statuses, select_statuses, status_mix

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "scoring"
STATUS_OF = {"term:air mass": "rejected", "width:fullwidth_brackets": "validated"}  # the rest stay candidate


def statused_set(folder: Path) -> Path:
    """The fixture set with chosen statuses: air mass rejected (bad.tsv fails it), brackets validated."""
    rows = [json.loads(x) for x in (FIX / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    path = folder / "statused.jsonl"
    path.write_text("".join(json.dumps({**r, "status": STATUS_OF.get(r["dimension"], "candidate")}) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def test_parse_statuses() -> None:
    assert parse_statuses(None) == SCORED_STATUSES == ("candidate", "validated")
    assert parse_statuses("validated, rejected") == ("validated", "rejected")  # STATUSES order, spaces dropped
    assert parse_statuses(["rejected", "candidate", "rejected"]) == ("candidate", "rejected")
    assert parse_statuses("all") == ("suggested", "candidate", "indicative", "validated", "rejected")
    with pytest.raises(ConfigError, match="unknown status validatd"):
        parse_statuses("validatd")
    with pytest.raises(ConfigError, match="give one or more"):
        parse_statuses(" , ")


def test_select_counts_what_it_leaves_out() -> None:
    convs = [Convention(dimension=f"term:{i}", rule="term", expected_terms=["x"], status=s)
             for i, s in enumerate(["candidate", "validated", "rejected", "rejected", "indicative"])]
    kept, left = select_statuses(convs, SCORED_STATUSES)
    assert [c.status for c in kept] == ["candidate", "validated"] and left == {"indicative": 1, "rejected": 2}
    assert status_mix(convs) == {"candidate": 1, "indicative": 1, "validated": 1, "rejected": 2}


def test_rejected_is_not_scored_by_default_and_the_run_says_so(tmp_path: Path) -> None:
    conventions = statused_set(tmp_path)
    systems = {"good": FIX / "good.jsonl", "bad": FIX / "bad.tsv"}
    run_dir = run_scoring(conventions, FIX / "sources.tsv", systems, [], tmp_path / "default", builtin=False)
    scores = pl.read_parquet(run_dir / "scores.parquet")
    assert "term:air mass" not in set(scores["dimension"]) and "width:fullwidth_brackets" in set(scores["dimension"])
    assert "term:air mass" not in set(pl.read_parquet(run_dir / "failures.parquet")["dimension"])
    run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert run["statuses"] == ["candidate", "validated"] and run["left_out"] == {"rejected": 1}
    assert run["status_mix"] == {"candidate": 5, "validated": 1, "rejected": 1} and run["conventions"] == 6
    assert "|n:6|status:candidate+validated|" in run["signature"]
    assert len((run_dir / "conventions.jsonl").read_text(encoding="utf-8").splitlines()) == 6  # what was scored
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert "rejected <b>1</b> (not scored)" in html and "validated <b>1</b> ·" in html
    assert "Statuses scored: <b>candidate + validated</b>" in html and "1 rejected" in html

    named = run_scoring(conventions, FIX / "sources.tsv", systems, [], tmp_path / "named",
                        statuses=["rejected", "candidate", "validated"])
    again = json.loads((named / "run.json").read_text(encoding="utf-8"))
    assert again["left_out"] == {} and "status:candidate+rejected+validated" in again["signature"]
    assert again["run_id"] != run["run_id"]  # another selection is another run, never an overwrite
    bad = pl.read_parquet(named / "scores.parquet").filter((pl.col("system") == "bad") & (pl.col("dimension") == "term:air mass"))
    assert bad["scored"].to_list() == [1] and bad["passed"].to_list() == [0]


def test_a_selection_that_leaves_nothing_scores_nothing(tmp_path: Path) -> None:
    run_dir = run_scoring(statused_set(tmp_path), FIX / "sources.tsv", {"good": FIX / "good.jsonl"}, [], tmp_path / "run",
                          statuses=["indicative"])
    run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert run["conventions"] == 0 and run["left_out"] == {"candidate": 5, "validated": 1, "rejected": 1}
    assert pl.read_parquet(run_dir / "scores.parquet").is_empty()
    assert "every system passes every scored item" in (run_dir / "report.html").read_text(encoding="utf-8")
