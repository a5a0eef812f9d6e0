"""The Dagster instance the CLI uses: $DAGSTER_HOME if set, else <project>/.dagster with the project's dagster.yaml
(set up as files and an environment variable, for `housestyle run` and the `dagster` processes `ui`, `daemon` and
`worker` start: no Dagster import)."""

from __future__ import annotations

import os
from pathlib import Path

from housestyle.pipelines import atomic
from housestyle.pipelines.project import INSTANCE_FILE, resolve_project


def ensure_dagster_home(project: Path | None = None) -> Path:
    """Point DAGSTER_HOME at <project>/.dagster (unless already set) and keep its dagster.yaml in step with
    the project's, so `housestyle run`, `ui` and `daemon` all use the instance the project describes."""
    existing = os.environ.get("DAGSTER_HOME")
    if existing:
        Path(existing).mkdir(parents=True, exist_ok=True)
        return Path(existing)
    root = project if project is not None else resolve_project()
    home = root / ".dagster"
    home.mkdir(parents=True, exist_ok=True)
    source = root / INSTANCE_FILE
    target = home / INSTANCE_FILE
    if source.is_file() and (not target.is_file() or target.read_bytes() != source.read_bytes()):
        atomic.copy_file(source, target)
    os.environ["DAGSTER_HOME"] = str(home)
    return home
