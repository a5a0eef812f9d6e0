"""The per-client job on dagster-celery's executor: Redis broker, two Celery workers started here on the
same code, project and PostgreSQL instance; `dagster job launch` queues the run (partition as the
``dagster/partition`` tag), the daemon starts it, and its steps execute in the worker processes.
"""

from __future__ import annotations

import json
import socket
import sys
import time
from pathlib import Path

import pytest

from tests.services.conftest import small_client, wait_for

pytestmark = [pytest.mark.services, pytest.mark.timeout(1500)]

WORKERS = ("w1", "w2")


def celery_workers_of(instance: object, run_id: str) -> dict[str, list[str]]:
    """worker hostname -> the steps it executed, from the engine events the workers wrote."""
    found: dict[str, list[str]] = {}
    for entry in instance.all_logs(run_id):  # type: ignore[attr-defined]
        event = entry.dagster_event
        if event is None or not event.is_engine_event or "in celery worker" not in (event.message or ""):
            continue
        metadata = event.engine_event_data.metadata
        worker = metadata["Celery worker"].value
        found.setdefault(worker, []).append(metadata["step_keys"].value)
    return found


def test_client_job_runs_its_steps_on_two_celery_workers(make_project) -> None:  # type: ignore[no-untyped-def]
    project = make_project("--executor", "celery")
    assert (project.root / "celery.yaml").is_file()
    assert "housestyle.assets.definitions_celery" in (project.root / "workspace.yaml").read_text(encoding="utf-8")
    small_client(project.root / "inbox", "alpha", 0)
    for name in WORKERS:
        project.start("worker", "--name", name, "--", "--pool=solo", "--concurrency=1", log=f"{name}.log")
    wait_for(lambda: all("ready" in (project.root / f"{n}.log").read_text(errors="replace") for n in WORKERS),
             180, "both Celery workers to be ready")

    dagster = str(Path(sys.executable).with_name("dagster"))
    launch = project.env | {"PATH": f"{Path(sys.executable).parent}:{project.env.get('PATH', '')}"}
    import subprocess

    done = subprocess.run([dagster, "job", "launch", "-w", str(project.root / "workspace.yaml"), "-j", "client_refresh",
                           "--tags", json.dumps({"dagster/partition": "alpha"})], env=launch, cwd=project.root,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    instance = project.instance()
    instance.add_dynamic_partitions("clients", ["alpha"])
    project.start("daemon", log="daemon.log")  # dequeues the launched run (the sensor sees it in flight)

    def finished() -> object:
        rows = list(instance.get_run_records())
        return rows if rows and all(r.dagster_run.status.value in ("SUCCESS", "FAILURE", "CANCELED") for r in rows) else None

    rows = wait_for(finished, 900, "the Celery run to finish", every=3)
    assert len(rows) == 1
    run = rows[0]
    assert run.dagster_run.status.value == "SUCCESS", (project.root / "w1.log").read_text(errors="replace")[-3000:]
    workers = celery_workers_of(instance, run.dagster_run.run_id)
    host = socket.gethostname()
    assert set(workers) == {f"{n}@{host}" for n in WORKERS}, workers  # both workers took steps, nobody else
    steps = sorted(step for keys in workers.values() for step in keys)
    assert "tm_ingest" in steps and "scoring_run" in steps
    print(f"\none client on two Celery workers: {run.end_time - run.start_time:.0f}s; steps per worker: "
          + "; ".join(f"{w}: {len(s)}" for w, s in sorted(workers.items())))

