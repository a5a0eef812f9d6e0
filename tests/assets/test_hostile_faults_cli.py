"""Fault suite of issue 26 at the command line and the sensor: client names that are paths, a
tampered manifest, a killed run, two runs of one client, an empty client (seconds each)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dagster import DagsterInstance, DagsterRun, DagsterRunStatus, SensorResult, build_sensor_context

from housestyle.pipelines.cli.main import main
from housestyle.assets.jobs import CLIENT_JOB_NAME
from housestyle.assets.resources import HousestyleSettings
from housestyle.assets.run_owner import OWNER_HOST_TAG, OWNER_PID_TAG, owner_tags
from housestyle.assets.sensors import inbox_sensor
from housestyle.pipelines import atomic
from tests.assets.conftest import load_repository
from tests.conftest import REPO_ROOT, fill_disk

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "mining" / "tiny_enfr.xliff"


@pytest.fixture()
def project(install_root: Path, settings: HousestyleSettings, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test installation as the project every command (and the job's own settings) uses."""
    (install_root / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    for name, value in (("HOUSESTYLE_ROOT", settings.repo_root), ("HOUSESTYLE_INBOX", settings.inbox_root),
                        ("HOUSESTYLE_RULES_OUT", settings.rules_out_root),
                        ("HOUSESTYLE_REGISTRATIONS", settings.registrations_root),
                        ("HOUSESTYLE_STORAGE", settings.storage_root)):
        monkeypatch.setenv(name, str(value))
    return install_root


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


@pytest.mark.parametrize("client", ["/etc", "..", "../../tmp/x", "demo/tm", "acme/../acme"])
def test_run_refuses_a_client_that_is_a_path(project: Path, dagster_home: Path, client: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    before = _files(project.parent)
    assert main(["run", "--client", client, "--executor", "in_process"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a client name" in err and "[A-Za-z0-9]" in err
    assert _files(project.parent) == before  # nothing written anywhere


def test_mine_refuses_a_client_outside_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deep" / "rules_out"
    assert main(["mine", str(FIXTURE), "--src", "en", "--tgt", "fr", "--client", "../../x", "--out", str(out)]) == 2
    assert "is not a client name" in capsys.readouterr().err
    assert not (tmp_path / "x").exists() and not out.exists()


def test_review_import_refuses_a_manifest_client_that_is_a_path(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    inbox = tmp_path / "inbox"
    (inbox / "fx" / "tm").mkdir(parents=True)
    shutil.copyfile(FIXTURE, inbox / "fx" / "tm" / FIXTURE.name)
    assert main(["mine", str(inbox / "fx" / "tm"), "--src", "en", "--tgt", "fr", "--client", "fx",
                 "--out", str(tmp_path / "rules_out")]) == 0
    version = (tmp_path / "rules_out" / "fx" / "LATEST").read_text(encoding="utf-8").strip()
    mined = tmp_path / "rules_out" / "fx" / version
    packet = tmp_path / "packet.xlsx"
    assert main(["review-export", "--conventions", str(mined), "--out", str(packet), "--inbox", str(inbox)]) == 0
    manifest = json.loads((mined / "manifest.json").read_text(encoding="utf-8"))
    for seal in (True, False):  # as sealed, and with the seal removed too
        edited = {**manifest, "client": "../../escaped_review"}
        if not seal:
            edited.pop("seal", None)
        (mined / "manifest.json").write_text(json.dumps(edited), encoding="utf-8")
        capsys.readouterr()
        assert main(["review-import", str(packet), "--conventions", str(mined), "--inbox", str(inbox)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and ("sealed" in err or "not a client name" in err)
    assert not list(tmp_path.rglob("decisions.parquet"))


def _tick(instance: DagsterInstance, settings: HousestyleSettings, cursor: str | None = None) -> SensorResult:
    result = inbox_sensor(build_sensor_context(instance=instance, cursor=cursor, resources={"settings": settings},
                                               repository_def=load_repository()))
    assert isinstance(result, SensorResult)
    return result


def test_the_sensor_skips_folders_that_are_not_clients(project: Path, dagster_home: Path,
                                                       settings: HousestyleSettings) -> None:
    for name in ("bad name", "-dash"):
        shutil.copytree(project / "inbox" / "acme", project / "inbox" / name)
    (project / "inbox" / "linked").symlink_to(project / "inbox" / "acme")
    with DagsterInstance.get() as instance:
        result = _tick(instance, settings)
    assert sorted(r.partition_key or "" for r in result.run_requests or []) == ["acme"]
    assert set(json.loads(result.cursor or "{}")) == {"acme"}


def test_a_killed_run_is_released_at_the_next_tick(project: Path, dagster_home: Path,
                                                   settings: HousestyleSettings) -> None:
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with DagsterInstance.get() as instance:
        first = _tick(instance, settings)
        assert [r.partition_key for r in first.run_requests or []] == ["acme"]
        tags = {"dagster/partition": "acme", **owner_tags(), OWNER_PID_TAG: str(owner.pid)}
        instance.add_run(DagsterRun(job_name=CLIENT_JOB_NAME, run_id="killed-acme", status=DagsterRunStatus.STARTED,
                                    tags=tags))
        alive = _tick(instance, settings)  # its process lives: the client waits
        assert not alive.run_requests and "in flight" in str(alive.skip_reason)
        owner.send_signal(signal.SIGKILL)
        owner.wait()
        started = time.monotonic()
        after = _tick(instance, settings)
        assert [r.partition_key for r in after.run_requests or []] == ["acme"]
        assert time.monotonic() - started < 30
        run = instance.get_run_by_id("killed-acme")
        assert run is not None and run.status == DagsterRunStatus.FAILURE
        # a run owned by a process of another machine is never judged from here
        instance.add_run(DagsterRun(job_name=CLIENT_JOB_NAME, run_id="remote-acme", status=DagsterRunStatus.STARTED,
                                    tags={"dagster/partition": "acme", OWNER_PID_TAG: str(owner.pid),
                                          OWNER_HOST_TAG: "another-host"}))
        assert not _tick(instance, settings).run_requests


def test_two_runs_of_one_client_refuse_with_a_reason(project: Path, dagster_home: Path,
                                                     settings: HousestyleSettings,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    lock_target = settings.storage / ".locks" / "acme.run"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                               "from housestyle.pipelines.atomic import file_lock\n"
                               f"with file_lock(Path({str(lock_target)!r})):\n"
                               "    print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert main(["run", "--client", "acme", "--executor", "in_process"]) == 2
        err = capsys.readouterr().err
        assert "another `housestyle run` of client 'acme' is in progress" in err and err.count("\n") == 1
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    with DagsterInstance.get() as instance:  # a run in progress (the daemon's: no owner tags) refuses too
        instance.add_run(DagsterRun(job_name=CLIENT_JOB_NAME, run_id="daemon-acme", status=DagsterRunStatus.STARTED,
                                    tags={"dagster/partition": "acme"}))
    assert main(["run", "--client", "acme", "--executor", "in_process"]) == 2
    assert "already queued or in progress" in capsys.readouterr().err
    assert not atomic.stale_temporaries(settings.storage)


def test_an_empty_client_fails_at_once(project: Path, dagster_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "inbox" / "e" / "tm").mkdir(parents=True)
    started = time.monotonic()
    assert main(["run", "--client", "e", "--executor", "in_process"]) == 2
    assert time.monotonic() - started < 20
    err = capsys.readouterr().err
    assert "no translation memories for client 'e'" in err and err.count("\n") == 1


def test_score_into_a_full_disk_leaves_no_run_folder(small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fix = REPO_ROOT / "tests" / "fixtures" / "scoring"
    out = small_disk / "run"
    fill_disk(small_disk, leave=12 * 1024)  # room for the probe and a table or two, not for a whole run
    code = main(["score", "--conventions", str(fix / "set.jsonl"), "--source", str(fix / "sources.tsv"),
                 "--system", f"good={fix / 'good.jsonl'}", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(out) in err and ".tmp" not in err, err
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler"]  # no run folder, no temporary
