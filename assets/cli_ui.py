"""`housestyle ui` (`dagster dev`: webserver + daemon on 127.0.0.1), `housestyle daemon` (the daemon alone) and
`housestyle worker` (a Celery worker for the celery code location).

Both run on the project's instance (its dagster.yaml, copied into $DAGSTER_HOME) and its workspace
file (workspace.yaml, written by `housestyle init`; without one, the default code location
``housestyle.assets.definitions``), in the project folder with $HOUSESTYLE_ROOT set, so every process they start
(code servers, run workers) reads and writes the same project.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from housestyle.assets.instance import ensure_dagster_home
from housestyle.assets.reports import ENV_REPORTS_URL, reports_base, start_reports_server
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.project import ENV_ROOT, WORKSPACE_FILE, resolve_project

DEFAULT_MODULE = "housestyle.assets.definitions"
CELERY_MODULE = "housestyle.assets.definitions_celery"
CELERY_FILE = "celery.yaml"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("ui", help="start the Dagster UI and daemon on 127.0.0.1",
                                   description="Run `dagster dev` on 127.0.0.1 with the project's instance and workspace.")
    parser.add_argument("--port", type=int, default=3000, help="the UI's port on 127.0.0.1 (default 3000)")
    parser.add_argument("--reports-port", type=int, default=None,
                        help="port of the reports server (serves rules_out/ read-only; default: --port + 1)")
    parser.set_defaults(func=run)
    daemon = subparsers.add_parser("daemon", help="run the Dagster daemon alone (sensors, schedules, run queue)",
                                   description="Run `dagster-daemon run` with the project's instance and workspace "
                                               "(a deployment's daemon; `housestyle ui` starts one of its own).")
    daemon.set_defaults(func=run_daemon)
    worker = subparsers.add_parser("worker", help="run a Celery worker for the celery executor (services extra)",
                                   description="Run `dagster-celery worker start` on the project's instance, with "
                                               "its celery.yaml (broker and backend from the environment).")
    worker.add_argument("--name", default=None, help="worker name (default: dagster-<random>@<host>)")
    worker.add_argument("celery_args", nargs=argparse.REMAINDER, metavar="-- CELERY_ARGS",
                        help="passed on to `celery worker` (e.g. -- --pool=solo)")
    worker.set_defaults(func=run_worker)


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
    import yaml

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


def _exec_in_project(command: list[str], project: Path) -> int:
    os.environ[ENV_ROOT] = str(project)
    interpreter_first_on_path(os.environ)
    os.chdir(project)
    os.execv(command[0], command)  # replaces this process: Ctrl-C / SIGTERM reach dagster directly
    return 0  # pragma: no cover


def run(args: argparse.Namespace) -> int:
    from housestyle.assets.resources import HousestyleSettings

    project = resolve_project()
    home = ensure_dagster_home(project)
    reports_port = args.reports_port if args.reports_port is not None else args.port + 1
    os.environ[ENV_REPORTS_URL] = reports_base(reports_port)  # the scoring_run asset links its report there
    start_reports_server(HousestyleSettings().rules_out, reports_port)
    print(f"project {project}; DAGSTER_HOME={home}\n"
          f"UI:      http://127.0.0.1:{args.port}  (open it in a browser)\n"
          f"reports: {reports_base(reports_port)}  (each scoring_run links its report here)\n"
          "stop:    Ctrl-C in this terminal stops the UI, the daemon and the reports server", file=sys.stderr, flush=True)
    return _exec_in_project(dev_command(args.port, project), project)


def run_worker(args: argparse.Namespace) -> int:
    project = resolve_project()
    if not (project / CELERY_FILE).is_file():
        raise ConfigError(f"{project / CELERY_FILE} not found: create the project with `housestyle init DIR --executor celery`")
    home = ensure_dagster_home(project)
    print(f"project {project}; DAGSTER_HOME={home}; celery worker", file=sys.stderr, flush=True)
    return _exec_in_project(worker_command(resolved_celery_config(project, home), args.name, args.celery_args), project)


def run_daemon(args: argparse.Namespace) -> int:
    project = resolve_project()
    home = ensure_dagster_home(project)
    print(f"project {project}; DAGSTER_HOME={home}; dagster-daemon", file=sys.stderr, flush=True)
    return _exec_in_project(daemon_command(project), project)
