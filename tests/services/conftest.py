"""The real services (PostgreSQL, Redis) that `.ci/services start` runs on 127.0.0.1, and small clients.

Tests here are marked ``services`` and skip with a reason when the services file is absent or a
service does not answer. Each test gets a database of its own (dropped afterwards) and a project
made by `housestyle init`, with small clients cut from the bundled demo TM (a few hundred units),
so a run takes about a minute rather than the demo's several.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from tests.conftest import REPO_ROOT

SERVICES_ENV = Path(os.environ.get("HOUSESTYLE_SERVICES_DIR", "/tmp/housestyle-services")) / "services.env"
DEMO = REPO_ROOT / "inbox" / "demo"
SAFE_XML = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def read_services_env() -> dict[str, str] | None:
    if not SERVICES_ENV.is_file():
        return None
    pairs = (line.split("=", 1) for line in SERVICES_ENV.read_text(encoding="utf-8").splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def services() -> dict[str, str]:
    """Connection settings of the running services; skips (with the reason) when they are not there."""
    env = read_services_env()
    if env is None:
        pytest.skip(f"services not running: no {SERVICES_ENV} (start them with `.ci/services start`)")
    for module in ("dagster_postgres", "dagster_celery", "psycopg2"):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"{module} not installed: pip install -e '.[services]'")
    if not _answers(env["DAGSTER_PG_HOST"], int(env["DAGSTER_PG_PORT"])):
        pytest.skip(f"PostgreSQL does not answer on {env['DAGSTER_PG_HOST']}:{env['DAGSTER_PG_PORT']}")
    return env


def _admin(services: dict[str, str]) -> Any:
    import psycopg2

    connection = psycopg2.connect(host=services["DAGSTER_PG_HOST"], port=int(services["DAGSTER_PG_PORT"]),
                                  user=services["DAGSTER_PG_USER"], password=services["DAGSTER_PG_PASSWORD"],
                                  dbname=services["DAGSTER_PG_DB"])
    connection.autocommit = True
    return connection


@pytest.fixture()
def database(services: dict[str, str]) -> Iterator[dict[str, str]]:
    """A fresh PostgreSQL database for one test: the services' settings with DAGSTER_PG_DB pointing at it."""
    name = f"hs_{uuid.uuid4().hex[:10]}"
    admin = _admin(services)
    with admin.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
    yield {**services, "DAGSTER_PG_DB": name}
    with admin.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()


def query(env: dict[str, str], sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows straight from PostgreSQL (what Dagster stored, read without Dagster)."""
    import psycopg2

    with psycopg2.connect(host=env["DAGSTER_PG_HOST"], port=int(env["DAGSTER_PG_PORT"]), user=env["DAGSTER_PG_USER"],
                          password=env["DAGSTER_PG_PASSWORD"], dbname=env["DAGSTER_PG_DB"]) as connection:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())


def cut_tmx(source: Path, target: Path, start: int, count: int) -> list[str]:
    """Units [start, start+count) of a TMX file as a new TMX; returns their tuids."""
    tree = etree.parse(str(source), SAFE_XML)
    body = tree.getroot().find("body")
    assert body is not None
    units = list(body)
    for index, unit in enumerate(units):
        if not start <= index < start + count:
            body.remove(unit)
    target.parent.mkdir(parents=True, exist_ok=True)
    tree.write(str(target), xml_declaration=True, encoding="UTF-8")
    return [u.get("tuid", "") for u in units[start:start + count]]


def small_client(inbox: Path, name: str, start: int, count: int = 300) -> Path:
    """inbox/<name>/: a slice of the demo TM, the demo system outputs for it, the demo's authored conventions."""
    import json

    client = inbox / name
    ids = set(cut_tmx(DEMO / "tm" / "all.en-fr.tmx", client / "tm" / "memory.tmx", start, count))
    (client / "systems").mkdir(parents=True)
    lines = [line for line in (DEMO / "systems" / "fairseq.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip() and json.loads(line)["id"] in ids]
    (client / "systems" / "fairseq.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (client / "conventions").mkdir()
    (client / "conventions" / "authored.jsonl").write_bytes((DEMO / "conventions" / "authored.jsonl").read_bytes())
    return client


@dataclass
class Project:
    """A project made by `housestyle init`, and the environment every process of the test shares."""

    root: Path
    env: dict[str, str]
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def cli(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "housestyle.pipelines.cli.main", *args], env=self.env,
                              cwd=self.root if self.root.is_dir() else self.root.parent,
                              capture_output=True, text=True, timeout=timeout, check=False)

    def start(self, *args: str, log: str) -> subprocess.Popen[bytes]:
        """A long-running `housestyle …` in its own session (so it and its children stop together)."""
        with (self.root / log).open("wb") as handle:  # the child keeps its own descriptor
            process = subprocess.Popen([sys.executable, "-m", "housestyle.pipelines.cli.main", *args], env=self.env, cwd=self.root,
                                       stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append(process)
        return process

    def stop(self, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
        """SIGTERM the process group this test started, then SIGKILL what is left of it."""
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        try:
            os.killpg(process.pid, signal.SIGKILL)  # children that outlived their parent (run workers)
        except ProcessLookupError:
            pass

    def instance(self) -> Any:
        from dagster import DagsterInstance

        return DagsterInstance.from_config(str(self.root / ".dagster"))


@pytest.fixture()
def make_project(tmp_path: Path, database: dict[str, str],
                 monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    made: list[Project] = []

    def make(*init_args: str) -> Project:
        root = tmp_path / "project"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HOUSESTYLE_", "DAGSTER_"))}
        env.update(database)
        env.update({"HOUSESTYLE_MAX_CONCURRENT_RUNS": "2", "DAGSTER_HOME": str(root / ".dagster"),
                    "HOUSESTYLE_ROOT": str(root)})
        project = Project(root, env)
        done = project.cli("init", str(root), "--profile", "postgres", *init_args)
        assert done.returncode == 0, done.stderr
        (root / ".dagster").mkdir()
        (root / ".dagster" / "dagster.yaml").write_bytes((root / "dagster.yaml").read_bytes())
        for key, value in env.items():  # this process reads the same instance
            if key.startswith(("DAGSTER_", "HOUSESTYLE_")):
                monkeypatch.setenv(key, value)
        made.append(project)
        return project

    yield make
    for project in made:
        for process in project.processes:
            project.stop(process)


def wait_for(predicate: Any, timeout: float, what: str, every: float = 2.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


def max_overlap(intervals: list[tuple[float, float]]) -> int:
    """Most intervals open at one instant (a sweep over starts and ends; an end before a start at a tie)."""
    points = sorted([(s, 1) for s, _ in intervals] + [(e, -1) for _, e in intervals], key=lambda p: (p[0], p[1]))
    current = best = 0
    for _, step in points:
        current += step
        best = max(best, current)
    return best
