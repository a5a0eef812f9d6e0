"""scoring_run reads the client's LATEST set only when complete, and writes a run that verifies."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from dagster import DagsterInstance, materialize

from housestyle.assets.partitions import CLIENTS
from housestyle.assets.resources import HousestyleSettings
from housestyle.assets.scoring import scoring_run, system_outputs
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.scoring.run_record import open_run
from tests.conftest import write_sealed_set

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "scoring"


@pytest.fixture()
def install(tmp_path: Path) -> Path:
    root = tmp_path / "install"
    systems = root / "inbox" / "fx" / "systems"
    systems.mkdir(parents=True)
    (systems / "good.jsonl").write_bytes((FIX / "good.jsonl").read_bytes())
    sources = pl.read_csv(FIX / "sources.tsv", separator="\t", quote_char=None)
    units = sources.select(pl.col("id").alias("unit_id"), pl.col("text").alias("source"),
                           pl.col("text").alias("target"), pl.lit("en").alias("src_lang_norm"),
                           pl.lit("fr").alias("tgt_lang_norm"))
    (root / "storage" / "tm_units" / "fx").mkdir(parents=True)
    units.write_parquet(root / "storage" / "tm_units" / "fx" / "tm_units.parquet")
    rows = [{**json.loads(line), "src_lang": "en", "tgt_lang": "fr"}
            for line in (FIX / "set.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    (tmp_path / "set.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    conventions = load_conventions(tmp_path / "set.jsonl")
    write_sealed_set(root / "rules_out" / "fx" / "s1", conventions)
    (root / "rules_out" / "fx" / "LATEST").write_text("s1\n", encoding="utf-8")
    return root


def _run(root: Path, statuses: list[str] | None = None):  # type: ignore[no-untyped-def]
    settings = HousestyleSettings(repo_root=str(root), inbox_root=str(root / "inbox"), rules_out_root=str(root / "rules_out"),
                                  registrations_root=str(root / "registrations"), storage_root=str(root / "storage"))
    with DagsterInstance.get() as instance:
        instance.add_dynamic_partitions(CLIENTS.name, ["fx"])
        config = {"ops": {"scoring_run": {"config": {"statuses": statuses}}}} if statuses is not None else None
        return materialize([system_outputs, scoring_run], partition_key="fx", instance=instance,
                           resources={"settings": settings}, raise_on_error=False, run_config=config)


def test_scoring_run_writes_a_complete_run_beside_the_set(install: Path, dagster_home: Path) -> None:
    result = _run(install)
    assert result.success
    (run_dir,) = (install / "rules_out" / "fx" / "s1" / "runs").iterdir()
    assert open_run(run_dir)["set_version"] == "s1"


def test_scoring_run_refuses_an_incomplete_set(install: Path, dagster_home: Path) -> None:
    data = (install / "rules_out" / "fx" / "s1" / "conventions.jsonl").read_bytes()
    (install / "rules_out" / "fx" / "s1" / "conventions.jsonl").write_bytes(data[: len(data) // 2])
    result = _run(install)
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure and e.step_key == "scoring_run")
    assert "conventions.jsonl does not match manifest.json" in str(failure.event_specific_data.error)
    assert not (install / "rules_out" / "fx" / "s1" / "runs").exists()


def test_the_dimension_table_shows_no_score_for_nothing_scored() -> None:
    from housestyle.assets.scoring import _dimension_table

    scores = pl.DataFrame({"system": ["a", "empty"], "dimension": ["term:x", "term:x"], "scored": [4, 0],
                           "passed": [3, 0]})
    table = _dimension_table(scores)
    assert "| term:x | 75.0 | — |" in table and "nan" not in table and "None" not in table


def _metadata(result, key: str):  # type: ignore[no-untyped-def]
    (mat,) = [m for m in result.asset_materializations_for_node("scoring_run")]
    return mat.metadata[key].value


def test_the_metadata_shows_the_report_summary_table(install: Path, dagster_home: Path) -> None:
    result = _run(install)
    assert result.success
    summary = _metadata(result, "summary")
    header, rule, good = summary.splitlines()[:3]
    assert header.split(" | ")[:3] == ["| system", "SCS", "items"] and "BLEU" in header and "chrF" in header
    assert "scs:term" in header and "coverage %" in header
    assert good.startswith("| good | **100.0** |")  # the only system is the best one
    assert "scored: candidate+validated; left out: none" in summary
    assert _metadata(result, "statuses_scored") == "candidate+validated"
    # one click from the UI: the report on the reports server `housestyle ui` starts (rules_out/ served)
    assert str(_metadata(result, "report_url")).endswith("/report.html")
    assert str(_metadata(result, "report_url")).startswith("http://127.0.0.1:")


def test_the_asset_config_picks_the_statuses(install: Path, dagster_home: Path) -> None:
    conventions = load_conventions(install / "rules_out" / "fx" / "s1" / "conventions.jsonl")
    for c in conventions:
        c.status = "rejected" if c.dimension == "term:air mass" else c.status
    set_dir = write_sealed_set(install / "rules_out" / "fx" / "s2", conventions)  # a linguist rejected one rule
    (install / "rules_out" / "fx" / "LATEST").write_text("s2\n", encoding="utf-8")
    result = _run(install)
    assert result.success and _metadata(result, "left_out") == {"rejected": 1}
    named = _run(install, ["candidate", "rejected"])
    assert named.success and _metadata(named, "left_out") == {}
    assert "status:candidate+rejected" in _metadata(named, "signature")
    assert len(list((set_dir / "runs").iterdir())) == 2  # two selections, two runs
