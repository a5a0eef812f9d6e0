"""`housestyle worker` started by its absolute path, as a service manager starts it: no activated
virtualenv, a PATH without the environment's bin folder (issue 26 part 10). dagster-celery starts
``celery`` by name; the command puts its interpreter's bin folder first on PATH."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import main
from housestyle.pipelines.cli.dagster_processes import interpreter_first_on_path
from tests.conftest import REPO_ROOT

BARE_PATH = "/usr/bin:/bin"
HOUSESTYLE = Path(sys.executable).with_name("housestyle")


def _bare_env(broker: str) -> dict[str, str]:
    """What a service manager gives: no VIRTUAL_ENV, a system PATH, the project's settings."""
    return {"HOME": os.environ.get("HOME", "/tmp"), "PATH": BARE_PATH, "PYTHONPATH": str(REPO_ROOT),
            "HOUSESTYLE_CELERY_BROKER_URL": broker, "HOUSESTYLE_CELERY_BACKEND_URL": broker}


@pytest.fixture()
def celery_project(tmp_path: Path) -> Path:
    pytest.importorskip("dagster_celery", reason="dagster-celery not installed: pip install -e '.[services]'")
    if not HOUSESTYLE.is_file():
        pytest.skip(f"no console script {HOUSESTYLE}: install the project (pip install -e .)")
    if shutil.which("celery", path=BARE_PATH):
        pytest.skip(f"a system celery is on {BARE_PATH}: the test could not tell which one ran")
    assert main(["init", str(tmp_path / "p"), "--executor", "celery"]) == 0
    return tmp_path / "p"


def test_interpreter_bin_goes_first_on_path_once() -> None:
    bin_dir = str(Path(sys.executable).parent)
    environ = {"PATH": f"/usr/bin:{bin_dir}:/bin"}
    interpreter_first_on_path(environ)
    assert environ["PATH"] == f"{bin_dir}:/usr/bin:/bin"


def test_worker_by_absolute_path_without_the_venv_on_path(celery_project: Path) -> None:
    """`celery worker --help` needs no broker: it shows the worker's celery was found and started."""
    done = subprocess.run([str(HOUSESTYLE), "worker", "--", "--help"], env=_bare_env("redis://127.0.0.1:9/0"),
                          cwd=celery_project, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Usage: celery worker" in done.stdout and "FileNotFoundError" not in done.stderr


@pytest.mark.services
def test_worker_by_absolute_path_gets_ready_on_redis(celery_project: Path) -> None:
    from tests.services.conftest import read_services_env

    env = read_services_env()
    if env is None or "HOUSESTYLE_CELERY_BROKER_URL" not in env:
        pytest.skip("Redis not running: no services.env (start it with `.ci/services start`)")
    host_port = env["HOUSESTYLE_CELERY_BROKER_URL"].split("//", 1)[1].split("/", 1)[0]
    host, port = host_port.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=2).close()
    except OSError:
        pytest.skip(f"Redis does not answer on {host_port}")
    log = celery_project / "worker.log"
    with log.open("wb") as handle:
        process = subprocess.Popen([str(HOUSESTYLE), "worker", "--", "--pool=solo"],
                                   env=_bare_env(env["HOUSESTYLE_CELERY_BROKER_URL"]), cwd=celery_project,
                                   stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and "ready" not in log.read_text(errors="replace"):
            assert process.poll() is None, log.read_text(errors="replace")[-2000:]
            time.sleep(1)
        assert "ready" in log.read_text(errors="replace")
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=60)
