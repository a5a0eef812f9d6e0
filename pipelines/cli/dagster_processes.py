"""How the command line starts Dagster's own processes (`dagster dev`, the daemon, a Celery worker) without
importing Dagster: as subprocesses on the project's instance ($DAGSTER_HOME, dagster_home.py) and its
workspace file (workspace.yaml, written by `housestyle init`; without one, the default code location),
in the project folder with $HOUSESTYLE_ROOT set, so every process they start (code servers, run
workers) reads and writes the same project.

The code locations are named here as text (the module a `dagster` process loads), never imported.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import yaml

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.project import ENV_ROOT, WORKSPACE_FILE

DEFAULT_MODULE = "housestyle.assets.definitions"
CELERY_MODULE = "housestyle.assets.definitions_celery"
# executor -> the code location module that carries it (the Celery executor cannot be chosen by run config)
EXECUTOR_MODULES = {"multiprocess": DEFAULT_MODULE, "celery": CELERY_MODULE}
CELERY_FILE = "celery.yaml"


def location_args(project: Path) -> list[str]:
    """-w <project>/workspace.yaml when the project has one, else -m housestyle.assets.definitions."""
    workspace = project / WORKSPACE_FILE
    return ["-w", str(workspace)] if workspace.is_file() else ["-m", DEFAULT_MODULE]


def dev_command(port: int, project: Path) -> list[str]:
    return [sys.executable, "-m", "dagster", "dev", *location_args(project), "-h", "127.0.0.1", "-p", str(port)]


def daemon_command(project: Path) -> list[str]:
    return [sys.executable, "-m", "dagster._daemon", "run", *location_args(project)]


def resolved_celery_config(project: Path, home: Path) -> Path:
    """celery.yaml with its ``{env: NAME}`` values read now, in a private file under $DAGSTER_HOME:
    `dagster-celery worker start` writes the values it gets into the workers' Celery config module
    without resolving environment references (a broker given as {env: …} would fall back to amqp://localhost)."""

    def resolve(value: Any) -> Any:
        if isinstance(value, dict) and set(value) == {"env"}:
            if value["env"] not in os.environ:
                raise ConfigError(f"{project / CELERY_FILE}: environment variable {value['env']} is not set")
            return os.environ[value["env"]]
        return {k: resolve(v) for k, v in value.items()} if isinstance(value, dict) else value

    config = resolve(yaml.safe_load((project / CELERY_FILE).read_text(encoding="utf-8")) or {})
    target = home / "celery" / f"worker-{os.getpid()}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # may hold a broker password
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        yaml.safe_dump({"execution": {"config": config}}, handle)  # where dagster-celery looks for it
    return target


def worker_command(config: Path, name: str | None, celery_args: list[str]) -> list[str]:
    command = [str(Path(sys.executable).with_name("dagster-celery")), "worker", "start", "-A", "dagster_celery.app",
               "-y", str(config), "-i", CELERY_MODULE]
    command += ["--name", name] if name else []
    extra = celery_args[1:] if celery_args[:1] == ["--"] else celery_args
    return command + (["--", *extra] if extra else [])


def interpreter_first_on_path(environ: dict[str, str] | os._Environ[str]) -> None:
    """Put this interpreter's bin folder first on PATH: tools started by name (dagster-celery runs
    ``celery``) must be this environment's, also when `housestyle` is started by its absolute path
    without an activated virtualenv (a service manager does that)."""
    bin_dir = str(Path(sys.executable).parent)
    rest = [p for p in environ.get("PATH", "").split(os.pathsep) if p and p != bin_dir]
    environ["PATH"] = os.pathsep.join([bin_dir, *rest])


def exec_in_project(command: list[str], project: Path) -> int:
    """Replace this process by ``command``, run in the project folder (Ctrl-C / SIGTERM reach it directly)."""
    os.environ[ENV_ROOT] = str(project)
    interpreter_first_on_path(os.environ)
    os.chdir(project)
    os.execv(command[0], command)
    return 0  # pragma: no cover
