"""The `housestyle` command on small fixtures: ingest, score, audit, and one-line errors (exit 2)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.cli.main import COMMAND_MODULES, build_parser, main

REPO = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "assets"
CLIENT = FIXTURES / "client"
SCORE = FIXTURES / "score"


def test_every_registered_subcommand_is_reachable() -> None:
    help_text = build_parser().format_help()
    for command in ("run", "ingest", "score", "audit", "ui"):
        assert command in help_text
    assert len(COMMAND_MODULES) == len(set(COMMAND_MODULES))


def test_ingest_writes_tables_and_prints_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(["ingest", str(CLIENT / "tm" / "weather.tmx"), str(CLIENT / "tm" / "news" / "broken.tmx"),
                 "--out", str(out), "--client", "acme"])
    printed = capsys.readouterr().out
    assert code == 0
    units, rejects = pl.read_parquet(out / "tm_units.parquet"), pl.read_parquet(out / "tm_rejects.parquet")
    assert {"w1", "w2", "w3"} <= set(units["unit_id"]) and units["client"].unique().to_list() == ["acme"]
    assert "weather.tmx" in printed and "broken.tmx" in printed
    assert f"kept {units.height:,} + rejected {rejects.height:,}" in printed


def test_ingest_missing_file_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.tmx"
    assert main(["ingest", str(missing), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(missing) in err and "no such file" in err


def test_score_then_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = main(["score", "--conventions", str(CLIENT / "conventions" / "authored.jsonl"),
                 "--source", str(SCORE / "source.jsonl"),
                 "--system", f"mt_a={CLIENT / 'systems' / 'mt_a.jsonl'}",
                 "--system", f"mt_b={CLIENT / 'systems' / 'mt_b.tsv'}",
                 "--reference", str(SCORE / "reference.jsonl"), "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    run_dir = Path(printed.split("run: ")[1].split()[0])
    scores = pl.read_parquet(run_dir / "scores.parquet")
    assert set(scores["system"]) == {"mt_a", "mt_b"}
    term = scores.filter(pl.col("dimension") == "term:air mass").sort("system")
    # mt_a: w1 passes (typographic apostrophe), w3 uses the banned variant; mt_b: the reverse; each misses nothing scored
    assert term.select("system", "scored", "passed").rows() == [("mt_a", 2, 1), ("mt_b", 2, 1)]
    assert (run_dir / "failures.parquet").is_file() and (run_dir / "report.html").is_file()
    assert "mt_a" in printed and "mt_b" in printed

    assert main(["audit", "--ack", str(run_dir), "--by", "tester", "--note", "read every failure"]) == 0
    assert "acknowledged" in capsys.readouterr().out
    assert "tester" in json.dumps([p.read_text(encoding="utf-8") for p in run_dir.rglob("*.json")])


def test_score_bad_convention_names_it_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "--conventions", str(SCORE / "bad_conventions.jsonl"), "--source", str(SCORE / "source.jsonl"),
                 "--system", f"mt_a={CLIENT / 'systems' / 'mt_a.jsonl'}", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith("housestyle score: error:") and err.count("\n") == 0
    assert "bad_conventions.jsonl" in err


def test_score_rejects_malformed_system_argument(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "--conventions", "c.jsonl", "--source", "s.jsonl", "--system", "no-equals-sign", "--out", "o"])
    assert exit_info.value.code == 2
    assert "expected NAME=FILE" in capsys.readouterr().err


def _cli(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "housestyle.pipelines.cli.main", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900, check=False)


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOUSESTYLE_", "DAGSTER_"))}
    return {**env, **extra}


def test_init_writes_a_project_and_every_command_finds_it(tmp_path: Path) -> None:
    project = tmp_path / "acme-project"
    done = _cli(["init", str(project), "--demo"], tmp_path, _clean_env())
    assert done.returncode == 0, done.stderr
    assert {p.name for p in project.iterdir()} >= {"inbox", "registrations", "rules_out", "dagster.yaml", "workspace.yaml"}
    demo = REPO / "inbox" / "demo"
    copied = sorted(p.relative_to(project / "inbox" / "demo") for p in (project / "inbox" / "demo").rglob("*") if p.is_file())
    assert copied == sorted(p.relative_to(demo) for p in demo.rglob("*") if p.is_file())
    assert (project / "dagster.yaml").read_bytes() == (REPO / "dagster.yaml").read_bytes()  # the local profile
    assert "working_directory: ." in (project / "workspace.yaml").read_text(encoding="utf-8")

    again = _cli(["init", str(project)], tmp_path, _clean_env())
    assert again.returncode == 2 and "already exists" in again.stderr and again.stderr.count("\n") == 1

    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    lost = _cli(["run"], nowhere, _clean_env())
    assert lost.returncode == 2 and "housestyle init" in lost.stderr and lost.stderr.count("\n") == 1
    missing = _cli(["run", "--client", "nobody"], project / "inbox" / "demo" / "tm", _clean_env())  # found upward
    assert missing.returncode == 2 and str(project / "inbox" / "nobody") in missing.stderr
    flagged = _cli(["run", "--client", "nobody", "--project", str(project)], nowhere, _clean_env())
    assert flagged.returncode == 2 and str(project / "inbox" / "nobody") in flagged.stderr
    by_env = _cli(["run", "--client", "nobody"], nowhere, _clean_env(HOUSESTYLE_ROOT=str(project)))
    assert by_env.returncode == 2 and str(project / "inbox" / "nobody") in by_env.stderr
    not_one = _cli(["run", "--project", str(nowhere)], tmp_path, _clean_env())
    assert not_one.returncode == 2 and "not a housestyle project" in not_one.stderr


def test_postgres_profile_reads_its_connection_from_the_environment(tmp_path: Path) -> None:
    import yaml

    done = _cli(["init", str(tmp_path / "p"), "--profile", "postgres", "--executor", "celery"], tmp_path, _clean_env())
    assert done.returncode == 0, done.stderr
    config = yaml.safe_load((tmp_path / "p" / "dagster.yaml").read_text(encoding="utf-8"))
    database = config["storage"]["postgres"]["postgres_db"]
    assert all(isinstance(database[k], dict) and set(database[k]) == {"env"} for k in
               ("hostname", "port", "username", "password", "db_name"))
    assert database["scheme"] == "postgresql+psycopg2"
    coordinator = config["run_coordinator"]
    assert coordinator["class"] == "QueuedRunCoordinator"
    assert coordinator["config"]["max_concurrent_runs"] == {"env": "HOUSESTYLE_MAX_CONCURRENT_RUNS"}
    assert coordinator["config"]["tag_concurrency_limits"] == [
        {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True}, "limit": 1}]
    assert "housestyle.assets.definitions_celery" in (tmp_path / "p" / "workspace.yaml").read_text(encoding="utf-8")
    celery = yaml.safe_load((tmp_path / "p" / "celery.yaml").read_text(encoding="utf-8"))
    assert celery == {"broker": {"env": "HOUSESTYLE_CELERY_BROKER_URL"}, "backend": {"env": "HOUSESTYLE_CELERY_BACKEND_URL"}}


def test_non_editable_install_works_from_any_directory_and_writes_nothing_into_it(tmp_path: Path) -> None:
    """The built wheel, installed without -e into a folder of its own: init --demo and run from elsewhere."""
    wheels, site, source = tmp_path / "wheels", tmp_path / "site-packages", tmp_path / "source"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for part in ("pipelines", "assets", "inbox/demo"):  # a copy: building writes build/ and egg-info beside the code
        shutil.copytree(REPO / part, source / part, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(REPO / name, source / name)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(wheels), str(source)], capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next(wheels.glob("housestyle-*.whl"))
    with zipfile.ZipFile(wheel) as archive:  # one import package in site-packages, plus its dist-info
        top = sorted({name.split("/")[0] for name in archive.namelist()})
    assert top[0] == "housestyle" and len(top) == 2 and top[1].startswith("housestyle-") and top[1].endswith(".dist-info")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    before = {p: p.stat().st_mtime_ns for p in site.rglob("*")}
    env = _clean_env(PYTHONPATH=str(site))  # ahead of the editable checkout on sys.path
    where = subprocess.run([sys.executable, "-c", "import housestyle.assets, housestyle.pipelines; "
                            "print(housestyle.assets.__file__, housestyle.pipelines.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert all(Path(p).is_relative_to(site) for p in where.stdout.split())
    assert sorted(p.name for p in site.iterdir() if not p.name.endswith(".dist-info") and p.name != "bin") == ["housestyle"]
    assert (site / "housestyle" / "demo" / "tm" / "all.en-fr.tmx").is_file()  # the demo is package data

    project = tmp_path / "fresh"
    assert _cli(["init", str(project), "--demo"], tmp_path, env).returncode == 0
    assert (project / "inbox" / "demo" / "systems" / "fairseq.jsonl").is_file()
    shutil.copytree(CLIENT, project / "inbox" / "acme")
    done = _cli(["run", "--client", "acme", "--executor", "in_process"], project, env)
    assert done.returncode == 0, done.stderr[-3000:]
    latest = (project / "rules_out" / "acme" / "LATEST").read_text(encoding="utf-8").strip()
    assert f"convention set:  {project / 'rules_out' / 'acme' / latest}" in done.stdout
    assert (project / ".dagster" / "data" / "tm_units" / "acme" / "tm_units.parquet").is_file()
    after = {p: p.stat().st_mtime_ns for p in site.rglob("*") if "__pycache__" not in p.parts}
    assert after == {p: m for p, m in before.items() if "__pycache__" not in p.parts}  # nothing written into the install


@pytest.mark.parametrize("where", ["set", "file in set", "link to set"])
@pytest.mark.parametrize("command", ["score", "publish", "review-export", "ingest"])
def test_no_command_writes_over_a_sealed_set(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
                                             where: str) -> None:
    """Found 2026-12-07: `score --out SET` wrote its run's conventions.jsonl over the set's and `publish --out
    SET/conventions.jsonl` replaced it, leaving a set every command refuses. Deeper places (SET/runs/…) are fine."""
    from housestyle.pipelines.conventionset.store import open_set
    from tests.pipelines.publish.sample import sample_set

    folder = sample_set(tmp_path / "v1")
    (tmp_path / "link").symlink_to(folder, target_is_directory=True)
    out = {"set": folder, "file in set": folder / "conventions.jsonl", "link to set": tmp_path / "link" / "x.csv"}[where]
    args = {"score": ["--conventions", str(folder), "--source", "s.tsv", "--system", "mt=m.tsv"],
            "publish": ["--conventions", str(folder), "--format", "csv"],
            "review-export": ["--conventions", str(folder)], "ingest": ["in.tmx"]}[command]
    assert main([command, *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "the sealed convention set" in err and "write elsewhere" in err
    open_set(folder)  # still whole
