"""`housestyle run` end to end on the bundled demo client, in a subprocess like a user would run it.

Outputs go to a temporary storage / rules_out / DAGSTER_HOME (the environment overrides), so the test
never touches the checkout's own .dagster/ or rules_out/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

REPO = Path(__file__).resolve().parents[3]
DEMO = REPO / "inbox" / "demo"


def run_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "dagster_home"
    home.mkdir(exist_ok=True)
    (home / "dagster.yaml").write_text((REPO / "dagster.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    env = {**os.environ, "DAGSTER_HOME": str(home), "HOUSESTYLE_STORAGE": str(tmp_path / "storage"),
           "HOUSESTYLE_RULES_OUT": str(tmp_path / "rules_out")}
    return subprocess.run([sys.executable, "-m", "housestyle.pipelines.cli.main", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=900, check=False)


def test_run_unknown_client_is_one_line_exit_2(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "run", "--client", "no-such-client")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "no-such-client" in done.stderr


@pytest.mark.skipif(not (DEMO / "tm").is_dir() or not (DEMO / "systems").is_dir() or not (DEMO / "conventions").is_dir(),
                    reason="the demo client bundle (inbox/demo/tm, systems, conventions) is not in this checkout")
def test_run_demo_end_to_end(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "run", "--executor", "in_process")  # the multiprocess default runs in the services tests
    assert done.returncode == 0, done.stderr[-3000:]
    for step in ("tm_ingest", "convention_set", "system_outputs", "scoring_run"):
        assert f"▶ {step}" in done.stderr
    assert "✓ check read_equals_kept_plus_rejected: passed" in done.stderr

    units = pl.read_parquet(tmp_path / "storage" / "tm_units" / "demo" / "tm_units.parquet")
    assert units.height == 3071 and units["client"].unique().to_list() == ["demo"]

    version = (tmp_path / "rules_out" / "demo" / "LATEST").read_text(encoding="utf-8").strip()
    set_dir = tmp_path / "rules_out" / "demo" / version
    manifest = json.loads((set_dir / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["set_version"] == version and manifest["client"] == "demo"
    assert (set_dir / "conventions.parquet").is_file() and (set_dir / "conventions.jsonl").is_file()
    assert f"convention set:  {set_dir}" in done.stdout
    conventions = pl.read_parquet(set_dir / "conventions.parquet")
    contrast = conventions.filter(pl.col("origin") == "contrast")  # Fairseq divergences, folded into term rules
    assert contrast.height > 0 and set(contrast["status"]) <= {"candidate", "suggested"}  # as their mined base
    assert contrast["wrong_variants"].list.len().min() > 0  # type: ignore[operator]
    # Through the asset graph too, the term rules leave out the misaligned run of PubMed_8 and list it.
    suspects = pl.read_parquet(set_dir / "suspect_units.parquet")
    assert manifest["suspect_units"] == suspects.height > 100
    # 87 of the 105 listed since termhood (issue 25): fewer general-word rules witness the misalignment
    assert suspects["unit_id"].str.starts_with("PubMed_8:").sum() > 80

    runs = [p for p in (set_dir / "runs").iterdir() if p.is_dir()]
    assert len(runs) == 1 and f"report:          {runs[0] / 'report.html'}" in done.stdout
    scores = pl.read_parquet(runs[0] / "scores.parquet")
    assert {"fairseq"} <= set(scores["system"]) and scores.height > 0
